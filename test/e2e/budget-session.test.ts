import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { findHarness, harnessSession, loggedRequests as requests, harnessMissing } from './claude-client';
import { describeIfAvailable } from '../support/needs';

const harness = findHarness();

const count = (text: string, needle: string) => text.split(needle).length - 1;

// The real client, offline, with the plugin: CLAUDE_CODE_AUTO_COMPACT_WINDOW=200000 puts the
// native point at 167000, the hard point at 158808 and the warning at 142424 (for the host and
// for the budget alike). The fake API reports 150000 input tokens for BUDGET-FILL, then 160000
// for BUDGET-HARD: the prompt after the fill carries the warning, and the Stop after the hard
// turn blocks exactly once (the continuation's Stop has stop_hook_active and passes).
describeIfAvailable('the real-client suite', harnessMissing(harness))('the budget in a real Claude Code session', () => {
  const session = harnessSession(harness ?? '', {
    name: 'budget',
    script: 'script-budget.json',
    prompts: ['hello', 'BUDGET-FILL now', 'BUDGET-HARD next', 'BUDGET-AFTER again'],
    env: { CCH_EXTRA_ENV: 'CLAUDE_CODE_AUTO_COMPACT_WINDOW=200000' },
  });

  it('runs every step of the session', () => {
    expect({ status: session.run.status, stderr: session.run.stderr.slice(-2000) }).toEqual({ status: 0, stderr: expect.any(String) });
  });

  it('carries the warning in the request after the 150K turn, and not before', () => {
    const all = requests(session.out);
    const fill = all.find((r) => r.rule === 'fill');
    const next = all.find((r) => r.rule === 'hard');
    expect(fill?.text).not.toContain('past the warning point');
    expect(next?.text).toContain('UserPromptSubmit hook additional context: [git-capsule budget]');
    expect(next?.text).toContain('past the warning point 142.4k');
  });

  it('warns once per window', () => {
    const last = requests(session.out).at(-1)!;
    expect(last.rule).toBe('after');
    expect(count(last.text, 'past the warning point')).toBe(1);
  });

  it('makes Stop block exactly once at the hard point, asking for the capsule and /clear', () => {
    const all = requests(session.out);
    expect(all.filter((r) => r.rule === 'stop-feedback')).toHaveLength(1);
    const last = all.at(-1)!;
    expect(count(last.text, 'Stop hook feedback')).toBe(1);
    // The Stop hook blocks by exit 2 (it runs in the background in a live session, where only that
    // blocks; here, in a plain `claude -p`, in the foreground): the client quotes the command before its stderr.
    expect(last.text).toMatch(/Stop hook feedback:\\n\[node [^\]]*stop\.js[^\]]*\]: \[git-capsule budget\] The context holds about 160k tokens: past the hard point 158.8k/);
    expect(last.text).toMatch(/past the hard point[^"]*context-capsule[^"]*\/clear/);
  });

  it('logs no hook errors', () => {
    const log = spawnSync('cat', [join(session.out, 'repo', '.git', 'capsule', 'errors.log')], { encoding: 'utf8' });
    expect(log.stdout).toBe('');
  });
});
