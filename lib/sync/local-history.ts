import { utcSortKey } from '../capsule/created-at';
import type { GitRunner } from '../git/git-runner';

/**
 * Where the local per-turn history is kept once a sync has published its state: one ref per
 * replaced tip, `refs/capsule-history/<memory ref without refs/>/<UTC stamp>-<commit>`. Local
 * only (no push or default fetch moves it); `git log` on it shows every turn's commit.
 */
export const HISTORY_NAMESPACE = 'refs/capsule-history';

/** How long the local per-turn history is kept unless `capsule.localHistoryDays` says otherwise. */
export const DEFAULT_LOCAL_HISTORY_DAYS = 14;

/** The ref that keeps `commit`, the local tip a sync replaced at `now`. */
export function historyRef(localRef: string, now: Date, commit: string): string {
  return `${historyPrefix(localRef)}/${utcSortKey(now.getTime())}-${commit.slice(0, 12)}`;
}

/** The folder of one memory ref's kept history. */
export function historyPrefix(localRef: string): string {
  return `${HISTORY_NAMESPACE}/${localRef.replace(/^refs\//, '')}`;
}

/** `capsule.localHistoryDays` from the config values (keys lower-cased): whole days ≥ 0 (0 keeps nothing), else the default. */
export function localHistoryDays(values: Readonly<Record<string, string>>): number {
  const raw = values['capsule.localhistorydays'];
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_LOCAL_HISTORY_DAYS;
}

/** The kept tips older than `days` at `now` (by the stamp in their names), to delete. */
export function expiredHistory(refs: ReadonlyArray<{ ref: string; oid: string }>, prefix: string, now: Date, days: number): Array<{ ref: string; oid: string }> {
  const horizon = utcSortKey(now.getTime() - days * 86_400_000);
  return refs.filter((r) => r.ref.startsWith(`${prefix}/`) && r.ref.slice(prefix.length + 1) < horizon);
}

/** The kept local tips of `ref` older than `days` at `now`, by name (one `for-each-ref`). Throws GIT_FAILED. */
export async function expiredKept(git: GitRunner, ref: string, now: Date, days: number): Promise<string[]> {
  const prefix = historyPrefix(ref);
  const out = await git.run(['for-each-ref', '--format=%(refname) %(objectname)', `${prefix}/`]);
  const refs = out.stdout.split('\n').filter(Boolean).map((l) => ({ ref: l.split(' ')[0]!, oid: l.split(' ')[1]! }));
  return expiredHistory(refs, prefix, now, days).map((r) => r.ref);
}
