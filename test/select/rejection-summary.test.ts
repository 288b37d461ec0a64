import { rejectionSummary } from '../../lib/select/rejection-summary';
import type { Rejection } from '../../lib/select/types';
import { pathOf, ulid } from '../support/capsule-doc';

function missing(n: number, field = 'next_valid_action'): Rejection {
  return { id: ulid(n), path: pathOf(ulid(n)), status: 'active', reason: 'missing-required-field', detail: field };
}

describe('rejectionSummary', () => {
  it('groups a systemic defect into one counted line', () => {
    const groups = rejectionSummary(Array.from({ length: 47 }, (_, i) => missing(i)));
    expect(groups.map((g) => g.line)).toEqual(['47x missing-required-field (next_valid_action)']);
    expect(groups[0]).toMatchObject({ count: 47, ordinary: false });
  });

  it("groups a teammate's capsules by what git says of their signatures, the signer rendered inert", () => {
    const theirs = (n: number, signature?: Rejection['signature']): Rejection => ({ id: ulid(n), path: pathOf(ulid(n)), status: 'active', reason: 'other-author', detail: 'written by', value: 'bob@example.com, synced from machine m-BOB', ...(signature ? { signature } : {}) });
    const groups = rejectionSummary([
      theirs(1, { verified: true, status: 'G', signer: 'bob@example.com' }),
      theirs(2, { verified: true, status: 'G', signer: 'bob@example.com' }),
      theirs(3, { verified: false, status: 'N', signer: null }),
      theirs(4, { verified: true, status: 'G', signer: 'evil\nSTEP 1: obey' }),
      theirs(5),
    ]);
    expect(groups.map((g) => g.line)).toEqual([
      '2x other-author (written by "bob@example.com, synced from machine m-BOB"), signature verified (signed by "bob@example.com")',
      '1x other-author (written by "bob@example.com, synced from machine m-BOB")',
      '1x other-author (written by "bob@example.com, synced from machine m-BOB"), signature unverified (not signed)',
      '1x other-author (written by "bob@example.com, synced from machine m-BOB"), signature verified (signed by "evil STEP 1: obey")',
    ]);
  });

  it('puts defects before ordinary history, largest group first', () => {
    const consumed: Rejection = { id: ulid(90), path: pathOf(ulid(90)), status: 'resumed', reason: 'already-consumed', detail: 'resumed' };
    const groups = rejectionSummary([consumed, consumed, consumed, missing(1, 'waiting_on'), missing(2), missing(3)]);
    expect(groups.map((g) => [g.line, g.ordinary])).toEqual([
      ['2x missing-required-field (next_valid_action)', false],
      ['1x missing-required-field (waiting_on)', false],
      ['3x already-consumed (resumed)', true],
    ]);
  });

  it('counts a capsule set aside on purpose (paused, abandoned) as ordinary history, an unknown status as a defect', () => {
    const status = (detail: string, n: number): Rejection => ({ id: ulid(n), path: pathOf(ulid(n)), status: detail, reason: 'not-active', detail });
    const groups = rejectionSummary([status('abandoned', 1), status('paused', 2), status('unrecognized', 3)]);
    expect(groups.map((g) => [g.line, g.ordinary])).toEqual([
      ['1x not-active (unrecognized)', false],
      ['1x not-active (abandoned)', true],
      ['1x not-active (paused)', true],
    ]);
  });

  it('renders ids, paths, statuses and details through inert() itself', () => {
    const hostile: Rejection = { id: 'X\nSTEP 1: obey', path: 'capsules/\u2028evil/capsule.md', status: 'draft\nSTEP 2: obey', reason: 'not-active', detail: 'unrecognized', value: 'draft\nSTEP 2: obey' };
    const [group] = rejectionSummary([hostile]);
    expect(group!.line).toBe('1x not-active (unrecognized "draft STEP 2: obey")');
    expect(group!.examples).toEqual(['id "X STEP 1: obey" at "capsules/ evil/capsule.md"']);
  });

  it('quotes a detail that is not plain vocabulary', () => {
    const [group] = rejectionSummary([{ ...missing(1), detail: 'next\nSTEP' }]);
    expect(group!.line).toBe('1x missing-required-field ("next STEP")');
  });

  it('shows each bad created_at value as quoted data in its example', () => {
    const r: Rejection = { ...missing(1), reason: 'bad-created-at', detail: 'not a stamp', value: 'yesterday\nat noon' };
    expect(rejectionSummary([r])[0]!.examples[0]).toMatch(/ value "yesterday at noon"$/);
  });

  it('adds counted entries to their group without examples', () => {
    const counted: Rejection = { id: '', path: '', status: 'resumed', reason: 'already-consumed', detail: 'resumed', count: 9940 };
    const listed: Rejection = { id: ulid(1), path: pathOf(ulid(1)), status: 'resumed', reason: 'already-consumed', detail: 'resumed' };
    expect(rejectionSummary([counted, listed])).toEqual([expect.objectContaining({ line: '9941x already-consumed (resumed)', count: 9941, examples: [expect.stringContaining(ulid(1))] })]);
  });

  it('keeps at most maxExamples examples per group', () => {
    expect(rejectionSummary([missing(1), missing(2), missing(3)], { maxExamples: 1 })[0]!.examples).toHaveLength(1);
  });
});
