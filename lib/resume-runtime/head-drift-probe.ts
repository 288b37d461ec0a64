import { isCapsuleError } from '../errors/capsule-error';
import type { HeadDrift } from '../resume/head-drift';
import { createGitRunner } from '../git/git-runner';

const FULL_HASH = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * Measures how far the project's HEAD moved since the capsule's `repo_head` with the real git:
 * commits on HEAD not in repo_head, and the reverse. Never throws: a failure is `unavailable`.
 */
export async function measureHeadDrift(repoDir: string, env: NodeJS.ProcessEnv, repoHead: unknown): Promise<HeadDrift> {
  if (typeof repoHead !== 'string' || repoHead === '') return { state: 'no-repo-head' };
  if (!FULL_HASH.test(repoHead)) return { state: 'unknown-commit' };
  const git = createGitRunner({ cwd: repoDir, env });
  try {
    const [known, head, branch] = await Promise.all([
      git.run(['cat-file', '-e', `${repoHead}^{commit}`], { okExitCodes: [1, 128] }),
      git.run(['rev-parse', '--verify', '-q', 'HEAD'], { okExitCodes: [1] }),
      git.run(['symbolic-ref', '-q', '--short', 'HEAD'], { okExitCodes: [1] }),
    ]);
    if (head.exitCode !== 0) return { state: 'unavailable', why: 'the project has no commit at HEAD yet' };
    if (known.exitCode !== 0) return { state: 'unknown-commit' };
    const counts = await git.run(['rev-list', '--left-right', '--count', `${repoHead}...HEAD`]);
    const [behind = 0, ahead = 0] = counts.stdout.trim().split(/\s+/).map(Number);
    return { state: 'measured', head: head.stdout.trim(), branch: branch.exitCode === 0 ? branch.stdout.trim() : null, ahead, behind };
  } catch (err) {
    return { state: 'unavailable', why: isCapsuleError(err) ? err.code : 'git failed' };
  }
}
