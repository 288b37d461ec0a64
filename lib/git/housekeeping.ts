import type { GitRunner } from './git-runner';

/**
 * fast-import and plumbing never pack, and lost races leave unreachable objects, so writes
 * start `git gc --auto` (detached, never waited for). It only acts past ~6,700 loose objects
 * (hundreds of writes), so checking after one write in `every` keeps that bound while most
 * writes skip the cost of one more process start.
 */
export function scheduleGcAuto(git: GitRunner, opts: { every?: number; random?: () => number } = {}): boolean {
  const every = opts.every ?? 8;
  if ((opts.random ?? Math.random)() * every >= 1) return false;
  git.background?.(['gc', '--auto', '--quiet']);
  return true;
}
