import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDeps } from '../../lib/hooks/default-deps';
import { runHook } from '../../lib/hooks/run-hook';
import { makeSessionStartHook } from '../../lib/hooks/session-start';
import { makeStopHook } from '../../lib/hooks/stop';
import { runCli } from '../support/run-cli';
import { copilotPayload } from '../hosts/copilot/copilot-fixtures';
import { makeTempRepo, payload, turnRecords, type TempRepo } from './hook-fixtures';

const NOW = new Date('2026-11-29T21:00:00Z');
const FIXTURES = join(__dirname, '..', 'fixtures', 'copilot');

// One branch, two hosts, through the real handlers: what one host's Stop autosaved, the other
// host's SessionStart orients to, and `git capsule list` / `resume --id` take on purpose.
describe('capsules across Claude Code and the Copilot CLI on one branch', () => {
  let repo: TempRepo;
  beforeEach(() => (repo = makeTempRepo()));
  afterEach(() => repo.cleanup());
  const env = () => ({ ...repo.env, CLAUDE_PROJECT_DIR: repo.dir });

  it("orients a new Copilot session to the capsule a Claude Code session wrote", async () => {
    const transcript = join(repo.dir, '..', 'claude-session.jsonl');
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, prompt: 'CLAUDE-WORK write the widget', write: `${repo.dir}/widget.ts` }));
    await runHook(makeStopHook(defaultDeps), { readStdin: async () => JSON.stringify(payload('Stop', { cwd: repo.dir, transcript_path: transcript })), env: env(), now: () => NOW, cwd: repo.dir });
    const out = await runHook(makeSessionStartHook(defaultDeps), {
      readStdin: async () => JSON.stringify(copilotPayload('sessionStart', { cwd: repo.dir, sessionId: 'copilot-fresh-1' })),
      env: repo.env,
      now: () => NOW,
      cwd: repo.dir,
      argv: ['--host', 'copilot'],
    });
    expect(JSON.parse(out.stdout).additionalContext).toContain('CLAUDE-WORK write the widget');
  });

  it('lists the capsule a Copilot session autosaved, and resumes it on purpose, from the CLI', async () => {
    const home = join(repo.dir, '..', 'copilot-home');
    const sessionDir = join(home, '.copilot', 'session-state', '47a101fa-6328-4a14-80e7-39960d749a98');
    mkdirSync(sessionDir, { recursive: true });
    copyFileSync(join(FIXTURES, 'events-sample.jsonl'), join(sessionDir, 'events.jsonl'));
    const stop = copilotPayload('agentStop', { cwd: repo.dir, transcriptPath: join(sessionDir, 'events.jsonl') });
    await runHook(makeStopHook(defaultDeps), { readStdin: async () => JSON.stringify(stop), env: repo.env, now: () => NOW, cwd: repo.dir, argv: ['--host', 'copilot'] });
    const listed = JSON.parse((await runCli(['list', '--json'], { cwd: repo.dir, env: repo.env, now: NOW })).stdout) as Array<{ id: string; objective?: string }>;
    expect(listed).toHaveLength(1);
    const resumed = await runCli(['resume', '--id', listed[0]!.id, '--no-consume'], { cwd: repo.dir, env: repo.env, now: NOW });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('src.ts');
    expect(resumed.stdout).toContain('expected 2 received 1');
  });
});
