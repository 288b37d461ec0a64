/**
 * Raw git tree objects (`<mode> <name>\0<20-byte id>` per entry, sorted by name with folders
 * compared as if their name ended in "/"), searched and edited as bytes. A month folder holds
 * hundreds of entries and a hook runs cold: decoding every entry into strings on each lookup
 * costs more than the rest of a resume. Here one pass records where entries start, lookups
 * are binary searches with native byte compares, and an edit copies the untouched runs whole.
 */

/** A new or replaced entry of a tree. */
export interface TreeChange {
  mode: string;
  oid: string;
}

/** A tree's bytes with the offsets of its entries (one pass over the content). */
export interface TreeView {
  content: Buffer;
  /** Entry i spans [starts[i], starts[i + 1]); its name is [names[i], nuls[i]). */
  starts: Int32Array;
  names: Int32Array;
  nuls: Int32Array;
}

const SPACE = 0x20;
const SLASH = 0x2f;
const OID_BYTES = 20;

/** Indexes a tree's entries; throws on bytes that are not a tree. */
export function viewTree(content: Buffer): TreeView {
  const starts: number[] = [];
  const names: number[] = [];
  const nuls: number[] = [];
  for (let pos = 0; pos < content.length; ) {
    const space = content.indexOf(SPACE, pos);
    const nul = content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + OID_BYTES > content.length) throw new Error('malformed tree object');
    starts.push(pos);
    names.push(space + 1);
    nuls.push(nul);
    pos = nul + 1 + OID_BYTES;
  }
  starts.push(content.length);
  return { content, starts: Int32Array.from(starts), names: Int32Array.from(names), nuls: Int32Array.from(nuls) };
}

/** The mode and id of the entry `name`, or null when the tree has none. */
export function findTreeEntry(view: TreeView, name: string): TreeChange | null {
  const i = indexOfName(view, Buffer.from(name, 'utf8'));
  if (i < 0) return null;
  return { mode: view.content.toString('latin1', view.starts[i]!, view.names[i]! - 1), oid: view.content.toString('hex', view.nuls[i]! + 1, view.nuls[i]! + 1 + OID_BYTES) };
}

/**
 * The tree (null: none yet) with `changes` applied: an entry set to a mode and id is added or
 * replaced, one set to null is removed (file or folder). Untouched entries keep their bytes and
 * order; new ones go where git's order puts them. The result is what git writes for the same entries.
 */
export function editTreeBytes(view: TreeView | null, changes: ReadonlyMap<string, TreeChange | null>): Buffer {
  const count = view === null ? 0 : view.starts.length - 1;
  const removed = new Set<number>();
  const inserts: Array<{ at: number; name: Buffer; tree: boolean; bytes: Buffer }> = [];
  for (const [text, change] of changes) {
    const name = Buffer.from(text, 'utf8');
    const old = view === null ? -1 : indexOfName(view, name);
    if (old >= 0) removed.add(old);
    if (change === null) continue;
    const tree = change.mode === FOLDER;
    inserts.push({ at: view === null ? 0 : lowerBound(view, name, tree), name, tree, bytes: entryBytes(change.mode, name, change.oid) });
  }
  inserts.sort((a, b) => a.at - b.at || compareKeys(a.name, 0, a.name.length, a.tree, b.name, b.tree));
  const out: Buffer[] = [];
  let next = 0;
  let runStart = 0;
  const flush = (end: number) => {
    if (view !== null && end > runStart) out.push(view.content.subarray(view.starts[runStart]!, view.starts[end]!));
  };
  for (let i = 0; i <= count; i += 1) {
    if ((next < inserts.length && inserts[next]!.at === i) || removed.has(i) || i === count) {
      flush(i);
      while (next < inserts.length && inserts[next]!.at === i) out.push(inserts[next++]!.bytes);
      runStart = removed.has(i) ? i + 1 : i;
    }
  }
  return Buffer.concat(out as unknown as Uint8Array[]);
}

const FOLDER = '40000';

function entryBytes(mode: string, name: Buffer, oid: string): Buffer {
  return Buffer.concat([Buffer.from(`${mode} `, 'latin1'), name, Buffer.from([0]), Buffer.from(oid, 'hex')] as unknown as Uint8Array[]);
}

function isTreeAt(view: TreeView, i: number): boolean {
  const at = view.starts[i]!;
  return view.names[i]! - at === 6 && view.content[at] === 0x34 && view.content[at + 1] === 0x30; // "40000 "
}

/** The entry named `name` (a file or a folder), or -1. */
function indexOfName(view: TreeView, name: Buffer): number {
  for (const tree of [false, true]) {
    const i = lowerBound(view, name, tree);
    if (i < view.starts.length - 1 && view.nuls[i]! - view.names[i]! === name.length && view.content.compare(name as unknown as Uint8Array, 0, name.length, view.names[i]!, view.nuls[i]!) === 0) return i;
  }
  return -1;
}

/** The first entry that does not sort before `name` (a folder's when `tree`). */
function lowerBound(view: TreeView, name: Buffer, tree: boolean): number {
  let lo = 0;
  let hi = view.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(view.content, view.names[mid]!, view.nuls[mid]!, isTreeAt(view, mid), name, tree) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** git's order of the name a[aStart, aEnd) against b, a folder's name compared as if it ended in "/". */
function compareKeys(a: Buffer, aStart: number, aEnd: number, aTree: boolean, b: Buffer, bTree: boolean): number {
  const aLen = aEnd - aStart;
  const common = Math.min(aLen, b.length);
  const cmp = a.compare(b as unknown as Uint8Array, 0, common, aStart, aStart + common); // the range of a against b
  if (cmp !== 0) return cmp;
  const ca = aLen > common ? a[aStart + common]! : aTree ? SLASH : 0;
  const cb = b.length > common ? b[common]! : bTree ? SLASH : 0;
  return ca - cb;
}
