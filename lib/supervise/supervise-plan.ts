import type { ResetPoint, ResetPointSpec } from './reset-point';
import type { InputFormat } from './input-lines';

/** What `git capsule supervise --dry-run` reports: everything it would do, before it starts anything. */
export interface SupervisePlan {
  command: string[];
  /** The flags the supervisor appended to the client command. */
  added: string[];
  resetAt: ResetPointSpec;
  /** The reset point for `model` in this project, as the budget policy resolves it now. */
  resetPoint: ResetPoint;
  model: string | null;
  continuation: string;
  maxResets: number | null;
  capsuleWaitMs: number;
  /** The coordination state file the client's hooks will read, and whether the user declared it. */
  coordination: { path: string; declared: boolean } | null;
  input: { source: string; format: InputFormat };
}

/** The plan as lines for people. */
export function renderPlan(p: SupervisePlan): string {
  const n = (v: number) => v.toLocaleString('en-US');
  const spec = p.resetAt.kind === 'tokens' ? `${n(p.resetAt.tokens)} tokens (--reset-at)` : `the budget policy's ${p.resetAt.kind} point`;
  const model = p.model ?? "the client's default model";
  const point = p.resetPoint.ok ? `${n(p.resetPoint.tokens)} tokens for ${model} in this project` : `none: ${p.resetPoint.why}`;
  const lines = [
    `would run:       ${p.command.map(shellWord).join(' ')}`,
    `flags added:     ${p.added.length === 0 ? 'none' : p.added.join(' ')}`,
    `reset at:        ${spec}; now ${point} (resolved again for the model of every answer)`,
    'at the point:    let the turn finish, wait for "capsule written: <id>" (asking once when the hook did not), then /clear and the continuation',
    `capsule wait:    ${Math.round(p.capsuleWaitMs / 1000)} s after the turn that asked for the capsule; then the lineage's autosave stands`,
    `max resets:      ${p.maxResets === null ? 'no limit' : p.maxResets}`,
    `continuation:    ${JSON.stringify(p.continuation)}`,
    `coordination:    ${p.coordination === null ? 'none (not inside a git repository)' : `${p.coordination.path} (${p.coordination.declared ? 'declared in CAPSULE_COORDINATION_STATE' : "the supervisor's own, passed to the client"})`}`,
    `user messages:   ${p.input.source}, ${p.input.format === 'auto' ? 'JSON lines as stream-json, other lines as plain messages' : 'every line a plain message'}; one at a time, when the client is idle`,
  ];
  return `${lines.join('\n')}\n`;
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
