import { isCapsuleError } from '../errors/capsule-error';
import type { GitRunner } from '../git/git-runner';

/** One remote's memory ref, as the remote itself reports it, against what this clone holds. */
export interface RemoteMemory {
  remote: string;
  /** The ref the remote holds it under, or null when it has none (or could not be asked). */
  ref: string | null;
  tip: string | null;
  /** 'unfetched': the remote's tip is a commit this clone does not have: capsules written elsewhere. */
  state: 'absent' | 'unfetched' | 'fetched' | 'unreachable';
  reason?: string;
}

/**
 * Asks every configured remote, at once and within `timeoutMs` each, whether it holds this
 * clone's memory ref and whether its tip is a commit this clone has. Read only. The remote is
 * asked by the ref's last name (`git ls-remote <remote> capsules` matches every ref ending in
 * `/capsules`), so a remote that keeps the memory outside `refs/heads/` (where a plain clone
 * does not fetch it) is found too; branches of that name elsewhere under refs/heads/ are not
 * the memory and are ignored. An unreachable remote is a state, never a throw.
 */
export async function remoteMemoryStates(git: GitRunner, localRef: string, timeoutMs: number): Promise<RemoteMemory[]> {
  const remotes = (await git.run(['remote'])).stdout.split('\n').map((r) => r.trim()).filter(Boolean);
  const name = localRef.split('/').pop()!;
  return Promise.all(
    remotes.map(async (remote): Promise<RemoteMemory> => {
      let listing: string;
      try {
        listing = (await git.run(['ls-remote', '--quiet', '--', remote, name], { timeoutMs })).stdout;
      } catch (err) {
        if (isCapsuleError(err, 'GIT_MISSING')) throw err;
        return { remote, ref: null, tip: null, state: 'unreachable', reason: gitSaid(err) };
      }
      const refs = listing.split('\n').map((l) => l.split('\t')).filter(([oid, ref]) => oid && ref && isMemoryRef(ref, localRef, name));
      if (refs.length === 0) return { remote, ref: null, tip: null, state: 'absent' };
      for (const [tip, ref] of refs) {
        const present = (await git.run(['cat-file', '-e', `${tip}^{commit}`], { okExitCodes: [1, 128] })).exitCode === 0;
        if (!present) return { remote, ref: ref!, tip: tip!, state: 'unfetched' };
      }
      return { remote, ref: refs[0]![1]!, tip: refs[0]![0]!, state: 'fetched' };
    }),
  );
}

/** The memory ref itself, or a ref of its name outside the namespaces clones and branches use. */
function isMemoryRef(ref: string, localRef: string, name: string): boolean {
  if (ref === localRef) return true;
  return ref.endsWith(`/${name}`) && !/^refs\/(heads|tags|remotes|pull|merge-requests)\//.test(ref);
}

/** What git said, the useful line of a failed ls-remote ("Could not resolve host", "Permission denied"…). */
function gitSaid(err: unknown): string {
  const stderr = isCapsuleError(err) && typeof err.data.stderr === 'string' ? err.data.stderr : err instanceof Error ? err.message : String(err);
  const lines = stderr.trim().split('\n').map((l) => l.trim()).filter(Boolean);
  return (lines.find((l) => /^(fatal|error): /.test(l)) ?? lines[lines.length - 1] ?? 'no answer').replace(/^(fatal|error): /, '');
}
