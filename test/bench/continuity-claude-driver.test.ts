import { fakeScript } from '../../bench/continuity/claude/fake-script';
import { stepPrompts } from '../../bench/continuity/claude/run-scenario';
import type { Scenario } from '../../bench/continuity/scenario-types';
import { SCENARIOS } from '../../bench/continuity/scenarios/index';

const scenario: Scenario = {
  name: 'fixture',
  covers: '',
  sessions: [{ name: 'main', steps: [
    { prompt: 'Fix (the) bug.', actions: [{ tool: 'Read', path: 'a.js' }, { tool: 'Bash', command: 'npm test' }, { text: 'Fixed.' }] },
    { reset: 'clear' },
    { prompt: 'Now the docs', actions: [{ tool: 'Write', path: '/abs/b.md', content: 'x' }] },
  ] }],
  probe: { resets: ['clear', 'compact'], prompt: 'Where were we?' },
  facts: [],
  antiFacts: [],
};

describe('the Claude driver of the continuity benchmark', () => {
  it('continues the newest session after every /clear, the probed one included', () => {
    expect(stepPrompts(scenario.sessions[0]!.steps, 'clear', 'Where were we?')).toEqual(['Fix (the) bug.', '/clear', '@continue:Now the docs', '@continue:/clear', '@continue:Where were we?']);
    expect(stepPrompts([{ prompt: 'a', actions: [] }], 'compact', 'p')).toEqual(['a', '/compact', 'p']);
  });

  it('chains each action of a turn to the previous tool result, once each, after the summary and side rules', () => {
    const { rules } = fakeScript(scenario, scenario.sessions[0]!, 'Where were we?');
    expect(rules.map((r) => r.name)).toEqual(['compact-summary', 'side-request', 'main-1.1', 'main-1.2', 'main-1.3', 'main-3.1', 'main-3.2', 'probe', 'default-text']);
    expect(rules[2]).toEqual({ name: 'main-1.1', when: { prompt: 'Fix \\(the\\) bug\\.' }, respond: { tool_use: { name: 'Read', input: { file_path: '{{cwd}}/a.js' } } }, times: 1 });
    expect(rules[3]!.when).toEqual({ lastIsToolResult: true, anyUserText: 'Fix \\(the\\) bug\\.' });
    expect(rules[6]!.respond).toEqual({ text: 'Done.' });
  });

  it("gives each of several concurrent sessions its own chain, keyed on that session's prompt", () => {
    const b = { name: 'b', steps: [{ prompt: 'Other task', actions: [{ tool: 'Read' as const, path: 'c.js' }, { text: 'Read.' }] }] };
    const { rules } = fakeScript(scenario, [scenario.sessions[0]!, b], 'Where were we?');
    expect(rules.map((r) => r.name)).toEqual(['compact-summary', 'side-request', 'main-1.1', 'main-1.2', 'main-1.3', 'main-3.1', 'main-3.2', 'b-1.1', 'b-1.2', 'probe', 'default-text']);
    expect(rules[8]!.when).toEqual({ lastIsToolResult: true, anyUserText: 'Other task' });
  });

  it('has at least eight scenarios, each with facts, anti-facts and a probed reset', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(8);
    for (const s of SCENARIOS) expect([s.name, s.facts.length > 0, s.antiFacts.length > 0, s.probe.resets.length > 0]).toEqual([s.name, true, true, true]);
    expect(new Set(SCENARIOS.map((s) => s.name)).size).toBe(SCENARIOS.length);
  });
});
