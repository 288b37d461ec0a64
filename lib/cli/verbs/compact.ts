import { WRITE_CONFIG } from '../../git/git-env';
import { createGitRunner } from '../../git/git-runner';
import { readCachedConfig } from '../../local-state/cached-config';
import { retentionFrom } from '../../store/retention';
import { adoptCompacted, foldHistory, pushRewritten, type CompactPlan } from '../../sync/compact-history';
import { expiredKept, localHistoryDays } from '../../sync/local-history';
import { publishedRef } from '../../sync/published-ref';
import { trackingRef } from '../../sync/remote';
import { syncMemory } from '../../sync/sync-memory';
import { parseVerbArgs, usageError } from '../args';
import { EXIT, type Verb } from '../context';
import { withStore } from '../with-store';

const DAY_MS = 86_400_000;

/** `git capsule compact`: retention by hand, and, on purpose only, a rewrite of the published history. */
export const verb: Verb = {
  name: 'compact',
  summary: 'retire finished capsules, drop old local history, pack loose objects; --rewrite-remote folds old published history',
  usage: `usage: git capsule compact [--rewrite-remote [<remote>]] [--dry-run] [--json]

Without --rewrite-remote it rewrites nothing anyone else holds:
  - finished capsules (resumed, abandoned, resolved) whose last event is older than
    capsule.retireAfterDays (default 30) leave the tip in one forward commit; they stay in the
    history, and their tombstones (retired/…) keep every merge from bringing them back; tombstones
    older than capsule.keepHistoryDays (default 90) are forgotten
  - the per-turn history syncs replaced, kept under refs/capsule-history/, goes once older than
    capsule.localHistoryDays (default 14)
  - loose objects are packed (git maintenance run --task=loose-objects)
  - it says how much published history is older than capsule.keepHistoryDays
Sync does the first of these on its own before every push.

--rewrite-remote [<remote>]   syncs, then REWRITES refs/capsules/<name> on <remote> (default
              origin): every commit older than capsule.keepHistoryDays is folded into one commit
              holding the state at that point, later ones keep their trees, messages and dates.
              Pushed with --force-with-lease, so a push someone made meanwhile is never
              overwritten. Other clones lose nothing: their next sync publishes their own state on
              top of the new history, and their old one stays local under refs/capsule-history/.
--dry-run     say what would happen; nothing moves
--json        print { retired, forgotten, localHistoryDropped, published: { olderThanHorizon },
              rewrite: { remote, ref, folded, kept, from, to } | null }`,
  async run(args, ctx) {
    const { values, positionals } = parseVerbArgs('compact', args, { 'rewrite-remote': { type: 'boolean' }, 'dry-run': { type: 'boolean' }, json: { type: 'boolean' } });
    if (positionals.length > (values['rewrite-remote'] ? 1 : 0)) throw usageError('compact', values['rewrite-remote'] ? 'expected at most one <remote>' : 'takes no arguments without --rewrite-remote');
    const dryRun = values['dry-run'] === true;
    const now = ctx.now();
    const remote = values['rewrite-remote'] ? (positionals[0] ?? 'origin') : null;
    if (remote !== null && !dryRun) await syncMemory({ cwd: ctx.cwd, env: ctx.env, remote, now: () => now });
    return withStore(ctx, async (store) => {
      const git = createGitRunner({ cwd: store.repoDir, env: ctx.env });
      const config = (await readCachedConfig(git)).values;
      const retention = retentionFrom(config);
      const keepDays = localHistoryDays(config);
      const retired = dryRun ? { retired: [], forgotten: 0 } : await store.retire({ now, retention });
      const dropped = await expiredKept(git, store.ref, now, keepDays);
      if (!dryRun && dropped.length > 0) await git.run([...WRITE_CONFIG, 'update-ref', '--stdin'], { input: dropped.map((r) => `delete ${r}\n`).join('') });
      if (!dryRun) for (let run = 0; run < 2; run += 1) await git.run([...WRITE_CONFIG, 'maintenance', 'run', '--task=loose-objects', '--quiet'], { okExitCodes: [1, 128] });
      const tip = await store.tip();
      const before = Math.floor((now.getTime() - retention.keepHistoryDays * DAY_MS) / 1000);
      const remoteRef = publishedRef(store.ref);
      const scratch = trackingRef(remote ?? 'origin', remoteRef).replace(/^refs\/capsule-remotes\//, 'refs/capsule-scratch/');
      const plan: CompactPlan = tip === null ? { horizon: null, folded: 0, kept: 0, tip: null } : await foldHistory(git, { tip, before, scratch, identity: store.identity, dryRun: dryRun || remote === null });
      let rewrite: { remote: string; ref: string; folded: number; kept: number; from: string; to: string | null } | null = null;
      if (remote !== null && plan.horizon !== null && plan.folded > 1) {
        rewrite = { remote, ref: remoteRef, folded: plan.folded, kept: plan.kept, from: tip!, to: plan.tip };
        if (!dryRun && plan.tip !== null) {
          await pushRewritten(git, remote, { source: plan.tip, ref: remoteRef, expected: tip! });
          await adoptCompacted(git, { ref: store.ref, from: tip!, to: plan.tip, now, keepDays, scratch });
          await git.run([...WRITE_CONFIG, 'update-ref', '-m', 'capsule compact', trackingRef(remote, remoteRef), plan.tip]);
        }
      }
      const report = { retired: retired.retired.length, forgotten: retired.forgotten, localHistoryDropped: dropped.length, published: { olderThanHorizon: plan.horizon === null ? 0 : plan.folded }, rewrite };
      if (values.json) ctx.stdout(`${JSON.stringify(report)}\n`);
      else ctx.stdout(`${describe(report, { dryRun, keepHistoryDays: retention.keepHistoryDays })}\n`);
      return EXIT.OK;
    });
  },
};

function describe(r: { retired: number; forgotten: number; localHistoryDropped: number; published: { olderThanHorizon: number }; rewrite: { remote: string; ref: string; folded: number; kept: number } | null }, o: { dryRun: boolean; keepHistoryDays: number }): string {
  const would = o.dryRun ? 'would ' : '';
  const lines = [`${would}retire ${r.retired} finished capsule${r.retired === 1 ? '' : 's'} (they stay in the history), ${would}forget ${r.forgotten} old tombstone${r.forgotten === 1 ? '' : 's'}, ${would}drop ${r.localHistoryDropped} kept local tip${r.localHistoryDropped === 1 ? '' : 's'}`];
  if (r.rewrite) {
    lines.push(`${o.dryRun ? 'would rewrite' : 'REWROTE'} ${r.rewrite.ref} on ${r.rewrite.remote}: ${r.rewrite.folded} commits older than ${o.keepHistoryDays} days folded into one, ${r.rewrite.kept} later ones kept; other clones' next sync carries their own changes over, and nothing of theirs is lost`);
  } else if (r.published.olderThanHorizon > 1) {
    lines.push(`${r.published.olderThanHorizon} commits of the memory history are older than ${o.keepHistoryDays} days (capsule.keepHistoryDays); to drop them from a remote too, which rewrites what every clone holds: git capsule compact --rewrite-remote <remote>`);
  }
  return lines.join('\n');
}
