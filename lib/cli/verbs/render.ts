import { declarationIgnoredLine, resolveAck } from '../../resume/declared-ack';
import { loadLifecycleExtension } from '../../resume-runtime/extension-loader';
import { findProjectRoot } from '../../resume-runtime/project-root';
import { parseVerbArgs } from '../args';
import { EXIT, type CliContext, type Verb } from '../context';

const FIELDS = ['capsule_ack', 'resume_ack'] as const;

/**
 * `git capsule render capsule_ack --capsule-id X`: prints the declared ack with the id
 * substituted, for the capsule skill's step before its completion literal. Always exits 0:
 * it gates a session's handshake, where refusing to run would wedge every clear.
 */
export const verb: Verb = {
  name: 'render',
  summary: "print a declared lifecycle-extension ack (capsule_ack) with the capsule id substituted; always exits 0",
  usage: `usage: git capsule render capsule_ack --capsule-id <id> [--root <dir>]

  capsule_ack          the field of .capsule/lifecycle-extension.json to render (resume_ack also works)
  --capsule-id <id>    the id to substitute for {capsule_id}
  --root <dir>         the project whose declaration to read (default: the repository of the cwd)

Prints the one declared line, or nothing when none is declared. A refused declaration or an ack
that cannot be rendered truthfully prints one line starting LIFECYCLE-EXTENSION: on stderr.
Always exits 0.`,
  async run(args, ctx) {
    try {
      await render(args, ctx);
    } catch (err) {
      ctx.stderr(`LIFECYCLE-EXTENSION: render failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}\n`);
    }
    return EXIT.OK;
  },
};

async function render(args: string[], ctx: CliContext): Promise<void> {
  const { values, positionals } = parseVerbArgs('render', args, { 'capsule-id': { type: 'string' }, root: { type: 'string' } });
  const field = positionals[0];
  if (field !== 'capsule_ack' && field !== 'resume_ack') {
    ctx.stderr(`LIFECYCLE-EXTENSION: render: expected one of ${FIELDS.join(', ')}, got ${JSON.stringify(field ?? null)}\n`);
    return;
  }
  const root = values.root ?? (await findProjectRoot(ctx.cwd, ctx.env));
  const ext = await loadLifecycleExtension(root);
  if (ext.state === 'none') return;
  if (ext.state === 'refused') {
    ctx.stderr(`${declarationIgnoredLine(ext.path, ext.refusal)}\n`);
    return;
  }
  const template = ext.extension[field];
  if (template === undefined) return;
  const ack = resolveAck(field, template, values['capsule-id'] ?? null);
  if (ack.ok) ctx.stdout(`${ack.line}\n`);
  else ctx.stderr(`${ack.diagnostic}\n`);
}
