import { resolve } from 'node:path';
import { readRegularFile } from '../local-state/regular-file';
import { foldDeclaredLine, inert } from '../capsule/inert';

/** The env var naming an external conductor's state file (unset by default: a single-operator install never touches it). */
export const COORDINATION_ENV = 'CAPSULE_COORDINATION_STATE';
/** Phases after which the conductor no longer owns session starts. */
export const TERMINAL_PHASES: readonly string[] = ['done', 'cancelled', 'closed', 'complete', 'aborted'];

/** What the guard decided: defer (one line, nothing consumed), or go on, perhaps with a notice. */
export type CoordinationDecision = { defer: true; line: string } | { defer: false; notice: string | null };

/**
 * Checked before anything else: while the file named by CAPSULE_COORDINATION_STATE holds a
 * non-terminal `phase`, an outside conductor owns this boot and resume defers to it. An absent
 * file means no live coordination; an unreadable or malformed one fails open, with a notice.
 */
export async function checkCoordination(env: NodeJS.ProcessEnv, cwd: string): Promise<CoordinationDecision> {
  const declared = env[COORDINATION_ENV];
  if (declared === undefined || declared === '') return { defer: false, notice: null };
  const path = resolve(cwd, declared);
  let text: string;
  try {
    // A regular file, opened without blocking and read to a bound: a FIFO or a device named
    // there must not hold the session start.
    text = readRegularFile(path, { followLinks: true, maxBytes: 64 * 1024 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { defer: false, notice: null };
    return { defer: false, notice: `CAPSULE-COORDINATION: state file ${inert(path, { max: 200 })} is unreadable (${code ?? 'error'}); resuming as if no conductor were live.` };
  }
  let phase: unknown;
  try {
    phase = (JSON.parse(text) as { phase?: unknown } | null)?.phase;
  } catch {
    return { defer: false, notice: `CAPSULE-COORDINATION: state file ${inert(path, { max: 200 })} is not JSON; resuming as if no conductor were live.` };
  }
  if (typeof phase !== 'string') {
    return { defer: false, notice: `CAPSULE-COORDINATION: state file ${inert(path, { max: 200 })} has no string phase; resuming as if no conductor were live.` };
  }
  if (TERMINAL_PHASES.includes(phase)) return { defer: false, notice: null };
  return {
    defer: true,
    line: `CAPSULE-COORDINATION: resume deferred: ${foldDeclaredLine(path)} says phase ${inert(phase, { max: 60 })}, so an external conductor owns this session start; no capsule was loaded or consumed.`,
  };
}
