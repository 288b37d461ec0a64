import { isCapsuleError } from '../errors/capsule-error';
import type { ErrorCode } from '../errors/error-codes';
import { appendErrorLog, oneLine } from '../local-state/error-log';
import type { HookAnswer } from '../hosts/hook-answer';
import type { HookInputs } from '../hosts/hook-inputs';
import type { HookEventName, HostAdapter } from '../hosts/host';
import { locateRuntime } from '../local-state/runtime-dir';
import { foundRepository, type FoundRepository } from '../local-state/cached-config';
import { trustStateDir } from '../local-state/state-dir-trust';
import { recordHookRun } from '../local-state/last-runs';
import { VERSION } from '../launch/version';
import { declaredHost, pickHost } from './pick-host';

/** What a handler may use: no process globals, so tests drive it in-process. */
export interface HookContext {
  env: NodeJS.ProcessEnv;
  now: () => Date;
  /** The host adapter this run was picked for (lib/hooks/pick-host.ts): its transcript reader, limits and lineage signal. */
  host: HostAdapter;
  /** The project, as the host names it (Claude Code: `CLAUDE_PROJECT_DIR`, else the payload's `cwd`). */
  projectDir: string;
  /** This worktree's git dir (HEAD) and the shared one (refs, objects). */
  gitDir: string;
  commonDir: string;
  /** Per-repository runtime state (cursors, receipt, markers, errors.log). */
  runtimeDir: string;
  /** The repository as this run found it: located once, its config read once on first use, for the budget and the store alike. */
  repo: FoundRepository;
  /** Logs a non-fatal finding (the hook goes on). */
  warn: (code: ErrorCode, message: string) => void;
}

/** One hook: its event and its handler. */
export interface HookSpec<E extends HookEventName> {
  event: E;
  handle: (input: HookInputs[E], ctx: HookContext) => Promise<HookAnswer | void>;
  /**
   * Redacts a message before it is logged or shown (a git error can quote a remote URL with its
   * password). The hooks that carry the redactor anyway pass it; UserPromptSubmit, which runs
   * before every prompt and logs only its own budget findings, does not load it.
   */
  redact?: (text: string) => string;
}

/** The process side the runner needs: stdin, env, clock, and the process cwd for logging. */
export interface HookIO {
  readStdin: () => Promise<string>;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  cwd: string;
  /** The hook's arguments (`--host codex` declares the host); none for Claude Code's own registrations. */
  argv?: readonly string[];
  /** Overrides the event's own budget (tests). */
  budgetMs?: number;
  /**
   * When the host started this process (epoch ms). The budget counts from there, as the host's
   * timeout does: on a loaded machine node's own start can take a large part of a short budget
   * (SessionEnd's 1 s under a 2 s host timeout). Default: when the runner was called.
   */
  startedAt?: number;
  /** The bundle the host started (process.argv[1]): where a settings command's route lives, for doctor. */
  script?: string;
}

/**
 * The runner's verdict: what to print, and the fail-open code when it failed open. Exit 0,
 * except a deliberate Stop block on a host that takes one as exit 2 (`HostAdapter.stopBlock`).
 */
export interface HookOutcome {
  stdout: string;
  failCode?: string;
  /** A Stop block's reason, for stderr, with exit code 2. */
  block?: { stderr: string; exitCode: 2 };
}

/** Microtask turns a run gets to settle before its budget's timer is set (a run without I/O needs about ten). */
const SETTLE_TURNS = 64;

/**
 * Runs one hook fail-open: picks the host adapter (lib/hooks/pick-host.ts), checks the payload
 * with it, gives the handler a time budget below the host's timeout, and turns every failure
 * (bad stdin, wrong field type, timeout, a thrown error) into exit 0 with a one-line
 * `systemMessage` in that host's envelope and a coded line in the error log.
 * `CAPSULE_DISABLED` (present, any value) passes through without reading anything.
 */
export async function runHook<E extends HookEventName>(spec: HookSpec<E>, io: HookIO): Promise<HookOutcome> {
  if (io.env.CAPSULE_DISABLED !== undefined) return { stdout: '' };
  const declared = declaredHost(io.argv ?? []);
  // The declared host's budget, else Claude Code's, which is never longer than another host's.
  let host = declared.host;
  // An event a host does not register (PostCompact on Codex) keeps the shared 7 s budget.
  const budgetMs = io.budgetMs ?? host.events[spec.event]?.budgetMs ?? 7000;
  // Located before the payload is read, so an early failure is logged in the repository; the
  // payload's project is almost always the same folder, which is then not located again.
  const earlyDir = io.env.CLAUDE_PROJECT_DIR || io.cwd;
  const early = locateRuntime(earlyDir, io.env);
  let logDir = early.runtimeDir ?? io.env.CLAUDE_PLUGIN_DATA ?? io.env.PLUGIN_DATA ?? null;
  const clean = spec.redact ?? ((text: string) => text);
  const failOpen = (code: ErrorCode, raw: string): HookOutcome => {
    const message = clean(raw);
    const logPath = appendErrorLog(logDir, { code, now: io.now(), event: spec.event, message });
    const where = logPath ? `; see ${logPath}` : '';
    const systemMessage = oneLine(`capsule: ${spec.event} hook skipped [${code}] ${message}${where}`, 300);
    return { stdout: host.renderOutput(spec.event, { systemMessage }), failCode: code };
  };
  if (declared.invalid !== undefined) return failOpen('HOOK_HOST_UNKNOWN', `--host ${declared.invalid}: expected claude, codex or copilot`);

  const startedAt = io.startedAt ?? Date.now();
  let timer: NodeJS.Timeout | undefined;
  const work = async (): Promise<HookOutcome> => {
    let raw: unknown;
    try {
      raw = JSON.parse(await io.readStdin());
    } catch (err) {
      return failOpen('HOOK_INPUT_NOT_JSON', `stdin is not JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    host = pickHost({ declared: declared.declared, payload: raw, env: io.env }).host;
    if (host.ignores?.(raw) || host.events[spec.event] === undefined) return { stdout: '' };
    const checked = host.checkInput(spec.event, raw);
    if (!checked.ok) {
      return failOpen('HOOK_INPUT_INVALID', `field ${checked.field}: expected ${checked.expected}, received ${checked.received}`);
    }
    const projectDir = host.projectDir(checked.input, io.env);
    const location = projectDir === earlyDir ? early : locateRuntime(projectDir, io.env);
    if (location.gitDir === null || location.commonDir === null || location.runtimeDir === null) return { stdout: '' };
    // Checked before anything is written there; refused, the hook skips its work and says why (exit 0).
    try {
      trustStateDir(location.runtimeDir);
    } catch (err) {
      logDir = io.env.CLAUDE_PLUGIN_DATA ?? io.env.PLUGIN_DATA ?? null;
      if (isCapsuleError(err)) return failOpen(err.code, err.message);
      throw err;
    }
    logDir = location.runtimeDir;
    recordHookRun(location.runtimeDir, { host: host.name, event: spec.event, at: io.now(), session: typeof checked.input.session_id === 'string' ? checked.input.session_id : null, env: io.env, script: io.script, version: VERSION });
    const ctx: HookContext = {
      env: io.env,
      now: io.now,
      host,
      projectDir,
      gitDir: location.gitDir,
      commonDir: location.commonDir,
      runtimeDir: location.runtimeDir,
      repo: foundRepository(projectDir, io.env, location.walked),
      warn: (code, message) => void appendErrorLog(logDir, { code, now: io.now(), event: spec.event, message: clean(message) }),
    };
    try {
      const answer = guardStopLoop(host, checked.input, await spec.handle(checked.input, ctx), ctx);
      if (answer?.block && spec.event === 'Stop' && host.stopBlock === 'exit-2') {
        const { block, ...rest } = answer;
        return { stdout: host.renderOutput(spec.event, rest), block: { stderr: `${block.reason}\n`, exitCode: 2 } };
      }
      return { stdout: host.renderOutput(spec.event, answer) };
    } catch (err) {
      // NOT_A_REPO here is loud on purpose: a `.git` was found above, so git refusing it means a corrupt repository.
      const code = isCapsuleError(err) ? err.code : 'HOOK_INTERNAL';
      return failOpen(code, err instanceof Error ? err.message : String(err));
    }
  };
  try {
    let settled = false;
    const running = work().finally(() => (settled = true));
    running.catch(() => undefined); // awaited below; marked handled while the turns run
    // A run that never waits on I/O (UserPromptSubmit reads and writes synchronously) settles
    // within a few microtask turns, where no timer could fire anyway: it sets none, since the
    // first setTimeout and its clearTimeout cost ~1.1 ms of a fresh node, before every prompt.
    // A run still pending after them waits on I/O: its timer gets what is left of its budget.
    for (let turn = 0; turn < SETTLE_TURNS && !settled; turn++) await undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      if (!settled) timer = setTimeout(() => resolve('timeout'), Math.max(0, budgetMs - (Date.now() - startedAt)));
    });
    const result = settled ? await running : await Promise.race([running, timeout]);
    return result === 'timeout' ? failOpen('HOOK_TIMEOUT', `gave up after its ${budgetMs} ms budget`) : result;
  } catch (err) {
    return failOpen('HOOK_INTERNAL', err instanceof Error ? err.message : String(err));
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/**
 * A host that re-runs a blocked Stop for ever (Codex: no cap of its own) gets our guard: no
 * block while `stop_hook_active` is set, whatever the handler answered (the budget already
 * blocks once per window; this holds for any future block too).
 */
function guardStopLoop(host: HostAdapter, input: unknown, answer: HookAnswer | void, ctx: HookContext): HookAnswer | void {
  if (!answer?.block || host.stopLoopGuard === 'host' || (input as { stop_hook_active?: unknown }).stop_hook_active !== true) return answer;
  ctx.warn('STOP_BLOCK_SUPPRESSED', `${host.label} re-ran Stop after a block (stop_hook_active): the block is dropped so the turn can end`);
  const { block: _dropped, ...rest } = answer;
  return rest;
}
