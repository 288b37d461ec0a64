import { capsuleSources, reuseIndexEntries, type IndexSide } from '../../lib/sync/index-reuse';
import type { TreeFile } from '../../lib/sync/merge-listings';
import type { IndexEntry } from '../../lib/store/types';

const ID = '01JDQ70000000000000000000A';
const DIR = `capsules/2024-11-27/${ID}`;
const file = (oid: string): TreeFile => ({ mode: '100644', oid });
const entry = (over: Partial<IndexEntry> = {}): IndexEntry => ({
  id: ID, status: 'active', createdAt: '2026-11-29T20:00:00Z', sortKey: '20261129T200000000Z', objective: 'o', path: `${DIR}/capsule.md`, ...over,
});

describe('capsuleSources', () => {
  it('groups documents and status events by capsule directory', () => {
    const sources = capsuleSources(new Map([
      [`${DIR}/capsule.md`, file('d1')],
      [`${DIR}/status/20261129T210000000Z-w-paused`, file('e1')],
      [`${DIR}/status/not-an-event`, file('e2')],
      ['FORMAT', file('f')],
    ]));
    expect(sources).toEqual([{ id: ID, dir: DIR, docPath: `${DIR}/capsule.md`, oid: 'd1', events: [expect.objectContaining({ status: 'paused', writer: 'w' })] }]);
  });
});

describe('reuseIndexEntries', () => {
  const merged = new Map([[`${DIR}/capsule.md`, file('d1')], [`${DIR}/status/20261129T210000000Z-w-resumed`, file('e1')]]);
  const capsules = capsuleSources(merged);

  it('carries an unchanged document over and raises its status to the lattice maximum', () => {
    const sides: IndexSide[] = [
      { listing: new Map([[`${DIR}/capsule.md`, file('d1')], [`${DIR}/status/20261129T200000000Z-w-paused`, file('p')]]), entries: [entry({ status: 'paused' })] },
      { listing: new Map([[`${DIR}/capsule.md`, file('d1')], [`${DIR}/status/20261129T200000000Z-w-abandoned`, file('a')]]), entries: [entry({ status: 'abandoned' })] },
    ];
    const ab = reuseIndexEntries(capsules, sides);
    expect(ab).toEqual({ entries: [entry({ status: 'abandoned' })], unread: [] });
    expect(reuseIndexEntries(capsules, [...sides].reverse())).toEqual(ab);
    expect(reuseIndexEntries(capsules, [sides[0]!]).entries[0]!.status).toBe('resumed');
  });

  it('asks for the document when the sides describe it differently', () => {
    const sides: IndexSide[] = [
      { listing: new Map([[`${DIR}/capsule.md`, file('d1')]]), entries: [entry({ objective: 'one' })] },
      { listing: new Map([[`${DIR}/capsule.md`, file('d1')]]), entries: [entry({ objective: 'two' })] },
    ];
    expect(reuseIndexEntries(capsules, sides)).toEqual({ entries: [], unread: capsules });
  });

  it("reads the document when an entry's status is not what its own side's events give (an index rewritten alone)", () => {
    const forged: IndexSide[] = [{ listing: new Map([[`${DIR}/capsule.md`, file('d1')]]), entries: [entry({ status: 'resolved' })] }];
    expect(reuseIndexEntries(capsules, forged)).toEqual({ entries: [], unread: capsules });
  });

  it('never reuses an entry written for another version of the document', () => {
    const sides: IndexSide[] = [{ listing: new Map([[`${DIR}/capsule.md`, file('d0')]]), entries: [entry()] }];
    expect(reuseIndexEntries(capsules, sides).unread).toEqual(capsules);
  });
});
