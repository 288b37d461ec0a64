import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { CapsuleError } from '../errors/capsule-error';
import { locateBudget } from '../local-state/locate-project';
import { classifyInputLine, type InputFormat } from '../supervise/input-lines';
import { readStreamLine } from '../supervise/stream-signals';
import type { SupervisorCommand, SupervisorEvent } from '../supervise/supervisor-events';
import { renderReportJson, renderReportLine } from '../supervise/supervisor-report';
import { initialState, type SupervisorOptions } from '../supervise/supervisor-state';
import { stepSupervisor } from '../supervise/supervisor-step';
import { BudgetWatch } from './budget-watch';
import { ConductorFile } from './conductor-file';
import { relayLines } from './relay-lines';
import { verifyCapsule } from './verify-capsule';

/** One supervised run: the client command (stream-json flags already in it) and the streams. */
export interface SuperviseRun {
  argv: string[];
  options: SupervisorOptions;
  inputFormat: InputFormat;
  /** The user's messages: standard input or a prompt file. */
  input: Readable;
  /** Where the client's stream goes, unchanged. */
  output: Writable;
  /** Where the supervisor's own lines go (stderr). */
  report: (line: string) => void;
  json: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Forward SIGINT, SIGTERM and SIGHUP to the client (the CLI does; tests do not). */
  forwardSignals: boolean;
}

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs the client as a child, feeds the supervisor's decisions (lib/supervise) with the
 * user's input, the client's stream, the memory branch and the clock, and carries out what
 * they say. Resolves with the client's exit code (128 + the signal number when a signal ended
 * it). Throws SUPERVISE_SPAWN_FAILED when the client cannot start.
 */
export async function runSupervisor(run: SuperviseRun): Promise<number> {
  const { projectDir, runtimeDir } = locateBudget(run.cwd, run.env);
  const conductor = ConductorFile.open({ env: run.env, cwd: run.cwd, runtimeDir, pid: process.pid });
  const env = conductor === null ? run.env : conductor.childEnv(run.env);
  const budget = await BudgetWatch.open({ cwd: run.cwd, env, projectDir, runtimeDir });
  const child = spawn(run.argv[0]!, run.argv.slice(1), { cwd: run.cwd, env, stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.on('error', () => undefined); // EPIPE after the client exited: its exit is reported instead

  let state = initialState(run.options);
  let timer: NodeJS.Timeout | null = null;
  let wakeAt = Infinity;
  let turnFilled = false;

  const feed = (event: SupervisorEvent): void => {
    const step = stepSupervisor(state, event, { now: Date.now(), conductorHold: () => conductor?.hold() ?? null });
    state = step.state;
    for (const command of step.commands) execute(command);
  };
  const execute = (c: SupervisorCommand): void => {
    switch (c.type) {
      case 'send':
        if (child.stdin.writable) child.stdin.write(`${c.line}\n`);
        break;
      case 'close-input':
        child.stdin.end();
        break;
      case 'phase':
        try {
          conductor?.write(c.phase, { reset: c.reset, session: c.session, capsuleId: c.capsuleId, at: new Date().toISOString() });
        } catch (err) {
          run.report(`git capsule supervise: could not write the coordination state ${conductor?.path}: ${err instanceof Error ? err.message : String(err)}`);
        }
        break;
      case 'verify':
        void verifyCapsule(run.cwd, env, c.id).then((check) => feed({ type: 'verified', id: c.id, ok: check.ok, why: check.ok ? null : check.why }));
        break;
      case 'report':
        run.report(run.json ? renderReportJson(c.report) : renderReportLine(c.report));
        break;
      case 'wake':
        if (c.at < wakeAt) {
          if (timer) clearTimeout(timer);
          wakeAt = c.at;
          timer = setTimeout(() => {
            timer = null;
            wakeAt = Infinity;
            feed({ type: 'tick' });
          }, Math.max(0, c.at - Date.now()));
        }
        break;
    }
  };

  relayLines(child.stdout, run.output, (line) => {
    for (const signal of readStreamLine(line)) {
      if (signal.kind === 'fill') {
        turnFilled = true;
        const watched = budget.resolve(state.session, signal);
        feed({ type: 'fill', tokens: watched.tokens, resolution: watched.resolution });
      } else if (signal.kind === 'result') {
        // A turn whose events carried no usage: measure from the transcript, as the Stop hook does.
        const fromTranscript = !turnFilled && signal.localCommand === null ? budget.fromTranscript(state.session) : null;
        if (fromTranscript) feed({ type: 'fill', tokens: fromTranscript.tokens, resolution: fromTranscript.resolution });
        turnFilled = false;
        feed({ type: 'result', localCommand: signal.localCommand, queued: signal.queued });
      } else {
        feed(signal.kind === 'session' ? { type: 'session', id: signal.id } : signal.kind === 'assistant-text' ? { type: 'assistant-text', text: signal.text } : { type: signal.kind });
      }
    }
  });

  const lines = createInterface({ input: run.input, crlfDelay: Infinity });
  lines.on('line', (raw) => {
    const line = classifyInputLine(raw, run.inputFormat);
    if (line.kind !== 'blank') feed({ type: line.kind === 'message' ? 'input' : 'control', line: line.line });
  });
  lines.on('close', () => feed({ type: 'input-end' }));

  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  if (run.forwardSignals) for (const s of FORWARDED) process.on(s, forward);

  return new Promise((resolveRun, rejectRun) => {
    let spawnError: Error | null = null;
    child.on('error', (err) => {
      spawnError = err;
    });
    child.on('close', (code, signal) => {
      const exitCode = code ?? 128 + (signal !== null ? (constants.signals[signal] ?? 0) : 0);
      if (spawnError === null) feed({ type: 'exit', code: exitCode });
      if (timer) clearTimeout(timer);
      if (run.forwardSignals) for (const s of FORWARDED) process.off(s, forward);
      lines.close();
      run.input.destroy();
      conductor?.close();
      // A client that never started (no such command) reports no exit code of its own.
      if (spawnError !== null) rejectRun(spawnFailed(run.argv, spawnError));
      else resolveRun(exitCode);
    });
  });
}

function spawnFailed(argv: string[], err: Error): CapsuleError {
  return new CapsuleError(
    'SUPERVISE_SPAWN_FAILED',
    `could not start the client ${JSON.stringify(argv[0])}: ${(err as NodeJS.ErrnoException).code ?? err.message}; check the command after '--' (is it on PATH?)`,
    { command: argv[0], code: (err as NodeJS.ErrnoException).code ?? null },
    { cause: err },
  );
}
