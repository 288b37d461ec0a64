import { parseTree, type TreeEntry } from './git-tree';

/** Reads a tree's entries by id (null: no such tree). */
export type TreeSource = (oid: string) => Promise<TreeEntry[] | null>;
/** Stores an object and returns its id. */
export type ObjectSink = (type: 'blob' | 'tree', content: Buffer) => string;

/** Pending changes below one directory, in the order fast-import would apply them. */
interface DirEdit {
  /** The directory is emptied first (`D dir`), then the changes below apply. */
  cleared: boolean;
  /** name → new file content, or null to delete the entry (file or folder). */
  files: Map<string, string | null>;
  dirs: Map<string, DirEdit>;
}

const emptyEdit = (): DirEdit => ({ cleared: false, files: new Map(), dirs: new Map() });

/**
 * The root tree of `base` with `deleteDirs` removed and then `files` written (content) or
 * deleted (null), exactly as a fast-import `D <dir>` … `M 100644 inline <path>` / `D <path>`
 * stream would build it: new files are mode 100644, folders left empty disappear, untouched
 * subtrees keep their ids, entries are sorted as git sorts them. Only the trees on the changed
 * paths are read and written. Returns the new root tree id.
 */
export async function editTree(base: string | null, edits: { deleteDirs?: readonly string[]; files: ReadonlyMap<string, string | null> }, read: TreeSource, write: ObjectSink): Promise<string> {
  const root = emptyEdit();
  for (const dir of edits.deleteDirs ?? []) {
    const { parent, name } = walk(root, dir);
    parent.files.delete(name);
    parent.dirs.set(name, { ...emptyEdit(), cleared: true });
  }
  for (const [path, content] of edits.files) {
    const { parent, name } = walk(root, path);
    parent.dirs.delete(name);
    if (content === null) parent.files.set(name, null);
    else parent.files.set(name, content);
  }
  return (await rewrite(base, root, read, write)) ?? write('tree', Buffer.alloc(0));
}

/** The edit node of a path's folder (created on the way) and the path's last name. */
function walk(root: DirEdit, path: string): { parent: DirEdit; name: string } {
  const parts = path.split('/').filter((p) => p !== '');
  let node = root;
  for (const part of parts.slice(0, -1)) {
    // A file on the way becomes a folder, as in fast-import.
    if (node.files.has(part)) node.files.delete(part);
    let next = node.dirs.get(part);
    if (!next) node.dirs.set(part, (next = emptyEdit()));
    node = next;
  }
  return { parent: node, name: parts[parts.length - 1] ?? '' };
}

/** The new id of one folder (null when it ends up empty). */
async function rewrite(oid: string | null, edit: DirEdit, read: TreeSource, write: ObjectSink): Promise<string | null> {
  const old = oid === null || edit.cleared ? [] : ((await read(oid)) ?? []);
  const entries = new Map<string, TreeEntry>(old.map((e) => [e.name, e]));
  // Folders first read in parallel (their trees come from one reader), then applied.
  const subdirs = [...edit.dirs].map(async ([name, sub]) => {
    const before = entries.get(name);
    return [name, await rewrite(before?.isTree ? before.oid : null, sub, read, write)] as const;
  });
  for (const [name, sub] of await Promise.all(subdirs)) {
    if (sub === null) entries.delete(name);
    else entries.set(name, { mode: '40000', name, oid: sub, isTree: true });
  }
  for (const [name, content] of edit.files) {
    if (content === null) entries.delete(name);
    else entries.set(name, { mode: '100644', name, oid: write('blob', Buffer.from(content, 'utf8')), isTree: false });
  }
  if (entries.size === 0) return null;
  return write('tree', serializeTree([...entries.values()]));
}

/** A tree object's bytes: entries in git's order (a folder sorts as if its name ended in "/"). */
export function serializeTree(entries: readonly TreeEntry[]): Buffer {
  const key = (e: TreeEntry) => Buffer.from(e.isTree ? `${e.name}/` : e.name, 'utf8');
  const sorted = [...entries].sort((a, b) => key(a).compare(key(b) as unknown as Uint8Array));
  return Buffer.concat(sorted.flatMap((e) => [Buffer.from(`${e.mode} ${e.name}\0`, 'utf8'), Buffer.from(e.oid, 'hex')]) as unknown as Uint8Array[]);
}

/** Entries of a raw tree object (SHA-1 ids), for a TreeSource backed by an object reader. */
export function treeEntries(content: Buffer): TreeEntry[] {
  return parseTree(content, 20);
}
