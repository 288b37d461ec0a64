import { inert } from '../capsule/inert';

/** How the project's HEAD relates to the capsule's `repo_head`, as the runtime measured it with git. */
export type HeadDrift =
  | { state: 'no-repo-head' }
  | { state: 'measured'; head: string; branch: string | null; ahead: number; behind: number }
  | { state: 'unknown-commit' }
  | { state: 'unavailable'; why: string };

/** The `project HEAD` line: how many commits HEAD moved since the capsule was written. */
export function renderHeadDrift(repoHead: unknown, drift: HeadDrift): string {
  const since = `repo_head ${inert(repoHead, { max: 64 })}`;
  switch (drift.state) {
    case 'no-repo-head':
      return 'project HEAD: the capsule recorded no repo_head, so how far the project moved is unknown; check git log.';
    case 'unknown-commit':
      return `project HEAD: ${since} is not a commit in this repository (rewritten, not fetched, or another repository); check git log.`;
    case 'unavailable':
      return `project HEAD: not measured (${inert(drift.why, { max: 120 })}).`;
    case 'measured': {
      const now = `HEAD is now ${inert(drift.head.slice(0, 12))}${drift.branch ? ` on ${inert(drift.branch, { max: 80 })}` : ' (detached)'}`;
      if (drift.ahead === 0 && drift.behind === 0) return `project HEAD: unchanged since ${since}; ${now}.`;
      const moved = `${drift.ahead} commit${drift.ahead === 1 ? '' : 's'} since ${since}`;
      if (drift.behind === 0) return `project HEAD: moved ${moved}; ${now}. Read them (git log) before acting.`;
      return `project HEAD: moved ${moved}, and ${drift.behind} commit${drift.behind === 1 ? '' : 's'} of repo_head are not on HEAD (another branch or rewritten history); ${now}.`;
    }
  }
}
