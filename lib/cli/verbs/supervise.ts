import { createReadStream, openSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { CapsuleError } from '../../errors/capsule-error';
import { streamJsonCommand } from '../../supervise/client-command';
import type { InputFormat } from '../../supervise/input-lines';
import { parseResetPoint } from '../../supervise/reset-point';
import { renderPlan } from '../../supervise/supervise-plan';
import type { SupervisorOptions } from '../../supervise/supervisor-state';
import { DEFAULT_CONTINUATION } from '../../supervise/supervisor-text';
import { planSupervisor } from '../../supervise-runtime/plan-supervisor';
import { runSupervisor } from '../../supervise-runtime/run-supervisor';
import { parseVerbArgs, usageError } from '../args';
import { EXIT, type CliContext, type Verb } from '../context';

const USAGE = `usage: git capsule supervise [options] -- <client command …>

Runs a headless Claude Code client as a child (stream-json in and out) and resets its context
at the budget point: when the policy's hard point is reached it lets the turn finish, waits
for the agent's "capsule written: <id>" (asking for it once when the hook's block did not),
sends /clear, then a continuation; the SessionStart(clear) resume hands the capsule back.
Standard output is the client's stream, unchanged; the supervisor's own lines go to stderr.
For headless and SDK runs; an interactive session keeps the hook's block-and-ask flow.

  --reset-at POINT     hard (default: the budget policy's hard point), warning, or a token
                       count such as 150k
  --continuation TEXT  the message sent after /clear (default: a [supervisor-resume] line
                       telling the agent to go on from the resumed capsule)
  --max-resets N       stop resetting after N resets (default: no limit)
  --capsule-wait SEC   how long after the turn that asked for the capsule ends to wait for
                       the literal before clearing with the autosave (default 15)
  --prompt-file FILE   read the user's messages from FILE instead of standard input
  --input-format F     auto (default): stream-json lines pass as they are, any other line is
                       a plain user message; text: every line is a plain user message
  --json               the supervisor's stderr lines as JSON objects; with --dry-run, the
                       plan as one JSON object on stdout
  --dry-run            print the command it would run and when it would reset; start nothing

The client gets -p, --input-format stream-json, --output-format stream-json and --verbose
when its command lacks them, and CAPSULE_COORDINATION_STATE naming the supervisor's phase
file (unless you set one). User messages are sent one at a time, each when the client is
idle, in the order they came; one that arrives during a reset follows the continuation.
Other stream-json lines (control requests and responses) pass at once. Exits with the
client's exit code.

  git capsule supervise -- claude --plugin-dir ~/git-capsule < prompts.txt
`;

/** `git capsule supervise`: runs a headless client and resets its context at the budget point. */
export const verb: Verb = {
  name: 'supervise',
  summary: 'Run a headless Claude Code client and /clear it at the budget point, capsule first',
  usage: USAGE,
  async run(args, ctx) {
    const split = args.indexOf('--');
    const own = split === -1 ? args : args.slice(0, split);
    const client = split === -1 ? [] : args.slice(split + 1);
    const { values, positionals } = parseVerbArgs('supervise', own, {
      'reset-at': { type: 'string' },
      continuation: { type: 'string' },
      'max-resets': { type: 'string' },
      'capsule-wait': { type: 'string' },
      'prompt-file': { type: 'string' },
      'input-format': { type: 'string' },
      json: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
    });
    if (positionals.length > 0) throw usageError('supervise', `unexpected argument '${positionals[0]}' (the client command goes after '--')`);
    const { argv, added } = streamJsonCommand(client);
    const options = readOptions(values);
    const format = readFormat(values['input-format']);
    const promptFile = values['prompt-file'];
    if (values['dry-run']) {
      const plan = await planSupervisor({ argv, added, options, input: { source: promptFile ?? 'standard input', format }, cwd: ctx.cwd, env: ctx.env });
      ctx.stdout(values.json ? `${JSON.stringify(plan)}\n` : renderPlan(plan));
      return EXIT.OK;
    }
    return runSupervisor({
      argv,
      options,
      inputFormat: format,
      input: promptFile === undefined ? process.stdin : openPromptFile(ctx, promptFile),
      output: process.stdout,
      report: (line) => ctx.stderr(`${line}\n`),
      json: values.json === true,
      cwd: ctx.cwd,
      env: ctx.env,
      forwardSignals: true,
    });
  },
};

function readOptions(values: { 'reset-at'?: string; continuation?: string; 'max-resets'?: string; 'capsule-wait'?: string }): SupervisorOptions {
  const resetAt = values['reset-at'] === undefined ? { kind: 'hard' as const } : parseResetPoint(values['reset-at']);
  if (resetAt === null) throw usageError('supervise', `--reset-at '${values['reset-at']}' is not hard, warning or a token count (for example 150000 or 150k)`);
  const continuation = values.continuation ?? DEFAULT_CONTINUATION;
  if (continuation.trim() === '') throw usageError('supervise', '--continuation is empty; give the message the fresh window should start with');
  return {
    resetAt,
    continuation,
    maxResets: values['max-resets'] === undefined ? null : wholeNumber('--max-resets', values['max-resets']),
    capsuleWaitMs: 1000 * (values['capsule-wait'] === undefined ? 15 : wholeNumber('--capsule-wait', values['capsule-wait'])),
    holdPollMs: 2000,
  };
}

function wholeNumber(flag: string, text: string): number {
  if (!/^\d{1,9}$/.test(text.trim())) throw usageError('supervise', `${flag} '${text}' is not a whole number`);
  return Number(text.trim());
}

function readFormat(text: string | undefined): InputFormat {
  if (text === undefined || text === 'auto' || text === 'text') return text ?? 'auto';
  throw usageError('supervise', `--input-format '${text}' is not auto or text`);
}

function openPromptFile(ctx: CliContext, path: string): Readable {
  const full = resolve(ctx.cwd, path);
  try {
    return createReadStream('', { fd: openSync(full, 'r') });
  } catch (err) {
    throw new CapsuleError('FILE_UNREADABLE', `cannot read the prompt file ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}; check the path`, { path: full }, { cause: err });
  }
}
