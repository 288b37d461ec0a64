import { CapsuleError, isCapsuleError } from '../errors/capsule-error';
import { FAST_IMPORT_ARGS } from '../git/fast-import';
import type { GitObject, ObjectReader } from '../git/cat-file-batch';
import type { GitRunner } from '../git/git-runner';
import { ROOT_COMMIT } from '../store/memory-format';
import type { MergedTree } from './merge-trees';
import type { TreeListing } from './merge-listings';
import type { TreeChange } from './publish-message';

/** The message of every sync merge; fixed so two machines merging the same tips make one commit. */
export const MERGE_MESSAGE = 'sync: merge memory branches\n\nCapsule-Op: merge\n';
/** The message of a remote tip taken with repairs (one parent: that tip; lib/sync/incoming-check.ts); fixed for the same reason. */
export const REPAIR_MESSAGE = "sync: take the remote's tip, keeping what it dropped and rebuilding its index\n\nCapsule-Op: merge\n";

/** What writing a merge commit did: the commit, or a lost race (the local ref moved meanwhile). */
export type MergeCommitOutcome = { ok: true; commit: string } | { ok: false; reason: string };

/** One parent of a merge: its commit, its tree listing and its index texts (path → text). */
export interface MergeParent {
  commit: string;
  listing: TreeListing;
  index: ReadonlyMap<string, string>;
}

/**
 * The fast-import stream of a merge commit on `ref`. The commit is deterministic: parents in
 * ascending id order, the fixed git-capsule identity, the later parent's committer time and a
 * fixed message, so both machines merging the same two tips produce the same commit and a push
 * race between them converges instead of stacking merges. Only what differs from the first
 * parent's tree is written (deletions first, so a folder moved by a layout upgrade lands whole).
 * One parent (a remote tip that could not be taken as it is) makes a repair commit on top of it.
 */
export function buildMergeStream(input: { ref: string; parents: [MergeParent] | [MergeParent, MergeParent]; epochSeconds: number; merged: MergedTree }): string {
  const { ref, epochSeconds, merged } = input;
  const [first, second] = [...input.parents].sort((a, b) => (a.commit < b.commit ? -1 : 1)) as [MergeParent, MergeParent | undefined];
  const who = `${ROOT_COMMIT.identity.name} <${ROOT_COMMIT.identity.email}> ${epochSeconds} +0000`;
  const head = second ? `${fastImportData(MERGE_MESSAGE)}from ${first.commit}\nmerge ${second.commit}\n` : `${fastImportData(REPAIR_MESSAGE)}from ${first.commit}\n`;
  const parts = [`commit ${ref}\nmark :1\nauthor ${who}\ncommitter ${who}\n${head}`, ...treeEdits(first, merged).lines];
  parts.push('\nget-mark :1\ndone\n');
  return parts.join('');
}

/**
 * Writes the merge commit with one fast-import and moves `ref` to it only if `ref` still holds
 * an ancestor of it (a compare-and-swap): a local write that landed meanwhile comes back as
 * `{ ok: false }`. With `scratch`, `ref` is a scratch ref the caller owns and moves whatever it
 * held (the caller's own compare-and-swap moves the memory ref). Throws GIT_FAILED otherwise.
 */
export async function writeMergeCommit(git: GitRunner, stream: string, opts: { scratch?: boolean } = {}): Promise<MergeCommitOutcome> {
  try {
    const out = await git.run(opts.scratch ? [...FAST_IMPORT_ARGS, '--force'] : FAST_IMPORT_ARGS, { input: stream });
    return { ok: true, commit: out.stdout.trim().split('\n').pop() ?? '' };
  } catch (err) {
    const stderr = isCapsuleError(err, 'GIT_FAILED') ? String(err.data.stderr ?? '') : '';
    if (/Not updating|cannot lock ref|Unable to create .*\.lock|but expected/i.test(stderr)) return { ok: false, reason: stderr.trim() };
    throw err;
  }
}

/** Writes a commit onto `scratch`, a ref the caller owns (its old value does not matter), and returns it. Throws GIT_FAILED. */
export async function writeScratchCommit(git: GitRunner, stream: string, scratch: string): Promise<string> {
  const outcome = await writeMergeCommit(git, stream, { scratch: true });
  if (!outcome.ok) throw new CapsuleError('GIT_FAILED', `fast-import refused a forced update of the scratch ref ${scratch}: ${outcome.reason.split('\n').pop()}; remove it with git update-ref -d ${scratch} and sync again`, { ref: scratch, stderr: outcome.reason });
  return outcome.commit;
}

/**
 * The later committer time of the commits, in epoch seconds: read from the commit objects through
 * the reader the sync already holds open (no `git log` process), else from `git log`. Throws
 * GIT_FAILED.
 */
export async function laterCommitTime(git: GitRunner, commits: readonly string[], reader?: ObjectReader): Promise<number> {
  if (reader !== undefined) {
    const times = await Promise.all(commits.map(async (c) => committerTime(await reader.read(c))));
    if (times.every((t): t is number => t !== null)) return Math.max(...times);
  }
  const out = await git.run(['log', '--no-walk', '--format=%ct', ...commits]);
  return Math.max(...out.stdout.trim().split('\n').map(Number));
}

/** The committer time of a commit object (its header's `committer … <epoch> <zone>` line), or null for anything else. */
export function committerTime(obj: GitObject | null): number | null {
  if (obj === null || obj.type !== 'commit' || obj.truncated === true) return null;
  const text = obj.content.toString('utf8');
  const header = text.slice(0, Math.max(0, text.indexOf('\n\n')) || text.length);
  const m = /^committer .*> (\d+) [+-]\d{4}$/m.exec(header);
  return m === null ? null : Number(m[1]);
}

/**
 * What `merged` changes in `base`'s tree: the fast-import file lines and the same changes as
 * `diff-tree --name-status` names them. Files of the base the merge no longer has go first (index
 * files, paths fsck refuses, and, when a side had an older layout, capsule files moved to where
 * the current layout keeps them), so a folder moved by a layout upgrade lands whole.
 */
export function treeEdits(base: Pick<MergeParent, 'listing' | 'index'>, merged: MergedTree): { lines: string[]; changes: TreeChange[] } {
  const lines: string[] = [];
  const changes: TreeChange[] = [];
  const had = (path: string) => base.listing.has(path) || base.index.has(path);
  for (const path of new Set([...base.listing.keys(), ...base.index.keys()])) {
    if (merged.files.has(path) || merged.index.has(path)) continue;
    lines.push(`D ${quotePath(path)}\n`);
    changes.push({ status: 'D', path });
  }
  for (const [path, file] of merged.files) {
    const was = base.listing.get(path);
    if (was && was.oid === file.oid && was.mode === file.mode) continue;
    lines.push(`M ${file.mode} ${file.oid} ${quotePath(path)}\n`);
    changes.push({ status: had(path) ? 'M' : 'A', path });
  }
  for (const [path, text] of merged.index) {
    if (base.index.get(path) === text) continue;
    lines.push(`M 100644 inline ${quotePath(path)}\n${fastImportData(text)}`);
    changes.push({ status: had(path) ? 'M' : 'A', path });
  }
  return { lines, changes };
}

/** A fast-import `data` block. */
export function fastImportData(text: string): string {
  return `data ${Buffer.byteLength(text, 'utf8')}\n${text}\n`;
}

/** fast-import reads a path up to the line end, but one starting with `"` or holding a newline must be C-quoted. */
export function quotePath(path: string): string {
  if (!path.startsWith('"') && !path.includes('\n')) return path;
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
