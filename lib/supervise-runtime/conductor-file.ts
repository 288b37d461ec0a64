import { resolve } from 'node:path';
import { COORDINATION_ENV, TERMINAL_PHASES } from '../resume-runtime/coordination-guard';
import { ownCoordinationPath, readCoordinationState, removeCoordinationState, writeCoordinationState } from '../local-state/supervise-files';
import type { ConductorPhase } from '../supervise/supervisor-events';

/** Who wrote a phase: the `conductor` field every supervisor puts into the state file. */
export const CONDUCTOR_NAME = 'git capsule supervise';

/**
 * The coordination state file (docs/supervisor.md "The coordination state", read by SessionStart through
 * CAPSULE_COORDINATION_STATE) from the supervisor's side: it is the outside conductor. The
 * user's file when they declared one (other conductors may share it), else the supervisor's own
 * under the runtime dir, handed to the client in its environment.
 */
export class ConductorFile {
  private constructor(
    /** The absolute path the client's hooks read. */
    readonly path: string,
    /** True when the user declared it: other conductors may write it too. */
    readonly declared: boolean,
    private readonly pid: number,
  ) {}

  /** The declared file, else an own file under `runtimeDir`; null outside a repository with nothing declared. */
  static open(opts: { env: NodeJS.ProcessEnv; cwd: string; runtimeDir: string | null; pid: number }): ConductorFile | null {
    const declared = opts.env[COORDINATION_ENV];
    if (declared !== undefined && declared !== '') return new ConductorFile(resolve(opts.cwd, declared), true, opts.pid);
    return opts.runtimeDir === null ? null : new ConductorFile(ownCoordinationPath(opts.runtimeDir, opts.pid), false, opts.pid);
  }

  /** The client's environment: the file named in CAPSULE_COORDINATION_STATE. */
  childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    return { ...env, [COORDINATION_ENV]: this.path };
  }

  /**
   * Writes the phase, keeping every other field a declared file carries (it is shared). The
   * phases the supervisor uses are checked against the guard's list in the tests: only
   * `capsule-pending` is live, so a resume still runs at the `/clear` that follows `complete`.
   */
  write(phase: ConductorPhase, data: { reset: number; session: string | null; capsuleId: string | null; at: string }): void {
    const previous = this.declared ? (readCoordinationState(this.path) ?? {}) : {};
    writeCoordinationState(this.path, { ...previous, phase, conductor: CONDUCTOR_NAME, pid: this.pid, reset: data.reset, session: data.session, capsule_id: data.capsuleId, at: data.at }, { own: !this.declared });
  }

  /**
   * The live phase of another conductor in a declared file, or null: a terminal or missing
   * phase, this supervisor's own, or one left by a supervisor whose process is gone.
   */
  hold(): string | null {
    if (!this.declared) return null;
    const state = readCoordinationState(this.path);
    const phase = state?.phase;
    if (typeof phase !== 'string' || TERMINAL_PHASES.includes(phase)) return null;
    if (state!.conductor === CONDUCTOR_NAME && typeof state!.pid === 'number') {
      if (state!.pid === this.pid || !isAlive(state!.pid)) return null;
    }
    return phase;
  }

  /** Removes the supervisor's own file; a declared one stays (its last phase is terminal by then). */
  close(): void {
    if (!this.declared) removeCoordinationState(this.path);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
