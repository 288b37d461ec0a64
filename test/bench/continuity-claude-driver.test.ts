import { fakeScript } from '../../bench/continuity/claude/fake-script';
import { stepPrompts } from '../../bench/continuity/claude/run-scenario';
import { needsLiveSessions, type Scenario } from '../../bench/continuity/scenario-types';
import { expandVars, ulidAt } from '../../bench/continuity/vars';
import { HELD_OUT, HELD_OUT_2, SCENARIOS, TUNED } from '../../bench/continuity/scenarios/index';

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

  it("answers a foreground subagent's own requests from its actions (keyed on its prompt, before the main chain), and the task tools as 2.1.332 takes them", () => {
    const s: Scenario = { ...scenario, compactSummaries: ['<summary>one</summary>'], sessions: [{ name: 'main', steps: [{ prompt: 'Why (twice)?', actions: [
      { tool: 'TaskCreate', subject: 'Look' },
      { tool: 'TaskUpdate', taskId: '1', status: 'in_progress', inputTokens: 120000 },
      { tool: 'Agent', description: 'dig', prompt: 'Dig into it.', actions: [{ tool: 'Read', path: 'a.js' }, { text: 'Root cause: a.js' }] },
      { text: 'Found it.' },
    ] }] }] };
    const { rules } = fakeScript(s, s.sessions[0]!, 'Where were we?');
    expect(rules.map((r) => r.name)).toEqual(['compact-summary-1', 'compact-summary', 'side-request', 'main-1.3-agent.1', 'main-1.3-agent.2', 'main-1.1', 'main-1.2', 'main-1.3', 'main-1.4', 'probe', 'default-text']);
    expect(rules[0]).toEqual({ name: 'compact-summary-1', when: { lastUserText: expect.any(String) }, respond: { text: '<summary>one</summary>', input_tokens: 2000 }, times: 1 });
    expect(rules[3]!.when).toEqual({ prompt: 'Dig into it\\.' });
    expect(rules[4]).toMatchObject({ when: { lastIsToolResult: true, anyUserText: 'Dig into it\\.' }, respond: { text: 'Root cause: a.js' } });
    expect(rules[5]!.respond).toEqual({ tool_use: { name: 'TaskCreate', input: { subject: 'Look' } } });
    expect(rules[6]!.respond).toEqual({ tool_use: { name: 'TaskUpdate', input: { taskId: '1', status: 'in_progress' } }, input_tokens: 120000 });
    expect(rules[7]!.respond).toEqual({ tool_use: { name: 'Agent', input: { description: 'dig', prompt: 'Dig into it.', subagent_type: 'general-purpose', run_in_background: false } } });
  });

  it('fills {{ulid:NAME:MIN}} (one ULID per name, its time MIN minutes back) and {{iso:MIN}}, and leaves the fake API its {{cwd}}', () => {
    const now = Date.UTC(2026, 11, 6, 3, 0, 0);
    const out = expandVars({ a: '{{ulid:h:90}} {{ulid:h:90}} {{ulid:g}}', b: ['{{iso:90}}', '{{cwd}}/x'] }, now);
    const [h1, h2, g] = out.a.split(' ');
    expect(h1).toBe(h2);
    expect(g).not.toBe(h1);
    expect(h1).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(h1!.slice(0, 10)).toBe(ulidAt(now - 90 * 60_000).slice(0, 10));
    expect(out.b).toEqual(['2026-12-06T01:30:00+00:00', '{{cwd}}/x']);
  });

  it('runs setup, shell steps, worktrees, env, --resume and several sessions through live client processes', () => {
    expect(needsLiveSessions(scenario)).toBe(false);
    expect(needsLiveSessions({ ...scenario, live: true })).toBe(true);
    expect(needsLiveSessions({ ...scenario, setup: [{ shell: 'true' }] })).toBe(true);
    expect(needsLiveSessions({ ...scenario, sessions: [{ name: 'm', steps: [{ shell: 'true' }] }] })).toBe(true);
    expect(needsLiveSessions({ ...scenario, sessions: [{ name: 'm', steps: [], cwd: '../w' }] })).toBe(true);
  });

  it('keeps a tuned half and held-out sets, with no name in two of them', () => {
    expect(HELD_OUT.length).toBeGreaterThanOrEqual(12);
    expect(TUNED.length).toBeGreaterThanOrEqual(12);
    const held = new Set([...HELD_OUT, ...HELD_OUT_2].map((s) => s.name));
    expect(held.size).toBe(HELD_OUT.length + HELD_OUT_2.length);
    expect(TUNED.filter((s) => held.has(s.name))).toEqual([]);
  });

  it('has at least eight scenarios, each with facts, anti-facts and a probed reset', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(8);
    for (const s of SCENARIOS) expect([s.name, s.facts.length > 0, s.antiFacts.length > 0, s.probe.resets.length > 0]).toEqual([s.name, true, true, true]);
    expect(new Set(SCENARIOS.map((s) => s.name)).size).toBe(SCENARIOS.length);
  });
});
