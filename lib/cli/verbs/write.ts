import { shellSessionId } from '../../hosts/shell-session';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatStamp } from '../../capsule/created-at';
import { MAX_CAPSULE_BYTES } from '../../capsule/limits';
import type { CapsuleDocument } from '../../capsule/types';
import { CapsuleError } from '../../errors/capsule-error';
import { parseVerbArgs, usageError } from '../args';
import { mintCapsuleId } from '../../store/random-bytes';
import { EXIT, type CliContext, type Verb } from '../context';
import { withStoreWhile } from '../with-store';
import { readRepoHead } from '../../git/repo-head';
import { walkToGitDir } from '../../git/git-dir-walk';
import { addFrontmatterFields } from '../../capsule/add-frontmatter-fields';

type Flags = { objective?: string; 'waiting-on'?: string; next?: string; tag?: string[]; trigger?: string };

const FLAG_FIELDS = { objective: 'objective', 'waiting-on': 'waiting_on', next: 'next_valid_action', trigger: 'trigger' } as const;

/** `git capsule write [file|-]`: validates and commits one capsule, assigning id and created_at when missing. */
export const verb: Verb = {
  name: 'write',
  summary: 'commit a capsule to the memory branch (from a file, stdin, or flags)',
  usage: `usage: git capsule write [file|-] [--objective T] [--waiting-on T] [--next T] [--tag T]... [--trigger T] [--replace] [--json]

  file|-          the capsule document; - reads standard input; omit to build one from the flags
  --objective     set objective
  --waiting-on    set waiting_on
  --next          set next_valid_action
  --tag           add a tag (repeatable)
  --trigger       set trigger (manual, autosave, pre-compact, budget, handoff)
  --replace       rewrite the document of an existing capsule with this id (no commit when unchanged)
  --json          print { "id", "commit", "path", "changed", "redactions": [{ "kind", "count" }] }

Assigns id (a ULID) and created_at (now, with the local offset) when missing, status: active, and
session_id from CLAUDE_CODE_SESSION_ID or CODEX_SESSION_ID when run inside a Claude Code or Codex
session (so the resume knows the capsule as that session's own, ahead of its autosave), and
repo_head and repo_branch (the project's HEAD and branch now) when the document leaves them out.
The store stamps author, machine and worktree (docs/format.md "Identity"). A handoff to a person:
trigger: handoff and handoff_to: <their email>.
Secrets (tokens, keys, passwords) are redacted before the commit. Prints the capsule id. An invalid capsule is refused (exit 1) and nothing is written.`,
  async run(args, ctx) {
    const { values, positionals } = parseVerbArgs('write', args, {
      objective: { type: 'string' }, 'waiting-on': { type: 'string' }, next: { type: 'string' },
      tag: { type: 'string', multiple: true }, trigger: { type: 'string' }, replace: { type: 'boolean' }, json: { type: 'boolean' },
    });
    if (positionals.length > 1) throw usageError('write', 'expected at most one <file|->');
    if (positionals.length === 0 && values.objective === undefined && values['waiting-on'] === undefined && values.next === undefined) {
      throw usageError('write', 'nothing to write: give a capsule file (or - for standard input), or --objective, --waiting-on and --next');
    }
    const now = ctx.now();
    return withStoreWhile(ctx, () => buildText(positionals[0], values, now, ctx), async (store, text) => {
      // The memory branch is pushed to remotes: the store redacts every document before it builds
      // anything from it (docs/security.md "Secrets"), and says what it redacted.
      const result = await store.writeCapsule(text, { now, replace: values.replace === true });
      const findings = result.redactions;
      const redacted = findings.reduce((n, f) => n + f.count, 0);
      if (redacted > 0 && !values.json) ctx.stderr(`git capsule write: redacted ${redacted} secret${redacted === 1 ? '' : 's'} (${findings.map((f) => f.kind).join(', ')}) before committing\n`);
      ctx.stdout(values.json ? `${JSON.stringify(result)}\n` : `${result.id}\n`);
      return EXIT.OK;
    });
  },
};

/** The capsule text to commit: the file as written, or with the flags and missing fields applied. */
async function buildText(source: string | undefined, values: Flags, now: Date, ctx: CliContext): Promise<string> {
  // Loaded here so the store's git processes are already starting while YAML loads.
  const [{ renderCapsule }, { emptySections }] = await Promise.all([import('../../capsule/render'), import('../../capsule/sections')]);
  const original = source === undefined ? null : await readSource(source, ctx);
  const doc = original === null ? { frontmatter: {}, sections: emptySections(), notes: '' } : await parseOrRefuse(original);
  const fm = doc.frontmatter;
  let changed = original === null;
  const set = (key: string, value: unknown) => {
    fm[key] = value;
    changed = true;
  };
  for (const [flag, field] of Object.entries(FLAG_FIELDS)) {
    const value = values[flag as keyof typeof FLAG_FIELDS];
    if (typeof value === 'string') set(field, value);
  }
  if (values.tag) set('tags', [...new Set([...(Array.isArray(fm.tags) ? (fm.tags as unknown[]) : []), ...values.tag])]);
  if (fm.id === undefined || fm.id === null || fm.id === '') set('id', mintCapsuleId(now));
  if (fm.created_at === undefined || fm.created_at === null || fm.created_at === '') set('created_at', formatStamp(now, -now.getTimezoneOffset()));
  if (fm.status === undefined || fm.status === null || fm.status === '') set('status', 'active');
  if (original === null && fm.trigger === undefined) set('trigger', 'manual');
  // The writer's session: the agent's shell (Claude Code's Bash tool, Codex's exec_command) names it.
  const session = shellSessionId(ctx.env);
  if ((fm.session_id === undefined || fm.session_id === null || fm.session_id === '') && session !== undefined) set('session_id', session);
  // The project's HEAD and branch when written (docs/format.md "Capsule format"), like every capsule written here: a
  // resume says how far the project moved since, and selection knows the capsule as this branch's
  // (a hand-written one that left them out was set aside as "another worktree or branch"). Read
  // from the git files, no process; a value the document gives is kept.
  const where = walkToGitDir(ctx.cwd, ctx.env);
  const repo = where === null ? {} : readRepoHead(where.gitDir, where.commonDir);
  const stamps: Record<string, string> = {};
  if (fm.repo_head === undefined && repo.head) stamps.repo_head = repo.head;
  if (fm.repo_branch === undefined && repo.branch) stamps.repo_branch = repo.branch;
  // An otherwise untouched document keeps every byte its author wrote; the stamps are added lines.
  if (original !== null && !changed) {
    const stamped = addFrontmatterFields(original, stamps);
    if (stamped !== null) return stamped;
  }
  Object.assign(fm, stamps);
  return renderCapsule(doc);
}

async function readSource(source: string, ctx: CliContext): Promise<string> {
  if (source === '-') return ctx.readStdin();
  try {
    const buffer = readFileSync(resolve(ctx.cwd, source));
    return buffer.subarray(0, MAX_CAPSULE_BYTES * 4).toString('utf8');
  } catch (err) {
    throw new CapsuleError('FILE_UNREADABLE', `cannot read capsule file ${source}: ${(err as NodeJS.ErrnoException).code ?? String(err)}; check the path`, { path: source }, { cause: err });
  }
}

async function parseOrRefuse(text: string): Promise<CapsuleDocument> {
  const { parseCapsule } = await import('../../capsule/parse');
  const parsed = parseCapsule(text);
  if (parsed.doc === null) {
    throw new CapsuleError('CAPSULE_INVALID', `capsule refused, nothing written: ${parsed.problems.map((p) => p.code).join(', ')}; run git capsule validate on it for details`, { problems: parsed.problems });
  }
  return parsed.doc;
}
