import { findDocumentConflicts, mergeListings, type MergeLayout, type TreeFile } from '../../lib/sync/merge-listings';

const layout: MergeLayout = {
  isDerived: (p) => p.startsWith('index/'),
  isDocument: (p) => p.endsWith('/capsule.md'),
  mustAgree: (p) => p === 'FORMAT',
};

const DOC = 'capsules/2026/11/01ABCDEFGHJKMNPQRSTVWXYZ01/capsule.md';
const blob = (oid: string): TreeFile => ({ mode: '100644', oid: oid.padEnd(40, '0') });
const listing = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([p, o]) => [p, blob(o)]));
const doc = (stamps: Record<string, string>) =>
  `---\nid: x\n${Object.entries(stamps).map(([k, v]) => `${k}: "${v}"`).join('\n')}\n---\n`;

describe('mergeListings', () => {
  it('keeps every file of either side and drops the derived index of both', () => {
    const ours = listing({ FORMAT: 'f', [DOC]: 'a1', 'capsules/2026/11/X/status/1-w-paused': 'e1', 'index/counts.json': 'c1' });
    const theirs = listing({ FORMAT: 'f', 'capsules/2026/11/Y/capsule.md': 'b1', 'capsules/2026/11/X/status/2-v-resolved': 'e2', 'index/counts.json': 'c2' });
    const { files, resolutions } = mergeListings({ ours, theirs, layout, texts: new Map() });
    expect([...files.keys()].sort()).toEqual(['FORMAT', DOC, 'capsules/2026/11/X/status/1-w-paused', 'capsules/2026/11/X/status/2-v-resolved', 'capsules/2026/11/Y/capsule.md'].sort());
    expect(resolutions).toEqual([]);
  });

  it.each([
    ['the newer updated_at', { updated_at: '2026-11-29T10:00:00+00:00' }, { updated_at: '2026-11-29T10:30:00+01:00' }, 'a'],
    ['updated_at compared as instants across offsets', { updated_at: '2026-11-29T10:00:01+00:00' }, { updated_at: '2026-11-29T10:00:00Z' }, 'a'],
    ['created_at when neither has updated_at', { created_at: '2026-11-29T10:00:00Z' }, { created_at: '2026-11-28T10:00:00Z' }, 'a'],
    ['a readable stamp over a damaged one', { updated_at: 'yesterday' }, { updated_at: '2020-01-01T00:00:00Z' }, 'b'],
    ['the larger blob id on equal stamps', { updated_at: '2026-11-29T10:00:00Z' }, { updated_at: '2026-11-29T10:00:00Z' }, 'b'],
  ])('keeps %s for two versions of one document', (_name, a, b, winner) => {
    const oa = 'a'.repeat(40);
    const ob = 'b'.repeat(40);
    const texts = new Map([[oa, doc(a)], [ob, doc(b)]]);
    const ours = new Map([[DOC, { mode: '100644', oid: oa }]]);
    const theirs = new Map([[DOC, { mode: '100644', oid: ob }]]);
    const ab = mergeListings({ ours, theirs, layout, texts });
    const ba = mergeListings({ ours: theirs, theirs: ours, layout, texts });
    expect(ab.files.get(DOC)!.oid).toBe(winner === 'a' ? oa : ob);
    expect(ba.files.get(DOC)).toEqual(ab.files.get(DOC));
  });

  it('resolves any other differing file by the larger blob id, whichever side is ours', () => {
    const ours = listing({ 'capsules/2026/11/X/status/1-w-paused': '1' });
    const theirs = listing({ 'capsules/2026/11/X/status/1-w-paused': '2' });
    const ab = mergeListings({ ours, theirs, layout, texts: new Map() });
    const ba = mergeListings({ ours: theirs, theirs: ours, layout, texts: new Map() });
    expect(ab.files.get('capsules/2026/11/X/status/1-w-paused')!.oid).toBe(blob('2').oid);
    expect([...ba.files]).toEqual([...ab.files]);
    expect(ab.resolutions).toEqual([{ path: 'capsules/2026/11/X/status/1-w-paused', kept: 'theirs', ours: blob('1').oid, theirs: blob('2').oid }]);
  });

  it('throws SYNC_FORMAT_MISMATCH when the format files differ', () => {
    expect(() => mergeListings({ ours: listing({ FORMAT: '1' }), theirs: listing({ FORMAT: '2' }), layout, texts: new Map() })).toThrow(
      expect.objectContaining({ code: 'SYNC_FORMAT_MISMATCH' }),
    );
  });

  it('throws SYNC_BLOB_MISSING when a conflicting document was not read', () => {
    expect(() => mergeListings({ ours: listing({ [DOC]: '1' }), theirs: listing({ [DOC]: '2' }), layout, texts: new Map() })).toThrow(
      expect.objectContaining({ code: 'SYNC_BLOB_MISSING' }),
    );
  });
});

describe('findDocumentConflicts', () => {
  it('names only documents both sides hold with different blobs', () => {
    const ours = listing({ [DOC]: '1', 'capsules/2026/11/Y/capsule.md': '3', 'capsules/2026/11/X/status/1-w-paused': '5', 'index/x': '7' });
    const theirs = listing({ [DOC]: '2', 'capsules/2026/11/Y/capsule.md': '3', 'capsules/2026/11/X/status/1-w-paused': '6', 'index/x': '8' });
    expect(findDocumentConflicts(ours, theirs, layout)).toEqual([DOC]);
  });
});
