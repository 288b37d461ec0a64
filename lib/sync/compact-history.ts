import { CapsuleError, isCapsuleError } from '../errors/capsule-error';
import { FAST_IMPORT_ARGS } from '../git/fast-import';
import { WRITE_CONFIG, type GitIdentity } from '../git/git-env';
import type { GitRunner } from '../git/git-runner';
import { keepRef, moveRef } from './local-moves';

/** What folding old history did, or would do. */
export interface CompactPlan {
  /** The newest commit older than the horizon: everything up to it is folded into one commit. */
  horizon: string | null;
  /** Commits folded away (the first-parent line up to the horizon, root excluded). */
  folded: number;
  /** Commits after the horizon, kept as they were (new ids, same trees, messages and dates). */
  kept: number;
  /** The new tip (null on a dry run or when there is nothing to fold). */
  tip: string | null;
}

const FIELD = '\x00';
const RECORD = '\x1e';

/**
 * The memory line with everything older than `before` (epoch seconds) folded into one commit on
 * the shared root: that commit holds the state at the horizon, and every later first-parent
 * commit follows with its own tree, message, author and dates (a merge becomes a commit whose
 * tree is the merge result). Retired capsules older than the horizon leave the history with it;
 * nothing at the tip changes. Built on a scratch ref; nothing else moves. Throws GIT_FAILED.
 */
export async function foldHistory(git: GitRunner, input: { tip: string; before: number; scratch: string; identity: GitIdentity; dryRun?: boolean }): Promise<CompactPlan> {
  const { tip, before, scratch, identity } = input;
  const line = (await git.run(['rev-list', '--first-parent', '--format=%H %ct %P', tip, '--'])).stdout.split('\n').filter((l) => l && !l.startsWith('commit '));
  const commits = line.map((l) => { const [oid = '', ct = '0', ...parents] = l.split(' '); return { oid, time: Number(ct), root: parents.length === 0 }; });
  const at = commits.findIndex((c) => c.time < before && !c.root);
  if (at < 0) return { horizon: null, folded: 0, kept: commits.length - 1, tip: null };
  const horizon = commits[at]!;
  const root = commits[commits.length - 1]!;
  const plan: CompactPlan = { horizon: horizon.oid, folded: commits.length - 1 - at, kept: at, tip: null };
  if (input.dryRun) return plan;
  const later = at === 0 ? '' : (await git.run(['log', '--first-parent', '--reverse', '--date=raw', '--format=%T%x00%an <%ae> %ad%x00%cn <%ce> %cd%x00%B%x1e', `${horizon.oid}..${tip}`, '--'])).stdout;
  const treeOf = (await git.run(['rev-parse', `${horizon.oid}^{tree}`])).stdout.trim();
  const who = `${identity.name} <${identity.email}> ${horizon.time} +0000`;
  const message = `compact: ${plan.folded} commits up to ${new Date(horizon.time * 1000).toISOString().slice(0, 10)} folded into this one\n\nIt holds the state of ${horizon.oid}; the history before it is no longer published.\n\nCapsule-Op: compact\nCapsule-Compacted-From: ${horizon.oid}\n`;
  const parts = [`commit ${scratch}\nmark :1\nauthor ${who}\ncommitter ${who}\n${data(message)}from ${root.oid}\nM 040000 ${treeOf} ""\n\n`];
  let mark = 1;
  for (const record of later.split(RECORD).map((r) => r.replace(/^\n/, '')).filter((r) => r.includes(FIELD))) {
    const [tree, author, committer, body = ''] = record.split(FIELD);
    mark += 1;
    parts.push(`commit ${scratch}\nmark :${mark}\nauthor ${author}\ncommitter ${committer}\n${data(body.endsWith('\n') ? body : `${body}\n`)}from :${mark - 1}\nM 040000 ${tree} ""\n\n`);
  }
  parts.push(`get-mark :${mark}\ndone\n`);
  const out = await git.run([...FAST_IMPORT_ARGS, '--force'], { input: parts.join('') });
  plan.tip = out.stdout.trim().split('\n').pop() ?? null;
  return plan;
}

/**
 * Pushes a rewritten memory line over the remote's, only if the remote still holds `expected`
 * (`--force-with-lease`): a push someone made meanwhile is never overwritten. Throws
 * PUSH_REJECTED (the remote moved: sync, then compact again), REMOTE_UNREACHABLE.
 */
export async function pushRewritten(git: GitRunner, remote: string, push: { source: string; ref: string; expected: string }): Promise<void> {
  try {
    await git.run([...WRITE_CONFIG, 'push', '--porcelain', '--no-verify', '--quiet', `--force-with-lease=${push.ref}:${push.expected}`, '--', remote, `${push.source}:${push.ref}`], { timeoutMs: 120_000 });
  } catch (err) {
    const stderr = isCapsuleError(err) ? String(err.data.stderr ?? '') : String(err);
    throw new CapsuleError('PUSH_REJECTED', `${remote} did not take the compacted ${push.ref}: ${stderr.trim().split('\n').pop() ?? 'no message'}; it moved since the sync this compaction started from, so nothing was overwritten: run git capsule compact --rewrite-remote again`, { remote, ref: push.ref, stderr }, { cause: err });
  }
}

/** Moves the local memory ref onto the compacted line, keeping the line it replaces under the local history refs. */
export async function adoptCompacted(git: GitRunner, input: { ref: string; from: string; to: string; now: Date; keepDays: number; scratch: string }): Promise<{ kept: string | null }> {
  const keep = keepRef(input.ref, input.from, input.now, Math.max(1, input.keepDays));
  const moved = await moveRef(git, { ref: input.ref, to: input.to, from: input.from, keep, drop: [input.scratch] });
  if (!moved.ok) throw new CapsuleError('WRITE_CONFLICT', `could not move ${input.ref} onto the compacted history: it changed meanwhile (${moved.reason.trim().split('\n').pop()}); the remote already has the compacted history: run git capsule sync`, { ref: input.ref, reason: moved.reason });
  return { kept: keep };
}

function data(text: string): string {
  return `data ${Buffer.byteLength(text, 'utf8')}\n${text}\n`;
}
