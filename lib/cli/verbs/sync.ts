import { syncMemory, type SyncReport } from '../../sync/sync-memory';
import type { SyncCounts } from '../../sync/move-counts';
import { REFUSAL_TEXT } from '../../sync/incoming-check';
import { parseVerbArgs, usageError } from '../args';
import { EXIT, type Verb } from '../context';

/** `git capsule sync [remote]`: fetch, merge and push the memory branch. */
export const verb: Verb = {
  name: 'sync',
  summary: "merge the memory branch with a remote's and push it back (never a force push)",
  usage: `usage: git capsule sync [<remote>] [--dry-run] [--no-push] [--quiet] [--json]

  <remote>    a remote name or URL; default: the remote of the current branch's upstream, else origin
  --dry-run   fetch and show what would move; no ref moves, here or on the remote
  --no-push   fetch and merge only (what the post-merge hook runs)
  --quiet     print nothing when the sync succeeds
  --json      print the report: { remote, ref, remoteRef, trackingRef, action, local, remoteTip,
              pushed, published, localCommits, keptLocal, legacy, attempts, incoming, outgoing,
              resolutions, refused: [{ reason, count, paths }] }

On the remote the memory lives at refs/capsules/<name> (refs/heads/capsules is published as
refs/capsules/capsules), which a plain git clone or git fetch never downloads. It is fetched into
refs/capsule-remotes/<remote>/…, merged (a union: every capsule and status event of both sides;
two versions of one capsule keep the newer updated_at), and this clone's state is pushed as one
publish commit on top of the remote's (holding the union when both sides moved), not one commit
per turn; the replaced
local tip stays under refs/capsule-history/… for capsule.localHistoryDays (default 14). A
branch an older git-capsule pushed to <ref> itself is merged in and never written. A push
rejected because someone pushed meanwhile is retried after a fresh fetch and merge; nothing is
force-pushed. The remote is one more writer, not the truth: a fast-forward that would delete
local capsule files, replace a document with an older version, or bring an index its documents
and status events do not give is taken with a repair commit on top (pushed back), paths git fsck
refuses are left out of everything merged or pushed, and sync prints a "refused" line per kind.
Exit 1 with REMOTE_UNREACHABLE when the remote cannot be reached (nothing changes locally),
SYNC_RACE_LOST when the remote kept moving, MEMORY_REF_CHECKED_OUT when a worktree has the
memory branch checked out (nothing moves).`,
  async run(args, ctx) {
    const { values, positionals } = parseVerbArgs('sync', args, {
      'dry-run': { type: 'boolean' },
      'no-push': { type: 'boolean' },
      quiet: { type: 'boolean' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 1) throw usageError('sync', 'expected at most one <remote>');
    const report = await syncMemory({
      cwd: ctx.cwd,
      env: ctx.env,
      remote: positionals[0],
      dryRun: values['dry-run'] === true,
      push: values['no-push'] !== true,
      progress: ctx.isTTY && !values.quiet && !values.json ? (line) => ctx.stderr(`${line}\n`) : undefined,
    });
    if (values.json) ctx.stdout(`${JSON.stringify(report, null, 2)}\n`);
    else if (!values.quiet) ctx.stdout(`${describeSync(report)}\n`);
    return EXIT.OK;
  },
};

/** One or two lines saying what the sync did, in the user's terms, then one line per kind of refusal. */
export function describeSync(r: SyncReport): string {
  const legacy = r.legacy === null ? '' : `\n${r.remote} also has ${r.legacy.ref}, pushed by an older git-capsule${r.legacy.absorbed ? ' (merged in now)' : ''}; every plain git clone downloads it, and nothing writes it any more`;
  const refused = r.refused.map((f) => `\nrefused from ${r.remote}: ${f.count} ${REFUSAL_TEXT[f.reason]}: ${f.paths.map((p) => JSON.stringify(p)).join(', ')}${f.count > f.paths.length ? ', …' : ''}`);
  return describeAction(r) + legacy + refused.join('');
}

function describeAction(r: SyncReport): string {
  const would = r.dryRun ? 'would ' : '';
  const short = (c: string | null) => (c === null ? 'nothing' : c.slice(0, 12));
  const folded = r.pushed && r.localCommits > r.published ? `, ${plural(r.published, 'commit')} for ${plural(r.localCommits, 'local commit')}` : '';
  switch (r.action) {
    case 'nothing':
      return `nothing to sync: neither this clone nor ${r.remote} has ${r.ref} yet (write a capsule first)`;
    case 'up-to-date':
      return `${r.ref} is up to date with ${r.remote} (${short(r.local.after)})`;
    case 'push':
      return `${r.dryRun ? 'would push' : r.pushed ? 'pushed' : 'ready to push'} ${r.ref} to ${r.remote} as ${r.remoteRef}: ${counts(r.outgoing)}${folded} (${short(r.remoteTip.before)} → ${short(r.pushed ? r.remoteTip.after : r.local.before)})`;
    case 'fast-forward':
      return `${would}fast-forward ${r.ref} from ${r.remote}: ${counts(r.incoming)} (${short(r.local.before)} → ${short(r.remoteTip.before)})`;
    case 'merge': {
      const head = `${would}merge ${r.ref} with ${r.remote}: receive ${counts(r.incoming)}; send ${counts(r.outgoing)}`;
      const tail = r.dryRun ? '' : `\n${r.pushed ? 'pushed' : 'merged locally, not pushed'} ${short(r.local.after)}${folded}${r.attempts > 1 ? ` after ${r.attempts} attempts` : ''}`;
      return head + tail;
    }
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function counts(c: SyncCounts): string {
  const parts = [plural(c.capsules, 'capsule'), plural(c.events, 'status event')];
  if (c.changed > 0) parts.push(`${c.changed} changed`);
  return parts.join(', ');
}
