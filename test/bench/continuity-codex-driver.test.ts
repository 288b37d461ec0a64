import { codexCannotRun, codexFakeScript } from '../../bench/continuity/codex/fake-script';
import { codexStepPrompts } from '../../bench/continuity/codex/run-scenario';
import type { Scenario } from '../../bench/continuity/scenario-types';

const WAIT = Array.from({ length: 12 }, () => '<key:End>').join(';;');

const scenario: Scenario = {
  name: 'fixture',
  covers: '',
  sessions: [{ name: 'main', steps: [
    { prompt: 'Fix (the) bug.', actions: [{ tool: 'Read', path: 'a.js' }, { tool: 'Edit', path: 'a.js', old: 'bug', new: 'fix' }, { tool: 'Bash', command: 'npm test' }, { text: 'Fixed.' }] },
    { prompt: 'Then the docs\nplease', actions: [{ tool: 'Write', path: 'docs/b.md', content: 'one\ntwo\n' }] },
    { reset: 'compact' },
    { prompt: 'Go on.', actions: [{ tool: 'Write', path: 'a.js', content: 'const x = 2;\n' }] },
  ] }],
  probe: { resets: ['clear', 'compact'], prompt: 'Where were we?' },
  facts: [],
  antiFacts: [],
};

describe('the Codex driver of the continuity benchmark', () => {
  it('runs turns headless and types each reset in one TUI process with the turns around it, after the Stop hooks had time; a pasted prompt of several lines stays headless', () => {
    expect(codexStepPrompts(scenario.sessions[0]!.steps, 'clear', 'Where were we?')).toEqual([
      'Fix (the) bug.',
      'Then the docs\nplease',
      `@tui:/compact;;Go on.;;${WAIT};;/clear;;Where were we?`,
    ]);
    expect(codexStepPrompts([{ prompt: 'a', actions: [] }], 'compact', 'p')).toEqual([`@tui:a;;${WAIT};;/compact;;p`]);
    expect(codexStepPrompts([{ prompt: 'a', actions: [] }, { reset: 'clear' }, { prompt: 'b\nc', actions: [] }], 'compact', 'p')).toEqual([`@tui:a;;${WAIT};;/clear;;b c;;${WAIT};;/compact;;p`]);
  });

  it("answers with Codex's tools, each action once in order, and patches that apply to the file as the session left it", () => {
    const { rules } = codexFakeScript(scenario, scenario.sessions[0]!, 'Where were we?', { 'a.js': 'let bug = 1;\n' });
    expect(rules.map((r) => r.name)).toEqual(['compact-summary', 'title', 'main-1.1', 'main-1.2', 'main-1.3', 'main-1.4', 'main-2.1', 'main-2.2', 'main-4.1', 'main-4.2', 'probe', 'default-text']);
    expect(rules[2]).toEqual({ name: 'main-1.1', when: { prompt: 'Fix \\(the\\) bug\\.' }, respond: { function_call: { name: 'exec_command', arguments: { cmd: 'cat a.js' } } }, times: 1 });
    expect(rules[3]!.when).toEqual({ prompt: 'Fix \\(the\\) bug\\.', lastIsToolOutput: true });
    const input = (i: number) => (rules[i]!.respond as { custom_tool_call: { input: string } }).custom_tool_call.input;
    expect(input(3)).toBe('*** Begin Patch\n*** Update File: a.js\n@@\n-let bug = 1;\n+let fix = 1;\n*** End Patch\n');
    expect(input(6)).toBe('*** Begin Patch\n*** Add File: docs/b.md\n+one\n+two\n*** End Patch\n');
    expect(input(8)).toBe('*** Begin Patch\n*** Update File: a.js\n@@\n-let fix = 1;\n+const x = 2;\n*** End Patch\n');
    expect(rules[7]!.respond).toEqual({ text: 'Done.' });
  });

  it('says why a scenario cannot run on Codex: background tasks, concurrent sessions', () => {
    expect(codexCannotRun(scenario)).toBeNull();
    const background: Scenario = { ...scenario, sessions: [{ name: 'main', steps: [{ prompt: 'x', actions: [{ tool: 'Bash', command: 'sleep 9', background: true }] }] }] };
    expect(codexCannotRun(background)).toMatch(/background/);
    expect(codexCannotRun({ ...scenario, sessions: [...scenario.sessions, { name: 'b', steps: [] }] })).toMatch(/several concurrent sessions/);
  });

  it("skips, with a reason, what only the Claude driver can script: task tools, Agent, context sizes, setup, shell steps, worktrees, --resume", () => {
    const withActions = (actions: Scenario['sessions'][number]['steps'][number] & { prompt: string }) => ({ ...scenario, sessions: [{ name: 'main', steps: [actions] }] });
    expect(codexCannotRun(withActions({ prompt: 'p', actions: [{ tool: 'TaskCreate', subject: 's' }] }))).toMatch(/task tools/);
    expect(codexCannotRun(withActions({ prompt: 'p', actions: [{ tool: 'Agent', description: 'd', prompt: 'q', actions: [] }] }))).toMatch(/Agent/);
    expect(codexCannotRun(withActions({ prompt: 'p', actions: [{ tool: 'Bash', command: 'x', inputTokens: 120000 }] }))).toMatch(/context size/);
    expect(codexCannotRun({ ...scenario, setup: [{ shell: 'true' }] })).toMatch(/setup/);
    expect(codexCannotRun({ ...scenario, sessions: [{ name: 'main', steps: [{ shell: 'git switch -c x' }] }] })).toMatch(/shell steps/);
    expect(codexCannotRun({ ...scenario, sessions: [{ ...scenario.sessions[0]!, cwd: '../wt' }] })).toMatch(/worktrees/);
    expect(codexCannotRun({ ...scenario, compactSummaries: ['s'] })).toMatch(/automatic compactions/);
    expect(codexCannotRun({ ...scenario, live: true })).toBeNull();
  });
});
