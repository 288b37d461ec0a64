import { isTurn, type Action, type Scenario, type SessionScript, type Turn } from '../scenario-types';

/** One rule of the harness's fake API (`fake-api.mjs`): the first match whose `times` is not used up answers. */
export interface FakeRule {
  name: string;
  when: Record<string, unknown>;
  respond: Record<string, unknown>;
  times?: number;
}

const COMPACT_REQUEST = 'Respond with TEXT ONLY|summary of the conversation|detailed summary';
const DEFAULT_SUMMARY = '<summary>The session worked on the task the user gave; see the conversation for details.</summary>';

/**
 * The fake API script of a scenario's sessions (one, or several running at once): the
 * compaction summary first (its request still carries tools), side requests, then each turn's
 * actions in order (the first answers the prompt, each later one the previous tool result of a
 * conversation holding that prompt, so concurrent sessions never take each other's answers),
 * notification answers, the probe, a default.
 */
export function fakeScript(scenario: Scenario, sessions: SessionScript | readonly SessionScript[], probePrompt: string): { rules: FakeRule[] } {
  const rules: FakeRule[] = [
    ...(scenario.compactSummaries ?? []).map((text, i): FakeRule => ({ name: `compact-summary-${i + 1}`, when: { lastUserText: COMPACT_REQUEST }, respond: { text, input_tokens: 2000 }, times: 1 })),
    { name: 'compact-summary', when: { lastUserText: COMPACT_REQUEST }, respond: { text: scenario.compactSummary ?? DEFAULT_SUMMARY } },
    { name: 'side-request', when: { hasTools: false }, respond: { text: 'side' } },
  ];
  for (const session of 'steps' in sessions ? [sessions] : sessions) {
    session.steps.forEach((step, k) => {
      if (isTurn(step)) rules.push(...turnRules(step, `${session.name}-${k + 1}`));
    });
  }
  rules.push({ name: 'probe', when: { prompt: escape(probePrompt) }, respond: { text: 'Resuming from the capsule.' } });
  rules.push({ name: 'default-text', when: { any: true }, respond: { text: 'ok' } });
  return { rules };
}

function turnRules(turn: Turn, name: string): FakeRule[] {
  const key = escape(turn.prompt.split('\n')[0]!.slice(0, 60));
  // A foreground subagent's requests come while the turn waits on it: its rules go first,
  // keyed on its own prompt (never in the main conversation's user text).
  const rules = subagentRules(turn.actions, name);
  rules.push(...chain(withFinalText(turn.actions), name, { prompt: key }, { lastIsToolResult: true, anyUserText: key }));
  turn.notifications?.forEach((n, i) => {
    rules.push(...chain(withFinalText(n.actions), `${name}-notification-${i + 1}`, { lastUserText: n.match }, { lastIsToolResult: true, anyUserText: n.match }));
  });
  return rules;
}

function subagentRules(actions: Action[], name: string): FakeRule[] {
  const rules: FakeRule[] = [];
  actions.forEach((a, i) => {
    if (!('tool' in a) || a.tool !== 'Agent') return;
    const key = escape(a.prompt.split('\n')[0]!.slice(0, 60));
    rules.push(...subagentRules(a.actions, `${name}.${i + 1}-agent`));
    rules.push(...chain(withFinalText(a.actions), `${name}.${i + 1}-agent`, { prompt: key }, { lastIsToolResult: true, anyUserText: key }));
  });
  return rules;
}

// The first action answers `first`; each later one answers the next tool result matching `then`.
function chain(actions: Action[], name: string, first: Record<string, unknown>, then: Record<string, unknown>): FakeRule[] {
  return actions.map((a, i) => ({ name: `${name}.${i + 1}`, when: i === 0 ? first : then, respond: respond(a), times: 1 }));
}

function withFinalText(actions: Action[]): Action[] {
  const last = actions[actions.length - 1];
  return last !== undefined && 'text' in last ? actions : [...actions, { text: 'Done.' }];
}

function respond(a: Action): Record<string, unknown> {
  const r = respondContent(a);
  return a.inputTokens === undefined ? r : { ...r, input_tokens: a.inputTokens };
}

function respondContent(a: Action): Record<string, unknown> {
  if ('text' in a) return { text: a.text };
  const path = (p: string) => (p.startsWith('/') ? p : `{{cwd}}/${p}`);
  switch (a.tool) {
    case 'Bash':
      return { tool_use: { name: 'Bash', input: { command: a.command, ...(a.description ? { description: a.description } : {}), ...(a.background ? { run_in_background: true } : {}) } } };
    case 'Read':
      return { tool_use: { name: 'Read', input: { file_path: path(a.path) } } };
    case 'Write':
      return { tool_use: { name: 'Write', input: { file_path: path(a.path), content: a.content } } };
    case 'Edit':
      return { tool_use: { name: 'Edit', input: { file_path: path(a.path), old_string: a.old, new_string: a.new } } };
    case 'ToolSearch':
      return { tool_use: { name: 'ToolSearch', input: { query: a.query } } };
    case 'TaskCreate':
      return { tool_use: { name: 'TaskCreate', input: { subject: a.subject, ...(a.description ? { description: a.description } : {}) } } };
    case 'TaskUpdate':
      return { tool_use: { name: 'TaskUpdate', input: { taskId: a.taskId, status: a.status } } };
    case 'TaskList':
      return { tool_use: { name: 'TaskList', input: {} } };
    case 'Agent':
      return { tool_use: { name: 'Agent', input: { description: a.description, prompt: a.prompt, subagent_type: a.subagentType ?? 'general-purpose', run_in_background: false } } };
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
