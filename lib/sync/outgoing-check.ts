import type { GitRunner } from '../git/git-runner';
import { ROOT_COMMIT } from '../store/memory-format';
import { isFsckSafePath } from './fsck-paths';
import { quotePath, writeMergeCommit } from './merge-commit';

// What a sync publishes is the local tip's tree on top of what the remote holds. Every tree that
// came from a remote was checked on the way in (incoming-check.ts, merge-trees.ts), but a local
// branch older than those checks, or a commit made on it by hand, can still hold a path fsck
// refuses; pushed, it would make the memory ref unpushable to every host that checks objects.

/** The message of the commit that leaves such paths out; fixed, so two runs on one tip write one commit. */
export const UNSAFE_CLEANUP_MESSAGE = 'sync: leave out paths git fsck refuses\n\nCapsule-Op: merge\n';

/** Paths fsck refuses that a `git diff-tree -r -z --name-status` output adds or changes, sorted: the sync's own diff, no git process. */
export function unsafeInDiff(diffTreeZ: string): string[] {
  const fields = diffTreeZ.split('\0');
  const out: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] !== 'D' && !isFsckSafePath(fields[i + 1]!)) out.push(fields[i + 1]!);
  return out.sort();
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
