import { clipText, quoteText } from './work-event-text';
import { MAX_TASK_SUBJECTS, type WorkEvent } from './work-event-types';

/**
 * Claude Code 2.1's task list, read from its tools as structure, not from prose: `TaskCreate`
 * (a subject; its result names the id), `TaskUpdate` (`taskId` and `status` only), `TaskList`.
 * Ids restart after a /clear, so the capsule keeps subjects, never ids: a task event's text is
 * `[status] subject`, and an update whose id this session never saw created names no task.
 */

/** The ids of this session's tasks mapped to their subjects, carried from one delta to the next. */
export type TaskSubjects = Record<string, string>;

/** A status the task tools write, normalized (`[created]` of earlier autosaves reads as pending). */
export type TaskStatus = 'pending' | 'in_progress' | 'completed' | 'deleted';

const STATUSES: ReadonlySet<string> = new Set(['pending', 'in_progress', 'completed', 'deleted']);
// "Task #3 created successfully: …"; a result that names its id another way (`"id": "3"`).
const CREATED_ID = /#(\d+)\b|\bid["':\s]+["']?(\w+)/i;
// A TaskList line: "#3 [in_progress] Wire the hook", "3. Wire the hook (completed)".
const LIST_LINE = /^\s*#?(\d+)[.:)]?\s+(?:\[(\w+)\]\s*)?(.+?)(?:\s+\((\w+)\))?\s*$/;

/** The subject TaskCreate's input names, or null. */
function subjectOf(input: Record<string, unknown>): string | null {
  const s = input.subject ?? input.description;
  return typeof s === 'string' && s.trim() !== '' ? clipText(s, 200) : null;
}

function normalStatus(value: unknown): TaskStatus | null {
  const s = typeof value === 'string' ? value.toLowerCase().replace(/[\s-]+/g, '_') : '';
  return STATUSES.has(s) ? (s as TaskStatus) : null;
}

/**
 * The task events one task-tool call evidences (TaskCreate, TaskUpdate, TaskList), updating
 * `subjects` with the ids it learns. `result` is the call's result text when the records hold it.
 *
 * @example taskToolEvents('TaskCreate', { subject: 'Port the reader' }, 'Task #1 created successfully: Port the reader', subjects) // [{ kind: 'task', text: '[pending] Port the reader' }]
 */
export function taskToolEvents(name: string, input: Record<string, unknown>, result: string | undefined, subjects: TaskSubjects): Array<Pick<WorkEvent, 'kind' | 'text'>> {
  if (name === 'TaskCreate') {
    const subject = subjectOf(input);
    if (subject === null) return [];
    const m = result === undefined ? null : CREATED_ID.exec(result.slice(0, 400));
    const id = m?.[1] ?? m?.[2] ?? nextId(subjects);
    remember(subjects, id, subject);
    return [{ kind: 'task', text: `[pending] ${subject}` }];
  }
  if (name === 'TaskUpdate') {
    const id = String(input.taskId ?? input.id ?? '');
    const subject = subjectOf(input) ?? subjects[id];
    const status = normalStatus(input.status);
    if (subject === undefined || status === null) return [];
    if (typeof input.subject === 'string') remember(subjects, id, subject);
    return [{ kind: 'task', text: `[${status}] ${subject}` }];
  }
  if (name === 'TaskList' && result !== undefined) {
    const out: Array<Pick<WorkEvent, 'kind' | 'text'>> = [];
    for (const line of result.slice(0, 20_000).split('\n')) {
      const m = LIST_LINE.exec(line);
      const status = normalStatus(m?.[2] ?? m?.[4]);
      if (m === null || status === null) continue;
      const subject = clipText(m[3]!, 200);
      remember(subjects, m[1]!, subject);
      out.push({ kind: 'task', text: `[${status}] ${subject}` });
    }
    return out;
  }
  return [];
}

/** What a subagent (the Agent tool) reported back: a fact of the main session, quoted, bounded. */
export function subagentFinding(description: string, report: string): Pick<WorkEvent, 'kind' | 'text' | 'quote'> {
  // The client appends its own bookkeeping (agentId, usage) after the report.
  const body = reportBody(report);
  return { kind: 'finding', text: clipText(`subagent "${clipText(description, 80)}" reported: ${body}`), quote: quoteText(`subagent "${clipText(description, 80)}" reported: ${body}`, 700) };
}

/**
 * The report itself: without the client's bookkeeping after it (agentId, usage), its list of
 * tools used, and the hand-back frame Claude Code 2.1.332 puts around it (a preamble paragraph,
 * then the report's lines indented).
 */
function reportBody(report: string): string {
  let text = report.replace(/<tools-used-before-summary>[\s\S]*?<\/tools-used-before-summary>/g, '').replace(/\n\s*agentId:[\s\S]*$/i, '');
  const frame = text.indexOf('[Subagent hand-back]');
  if (frame !== -1) {
    const after = text.slice(frame);
    const firstIndented = after.search(/\n[ \t]+\S/);
    text = firstIndented === -1 ? after : after.slice(firstIndented);
  }
  return text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^\[(?:end of )?subagent/i.test(l)).join('\n');
}

function nextId(subjects: TaskSubjects): string {
  const ids = Object.keys(subjects).map(Number).filter((n) => Number.isInteger(n));
  return String(ids.length === 0 ? 1 : Math.max(...ids) + 1);
}

function remember(subjects: TaskSubjects, id: string, subject: string): void {
  if (id === '') return;
  delete subjects[id];
  subjects[id] = subject;
  const keys = Object.keys(subjects);
  for (const k of keys.slice(0, Math.max(0, keys.length - MAX_TASK_SUBJECTS))) delete subjects[k];
}
