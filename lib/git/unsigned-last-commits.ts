import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ObjectReader } from './cat-file-batch';
import { findTreeEntry, viewTree, type TreeChange } from './tree-bytes';

/** Commits walked at most before git is asked after all: the newest history only. */
export const UNSIGNED_WALK_LIMIT = 32;

/** What `git log` says of an unsigned commit: `%G?` N, no signer. */
export interface UnsignedCommit {
  verified: false;
  status: 'N';
  signer: null;
  commit: string;
}

/**
 * The history as the object files hold it is the one git walks: no grafts file and no shallow
 * boundary, where they are or where the environment moves them (git honours both and cuts a
 * commit's parents; a plain read of the commit does not). Replace refs are honoured alike by
 * cat-file and by git log.
 */
export function historyAsStored(commonDir: string, env: NodeJS.ProcessEnv): boolean {
  if (env.GIT_GRAFT_FILE || env.GIT_SHALLOW_FILE) return false;
  return !existsSync(join(commonDir, 'info', 'grafts')) && !existsSync(join(commonDir, 'shallow'));
}

/**
 * The newest commit of `rev` that changed each of `paths`, as `git log --no-renames --name-only
 * rev -- paths` names it, read through the store's object reader with no process, for the case
 * where git would only print "not signed": a linear run of at most `limit` commits (newest
 * first, each with one parent, or the root) in which every path's newest change is found, each
 * in a commit without a signature header. Anything else is null and the caller asks git: a
 * merge on the way (git's history simplification may follow another parent), a commit that
 * carries a signature (only git, with its trust settings, can judge it), a path not found within
 * the limit, SHA-256 object ids, an object that cannot be read or is not what it should be.
 * A path changed means its tree entry (mode and object) differs from the parent's, or exists
 * in one of them only, as git's diff decides it without renames.
 */
export async function unsignedLastCommits(objects: ObjectReader, rev: string, paths: readonly string[], limit = UNSIGNED_WALK_LIMIT): Promise<Map<string, UnsignedCommit> | null> {
  const out = new Map<string, UnsignedCommit>();
  const pending = new Set(paths);
  let current = await readCommit(objects, rev);
  if (current === null) return null;
  let entries = await entriesAt(objects, current.oid, pending);
  if (entries === null) return null;
  for (let walked = 0; pending.size > 0; walked += 1) {
    if (walked === limit || current.parents.length > 1) return null;
    const parent = current.parents[0];
    const before = parent === undefined ? new Map<string, TreeChange | null>() : await entriesAt(objects, parent, pending);
    if (before === null) return null;
    for (const path of [...pending]) {
      if (sameEntry(entries.get(path) ?? null, before.get(path) ?? null)) continue;
      // The commit git would name for this path: only git can say what its signature is worth.
      if (current.signed) return null;
      out.set(path, { verified: false, status: 'N', signer: null, commit: current.oid });
      pending.delete(path);
    }
    if (pending.size === 0) break;
    // A root commit reached with paths it does not hold: deleted, or never there; git's to say.
    if (parent === undefined) return null;
    current = await readCommit(objects, parent);
    if (current === null) return null;
    entries = before;
  }
  return out;
}

const SHA1 = /^[0-9a-f]{40}$/;

/** A commit's id, parents and whether it carries a signature header; null when it is not a readable SHA-1 commit. */
async function readCommit(objects: ObjectReader, name: string): Promise<{ oid: string; parents: string[]; signed: boolean } | null> {
  const obj = await objects.read(name);
  if (obj === null || obj.type !== 'commit' || obj.truncated || !SHA1.test(obj.oid)) return null;
  const text = obj.content.toString('utf8');
  const end = text.indexOf('\n\n');
  const parents: string[] = [];
  let signed = false;
  for (const line of (end === -1 ? text : text.slice(0, end)).split('\n')) {
    if (line.startsWith('parent ')) parents.push(line.slice(7).trim());
    // gpgsig (SHA-1 signature, gpg, ssh or x509 alike) and gpgsig-sha256; mergetag only on merges, which are refused anyway.
    else if (line.startsWith('gpgsig') || line.startsWith('mergetag')) signed = true;
  }
  if (!parents.every((p) => SHA1.test(p))) return null;
  return { oid: obj.oid, parents, signed };
}

/** Each path's tree entry at `commit` (null: absent), reading each path's folder once; null when a folder read is not a tree. */
async function entriesAt(objects: ObjectReader, commit: string, paths: ReadonlySet<string>): Promise<Map<string, TreeChange | null> | null> {
  const folders = new Map<string, Promise<Awaited<ReturnType<ObjectReader['read']>>>>();
  for (const path of paths) {
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    if (!folders.has(folder)) folders.set(folder, objects.read(folder === '' ? `${commit}^{tree}` : `${commit}:${folder}`));
  }
  const out = new Map<string, TreeChange | null>();
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    const folder = slash === -1 ? '' : path.slice(0, slash);
    const tree = await folders.get(folder)!;
    if (tree === null) {
      out.set(path, null);
      continue;
    }
    if (tree.type !== 'tree' || tree.truncated) return null;
    const entry = findTreeEntry(viewTree(tree.content), path.slice(slash + 1));
    // A folder named as a path: git's log names the files below it, never the folder.
    if (entry?.mode === '40000') return null;
    out.set(path, entry);
  }
  return out;
}

function sameEntry(a: TreeChange | null, b: TreeChange | null): boolean {
  return a === null || b === null ? a === b : a.mode === b.mode && a.oid === b.oid;
}
