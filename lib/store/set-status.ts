import type { CapsuleStatus } from '../capsule/types';
import { CapsuleError } from '../errors/capsule-error';
import { withCasRetry } from './cas-retry';
import { summarizeCapsule } from './capsule-summary';
import { capsuleCommitMessage } from './commit-message';
import { runImport } from '../git/fast-import';
import { findCapsule } from './find-capsule';
import { indexChange } from './index-update';
import { capsuleDir, documentIn } from './memory-format';
import { planLayoutUpgrade } from './layout-upgrade';
import { eventName, eventText, parseEventName } from './status-events';
import { checkStatusMove, isStatus, maxStatus } from './status-lattice';
import type { StoreParts } from './store-parts';
import type { StatusResult } from './types';

/**
 * Adds a status event to a capsule (one commit, compare-and-swap, retried from the new tip).
 * Setting the status it already has writes nothing (`changed: false`), so two sessions
 * consuming one capsule at once record it once. Throws STATUS_UNKNOWN, STATUS_BACKWARD,
 * NOT_FOUND, AMBIGUOUS_ID, WRITE_CONFLICT.
 */
export async function setStatus(parts: StoreParts, idOrPrefix: string, status: CapsuleStatus, opts: { writer: string; now: Date; whileRunning?: () => void }): Promise<StatusResult> {
  if (!isStatus(status)) {
    throw new CapsuleError('STATUS_UNKNOWN', `status "${String(status).slice(0, 40)}" is not one of active, paused, resumed, abandoned, resolved`, { status });
  }
  const { parseCapsule } = await import('../capsule/parse');
  const result = await withCasRetry<StatusResult>(parts, async () => {
    const tip = await parts.tree.tip();
    const [{ id, dir: source }, upgrade] = await Promise.all([findCapsule(parts.tree, tip, idOrPrefix), planLayoutUpgrade(parts.tree, tip)]);
    const [text, events] = await Promise.all([parts.tree.text(tip!, documentIn(source)), parts.tree.events(tip!, source)]);
    const fm = text === null ? {} : (parseCapsule(text).doc?.frontmatter ?? {});
    const current = maxStatus([fm.status, ...events.map((e) => e.status)]);
    if (!checkStatusMove(id, current, status)) return { done: true as const, value: { id, commit: tip!, status: current, changed: false } };
    // An older layout is moved in this same commit: the event goes where the capsule will be.
    const dir = `${upgrade === null ? source : capsuleDir(id)}/status`;
    const name = eventName({ now: opts.now, writer: opts.writer, status });
    const entry = summarizeCapsule(fm, { id, dir: upgrade === null ? source : capsuleDir(id) }, [...events, parseEventName(name, dir)!]);
    const index = await indexChange(parts.tree, tip, entry, current, { upgrade });
    const outcome = await runImport(parts.git, parts.ref, [{
      identity: parts.identity,
      epochSeconds: Math.floor(opts.now.getTime() / 1000),
      message: capsuleCommitMessage('status', entry, { 'Capsule-Status-From': current, 'Capsule-Writer': opts.writer }, `${current} -> ${status}`),
      from: tip,
      deleteDirs: [...(upgrade?.deleteDirs ?? []), ...index.deleteDirs],
      objects: upgrade?.objects,
      files: new Map<string, string | null>([...(upgrade?.files ?? []), [`${dir}/${name}`, eventText({ now: opts.now, writer: opts.writer, status })], ...index.files]),
    }], { keepPack: parts.keepPack(), whileRunning: opts.whileRunning });
    return outcome.ok ? { done: true as const, value: { id, commit: outcome.commit, status, changed: true } } : { done: false as const, outcome };
  });
  if (result.changed) parts.housekeeping();
  return result;
}
