import type { GitRunner } from '../git/git-runner';
import { ROOT_COMMIT } from '../store/memory-format';
import { leftOutOf, uniqueLeftOut, type LeftOut } from './fsck-paths';
import { quotePath, writeMergeCommit } from './merge-commit';

// What a sync publishes is the local tip's tree on top of what the remote holds. Every tree that
// came from a remote was checked on the way in (incoming-check.ts, merge-trees.ts), but a local
// branch older than those checks, or a commit made on it by hand, can still hold a path fsck
// refuses, a symbolic link, a gitlink or a path nested past the layout's depth; pushed, it would
// make the memory ref unpushable to every host that checks objects.

/** The message of the commit that leaves such entries out; fixed, so two runs on one tip write one commit. */
export const UNSAFE_CLEANUP_MESSAGE = 'sync: leave out paths git fsck refuses\n\nCapsule-Op: merge\n';

/** The raw diff's records (`git diff-tree -r -z --no-renames --raw`): status, the new mode, path. */
function rawRecords(rawZ: string): Array<{ status: string; mode: string; path: string }> {
  const fields = rawZ.split('\0');
  const out: Array<{ status: string; mode: string; path: string }> = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    // ":<old mode> <new mode> <old id> <new id> <status>", then the path.
    const meta = fields[i]!.split(' ');
    out.push({ status: meta[4] ?? '', mode: meta[1] ?? '', path: fields[i + 1]! });
  }
  return out;
}

/** The same diff as `--name-status -z` prints it (what the counts and the publish commit read). */
export function nameStatusOfRaw(rawZ: string): string {
  return rawRecords(rawZ).map((r) => `${r.status}\0${r.path}\0`).join('');
}

/** What sync leaves out (lib/sync/fsck-paths.ts) among the entries a raw diff adds or changes, one per path, sorted: the sync's own diff, no git process. */
export function unsafeInDiff(rawZ: string): LeftOut[] {
  const out: LeftOut[] = [];
  for (const r of rawRecords(rawZ)) {
    const left = r.status === 'D' ? null : leftOutOf(r.path, r.mode);
    if (left !== null) out.push(left);
  }
  return uniqueLeftOut(out);
}

/**
 * One commit on `tip` without `paths`, written onto `ref` with fast-import's compare-and-swap
 * (`{ ok: false }`: the ref moved meanwhile; start over). Deterministic: the fixed identity and
 * the tip's committer time. Throws GIT_FAILED.
 */
export async function dropPaths(git: GitRunner, input: { ref: string; tip: string; paths: readonly string[] }): Promise<{ ok: true; commit: string } | { ok: false; reason: string }> {
  const time = (await git.run(['log', '-1', '--format=%ct', input.tip])).stdout.trim();
  const who = `${ROOT_COMMIT.identity.name} <${ROOT_COMMIT.identity.email}> ${time} +0000`;
  const deletes = input.paths.map((p) => `D ${quotePath(p)}\n`).join('');
  const stream = `commit ${input.ref}\nmark :1\nauthor ${who}\ncommitter ${who}\ndata ${Buffer.byteLength(UNSAFE_CLEANUP_MESSAGE)}\n${UNSAFE_CLEANUP_MESSAGE}\nfrom ${input.tip}\n${deletes}\nget-mark :1\ndone\n`;
  return writeMergeCommit(git, stream);
}
