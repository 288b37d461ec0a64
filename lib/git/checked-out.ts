import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CapsuleError } from '../errors/capsule-error';

// Moving a branch that a worktree has checked out moves that worktree's HEAD under it: its index
// and files stay as they were, so `git status` there shows the reverse of every write, staged. git
// itself refuses (`git branch -f`, `git fetch` into it); update-ref and fast-import do not ask,
// so we do, from the HEAD files (a few small reads, no git process).

/**
 * The worktrees that have `ref` checked out (or are rebasing or bisecting it): the main one and
 * the linked ones under `<commonDir>/worktrees/`, each as its path where known, else its git dir.
 */
export function worktreesHolding(commonDir: string, ref: string, opts: { bare: boolean }): string[] {
  // A bare repository's own HEAD has no worktree under it.
  const gitDirs = opts.bare ? [] : [commonDir];
  try {
    for (const name of readdirSync(join(commonDir, 'worktrees'))) gitDirs.push(join(commonDir, 'worktrees', name));
  } catch {
    // no linked worktrees
  }
  return gitDirs.filter((gitDir) => holds(gitDir, ref)).map((gitDir) => worktreePath(gitDir, commonDir));
}

/** Throws MEMORY_REF_CHECKED_OUT when a worktree has `ref` checked out. */
export function refuseCheckedOut(commonDir: string, ref: string, opts: { bare: boolean }): void {
  const holders = worktreesHolding(commonDir, ref, opts);
  if (holders.length > 0) throw checkedOutError(ref, holders);
}

/** MEMORY_REF_CHECKED_OUT for `ref`, held by the worktrees `holders` (as worktreesHolding names them). */
export function checkedOutError(ref: string, holders: readonly string[]): CapsuleError {
  return new CapsuleError(
    'MEMORY_REF_CHECKED_OUT',
    `${ref} is checked out in ${holders.join(', ')}; git-capsule never moves a branch a worktree has checked out (that worktree's HEAD would move under its files); switch it to another branch (git switch -) and the next write goes through, with nothing lost`,
    { ref, worktrees: [...holders] },
  );
}

function holds(gitDir: string, ref: string): boolean {
  const target = `ref: ${ref}`;
  if (read(join(gitDir, 'HEAD')) === target) return true;
  // A rebase or bisect of the branch has HEAD detached, and git still counts the branch as in use.
  return ['rebase-merge/head-name', 'rebase-apply/head-name', 'BISECT_START'].some((f) => {
    const text = read(join(gitDir, f));
    return text === ref || (text !== null && `refs/heads/${text}` === ref);
  });
}

function worktreePath(gitDir: string, commonDir: string): string {
  if (gitDir === commonDir) return `the main worktree (${dirname(commonDir)})`;
  const dotGit = read(join(gitDir, 'gitdir')); // <worktree>/.git
  return dotGit ? dirname(dotGit) : gitDir;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}
