import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isCapsuleError } from '../errors/capsule-error';
import type { HeadDrift } from '../resume/head-drift';
import type { ObjectReader } from '../git/cat-file-batch';
import { countAheadBehind } from '../git/commit-walk';
import { createGitRunner } from '../git/git-runner';
import { filesSpeakForGit } from '../git/ref-files';
import { readRepoHead } from '../git/repo-head';
import type { RepoDirs } from '../git/repo-dirs';

const FULL_HASH = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * Measures how far the project's HEAD moved since the capsule's `repo_head`: commits on HEAD
 * not in repo_head, and the reverse. HEAD comes from the git files and the commits through the
 * store's open object reader, so a resume starts no process for it; git itself is asked only
 * where the files cannot answer for sure (reftable, grafts, replace refs, a shallow clone, an unreadable HEAD) or
 * the walk gives up (thousands of commits, a shallow boundary). Never throws: a failure is `unavailable`.
 */
export async function measureHeadDrift(repo: { readObject: ObjectReader['read']; repoDirs: () => RepoDirs }, env: NodeJS.ProcessEnv, repoHead: unknown): Promise<HeadDrift> {
  if (typeof repoHead !== 'string' || repoHead === '') return { state: 'no-repo-head' };
  if (!FULL_HASH.test(repoHead)) return { state: 'unknown-commit' };
  try {
    const dirs = repo.repoDirs();
    const objects: ObjectReader = { read: (name) => repo.readObject(name) };
    if (!filesAnswer(dirs)) return await askGit(dirs.repoDir, env, repoHead);
    const { head, branch } = readRepoHead(dirs.gitDir, dirs.commonDir);
    if (head === undefined) return await askGit(dirs.repoDir, env, repoHead);
    const known = await objects.read(repoHead);
    if (known === null) return { state: 'unknown-commit' };
    if (known.type !== 'commit') return await askGit(dirs.repoDir, env, repoHead);
    const counts = await countAheadBehind(objects, repoHead, head);
    if (counts === null) return await askGit(dirs.repoDir, env, repoHead);
    return { state: 'measured', head, branch: branch ?? null, ...counts };
  } catch (err) {
    return { state: 'unavailable', why: isCapsuleError(err) ? err.code : 'git failed' };
  }
}

/**
 * True when the git files and the object reader answer exactly what rev-list would: no reftable
 * (refs are not files), no grafts, no replace refs and no shallow boundary (rev-list honours
 * them and cuts a commit's parents, a plain object read of the commit does not).
 */
function filesAnswer(dirs: RepoDirs): boolean {
  return filesSpeakForGit(dirs.commonDir) && !existsSync(join(dirs.commonDir, 'info', 'grafts')) && !existsSync(join(dirs.commonDir, 'shallow'));
}

/** The same answer from git itself: four short processes, for the cases the files cannot settle. */
async function askGit(repoDir: string, env: NodeJS.ProcessEnv, repoHead: string): Promise<HeadDrift> {
  const git = createGitRunner({ cwd: repoDir, env });
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
}
