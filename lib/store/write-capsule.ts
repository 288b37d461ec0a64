import { parseCreatedAt } from '../capsule/created-at';
import type { Problem } from '../capsule/types';
import { CapsuleError } from '../errors/capsule-error';
import { withCasRetry } from './cas-retry';
import { summarizeCapsule } from './capsule-summary';
import { capsuleCommitMessage } from './commit-message';
import { runImport } from '../git/fast-import';
import { indexChange } from './index-update';
import { parseFrontmatterYaml, splitFrontmatter } from '../capsule/frontmatter';
import { capsuleDir, capsulePath, documentIn, isSafeId, legacyRetiredPath, retiredPath } from './memory-format';
import { planLayoutUpgrade } from './layout-upgrade';
import { authorKey } from './selection-index';
import { commitsOnto } from './root-commit';
import { sealDocument } from './seal-document';
import { stampIdentity } from './stamp-identity';
import type { StoreParts } from './store-parts';
import type { WriteOptions, WriteResult } from './types';

/**
 * Validates and commits one capsule document as `capsules/<yyyy-mm-dd>/<id>/capsule.md` with
 * its index update, in one commit moved by compare-and-swap; a branch of an older layout is
 * upgraded in the same commit (see planLayoutUpgrade). `replace` rewrites an existing
 * capsule in place (autosave) and commits nothing when the bytes are unchanged. Secrets are
 * redacted first (`redactCapsuleText`), so nothing built from the text carries one: the one
 * place redaction happens on the way to the branch; the result names what was redacted. The
 * document is stamped with who wrote it and sealed with this clone's key (sealDocument).
 * Throws CAPSULE_INVALID (data.problems; nothing written), CAPSULE_EXISTS, CAPSULE_RETIRED,
 * CREATED_AT_CHANGED, WRITE_CONFLICT, MEMORY_ROOT, MEMORY_FORMAT_NEWER.
 */
export async function writeCapsule(parts: StoreParts, original: string, opts: WriteOptions): Promise<WriteResult> {
  // Loaded here, not at startup: reading verbs never pay for YAML and the schema.
  const { validateCapsuleText } = await import('../capsule/validate');
  const { redactCapsuleText } = await import('./redact-capsule');
  // Every path to the memory branch (CLI, hooks, autosave) comes through here, and the branch is
  // pushed: redact first, so the blob, the index entry and the commit message are all built from
  // the redacted text.
  const { text: redacted, findings: redactions } = redactCapsuleText(original);
  const validated = validateCapsuleText(redacted);
  const problems = validated.problems;
  if (problems.length === 0 && !isSafeId(validated.fields.id)) {
    problems.push({ code: 'ID_UNSAFE', field: 'id', message: 'id must be a ULID or UUIDv7 (letters, digits and dashes only)' });
  }
  if (problems.length > 0) throw invalid(problems);
  // Who and where wrote it, from this machine's own knowledge (never from the text): selection
  // scopes resumes by it, and a synced capsule says where it came from.
  const stamped = stampIdentity(redacted, validated.fields, parts.stamp(opts.now));
  // Sealed last, over the bytes committed: "this clone's" means this seal, never the identity fields.
  const { text, fields } = sealDocument(stamped.text, stamped.fields, parts.sealKey());
  const id = fields.id as string;
  const stamp = parseCreatedAt(fields.created_at);
  if (!stamp.ok) throw invalid([stamp.problem]);
  const path = capsulePath(id);
  // Once, however many attempts the compare-and-swap takes.
  let waiting = opts.whileCommitting;
  const whileRunning = () => {
    const work = waiting;
    waiting = undefined;
    work?.();
  };

  const result = await withCasRetry<WriteResult>(parts, async () => {
    const tip = await parts.tree.tip();
    // All asked at once: the document where the layout puts it, its tombstone, and whether the layout is current.
    // A branch not yet moved to format 3 may hold the tombstone where format 2 put it.
    const [inPlace, stones, upgrade] = await Promise.all([tip === null ? null : parts.tree.text(tip, path), tip === null ? [] : Promise.all([retiredPath(id), legacyRetiredPath(id)].map((p) => parts.tree.text(tip, p))), planLayoutUpgrade(parts.tree, tip)]);
    const tombstone = stones.find((t) => t !== null) ?? null;
    const source = upgrade?.sources.get(id) ?? capsuleDir(id);
    const existing = inPlace ?? (tip !== null && source !== capsuleDir(id) ? await parts.tree.text(tip, documentIn(source)) : null);
    if (existing === null && tombstone !== null) {
      // A retired capsule written again would be dropped by the next merge anyway (its tombstone wins).
      throw new CapsuleError('CAPSULE_RETIRED', `capsule ${id} was finished and retired from the memory branch (${tombstone.trim()}); it stays in the history (git log capsules -- ${capsuleDir(id)}); to continue its work, write a new capsule with parent_capsule_id: ${id}`, { id, path: retiredPath(id) });
    }
    if (existing !== null && !opts.replace) {
      throw new CapsuleError('CAPSULE_EXISTS', `capsule ${id} already exists at ${path}; write it with replace to update it, or give the new capsule a new id`, { id, path });
    }
    if (existing === text && upgrade === null) return { done: true as const, value: { id, commit: null, path, changed: false, redactions } };
    if (existing !== null) refuseMovedCreatedAt(id, path, existing, text, stamp.epochMs);
    const events = tip !== null && existing !== null ? await parts.tree.events(tip, source) : [];
    const entry = summarizeCapsule(fields, { id, dir: capsuleDir(id) }, events);
    const index = await indexChange(parts.tree, tip, entry, existing === null ? 'none' : 'unknown', { upgrade, ...(existing === null ? {} : { previousAuthorKey: authorKey(authorOf(existing)) }) });
    const op = opts.op ?? (existing === null ? 'write' : 'replace');
    const files = new Map<string, string | null>([...(upgrade?.files ?? []), [path, text], ...index.files]);
    const outcome = await runImport(parts.git, parts.ref, commitsOnto(tip, {
      identity: parts.identity,
      epochSeconds: Math.floor(opts.now.getTime() / 1000),
      message: capsuleCommitMessage(op, entry),
      deleteDirs: [...(upgrade?.deleteDirs ?? []), ...index.deleteDirs],
      objects: upgrade?.objects,
      files,
    }), { keepPack: parts.keepPack(), whileRunning });
    return outcome.ok ? { done: true as const, value: { id, commit: outcome.commit, path, changed: true, redactions } } : { done: false as const, outcome };
  });
  if (result.changed) parts.housekeeping();
  return result;
}

/**
 * The author a stored document names (its line leaves that author's index shard). The same line
 * as the new text's in nearly every write; read with the parser only when it differs.
 */
function authorOf(text: string): string | undefined {
  const line = /^author: (.*)$/m.exec(text)?.[1];
  if (line !== undefined && /^[A-Za-z0-9][^'"#:]*$/.test(line) && line.trim() === line) return line;
  const { yaml } = splitFrontmatter(text);
  const author = yaml === null ? undefined : parseFrontmatterYaml(yaml).frontmatter?.author;
  return typeof author === 'string' ? author : undefined;
}

/**
 * created_at of a capsule never changes: selection orders by it and the index files it by its
 * day, so a replace that moves it would leave a stale index line behind (CREATED_AT_CHANGED).
 */
function refuseMovedCreatedAt(id: string, path: string, existing: string, text: string, epochMs: number): void {
  // The same line in both (every autosave): nothing to parse.
  const line = (t: string) => /^created_at:.*$/m.exec(t)?.[0];
  if (line(existing) !== undefined && line(existing) === line(text)) return;
  const { yaml } = splitFrontmatter(existing);
  const fm = yaml === null ? null : parseFrontmatterYaml(yaml).frontmatter;
  const was = fm ? parseCreatedAt(fm.created_at) : null;
  if (was && was.ok && was.epochMs !== epochMs) {
    throw new CapsuleError('CREATED_AT_CHANGED', `capsule ${id} at ${path} was created at ${String(fm!.created_at)} but this document says ${new Date(epochMs).toISOString()}; created_at of a capsule never changes — keep the original value`, { id, path, was: String(fm!.created_at), given: new Date(epochMs).toISOString() });
  }
}

function invalid(problems: Problem[]): CapsuleError {
  const summary = problems.slice(0, 3).map((p) => `${p.code}${p.field ? ` (${p.field})` : ''}`).join(', ');
  return new CapsuleError('CAPSULE_INVALID', `capsule refused, nothing written: ${summary}${problems.length > 3 ? ` and ${problems.length - 3} more` : ''}; run git capsule validate on it for details`, { problems });
}
