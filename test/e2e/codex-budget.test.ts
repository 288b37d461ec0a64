import { codexRequests, describeWithCodex, removeRun, runCodexSession, type CodexRun } from './codex-client';

// The budget policy on the real Codex CLI: model_auto_compact_token_limit 100,000 given on the
// client's command line (the hook reads it from the client's own arguments) puts the warning at
// 75,424 and the hard point at 91,808. Turns report 80,000 then 95,000 tokens: the next prompt
// carries the warning, and the Stop after the second turn blocks exactly once. Codex has no
// loop guard of its own (a hook that always blocks loops until killed), so ours must hold.
describeWithCodex('the budget in a real Codex session', {}, (harness) => {
  let session: CodexRun;
  beforeAll(() => {
    session = runCodexSession(harness, {
      name: 'budget',
      script: 'codex-script-budget.json',
      args: ['-c', 'model_auto_compact_token_limit=100000'],
      prompts: ['BUDGET-ONE start', 'BUDGET-TWO go on', 'BUDGET-THREE after'],
    });
  }, 900_000);
  afterAll(() => removeRun(session?.out));

  it('runs every step without compacting', () => {
    expect(session.run.status).toBe(0);
    expect(codexRequests(session.out).map((r) => r.rule)).not.toContain('compact-summary');
  });

  it('carries the warning into the request of the prompt after the warning point, once', () => {
    const requests = codexRequests(session.out);
    const warned = requests.filter((r) => r.text.includes('past the warning point'));
    expect(warned.map((r) => r.rule)[0]).toBe('two');
    expect(requests.find((r) => r.rule === 'one')!.text).not.toContain('[git-capsule budget]');
  });

  it('blocks the Stop at the hard point exactly once: the block reaches the model once, and the turn ends', () => {
    const requests = codexRequests(session.out);
    const blocked = requests.filter((r) => r.rule === 'after-block');
    expect(blocked).toHaveLength(1);
    expect(blocked[0]!.text).toContain('past the hard point');
    // The third prompt still runs: the session did not loop on Stop.
    expect(requests.map((r) => r.rule)).toContain('default-text');
    expect(requests.length).toBeLessThan(12);
  });
});
