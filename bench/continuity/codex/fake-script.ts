import { isShell, isTurn, type Action, type Scenario, type SessionScript, type Turn } from '../scenario-types';
import type { FakeRule } from '../claude/fake-script';

const DEFAULT_SUMMARY = 'The session worked on the task the user gave; see the conversation for details.';

/**
 * The Codex harness's fake API script (codex-harness `fake-api.mjs`) of one session of a
 * scenario: the compaction summary (a Codex compaction is a request of its own kind), the TUI's
 * title requests, then each turn's actions in order (the first answers the typed prompt, each
 * later one the tool output of the same prompt), the probe, a default. The tools are Codex's:
 * `exec_command` for Bash and Read, `apply_patch` for Write and Edit, with the file contents
 * followed from the template through every write, so each patch applies.
 */
export function codexFakeScript(scenario: Scenario, session: SessionScript, probePrompt: string, files: Record<string, string>): { rules: FakeRule[] } {
  const contents = new Map(Object.entries(files));
  const rules: FakeRule[] = [
    { name: 'compact-summary', when: { compact: true }, respond: { text: scenario.compactSummary ?? DEFAULT_SUMMARY } },
    { name: 'title', when: { prompt: '^Generate a concise, single-line task title' }, respond: { text: 'Task' } },
  ];
  session.steps.forEach((step, k) => {
    if (isTurn(step)) rules.push(...turnRules(step, `${session.name}-${k + 1}`, contents));
  });
  rules.push({ name: 'probe', when: { prompt: escape(probePrompt) }, respond: { text: 'Resuming from the capsule.' } });
  rules.push({ name: 'default-text', when: { any: true }, respond: { text: 'ok' } });
  return { rules };
}

/** Why a scenario cannot run on Codex as written, or null. */
export function codexCannotRun(scenario: Scenario): string | null {
  if (scenario.sessions.length !== 1) return 'several concurrent sessions: the Codex harness drives one session per run';
  const session = scenario.sessions[0]!;
  if ((scenario.setup?.length ?? 0) > 0 || session.cwd !== undefined || session.env !== undefined || session.resumes !== undefined || session.steps.some(isShell)) return 'setup commands, shell steps, worktrees, --resume or live client processes: the Codex driver has none of them yet';
  if ((scenario.compactSummaries?.length ?? 0) > 0) return 'automatic compactions: the Codex driver cannot script them yet';
  const turns = scenario.sessions[0]!.steps.filter(isTurn);
  const claudeOnly = (a: Action): boolean => ('tool' in a && !['Bash', 'Read', 'Write', 'Edit'].includes(a.tool)) || a.inputTokens !== undefined;
  if (turns.some((t) => t.actions.some(claudeOnly))) return "Claude Code's task tools, Agent or ToolSearch, or a scripted context size: the Codex driver has no Codex equivalent for them";
  if (turns.some((t) => (t.notifications?.length ?? 0) > 0 || t.actions.some((a) => 'tool' in a && a.tool === 'Bash' && a.background))) {
    return 'a background task and its notification: Codex has neither';
  }
  return null;
}

/** The first line of a prompt, as the rules match it and the TUI types it. */
export function promptKey(prompt: string): string {
  return prompt.split('\n')[0]!.slice(0, 60);
}

function turnRules(turn: Turn, name: string, contents: Map<string, string>): FakeRule[] {
  const key = escape(promptKey(turn.prompt));
  const actions = withFinalText(turn.actions);
  return actions.map((a, i) => ({
    name: `${name}.${i + 1}`,
    when: i === 0 ? { prompt: key } : { prompt: key, lastIsToolOutput: true },
    respond: respond(a, contents),
    times: 1,
  }));
}

function withFinalText(actions: Action[]): Action[] {
  const last = actions[actions.length - 1];
  return last !== undefined && 'text' in last ? actions : [...actions, { text: 'Done.' }];
}

function respond(a: Action, contents: Map<string, string>): Record<string, unknown> {
  if ('text' in a) return { text: a.text };
  switch (a.tool) {
    case 'Bash':
      return { function_call: { name: 'exec_command', arguments: { cmd: a.command } } };
    case 'Read':
      return { function_call: { name: 'exec_command', arguments: { cmd: `cat ${shellQuote(a.path)}` } } };
    case 'Write':
      return patch(a.path, contents, a.content);
    case 'Edit':
      return patch(a.path, contents, (contents.get(a.path) ?? '').replace(a.old, a.new));
    default:
      throw new Error(`the Codex driver cannot script the ${a.tool} tool (codexCannotRun should have skipped the scenario)`);
  }
}

// A new file is added; a known one is replaced whole (every old line removed, every new one
// added), which applies whatever the edit was.
function patch(path: string, contents: Map<string, string>, next: string): Record<string, unknown> {
  const old = contents.get(path);
  contents.set(path, next);
  const plus = lines(next).map((l) => `+${l}`);
  const body = old === undefined ? [`*** Add File: ${path}`, ...plus] : [`*** Update File: ${path}`, '@@', ...lines(old).map((l) => `-${l}`), ...plus];
  return { custom_tool_call: { name: 'apply_patch', input: ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n') } };
}

function lines(text: string): string[] {
  const all = text.split('\n');
  return all[all.length - 1] === '' ? all.slice(0, -1) : all;
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
