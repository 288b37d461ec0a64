import { readFileSync } from 'node:fs';
import { isCapsuleError } from '../../lib/errors/capsule-error';
import { parseTranscriptChunk } from '../../lib/transcript/jsonl';
import { projectHistory, type ProjectHistoryOptions } from '../../lib/history/history-project';
import { eventBody } from '../../lib/history/history-text';
import { incompleteHistoryNotice } from '../../lib/history/history-notice';
import { SAMPLE_PATH, SAMPLE_SESSION, TranscriptBuilder } from '../hosts/claude/transcript-builder';

const project = (text: string, options?: ProjectHistoryOptions) => projectHistory(parseTranscriptChunk(text, { includeUnterminated: true }), options);
const bodies = (text: string, options?: ProjectHistoryOptions) => project(text, options).events.map((e) => eventBody(e));

function refusal(text: string, options?: ProjectHistoryOptions): { code: string; data: Record<string, unknown> } {
  try {
    project(text, options);
  } catch (err) {
    if (isCapsuleError(err)) return { code: err.code, data: err.data };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('projectHistory', () => {
  describe('on the real sample transcript', () => {
    const p = project(readFileSync(SAMPLE_PATH, 'utf8'));

    it('selects the last non-attachment leaf (the API error) and reaches the root across the compaction', () => {
      expect(p.leaf).toBe('ad769e2c-e2a6-4129-a7be-6e3bb9f1fa06');
      expect(p.missing).toEqual([]);
      expect(p.events[0]!.uuid).toBe('651837aa-d20d-442f-89eb-4ad6462daf64');
      expect(p.events.at(-1)!.text).toBe('API Error: 400 fake 400 for StopFailure');
    });

    it('numbers two windows, the compact boundary opening the second', () => {
      expect(p.windows).toEqual([`claude:${SAMPLE_SESSION}:0`, `claude:${SAMPLE_SESSION}:1`]);
      const boundary = p.events.find((e) => e.tags.includes('compact_boundary'))!;
      expect(boundary.window).toBe(`claude:${SAMPLE_SESSION}:1`);
      expect(p.events.find((e) => e.text === 'hello')!.window).toBe(`claude:${SAMPLE_SESSION}:0`);
      expect(p.events.find((e) => e.text === 'after compact')!.window).toBe(`claude:${SAMPLE_SESSION}:1`);
    });

    it('pairs the failing Bash call with its error result, whose address redirects to the call', () => {
      const bash = p.events.find((e) => e.tool?.name === 'Bash' && e.tool.status === 'error')!;
      expect(bash.tool!.result).toBe('Exit code 3\nfailing');
      expect(p.redirects.get(bash.tool!.resultSeq!)).toBe(bash.seq);
    });

    it('never exposes thinking, raw attachment payloads or metadata records', () => {
      const all = p.events.map((e) => eventBody(e)).join('\n');
      expect(all).not.toContain('"systemPrompt"');
      expect(all).not.toContain('claude-opus-5-5","marketingName');
      expect(all).not.toContain('queue-operation');
      expect(all).toContain('SESSIONSTART-STARTUP-CONTEXT marker');
    });
  });

  it('allocates one address per record and one more per tool use and result, in append order', () => {
    const t = new TranscriptBuilder();
    t.user('go');
    t.toolUse('t1', 'Read', { file_path: '/a' });
    t.toolResult('t1', 'contents');
    t.assistant('read it');
    const p = project(t.text());
    expect(p.events.map((e) => [e.seq, e.role])).toEqual([[1, 'user'], [2, 'assistant'], [3, 'tool'], [4, 'user'], [6, 'assistant']]);
    expect(p.redirects).toEqual(new Map([[5, 3]]));
  });

  it('does not allocate again for a repeated uuid, and follows the latest parent link', () => {
    const t = new TranscriptBuilder();
    const a = t.user('first');
    t.user('second');
    const c = t.user('third');
    t.add({ ...c, parentUuid: a.uuid });
    const p = project(t.text());
    expect(p.addresses.size).toBe(3);
    expect(p.events.map((e) => e.text)).toEqual(['first', 'third']);
  });

  it('keeps append-order addresses when a child is written before its parent', () => {
    const t = new TranscriptBuilder();
    t.user('child', { uuid: 'c', parentUuid: 'p' });
    t.user('parent', { uuid: 'p', parentUuid: null });
    const p = project(t.text());
    expect(p.events.map((e) => [e.seq, e.text])).toEqual([[2, 'parent'], [1, 'child']]);
    expect(p.missing).toEqual([]);
  });

  it('shows a call without a result as unfinished and a result without a call as an orphan', () => {
    const t = new TranscriptBuilder();
    t.toolResult('ghost', 'late output');
    t.toolUse('t1', 'Bash', { command: 'sleep 100' });
    const p = project(t.text());
    expect(p.events.filter((e) => e.tool).map((e) => e.tool!.status)).toEqual(['orphan-result', 'pending']);
    expect(eventBody(p.events.at(-1)!)).toContain('unfinished');
  });

  it.each([
    ['thinking', (t: TranscriptBuilder) => t.thinking('SECRET-THOUGHT'), 'SECRET-THOUGHT'],
    ['a raw attachment payload', (t: TranscriptBuilder) => t.attachment('file', 'RENDERED-TEXT'), 'RAW-file-PAYLOAD'],
    ['an unrendered attachment', (t: TranscriptBuilder) => t.attachment('hook_success'), 'RAW-hook_success-PAYLOAD'],
  ])('never makes %s visible', (_name, addRow, hidden) => {
    const t = new TranscriptBuilder();
    t.user('hi');
    addRow(t);
    t.assistant('bye');
    const p = project(t.text());
    expect(p.events).toHaveLength(3);
    expect(p.events.map((e) => eventBody(e)).join('\n')).not.toContain(hidden);
  });

  it('shows rendered attachment text', () => {
    const t = new TranscriptBuilder();
    t.attachment('date', "Today's date is 2026-11-29.");
    expect(bodies(t.text())).toEqual(["Today's date is 2026-11-29."]);
  });

  it('ignores unknown record types without an address, even with a uuid', () => {
    const t = new TranscriptBuilder();
    t.user('hi');
    t.meta({ type: 'future-metadata', uuid: 'zz', parentUuid: 'u1', secret: 'FUTURE' });
    t.meta({ type: 'last-prompt', leafUuid: 'u1' });
    t.assistant('bye');
    const p = project(t.text());
    expect(p.addresses.size).toBe(2);
    expect(p.events.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('treats an ignored record the branch needs as an ancestry gap', () => {
    const t = new TranscriptBuilder();
    t.meta({ type: 'future-metadata', uuid: 'zz', parentUuid: null });
    t.user('after', { parentUuid: 'zz' });
    const p = project(t.text());
    expect(p.missing).toEqual(['zz']);
  });

  describe('branch selection', () => {
    function forked() {
      const t = new TranscriptBuilder();
      const root = t.user('root');
      t.assistant('first answer');
      t.assistant('edited answer', { parentUuid: root.uuid });
      return t;
    }

    it('selects the last leaf in file order and never shows the sibling', () => {
      expect(bodies(forked().text())).toEqual(['root', 'edited answer']);
    });

    it('prefers a non-attachment leaf over a later attachment leaf', () => {
      const t = forked();
      t.attachment('date', 'DATE', { parentUuid: 'u3' });
      expect(bodies(t.text())).toEqual(['root', 'first answer']);
    });

    it('takes an attachment leaf when no other leaf exists', () => {
      const t = new TranscriptBuilder();
      t.user('root');
      t.attachment('date', 'DATE');
      expect(bodies(t.text())).toEqual(['root', 'DATE']);
    });

    it('reads the branch of an explicit leaf', () => {
      expect(bodies(forked().text(), { leaf: 'u2' })).toEqual(['root', 'first answer']);
    });
  });

  describe('compaction windows', () => {
    it('joins a boundary to its logical parent and advances the ordinal at each boundary', () => {
      const t = new TranscriptBuilder('s');
      t.user('one');
      t.boundary();
      t.user('two');
      t.boundary();
      t.user('three');
      const p = project(t.text());
      expect(p.events.filter((e) => e.role === 'user').map((e) => [e.text, e.window])).toEqual([
        ['one', 'claude:s:0'],
        ['two', 'claude:s:1'],
        ['three', 'claude:s:2'],
      ]);
      expect(p.windows).toEqual(['claude:s:0', 'claude:s:1', 'claude:s:2']);
    });

    it('keeps the old events behind a preserved segment re-persisted after the boundary, in their first window', () => {
      const t = new TranscriptBuilder('s');
      t.user('root', { uuid: 'r' });
      t.assistant('before', { uuid: 'a1' });
      t.user('preserved head', { uuid: 'a2' });
      t.assistant('preserved tail', { uuid: 'a3' });
      t.boundary({ uuid: 'b', logicalParentUuid: 'a3' });
      t.user('summary', { uuid: 's', isCompactSummary: true });
      t.add({ ...t.rows[2]!, parentUuid: 's' });
      t.add({ ...t.rows[3]! });
      t.user('new', { uuid: 'n' });
      const p = project(t.text());
      expect(p.events.map((e) => [e.text, e.window])).toEqual([
        ['root', 'claude:s:0'],
        ['before', 'claude:s:0'],
        ['Conversation compacted', 'claude:s:1'],
        ['summary', 'claude:s:1'],
        ['preserved head', 'claude:s:0'],
        ['preserved tail', 'claude:s:0'],
        ['new', 'claude:s:1'],
      ]);
      expect(p.windows).toEqual(['claude:s:0', 'claude:s:1']);
    });

    it('does not treat a preserved segment re-persisted after the boundary as a cycle', () => {
      const t = new TranscriptBuilder('s');
      t.user('kept', { uuid: 'k' });
      t.boundary({ uuid: 'b', logicalParentUuid: 'k' });
      t.add({ type: 'user', uuid: 'k', parentUuid: 'b', message: { role: 'user', content: 'kept' } });
      t.user('next');
      expect(bodies(t.text())).toEqual(['Conversation compacted', 'kept', 'next']);
    });
  });

  describe('missing ancestors', () => {
    it('stops at a missing parent, names it, and puts the suffix in an unknown segment', () => {
      const t = new TranscriptBuilder('s');
      t.user('orphaned', { parentUuid: 'gone-1' });
      t.boundary();
      t.user('later');
      const p = project(t.text());
      expect(p.missing).toEqual(['gone-1']);
      expect(p.windows).toEqual(['claude:s:unknown:gone-1']);
      expect(new Set(p.events.map((e) => e.window))).toEqual(new Set(['claude:s:unknown:gone-1']));
      expect(p.neededByLine).toBe(1);
      expect(incompleteHistoryNotice(p)).toContain('gone-1');
      expect(incompleteHistoryNotice(p)).toContain('line 1');
    });

    it('stops at a boundary whose logical parent is missing, without joining the prefix in append order', () => {
      const t = new TranscriptBuilder('s');
      t.user('old prefix');
      t.boundary({ logicalParentUuid: 'gone-2' });
      t.user('new');
      const p = project(t.text());
      expect(p.missing).toEqual(['gone-2']);
      expect(p.events.map((e) => e.text)).toEqual(['Conversation compacted', 'new']);
    });

    it('keeps earlier addresses when the missing record appears later, and drops the notice', () => {
      const t = new TranscriptBuilder('s');
      t.user('child', { uuid: 'c', parentUuid: 'late' });
      t.assistant('answer');
      const before = project(t.text());
      t.user('late parent', { uuid: 'late', parentUuid: null });
      const after = project(t.text());
      expect(before.missing).toEqual(['late']);
      expect(after.missing).toEqual([]);
      expect(incompleteHistoryNotice(after)).toBeNull();
      expect(after.events.map((e) => [e.seq, e.text])).toEqual([[3, 'late parent'], [1, 'child'], [2, 'answer']]);
      expect(after.windows).toEqual(['claude:s:0']);
    });

    it('bounds the notice however many uuids are missing', () => {
      const notice = incompleteHistoryNotice({ sessionId: 's', missing: Array.from({ length: 50 }, (_, i) => `${'m'.repeat(100)}${i}`) })!;
      expect(notice.length).toBeLessThan(1200);
      expect(notice).toContain('and 45 more');
    });
  });

  describe('refusals', () => {
    const chain = () => {
      const t = new TranscriptBuilder('s');
      t.user('a');
      t.user('b');
      return t;
    };

    it.each([
      ['a malformed committed line', () => `${chain().text()}{"type":"user",\n${chain().text()}`, {}, 'HISTORY_MALFORMED_LINE', 3],
      ['a cycle', () => { const t = chain(); t.add({ ...t.rows[0]!, parentUuid: 'u2' }); t.user('c'); return t.text(); }, {}, 'HISTORY_CYCLE', 3],
      ['a conflicting duplicate uuid', () => { const t = chain(); t.add({ ...t.rows[0]!, message: { role: 'user', content: 'changed' } }); return t.text(); }, {}, 'HISTORY_CONFLICTING_DUPLICATE', 3],
      ['a sidechain record in a main transcript', () => { const t = chain(); t.user('side', { isSidechain: true }); return t.text(); }, {}, 'HISTORY_SIDECHAIN_MISMATCH', 3],
      ['a main record in a subagent transcript', () => chain().text(), { sidechain: true }, 'HISTORY_SIDECHAIN_MISMATCH', 1],
      ['a record of another session', () => { const t = chain(); t.user('x', { sessionId: 'other' }); return t.text(); }, {}, 'HISTORY_SESSION_MISMATCH', 3],
      ['a record of a session other than the file\'s', () => chain().text(), { sessionId: 'file-session' }, 'HISTORY_SESSION_MISMATCH', 1],
      ['a message record without a uuid', () => `${chain().text()}{"type":"user","message":{"role":"user","content":"x"}}\n`, {}, 'HISTORY_INVALID_RECORD', 3],
      ['a message record without content', () => `${chain().text()}{"type":"assistant","uuid":"q","parentUuid":"u2","message":{}}\n`, {}, 'HISTORY_INVALID_RECORD', 3],
    ])('refuses %s, naming the line', (_name, build, options, code, line) => {
      expect(refusal(build(), options)).toEqual({ code, data: expect.objectContaining({ line }) });
    });

    it.each([
      ['an empty transcript', ''],
      ['only metadata', '{"type":"last-prompt","leafUuid":"x"}\n'],
      ['records that are all parents of each other', '{"type":"user","uuid":"a","parentUuid":"b","message":{"content":"a"}}\n{"type":"user","uuid":"b","parentUuid":"a","message":{"content":"b"}}\n'],
    ])('refuses %s with no leaf', (_name, text) => {
      expect(refusal(text).code).toBe('HISTORY_NO_LEAF');
    });

    it('refuses an unknown explicit leaf', () => {
      expect(refusal(chain().text(), { leaf: 'nope' }).code).toBe('HISTORY_LEAF_UNKNOWN');
    });

    it('tolerates an unterminated final write', () => {
      const text = `${chain().text()}{"type":"user","uuid":"u3","parentUuid":"u2","mess`;
      expect(bodies(text)).toEqual(['a', 'b']);
    });

    it('accepts an identical repeated record', () => {
      const t = chain();
      t.add({ ...t.rows[1]! });
      expect(bodies(t.text())).toEqual(['a', 'b']);
    });
  });
});
