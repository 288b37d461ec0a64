import { isCapsuleError } from '../errors/capsule-error';
import type { GitRunner } from '../git/git-runner';
import { lsRemote } from './remote';

/** One remote's memory ref, as the remote itself reports it, against what this clone holds. */
export interface RemoteMemory {
  remote: string;
  ref: string;
  /** The remote's tip, null when it has no memory ref; undefined when it could not be asked. */
  tip: string | null | undefined;
  /** 'unfetched': the tip's commit is not in this clone; 'unmerged': fetched but not in the local branch. */
  state: 'absent' | 'unfetched' | 'unmerged' | 'contained' | 'unreachable';
  reason?: string;
}

/**
 * Asks every configured remote for the memory ref this clone uses (`ls-remote <remote> <ref>`:
 * the same name sync pushes, so it follows `capsule.ref` wherever the ref lives) and says
 * whether this clone has that commit. Bounded by `timeoutMs` per remote, all at once; an
 * unreachable remote is a state, never a throw.
 */
export async function remoteMemoryStates(git: GitRunner, ref: string, localTip: string | null, timeoutMs: number): Promise<RemoteMemory[]> {
  const remotes = (await git.run(['remote'])).stdout.split('\n').map((r) => r.trim()).filter(Boolean);
  return Promise.all(
    remotes.map(async (remote): Promise<RemoteMemory> => {
      let tip: string | null;
      try {
        tip = await lsRemote(git, remote, ref, timeoutMs);
      } catch (err) {
        if (isCapsuleError(err, 'GIT_MISSING')) throw err;
        return { remote, ref, tip: undefined, state: 'unreachable', reason: lastLine(err) };
      }
      if (tip === null) return { remote, ref, tip, state: 'absent' };
      const present = (await git.run(['cat-file', '-e', `${tip}^{commit}`], { okExitCodes: [1, 128] })).exitCode === 0;
      if (!present) return { remote, ref, tip, state: 'unfetched' };
      if (localTip === null) return { remote, ref, tip, state: 'unmerged' };
      const ancestor = await git.run(['merge-base', '--is-ancestor', tip, localTip], { okExitCodes: [1] });
      return { remote, ref, tip, state: ancestor.exitCode === 0 ? 'contained' : 'unmerged' };
    }),
  );
}

/** What git said last, the useful line of a failed ls-remote ("Could not resolve host", "Permission denied"…). */
function lastLine(err: unknown): string {
  const stderr = isCapsuleError(err) && typeof err.data.stderr === 'string' ? err.data.stderr : err instanceof Error ? err.message : String(err);
  return stderr.trim().split('\n').filter(Boolean).pop() ?? 'no answer';
}
