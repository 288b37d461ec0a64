import { CLOCK_SKEW_MS, placeInScope, type ScopedRow, type SelectionScope } from '../../lib/select/scope';

const NOW = new Date('2026-11-29T21:00:00Z');
const ME = { author: 'alice@example.com', machine: 'm-ALICE', worktree: 'w-main', branch: 'main' };
const SCOPE: SelectionScope = { here: ME, liveSessions: ['S-live'], skewMs: CLOCK_SKEW_MS, sealedHere: () => false, lineage: { sessions: ['S-old', 'S-last'], carried: 'C-carried' } };
const MINE: ScopedRow = { id: 'C1', createdAt: '2026-11-29T20:00:00Z', sessionId: 'S-other', author: ME.author, machine: ME.machine, worktree: ME.worktree, branch: ME.branch };

describe('placeInScope', () => {
  it.each<[string, Partial<ScopedRow>, SelectionScope, unknown]>([
    ["puts the lineage's own capsule first", { sessionId: 'S-last' }, SCOPE, { tier: 'lineage' }],
    ['puts an earlier session of the lineage first too', { sessionId: 'S-old' }, SCOPE, { tier: 'lineage' }],
    ['puts the capsule the lineage stands on first', { id: 'C-carried', sessionId: 'S-elsewhere', author: 'bob@example.com', machine: 'm-BOB' }, SCOPE, { tier: 'lineage' }],
    ['takes this worktree and branch next', {}, SCOPE, { tier: 'worktree' }],
    ['takes this author on this machine in another worktree after that', { worktree: 'w-other' }, SCOPE, { tier: 'author' }],
    ['takes this author on this machine on another branch after that', { branch: 'feature' }, SCOPE, { tier: 'author' }],
    ['matches the author by email whatever its case', { author: 'Alice@Example.COM' }, SCOPE, { tier: 'worktree' }],
    ['takes a capsule that does not say its branch as of this worktree and branch (unknown is not different)', { branch: undefined }, SCOPE, { tier: 'worktree' }],
    ['takes a capsule that does not say its worktree as of this worktree and branch', { worktree: undefined }, SCOPE, { tier: 'worktree' }],
    ['still sets aside a recorded branch this resume cannot compare (a detached HEAD)', {}, { ...SCOPE, here: { ...ME, branch: undefined } }, { tier: 'author' }],
    ['takes a handoff addressed to this author', { trigger: 'handoff', handoffTo: 'alice@example.com', author: 'bob@example.com', machine: 'm-BOB' }, SCOPE, { tier: 'handoff' }],
  ])('%s', (_name, row, scope, expected) => {
    expect(placeInScope({ ...MINE, ...row }, scope, NOW)).toEqual(expected);
  });

  it.each<[string, Partial<ScopedRow>, string, string | undefined]>([
    ['never takes another author', { author: 'bob@example.com', machine: 'm-BOB' }, 'other-author', 'bob@example.com, synced from machine m-BOB'],
    ['never takes another machine of the same author', { machine: 'm-LAPTOP' }, 'other-machine', 'alice@example.com, synced from machine m-LAPTOP'],
    ["never takes another live session's capsule", { sessionId: 'S-live' }, 'live-session', 'alice@example.com on this machine'],
    ['never takes a capsule whose writer was not recorded', { author: undefined, machine: undefined }, 'no-identity', 'unknown author, machine not recorded'],
    ['never lets a future created_at win, not even in the lineage', { sessionId: 'S-last', createdAt: '2099-01-01T00:00:00Z' }, 'future-created-at', '2099-01-01T00:00:00Z'],
    ["does not take a synced copy of the lineage's session id", { sessionId: 'S-last', machine: 'm-FORGED' }, 'other-machine', 'alice@example.com, synced from machine m-FORGED'],
    ['does not take a handoff addressed to someone else', { trigger: 'handoff', handoffTo: 'carol@example.com', author: 'bob@example.com', machine: 'm-BOB' }, 'other-author', 'bob@example.com, synced from machine m-BOB'],
  ])('%s', (_name, row, reason, value) => {
    expect(placeInScope({ ...MINE, ...row }, SCOPE, NOW)).toMatchObject({ reason, ...(value === undefined ? {} : { value }) });
  });

  it("names a capsule of the session the resume runs inside as its own, not another's", () => {
    const inside = { ...SCOPE, liveSessions: ['S-live', 'S-here'], running: 'S-here' };
    expect(placeInScope({ ...MINE, sessionId: 'S-here' }, inside, NOW)).toMatchObject({ reason: 'live-session', detail: 'this session, still running' });
    expect(placeInScope({ ...MINE, sessionId: 'S-live' }, inside, NOW)).toMatchObject({ reason: 'live-session', detail: 'another live session on this machine' });
  });

  it('allows a created_at within the clock skew', () => {
    const soon = new Date(NOW.getTime() + CLOCK_SKEW_MS - 1000).toISOString();
    expect(placeInScope({ ...MINE, createdAt: soon }, SCOPE, NOW)).toEqual({ tier: 'worktree' });
  });

  it('takes nothing by author when this writer is unknown', () => {
    expect(placeInScope(MINE, { ...SCOPE, here: {} }, NOW)).toMatchObject({ reason: 'other-author' });
  });

  it('has no lineage tier without a lineage', () => {
    expect(placeInScope({ ...MINE, sessionId: 'S-last' }, { ...SCOPE, lineage: undefined }, NOW)).toEqual({ tier: 'worktree' });
  });
});
