import { createHash } from 'node:crypto';
import { CapsuleError, isCapsuleError } from '../errors/capsule-error';
import { WRITE_CONFIG } from '../git/git-env';
import { remoteNamesIn } from '../git/config-sources';
import type { GitRunner } from '../git/git-runner';
import { headBranchFromFile } from '../git/ref-files';

/** Where fetched memory refs are kept: out of refs/remotes so `git branch -r` stays clean. */
export const TRACKING_NAMESPACE = 'refs/capsule-remotes';

/** Network calls get longer than local ones: a slow forge is not a stuck lock. */
const REMOTE_TIMEOUT_MS = 120_000;

/** What the config snapshot and the git dir already know, so picking the remote starts no git (three processes before). */
export interface KnownRemoteConfig {
  /** The config values as capsuleValues keeps them (remote names, `branch.<name>.remote`). */
  values: Readonly<Record<string, string>>;
  /** The worktree's git dir, whose HEAD file names the current branch. */
  gitDir: string;
}

/**
 * The remote to sync with: the one given, else the remote of the current branch's upstream,
 * else `origin`. With `known`, answered from the config snapshot and the HEAD file; git is asked
 * only for what they cannot say (no remote in the config files, a HEAD file git must judge).
 * Throws GIT_FAILED, NO_REMOTE.
 */
export async function resolveSyncRemote(git: GitRunner, explicit: string | undefined, known?: KnownRemoteConfig): Promise<string> {
  if (explicit !== undefined && explicit !== '') return explicit;
  const remotes = (known && remoteNamesIn(known.values)) ?? (await git.run(['remote'])).stdout.split('\n').map((r) => r.trim()).filter(Boolean);
  if (remotes.length === 0) {
    throw new CapsuleError(
      'NO_REMOTE',
      'this repository has no remote to sync the memory branch with (git remote -v lists none), so capsules stay on this machine; add one (git remote add origin <url>) and run git capsule sync again, or name a URL or path: git capsule sync <url>',
      {},
    );
  }
  const name = await currentBranch(git, known);
  if (name !== null) {
    const value = known ? (known.values[`branch.${name}.remote`] ?? '').trim() : (await git.run(['config', '--get', `branch.${name}.remote`], { okExitCodes: [1] })).stdout.trim();
    // "." means the upstream is a local branch: nothing to sync with there.
    if (value !== '' && value !== '.') return value;
  }
  if (!remotes.includes('origin')) {
    throw new CapsuleError(
      'NO_REMOTE',
      `no remote named origin and the current branch has no upstream to pick one; this repository has ${remotes.join(', ')}: name one, git capsule sync ${remotes[0]}`,
      { remotes },
    );
  }
  return 'origin';
}

/** The branch HEAD names, or null when it is detached: from the HEAD file where it can say, else `git symbolic-ref`. */
async function currentBranch(git: GitRunner, known: KnownRemoteConfig | undefined): Promise<string | null> {
  const fromFile = known ? headBranchFromFile(known.gitDir) : undefined;
  if (fromFile !== undefined) return fromFile;
  const branch = await git.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], { okExitCodes: [1, 128] });
  const name = branch.stdout.trim();
  return branch.exitCode === 0 && name !== '' ? name : null;
}

/**
 * The remote-tracking ref for `ref` fetched from `remote`: `refs/capsule-remotes/<remote>/<ref
 * without refs/>`; a URL (not a configured name) gets `url-<hash>` so it stays a valid ref name.
 */
export function trackingRef(remote: string, ref: string): string {
  const safe = /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(remote) && !remote.endsWith('.lock') ? remote : `url-${createHash('sha256').update(remote).digest('hex').slice(0, 16)}`;
  return `${TRACKING_NAMESPACE}/${safe}/${ref.replace(/^refs\//, '')}`;
}

/** The remote's commit for each of `refs` it has (one `ls-remote`). Throws REMOTE_UNREACHABLE. */
export async function lsRemote(git: GitRunner, remote: string, refs: readonly string[]): Promise<Map<string, string>> {
  const out = await remoteCall(git, remote, ['ls-remote', '--quiet', '--', remote, ...refs]);
  const found = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [oid, name] = line.split('\t');
    if (name !== undefined && refs.includes(name) && oid) found.set(name, oid);
  }
  return found;
}

/**
 * Fetches each `ref` from `remote` into its `into` (forced: a tracking ref follows the remote),
 * or, with `into` null, only the objects (dry run: no ref moves), in one fetch. Throws
 * REMOTE_UNREACHABLE.
 */
export async function fetchMemoryRefs(git: GitRunner, remote: string, pairs: ReadonlyArray<{ ref: string; into: string | null }>): Promise<void> {
  if (pairs.length === 0) return;
  const refspecs = pairs.map(({ ref, into }) => (into === null ? ref : `+${ref}:${into}`));
  // An empty --refmap keeps fetch from also moving refs/remotes/<remote>/… (a dry run moves no ref).
  await remoteCall(git, remote, [...WRITE_CONFIG, 'fetch', '--quiet', '--refmap=', '--no-tags', '--no-recurse-submodules', '--no-write-fetch-head', '--no-auto-gc', '--', remote, ...refspecs]);
}

/** What a push did: moved the remote ref, or lost a race to another pusher. */
export type PushOutcome = { ok: true; stderr: string } | { ok: false; reason: string; stderr: string };

/**
 * Pushes the commit `source` to `ref` on `remote` without force (`<commit>:<ref>`: the commit
 * the sync built, never whatever a hook committed on top of it since) and without running the
 * user's hooks. A non-fast-forward or a ref-lock failure is a lost race (`{ ok: false }`);
 * any other refusal throws PUSH_REJECTED; a transport failure throws REMOTE_UNREACHABLE.
 */
export async function pushMemoryRef(git: GitRunner, remote: string, push: { source: string; ref: string }): Promise<PushOutcome> {
  const { source, ref } = push;
  const args = [...WRITE_CONFIG, 'push', '--porcelain', '--no-verify', '--quiet', '--', remote, `${source}:${ref}`];
  let out;
  try {
    out = await git.run(args, { okExitCodes: [1], timeoutMs: REMOTE_TIMEOUT_MS });
  } catch (err) {
    if (isCapsuleError(err, 'GIT_MISSING')) throw err;
    throw unreachable(remote, err);
  }
  const line = out.stdout.split('\n').find((l) => (l.split('\t')[1] ?? '').endsWith(`:${ref}`));
  if (line === undefined) {
    if (out.exitCode === 0) return { ok: true, stderr: out.stderr };
    throw unreachable(remote, out.stderr);
  }
  if (!line.startsWith('!')) return { ok: true, stderr: out.stderr };
  const summary = line.split('\t')[2] ?? '';
  if (/fetch first|non-fast-forward|stale info|lock|failed to update|but expected/i.test(summary)) return { ok: false, reason: summary, stderr: out.stderr };
  throw new CapsuleError('PUSH_REJECTED', `${remote} refused the memory branch ${ref}: ${summary}; check the remote's branch protection or hooks for ${ref}`, { remote, ref, summary, stderr: out.stderr });
}

async function remoteCall(git: GitRunner, remote: string, args: string[]): Promise<string> {
  try {
    return (await git.run(args, { timeoutMs: REMOTE_TIMEOUT_MS })).stdout;
  } catch (err) {
    if (isCapsuleError(err, 'GIT_MISSING')) throw err;
    throw unreachable(remote, err);
  }
}

/** REMOTE_UNREACHABLE from a failed call (its error, or stderr text), keeping the cause. */
function unreachable(remote: string, failure: unknown): CapsuleError {
  const stderr = typeof failure === 'string' ? failure : isCapsuleError(failure) ? String(failure.data.stderr ?? failure.message) : String(failure);
  // git's first fatal line says what went wrong; the lines after it are advice ("…and the repository exists.").
  const lines = stderr.trim().split('\n').map((l) => l.trim()).filter(Boolean);
  const last = (lines.find((l) => /^(fatal|error): /.test(l)) ?? lines[lines.length - 1] ?? 'no message').replace(/^(fatal|error): /, '');
  return new CapsuleError(
    'REMOTE_UNREACHABLE',
    `cannot reach remote ${JSON.stringify(remote)}: ${last}; check the name (git remote -v), the network and your credentials, then run git capsule sync again. Nothing was changed locally.`,
    { remote, stderr },
    typeof failure === 'string' ? {} : { cause: failure },
  );
}
