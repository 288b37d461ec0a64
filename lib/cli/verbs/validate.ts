import { readFile } from 'node:fs/promises';
import type { Problem } from '../../capsule/types';
import { validateCapsuleText } from '../../capsule/validate';
import { CapsuleError } from '../../errors/capsule-error';
import { parseVerbArgs, usageError } from '../args';
import { EXIT, type Verb } from '../context';
import { MAX_CAPSULE_BYTES } from '../../capsule/limits';

/** `git capsule validate <file|->`: prints the problems of one capsule; exit 0 none, 1 some, 2 usage. */
export const verb: Verb = {
  name: 'validate',
  summary: 'check a capsule document: schema, required fields, created_at, content gate',
  usage: `usage: git capsule validate <file|-> [--draft] [--json]

  <file|->   the capsule document to check; - reads standard input
  --draft    check a document for git capsule write: id, created_at and status may be missing
             (write fills them); every other rule applies
  --json     print { "fields": …, "problems": [{ "code", "message", "field" }] }

Exit 0 when the capsule is resumable (with --draft: when write will accept it), 1 when it has
problems, 2 on usage errors.`,
  async run(args, ctx) {
    const { values, positionals } = parseVerbArgs('validate', args, { json: { type: 'boolean' }, draft: { type: 'boolean' } });
    if (positionals.length !== 1) throw usageError('validate', 'expected exactly one <file|->');
    const source = positionals[0]!;
    const text = source === '-' ? await ctx.readStdin() : await readCapsuleFile(source, ctx.cwd);
    const checked = validateCapsuleText(text);
    // A draft leaves to write what write assigns; nothing else is excused.
    const result = values.draft ? { ...checked, problems: checked.problems.filter((p) => !isFilledByWrite(p)) } : checked;
    if (values.json) {
      ctx.stdout(`${JSON.stringify({ fields: result.fields, problems: result.problems }, null, 2)}\n`);
    } else if (result.problems.length === 0 && values.draft) {
      ctx.stdout(`ok: ${source} is a valid draft; git capsule write ${source} fills id, created_at and status and commits it\n`);
    } else if (result.problems.length === 0) {
      ctx.stdout(`ok: ${source} is a resumable capsule (id ${String(result.fields.id)})\n`);
    } else {
      ctx.stdout(`${source}: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}\n`);
      for (const p of result.problems) ctx.stdout(`  ${p.code}${p.field ? ` (${p.field})` : ''}: ${p.message}\n`);
    }
    return result.problems.length === 0 ? EXIT.OK : EXIT.FAILURE;
  },
};

const FILLED_BY_WRITE = new Set(['id', 'created_at', 'status']);

function isFilledByWrite(p: Problem): boolean {
  return (p.code === 'MISSING_REQUIRED_FIELD' || p.code === 'EMPTY_FIELD') && p.field !== undefined && FILLED_BY_WRITE.has(p.field);
}

async function readCapsuleFile(path: string, cwd: string): Promise<string> {
  try {
    const { resolve } = await import('node:path');
    const buffer = await readFile(resolve(cwd, path));
    // Read past the limit only far enough for validation to name TOO_LARGE.
    return buffer.length > MAX_CAPSULE_BYTES * 4 ? buffer.subarray(0, MAX_CAPSULE_BYTES * 4).toString('utf8') : buffer.toString('utf8');
  } catch (err) {
    throw new CapsuleError('FILE_UNREADABLE', `cannot read capsule file ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}; check the path`, { path }, { cause: err });
  }
}
