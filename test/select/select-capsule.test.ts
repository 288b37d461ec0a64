import { selectCapsule, unavailableSelection } from '../../lib/select/select-capsule';
import type { Candidate } from '../../lib/select/types';
import { capsuleDoc, pathOf, ulid } from '../support/capsule-doc';

const now = new Date('2026-11-29T22:00:00Z');

function active(n: number, fields: Record<string, unknown> = {}): Candidate {
  const id = ulid(n);
  return { id, path: pathOf(id), status: 'active', text: capsuleDoc({ id, ...fields }) };
}

function row(n: number, status: string | null): Candidate {
  const id = ulid(n);
  return { id, path: pathOf(id), status };
}

describe('selectCapsule', () => {
  it('selects the newest valid active capsule by parsed created_at, not by string order', () => {
    // 21:30+01:00 is 20:30Z: older than 21:00Z although its string sorts later.
    const sel = selectCapsule([active(1, { created_at: '2026-11-29T21:30:00+01:00' }), active(2, { created_at: '2026-11-29T21:00:00Z' })], { now });
    expect(sel.capsule?.id).toBe(ulid(2));
    expect(sel.unavailable).toBeNull();
    expect(sel.capsule?.ageMs).toBe(60 * 60 * 1000);
  });

  describe('an authored capsule and the autosaves of its session', () => {
    const autosave = (n: number, session: string, created: string) => active(n, { trigger: 'autosave', tags: ['autosave'], session_id: session, created_at: created });
    const authored = (n: number, session: string, created: string) => active(n, { trigger: 'manual', session_id: session, created_at: created });

    it.each([
      ['a newer autosave', autosave(1, 's1', '2026-11-29T21:50:00Z')],
      ['a newer pre-compact checkpoint', active(1, { trigger: 'pre-compact', tags: ['pre-compact'], session_id: 's1', created_at: '2026-11-29T21:50:00Z' })],
    ])('selects the authored capsule over %s of the same session', (_name, hookWritten) => {
      const sel = selectCapsule([hookWritten, authored(2, 's1', '2026-11-29T21:00:00Z')], { now });
      expect(sel.capsule?.id).toBe(ulid(2));
      expect(sel.rejected).toEqual([expect.objectContaining({ id: ulid(1), reason: 'superseded' })]);
    });

    it("does not let another session's authored capsule win over the newest autosave", () => {
      const sel = selectCapsule([autosave(1, 's1', '2026-11-29T21:50:00Z'), authored(2, 's2', '2026-11-29T21:00:00Z')], { now });
      expect(sel.capsule?.id).toBe(ulid(1));
    });
  });

  it('records every candidate it does not select, so the ledger accounts for all of them', () => {
    const candidates = [active(1), active(2, { next_valid_action: undefined }), row(3, 'resumed'), row(4, 'paused'), active(5, { created_at: '2026-11-01T00:00:00Z' })];
    const sel = selectCapsule(candidates, { now });
    expect(sel.capsule?.id).toBe(ulid(1));
    expect(sel.rejected.map((r) => r.id).sort()).toEqual([ulid(2), ulid(3), ulid(4), ulid(5)].sort());
  });

  it('names a missing required field in the rejection', () => {
    const sel = selectCapsule([active(1, { next_valid_action: undefined })], { now });
    expect(sel.capsule).toBeNull();
    expect(sel.unavailable).toEqual({ reason: 'all-candidates-rejected' });
    expect(sel.rejected[0]).toMatchObject({ reason: 'missing-required-field', detail: 'next_valid_action' });
  });

  it.each([
    ['a bare null waiting_on', { waiting_on: null }, 'missing-required-field', 'waiting_on: bare null'],
    ['a content-gate objective', { objective: '[supervisor-resume] continue' }, 'content-gate', 'objective: supervisor-resume'],
    ['a ceremony next action', { next_valid_action: 're-read the active turn state' }, 'content-gate', 'next_valid_action: re-read-turn-state'],
    ['a date-only created_at', { created_at: '2026-11-29' }, 'bad-created-at', 'date only'],
    ['a created_at without offset', { created_at: '2026-11-29T10:00:00' }, 'bad-created-at', 'no offset'],
    ['a schema violation', { tags: 'not-a-list' }, 'schema', 'tags'],
  ])('rejects %s with its reason and detail', (_name, fields, reason, detail) => {
    const sel = selectCapsule([active(1, fields)], { now });
    expect(sel.capsule).toBeNull();
    expect(sel.rejected[0]).toMatchObject({ reason, detail });
  });

  it('rejects unparseable text and an unreadable blob by name', () => {
    const sel = selectCapsule([{ ...row(1, 'active'), text: 'no frontmatter here' }, { ...row(2, 'active'), text: null }], { now });
    expect(sel.rejected.map((r) => [r.reason, r.detail])).toEqual([['unparseable', 'no-frontmatter'], ['unreadable', 'capsule blob missing']]);
  });

  it('keeps the bad created_at value as data for the ledger', () => {
    const sel = selectCapsule([active(1, { created_at: 'yesterday' })], { now });
    expect(sel.rejected[0]).toMatchObject({ reason: 'bad-created-at', value: 'yesterday' });
  });

  it('labels resumed and resolved capsules already-consumed, apart from junk', () => {
    const sel = selectCapsule([row(1, 'resumed'), row(2, 'resolved')], { now });
    expect(sel.rejected.map((r) => [r.reason, r.detail])).toEqual([['already-consumed', 'resumed'], ['already-consumed', 'resolved']]);
  });

  it.each([
    ['paused', 'paused', undefined],
    ['abandoned', 'abandoned', undefined],
    ['draft', 'unrecognized', 'draft'],
    ['Active', 'unrecognized', 'Active'],
    [null, 'absent', undefined],
  ])('rejects a capsule whose status is %p as not-active under its own name', (status, detail, value) => {
    const c = { ...active(1), status };
    const sel = selectCapsule([c], { now });
    expect(sel.capsule).toBeNull();
    expect(sel.rejected[0]).toMatchObject({ reason: 'not-active', detail });
    expect(sel.rejected[0]!.value).toBe(value);
  });

  it('rejects a capsule the index calls active whose own document says draft', () => {
    const sel = selectCapsule([active(1, { status: 'draft' })], { now });
    expect(sel.rejected[0]).toMatchObject({ reason: 'not-active', detail: 'unrecognized', value: 'draft' });
  });

  it('rejects a capsule whose frontmatter id differs from its path', () => {
    const c = { ...active(1), id: ulid(9), path: pathOf(ulid(9)) };
    expect(selectCapsule([c], { now }).rejected[0]).toMatchObject({ reason: 'schema', detail: 'id differs from its path' });
  });

  it('still selects a capsule weeks old when nothing newer is valid (staleness is not a rejection)', () => {
    const sel = selectCapsule([active(1, { created_at: '2026-10-01T00:00:00Z' }), active(2, { objective: '' })], { now });
    expect(sel.capsule?.id).toBe(ulid(1));
  });

  it('lists valid older and unread active capsules as superseded, ordinary history', () => {
    const unread = { ...row(3, 'active'), createdAt: '2026-11-01T00:00:00Z' };
    const sel = selectCapsule([active(1), active(2, { created_at: '2026-11-28T00:00:00Z' }), unread], { now });
    expect(sel.rejected.map((r) => [r.id, r.reason])).toEqual([[ulid(2), 'superseded'], [ulid(3), 'superseded']]);
  });

  it('records active capsules counted unread as one superseded entry when there is a winner', () => {
    const sel = selectCapsule([active(1)], { now, counted: [{ status: 'active', count: 9999, unread: true }] });
    expect(sel.capsule?.id).toBe(ulid(1));
    expect(sel.rejected).toEqual([{ id: '', path: '', status: 'active', reason: 'superseded', detail: 'not read: older than the selected capsule', count: 9999 }]);
  });

  it('names active capsules counted unread as unreadable when nothing was selected, never drops them', () => {
    const sel = selectCapsule([active(1, { objective: '' })], { now, counted: [{ status: 'active', count: 5, unread: true }] });
    expect(sel.capsule).toBeNull();
    expect(sel.rejected).toContainEqual({ id: '', path: '', status: 'active', reason: 'unreadable', detail: 'not read', count: 5 });
  });

  it('records consumed capsules counted from the index as already-consumed entries with their count', () => {
    const sel = selectCapsule([], { now, counted: [{ status: 'resumed', count: 9940 }, { status: 'resolved', count: 0 }] });
    expect(sel.unavailable).toEqual({ reason: 'all-candidates-rejected' });
    expect(sel.rejected).toEqual([{ id: '', path: '', status: 'resumed', reason: 'already-consumed', detail: 'resumed', count: 9940 }]);
  });

  it('says no-capsules when there are no candidates at all', () => {
    expect(selectCapsule([], { now })).toEqual({ capsule: null, rejected: [], unavailable: { reason: 'no-capsules' } });
  });
});

describe('unavailableSelection', () => {
  it('carries the reason and detail with an empty ledger', () => {
    expect(unavailableSelection('bad-memory-root', 'MEMORY-ROOT: x')).toEqual({ capsule: null, rejected: [], unavailable: { reason: 'bad-memory-root', detail: 'MEMORY-ROOT: x' } });
  });
});
