import { commandShape } from './command-shape';
import { errorLine } from './error-line';
import { normalizeDescription, resolutionBy, type OpenFailure, type SuccessEvidence } from './failure-pairing';
import { readRunnerReport } from './runner-report';
import type { PathContext, ToolCall } from './tool-call-events';
import { clipText, displayPath, firstLines } from './work-event-text';
import type { WorkEvent } from './work-event-types';

/** Where an event came from in the transcript. */
type At = Pick<WorkEvent, 'uuid' | 'timestamp'>;

const CHECK_KINDS = new Set(['test', 'lint', 'typecheck', 'build']);

/**
 * A failed call: emits its error (what ran, its exit code, the line that matters) and returns the
 * open failures with it added last (a repeat of the same call replaces the earlier one), so the
 * bound forgets the oldest first.
 */
export function recordFailure(
  failures: OpenFailure[],
  call: ToolCall | undefined,
  toolUseId: string,
  output: string,
  where: PathContext,
  at: At,
  emit: (e: WorkEvent) => void,
): OpenFailure[] {
  const exit = /^Exit code (\d+)/.exec(output.slice(0, 40))?.[1];
  const label = `${call ? callLabel(call, where) : 'a tool'}${exit ? ` (exit ${exit})` : ''}`;
  const line = errorLine(output) || firstLines(output) || 'no output';
  const text = clipText(`${label}: ${line}`);
  const failure: OpenFailure = { text, signature: call ? callSignature(call, where) : toolUseId, ...(call ? bashShape(call) : {}) };
  const report = call?.name === 'Bash' ? readRunnerReport(output) : undefined;
  if (report && report.failedFiles.length > 0) failure.files = report.failedFiles;
  emit({ kind: 'error', text, ...at });
  // Re-inserted last, so the bound forgets the oldest first.
  return [...failures.filter((f) => f.signature !== failure.signature), failure];
}

/**
 * A successful call: emits a resolution for every open failure it fixed (see resolutionBy) and,
 * for a check (test, lint, typecheck, build), that it passed; returns the failures still open.
 */
export function recordSuccess(failures: OpenFailure[], call: ToolCall, output: string, where: PathContext, at: At, emit: (e: WorkEvent) => void): OpenFailure[] {
  const shape = bashShape(call);
  const isCheck = shape.kind !== undefined && CHECK_KINDS.has(shape.kind);
  // Read only where it can matter: a check's summary for Done, passing files to pair a failure.
  const report = call.name === 'Bash' && (isCheck || failures.length > 0) ? readRunnerReport(output) : undefined;
  const evidence: SuccessEvidence = { signature: callSignature(call, where), label: callLabel(call, where), ...shape, ...(report ? { report } : {}) };
  const left: OpenFailure[] = [];
  for (const f of failures) {
    const by = resolutionBy(evidence, f);
    if (by === null) left.push(f);
    else emit({ kind: 'resolution', text: by, resolves: f.text, ...at });
  }
  // A check that passes is done: what now passes is part of the work state.
  if (isCheck && !(report?.failed !== undefined && report.failed > 0)) {
    emit({ kind: 'done', text: `${evidence.label} passed${report?.summary ? ` (${report.summary})` : ''}`, ...at });
  }
  return left;
}

function bashShape(call: ToolCall): Pick<OpenFailure, 'family' | 'args' | 'kind' | 'description'> {
  if (call.name !== 'Bash' || typeof call.input.command !== 'string') return {};
  const shape = commandShape(call.input.command);
  const description = normalizeDescription(call.input.description);
  return { ...(shape ? { family: shape.family, args: shape.args, kind: shape.kind } : {}), ...(description ? { description } : {}) };
}

/** How a call reads in an error or a resolution: `` `npm test` `` or `Edit src/a.ts`. */
export function callLabel(call: ToolCall, where: PathContext): string {
  const command = call.input.command;
  if (call.name === 'Bash' && typeof command === 'string') return `\`${clipText(command, 80)}\``;
  const path = call.input.file_path ?? call.input.notebook_path ?? call.input.path;
  return typeof path === 'string' ? `${call.name} ${displayPath(path, { cwd: call.cwd, ...where })}` : call.name;
}

// The same command, or the same file touched by an editing tool, counts as the same attempt.
function callSignature(call: ToolCall, where: PathContext): string {
  const command = call.input.command;
  if (typeof command === 'string') return `${call.name}:${command.slice(0, 4000).replace(/\s+/g, ' ').trim()}`;
  const path = call.input.file_path ?? call.input.notebook_path ?? call.input.path;
  const tool = ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'].includes(call.name) ? 'edit' : call.name;
  return typeof path === 'string' ? `${tool}:${displayPath(path, { cwd: call.cwd, ...where })}` : `${call.name}:${JSON.stringify(call.input).slice(0, 200)}`;
}

/** An open failure read back from the runtime state, trusted only with the expected shape. */
export function isOpenFailure(value: unknown): value is OpenFailure {
  const f = value as Partial<OpenFailure> | null;
  return typeof f === 'object' && f !== null && typeof f.text === 'string' && typeof f.signature === 'string';
}
