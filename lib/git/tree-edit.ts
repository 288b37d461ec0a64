import { editTreeBytes, findTreeEntry, viewTree, type TreeChange, type TreeView } from './tree-bytes';

/** Reads a tree object by id, indexed (throws when it cannot). */
export type TreeSource = (oid: string) => Promise<TreeView>;
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
const FOLDER = '40000';

/**
 * The root tree of `base` with `deleteDirs` removed and then `files` written (content) or
 * deleted (null), exactly as a fast-import `D <dir>` … `M 100644 inline <path>` / `D <path>`
 * stream would build it: new files are mode 100644, folders left empty disappear, untouched
 * subtrees keep their ids, entries are in git's order. Only the trees on the changed paths are
 * read and written, and edited as bytes (tree-bytes.ts). Returns the new root tree id.
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
    parent.files.set(name, content);
  }
  return (await rewrite(base, root, read, write)) ?? write('tree', Buffer.alloc(0));
}

/** The edit node of a path's folder (created on the way) and the path's last name. */
function walk(root: DirEdit, path: string): { parent: DirEdit; name: string } {
  const parts = path.split('/').filter((p) => p !== '');
  let node = root;
  for (const part of parts.slice(0, -1)) {
    // A file on the way becomes a folder, as in fast-import.
    node.files.delete(part);
    let next = node.dirs.get(part);
    if (!next) node.dirs.set(part, (next = emptyEdit()));
    node = next;
  }
  return { parent: node, name: parts[parts.length - 1] ?? '' };
}

/** The new id of one folder (null when it ends up empty). */
async function rewrite(oid: string | null, edit: DirEdit, read: TreeSource, write: ObjectSink): Promise<string | null> {
  const old = oid === null || edit.cleared ? null : await read(oid);
  const changes = new Map<string, TreeChange | null>();
  // Sub-folders are read in parallel (one reader answers them in turn), then their new ids set.
  const subdirs = await Promise.all(
    [...edit.dirs].map(async ([name, sub]) => {
      const before = old === null ? null : findTreeEntry(old, name);
      return [name, await rewrite(before?.mode === FOLDER ? before.oid : null, sub, read, write)] as const;
    }),
  );
  for (const [name, sub] of subdirs) changes.set(name, sub === null ? null : { mode: FOLDER, oid: sub });
  for (const [name, content] of edit.files) changes.set(name, content === null ? null : { mode: '100644', oid: write('blob', Buffer.from(content, 'utf8')) });
  const next = editTreeBytes(old, changes);
  return next.length === 0 ? null : write('tree', next);
}
