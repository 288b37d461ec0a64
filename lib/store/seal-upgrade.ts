import { sealCapsuleText, checkSeal } from '../capsule/seal';
import { readReflog } from '../git/reflog';
import { runImport } from '../git/fast-import';
import { withCasRetry } from './cas-retry';
import { opCommitMessage } from './commit-message';
import { ANY_LAYOUT_DOCUMENT } from './layout-paths';
import type { StoreParts } from './store-parts';

// Every move sync makes of the memory ref says so in its reflog line (lib/sync: `capsule sync…`):
// those bring in what a remote holds, never what this clone wrote.
const SYNC_MOVE = /^capsule sync/;

/**
 * Seals, once, the capsules this clone wrote before seals existed (issue 36: upgrading loses
 * nothing). Which ones, its own local history says: every move of the memory ref in its reflog
 * that put one local commit on top of the tip it had (its parent is the old value, and no sync
 * made the move) wrote the capsule documents that commit added or changed; a document moved
 * unchanged (a layout upgrade) proves nothing. Documents at the tip whose blob is one of those
 * and that carry no seal are sealed in one commit. What a remote brought in, a merge, or a
 * fast-forward is never sealed. Returns how many it sealed. Throws WRITE_CONFLICT, GIT_FAILED.
 */
export async function sealOwnHistory(parts: StoreParts, opts: { commonDir: string; now: Date }): Promise<{ sealed: number; commit: string | null }> {
  const local = readReflog(opts.commonDir, parts.ref).filter((e) => !SYNC_MOVE.test(e.message) && !/^0+$/.test(e.old));
  if (local.length === 0) return { sealed: 0, commit: null };
  const written = await blobsWrittenBy(parts, local.map((e) => ({ commit: e.next, parent: e.old })));
  if (written.size === 0) return { sealed: 0, commit: null };
  const key = parts.sealKey();
  return withCasRetry<{ sealed: number; commit: string | null }>(parts, async () => {
    const tip = await parts.tree.tip();
    if (tip === null) return { done: true as const, value: { sealed: 0, commit: null } };
    const files = new Map<string, string>();
    for (const { path, oid } of await documentsAt(parts, tip)) {
      if (!written.has(oid)) continue;
      const text = await parts.tree.blobText(oid);
      if (text === null || checkSeal(text, key) !== 'absent') continue;
      const sealed = sealCapsuleText(text, key);
      if (sealed !== null) files.set(path, sealed);
    }
    if (files.size === 0) return { done: true as const, value: { sealed: 0, commit: null } };
    const outcome = await runImport(parts.git, parts.ref, [{
      identity: parts.identity,
      epochSeconds: Math.floor(opts.now.getTime() / 1000),
      message: opCommitMessage('seal', `${files.size} capsules this clone wrote before seals existed`),
      from: tip,
      files,
    }], { keepPack: parts.keepPack() });
    return outcome.ok ? { done: true as const, value: { sealed: files.size, commit: outcome.commit } } : { done: false as const, outcome };
  });
}

/** Blob ids of the capsule documents the given local commits added or changed (each against the parent its reflog line names). */
async function blobsWrittenBy(parts: StoreParts, moves: ReadonlyArray<{ commit: string; parent: string }>): Promise<Set<string>> {
  const expected = new Map(moves.map((m) => [m.commit, m.parent]));
  const out = await parts.git.run(['log', '--stdin', '--no-walk=unsorted', '--format=%x01%H %P', '--raw', '--no-abbrev', '--no-renames', '--'], { input: `${[...expected.keys()].join('\n')}\n`, okExitCodes: [128] });
  const blobs = new Set<string>();
  if (out.exitCode !== 0) return blobs; // a commit gc'd away: nothing of it can be proven
  for (const record of out.stdout.split('\x01').slice(1)) {
    const [head = '', ...lines] = record.split('\n');
    const [commit, ...parents] = head.trim().split(' ');
    // One parent, and the one the ref held before: a commit this clone made on its own tip.
    if (parents.length !== 1 || expected.get(commit!) !== parents[0]) continue;
    const removed = new Set<string>();
    const added: string[] = [];
    for (const line of lines) {
      const m = /^:\d+ \d+ ([0-9a-f]+) ([0-9a-f]+) ([AMD])\t(.+)$/.exec(line);
      if (!m || !ANY_LAYOUT_DOCUMENT.test(m[4]!)) continue;
      if (m[3] === 'D' || m[3] === 'M') removed.add(m[1]!);
      if (m[3] !== 'D') added.push(m[2]!);
    }
    // A blob that only changed place (removed at one path, added at another) is a move, not a write.
    for (const oid of added) if (!removed.has(oid)) blobs.add(oid);
  }
  return blobs;
}

/** Every capsule document at `rev`: path and blob id (one `ls-tree`). */
async function documentsAt(parts: StoreParts, rev: string): Promise<Array<{ path: string; oid: string }>> {
  const out = await parts.git.run(['ls-tree', '-r', '-z', '--full-tree', rev, '--', 'capsules']);
  const docs: Array<{ path: string; oid: string }> = [];
  for (const record of out.stdout.split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(record);
    if (m && ANY_LAYOUT_DOCUMENT.test(m[2]!) && m[2]!.endsWith('/capsule.md')) docs.push({ path: m[2]!, oid: m[1]! });
  }
  return docs;
}
