import { readFileSync } from 'node:fs';
import { escapeForTerminal } from '../capsule/hidden-characters';
import { isCapsuleError } from '../errors/capsule-error';
import { EXIT, type CliContext } from './context';
import { VERBS } from './verbs';
import { renderHelp, VERSION } from './help';

/**
 * The one top-level catch: maps errors to exit codes (USAGE → 2, everything else → 1) and
 * prints one line per error, with its code, never a stack unless CAPSULE_DEBUG is set. Every
 * byte any verb prints passes `escapeForTerminal` here: capsules, index lines, commit subjects
 * and transcripts arrive from other machines, and an ESC/OSC sequence among them must never
 * reach the user's terminal (clipboard writes, erased lines), nor a hidden character stay hidden.
 */
export async function main(argv: string[], processCtx: CliContext): Promise<number> {
  const ctx: CliContext = {
    ...processCtx,
    stdout: (t) => processCtx.stdout(escapeForTerminal(t)),
    stderr: (t) => processCtx.stderr(escapeForTerminal(t)),
  };
  const [verbName, ...rest] = argv;
  if (verbName === undefined || verbName === '--help' || verbName === '-h' || verbName === 'help') {
    const target = verbName === 'help' ? rest[0] : undefined;
    if (target !== undefined && VERBS[target]) return printVerbHelp(target, ctx);
    ctx.stdout(await renderHelp());
    return verbName === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (verbName === '--version' || verbName === '-V') {
    ctx.stdout(`git-capsule ${VERSION}\n`);
    return EXIT.OK;
  }
  const load = VERBS[verbName];
  if (!load) {
    ctx.stderr(`git capsule: '${verbName}' is not a verb. See 'git capsule --help'.\n`);
    return EXIT.USAGE;
  }
  // Words after '--' belong to a command the verb runs (supervise): its --help is not ours.
  const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (own.includes('--help') || own.includes('-h')) return printVerbHelp(verbName, ctx);
  try {
    return await (await load()).run(rest, ctx);
  } catch (err) {
    const code = isCapsuleError(err) ? err.code : 'INTERNAL';
    const message = err instanceof Error ? err.message : String(err);
    ctx.stderr(`git capsule ${verbName}: [${code}] ${message}\n`);
    if (ctx.env.CAPSULE_DEBUG && err instanceof Error && err.stack) ctx.stderr(`${err.stack}\n`);
    return code === 'USAGE' ? EXIT.USAGE : EXIT.FAILURE;
  }
}

async function printVerbHelp(name: string, ctx: CliContext): Promise<number> {
  const verb = await VERBS[name]!();
  ctx.stdout(`${verb.summary}\n\n${verb.usage.trimEnd()}\n`);
  return EXIT.OK;
}

/** The process context: real streams, real clock. */
export function processContext(): CliContext {
  return {
    cwd: process.cwd(),
    env: process.env,
    now: () => new Date(),
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    readStdin: async () => readFileSync(0, 'utf8'),
    isTTY: Boolean(process.stderr.isTTY),
  };
}
