import { readFileSync } from 'node:fs';
import { escapeForTerminal } from '../capsule/hidden-characters';
import { isCapsuleError } from '../errors/capsule-error';
import { EXIT, type CliContext } from './context';
import { VERBS } from './verbs';
import { renderHelp, VERSION, wrapHelp } from './help';
import { colourWanted, paint, renderColour } from './colour';
import { closest } from './did-you-mean';

/**
 * The one top-level catch: maps errors to exit codes (USAGE → 2, everything else → 1) and
 * prints one line per error, with its code, never a stack unless CAPSULE_DEBUG is set. Every
 * byte any verb prints passes `escapeForTerminal` here: capsules, index lines, commit subjects
 * and transcripts arrive from other machines, and an ESC/OSC sequence among them must never
 * reach the user's terminal (clipboard writes, erased lines), nor a hidden character stay hidden.
 */
export async function main(argvIn: string[], processCtx: CliContext): Promise<number> {
  // --no-color is global: it may sit anywhere before a `--`.
  const end = argvIn.includes('--') ? argvIn.indexOf('--') : argvIn.length;
  const noColorFlag = argvIn.slice(0, end).includes('--no-color');
  const argv = argvIn.filter((a, i) => i >= end || a !== '--no-color');
  const colour = (isTTY: boolean) => colourWanted({ isTTY, env: processCtx.env, noColorFlag });
  const [outColour, errColour] = [colour(processCtx.stdoutIsTTY ?? false), colour(processCtx.isTTY)];
  const ctx: CliContext = {
    ...processCtx,
    stdout: (t) => processCtx.stdout(renderColour(escapeForTerminal(t), outColour)),
    stderr: (t) => processCtx.stderr(renderColour(escapeForTerminal(t), errColour)),
  };
  const [verbName, ...rest] = argv;
  if (verbName === undefined || verbName === '--help' || verbName === '-h' || verbName === 'help') {
    const target = verbName === 'help' ? rest[0] : undefined;
    if (target !== undefined && VERBS[target]) return printVerbHelp(target, ctx);
    if (target !== undefined) return notAVerb(target, ctx);
    ctx.stdout(await renderHelp());
    return verbName === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (verbName === '--version' || verbName === '-V') {
    ctx.stdout(`git-capsule ${VERSION}\n`);
    return EXIT.OK;
  }
  const load = VERBS[verbName];
  if (!load) return notAVerb(verbName, ctx);
  // Words after '--' belong to a command the verb runs (supervise): its --help is not ours.
  const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (own.includes('--help') || own.includes('-h')) return printVerbHelp(verbName, ctx);
  const verb = await load();
  try {
    return await verb.run(rest, ctx);
  } catch (err) {
    const code = isCapsuleError(err) ? err.code : 'INTERNAL';
    const message = err instanceof Error ? err.message : String(err);
    // --json asked for a JSON answer: a failure is one too, on stdout, with its stable code.
    if (own.includes('--json')) ctx.stdout(`${JSON.stringify({ error: { code, message, verb: verbName, exit: code === 'USAGE' ? EXIT.USAGE : EXIT.FAILURE } })}\n`);
    ctx.stderr(`git capsule ${verbName}: ${paint('fail', `[${code}]`)} ${message}\n`);
    if (code === 'USAGE') ctx.stderr(`\n${wrapHelp(verb.usage.trimEnd().split('\n\n')[0]!)}\n`);
    if (ctx.env.CAPSULE_DEBUG && isCapsuleError(err) && typeof err.data.stderr === 'string' && err.data.stderr) ctx.stderr(`git's message:\n${err.data.stderr.trimEnd()}\n`);
    if (ctx.env.CAPSULE_DEBUG && err instanceof Error && err.stack) ctx.stderr(`${err.stack}\n`);
    return code === 'USAGE' ? EXIT.USAGE : EXIT.FAILURE;
  }
}

function notAVerb(name: string, ctx: CliContext): number {
  const hint = closest(name, Object.keys(VERBS));
  ctx.stderr(`git capsule: '${name}' is not a verb${hint ? `: did you mean '${hint}'?` : '.'} Run 'git capsule help' for the list.\n`);
  return EXIT.USAGE;
}

async function printVerbHelp(name: string, ctx: CliContext): Promise<number> {
  const verb = await VERBS[name]!();
  ctx.stdout(`${wrapHelp(`${verb.summary}\n\n${verb.usage.trimEnd()}`)}\n`);
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
    stdoutIsTTY: Boolean(process.stdout.isTTY),
  };
}
