import { execFileSync, spawnSync } from 'node:child_process';
import { tempDir } from '../support/temp-dirs';
import { join } from 'node:path';
import { clientTmp, ensureClaudeClient, findHarness, REPO_ROOT } from './claude-client';
import { codexRequests, describeWithCodex, removeRun, resumeMessage, runCodexSession, type CodexRun } from './codex-client';

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
}

// (c) One branch, two hosts: a real Claude Code session writes its autosave on the memory
// branch (widget.txt, a failing test); the same repository then runs a real Codex session that
// works on something else and is compacted. The Codex resume takes its own checkpoint and lists
// the Claude Code capsule among the capsules not selected; `git capsule resume --id` then takes
// the Claude Code capsule on purpose, from the Codex session's repository.
describeWithCodex('a capsule written from Claude Code, seen and resumed from Codex', {}, (codexHarness) => {
  const claudeHarness = findHarness();
  let claudeOut = '';
  let session: CodexRun;
  let claudeCapsule = '';
  beforeAll(() => {
    if (claudeHarness === null) throw new Error(`CAPSULE_HARNESS_DIR=${process.env.CAPSULE_HARNESS_DIR} holds no run.sh`);
    const claudeRoot = tempDir('capsule-cross-claude-');
    claudeOut = join(claudeRoot, 'out');
    const claude = spawnSync(
      join(claudeHarness, 'run.sh'),
      ['-o', claudeOut, '-P', REPO_ROOT, '-S', join(__dirname, 'fixtures', 'script-session.json'), '-t', '90', '-p', 'E2E-EDIT write the widget', '-p', 'E2E-TEST run the widget test'],
      { encoding: 'utf8', env: { ...process.env, CLAUDE_BIN: ensureClaudeClient(), TMPDIR: clientTmp(claudeRoot) }, timeout: 600_000 },
    );
    if (claude.status !== 0) throw new Error(`the Claude Code session failed: ${claude.stderr.slice(-1000)}`);
    claudeCapsule = /autosave (\S+):/.exec(git(join(claudeOut, 'repo'), 'log', '-1', '--format=%s', 'refs/heads/capsules'))?.[1] ?? '';
    // The Codex run starts from that repository, memory branch included.
    session = runCodexSession(codexHarness, {
      name: 'cross-host',
      script: 'codex-script-cross.json',
      args: ['-T', join(claudeOut, 'repo'), '-c', 'model_auto_compact_token_limit=20000'],
      prompts: ['CODEX-GAUGE write the gauge', 'CODEX-FILL fill the context'],
    });
  }, 1_200_000);
  afterAll(() => {
    removeRun(claudeOut);
    removeRun(session?.out);
  });

  it('has the Claude Code autosave on the branch the Codex session works on', () => {
    expect(claudeCapsule).toMatch(/^[0-9A-Z]{26}$/);
    expect(session.run.status).toBe(0);
    expect(git(join(session.out, 'repo'), 'show', `refs/heads/capsules:${git(join(session.out, 'repo'), 'ls-tree', '-r', '--name-only', 'refs/heads/capsules').split('\n').find((p) => p.includes(claudeCapsule) && p.endsWith('capsule.md'))}`)).toContain('widget.txt');
  });

  it("resumes the Codex session's own checkpoint after its compaction and lists the Claude Code capsule as not selected", () => {
    const requests = codexRequests(session.out);
    const after = requests[requests.findIndex((r) => r.rule === 'compact-summary') + 1]!;
    const block = resumeMessage(after);
    expect(block).toContain('src/gauge.txt');
    expect(block).not.toContain('widget.txt');
    expect(block).toMatch(/CAPSULES NOT SELECTED \([1-9]/);
  });

  it('resumes the Claude Code capsule on purpose with git capsule resume --id, and marks it resumed', () => {
    const repo = join(session.out, 'repo');
    const cli = spawnSync(process.execPath, [join(REPO_ROOT, 'dist', 'git-capsule.js'), 'resume', '--id', claudeCapsule], { cwd: repo, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: join(session.out, 'home') } });
    expect({ status: cli.status, stderr: cli.stderr }).toEqual({ status: 0, stderr: '' });
    expect(cli.stdout).toContain(`id: "${claudeCapsule}"`);
    expect(cli.stdout).toContain('widget.txt');
    expect(cli.stdout).toContain('E2E-FAILURE-MARKER');
    expect(git(repo, 'ls-tree', '-r', '--name-only', 'refs/heads/capsules')).toMatch(new RegExp(`${claudeCapsule}/status/[^\\n]*-resumed`));
  });
});
