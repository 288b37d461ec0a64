import { parseCreatedAt } from '../capsule/created-at';
import type { Problem } from '../capsule/types';
import { CapsuleError } from '../errors/capsule-error';
import { withCasRetry } from './cas-retry';
import { summarizeCapsule } from './capsule-summary';
import { capsuleCommitMessage } from './commit-message';
import { runImport } from '../git/fast-import';
import { scheduleGcAuto } from '../git/housekeeping';
import { indexChange } from './index-update';
import { capsulePath, isSafeId, monthOf } from './memory-format';
import { commitsOnto } from './root-commit';
import type { StoreParts } from './store-parts';
import type { WriteResult } from './types';

/**
 * Validates and commits one capsule document as `capsules/<yyyy>/<mm>/<id>/capsule.md` with
 * its index update, in one commit moved by compare-and-swap. `replace` rewrites an existing
 * capsule in place (autosave) and commits nothing when the bytes are unchanged. Secrets are
 * redacted first (`redactCapsuleText`), so nothing built from the text carries one: the one
 * place redaction happens on the way to the branch; the result names what was redacted.
 * Throws CAPSULE_INVALID (data.problems; nothing written), CAPSULE_EXISTS, WRITE_CONFLICT, MEMORY_ROOT.
 */
export async function writeCapsule(parts: StoreParts, original: string, opts: { now: Date; op?: string; replace?: boolean }): Promise<WriteResult> {
  // Loaded here, not at startup: reading verbs never pay for YAML and the schema.
  const { validateCapsuleText } = await import('../capsule/validate');
  const { redactCapsuleText } = await import('./redact-capsule');
  // Every path to the memory branch (CLI, hooks, autosave) comes through here, and the branch is
  // pushed: redact first, so the blob, the index entry and the commit message are all built from
  // the redacted text.
  const { text, findings: redactions } = redactCapsuleText(original);
  const { fields, problems } = validateCapsuleText(text);
  if (problems.length === 0 && !isSafeId(fields.id)) {
    problems.push({ code: 'ID_UNSAFE', field: 'id', message: 'id must be a ULID or UUIDv7 (letters, digits and dashes only)' });
  }
  if (problems.length > 0) throw invalid(problems);
  const id = fields.id as string;
  const stamp = parseCreatedAt(fields.created_at);
  if (!stamp.ok) throw invalid([stamp.problem]);
  const month = monthOf(stamp.epochMs);
  const path = capsulePath(id, month);

  const result = await withCasRetry<WriteResult>(parts, async () => {
    const tip = await parts.tree.tip();
    const existing = tip === null ? null : await parts.tree.text(tip, path);
    if (existing !== null && !opts.replace) {
      throw new CapsuleError('CAPSULE_EXISTS', `capsule ${id} already exists at ${path}; write it with replace to update it, or give the new capsule a new id`, { id, path });
    }
    if (existing === text) return { done: true as const, value: { id, commit: null, path, changed: false, redactions } };
    if (existing === null && opts.replace && tip !== null) await refuseMoved(parts, tip, id, path);
    const events = tip !== null && existing !== null ? await parts.tree.events(tip, id, month) : [];
    const entry = summarizeCapsule(fields, { id, month }, events);
    const index = await indexChange(parts.tree, tip, entry, existing === null ? 'none' : 'unknown');
    const op = opts.op ?? (existing === null ? 'write' : 'replace');
    const files = new Map<string, string | null>([[path, text], ...index.files]);
    const outcome = await runImport(parts.git, parts.ref, commitsOnto(tip, {
      identity: parts.identity,
      epochSeconds: Math.floor(opts.now.getTime() / 1000),
      message: capsuleCommitMessage(op, entry),
      deleteDirs: index.deleteDirs,
      files,
    }), parts.direct);
    return outcome.ok ? { done: true as const, value: { id, commit: outcome.commit, path, changed: true, redactions } } : { done: false as const, outcome };
  });
  if (result.changed) scheduleGcAuto(parts.git);
  return result;
}

/**
 * A replace whose document is not where its created_at puts it may be a capsule whose
 * created_at was edited: writing it would leave two documents with one id. Only the first
 * autosave of a session gets here, and it costs one read per month folder, never a document.
 */
async function refuseMoved(parts: StoreParts, tip: string, id: string, path: string): Promise<void> {
  const elsewhere = (await parts.tree.capsuleDirs(tip)).find((d) => d.id === id);
  if (elsewhere) {
    const existingPath = capsulePath(id, elsewhere.month);
    throw new CapsuleError('CREATED_AT_CHANGED', `capsule ${id} exists at ${existingPath} but this document's created_at puts it at ${path}; created_at of a capsule never changes — keep the original value`, { id, path: existingPath, expectedPath: path });
  }
}

function invalid(problems: Problem[]): CapsuleError {
  const summary = problems.slice(0, 3).map((p) => `${p.code}${p.field ? ` (${p.field})` : ''}`).join(', ');
  return new CapsuleError('CAPSULE_INVALID', `capsule refused, nothing written: ${summary}${problems.length > 3 ? ` and ${problems.length - 3} more` : ''}; run git capsule validate on it for details`, { problems });
}
