import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './claude-client';
import { realClientDescribe, resumeBlockIn, StreamHarness } from './support/stream-session';

const CLI = join(REPO_ROOT, 'dist', 'git-capsule.js');
const ENV = { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', TZ: 'UTC' };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...ENV, HOME: cwd }, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim();
}

/** The built CLI in `cwd`, outside any Claude Code session (no CLAUDE_PID, no session id). */
function capsule(cwd: string, ...args: string[]): string {
  return execFileSync(process.execPath, [CLI, ...args], { cwd, env: { ...ENV, HOME: cwd }, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

function injected(h: StreamHarness, marker: string): string {
  const request = h.firstRequestWith(marker);
  if (!request) throw new Error(`no request carries ${marker}`);
  return resumeBlockIn(request.text);
}

const work = (marker: string, step: Record<string, unknown>) => ({ name: marker, when: { prompt: marker }, respond: { tool_use: step } });

// Two people, each with a clone of one bare remote and a Claude Code session in it, syncing the
// memory branch through the remote: each one's /clear resumes their own work, never the other's;
// the other's capsules are listed with their author; a capsule dated 2099 never wins.
realClientDescribe('two clones syncing through a bare remote', () => {
  let h: StreamHarness;
  let alice: string;
  let bob: string;
  let manual: string;
  beforeAll(async () => {
    h = await StreamHarness.start({
      name: 'two-clones',
      script: {
        rules: [
          { name: 'side-request', when: { hasTools: false }, respond: { text: 'side' } },
          { name: 'after-tool', when: { lastIsToolResult: true }, respond: { text: 'done' } },
          work('ALICE-EDIT', { name: 'Write', input: { file_path: '{{cwd}}/alice.txt', content: 'alice\n' } }),
          work('ALICE-TEST', { name: 'Bash', input: { command: "echo 'ALICE-ERROR parser failed' >&2; exit 3", description: 'test' } }),
          work('BOB-EDIT', { name: 'Write', input: { file_path: '{{cwd}}/bob.txt', content: 'bob\n' } }),
          work('BOB-TEST', { name: 'Bash', input: { command: "echo 'BOB-ERROR lexer failed' >&2; exit 3", description: 'test' } }),
          { name: 'default-text', when: { any: true }, respond: { text: 'ok' } },
        ],
      },
    });
    const remote = join(h.out, 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
    git(h.repo, 'push', '-q', remote, 'main');
    const clone = (who: string) => {
      const dir = join(h.out, who);
      execFileSync('git', ['clone', '-q', remote, dir]);
      git(dir, 'config', 'user.name', who);
      git(dir, 'config', 'user.email', `${who}@example.com`);
      return dir;
    };
    alice = clone('alice');
    bob = clone('bob');
    const a = h.session({ name: 'alice', cwd: alice, home: join(h.out, 'home-alice') });
    const b = h.session({ name: 'bob', cwd: bob, home: join(h.out, 'home-bob') });
    await a.send('Write the parser for objective alice ALICE-EDIT');
    await b.send('Fix the lexer for objective bob BOB-EDIT');
    await a.send('ALICE-TEST run the parser test');
    await b.send('BOB-TEST run the lexer test');
    // Alice's own capsule from the far future: same author, machine, worktree and branch; only its date is wrong.
    mkdirSync(join(h.out, 'tmp'), { recursive: true });
    writeFileSync(join(h.out, 'tmp', 'future.md'), '---\nobjective: FUTURE-CAPSULE from a wrong clock\nwaiting_on: nothing\nnext_valid_action: FUTURE-ACTION\ncreated_at: 2099-01-01T00:00:00Z\n---\n');
    capsule(alice, 'write', join(h.out, 'tmp', 'future.md'));
    for (const dir of [alice, bob, alice]) capsule(dir, 'sync', 'origin', '--quiet');
    await a.clear();
    await a.send('ALICE-AFTER-CLEAR what now?');
    await b.clear();
    await b.send('BOB-AFTER-CLEAR what now?');
    await Promise.all([a.close(), b.close()]);
    manual = capsule(alice, 'resume', '--no-consume');
  }, 600_000);
  afterAll(async () => h?.close());

  it('holds both people\'s capsules on both clones after the sync', () => {
    for (const dir of [alice, bob]) {
      // A sync publishes state, not each commit: read the documents at the tip.
      const paths = git(dir, 'ls-tree', '-r', '--name-only', 'refs/heads/capsules', 'capsules').split('\n').filter((p) => p.endsWith('/capsule.md'));
      const docs = paths.map((p) => git(dir, 'show', `refs/heads/capsules:${p}`)).join('\n');
      expect(docs).toContain('objective alice');
      expect(docs).toContain('objective bob');
    }
  });

  it("resumes Alice's own work at her /clear, never Bob's or the future one", () => {
    const block = injected(h, 'ALICE-AFTER-CLEAR');
    // Her task is the objective; running its test is a follow-up of that task (issue 30's task
    // model: a follow-up never replaces the task), quoted as her latest request; nothing of Bob's anywhere.
    expect(block).toContain('objective: "Write the parser for objective alice ALICE-EDIT"');
    expect(block).toContain('"follow-up of the current task: ALICE-TEST run the parser test"');
    expect(block).toContain('the user\'s latest request: "ALICE-TEST run the parser test"');
    expect(block).toContain('ALICE-ERROR');
    expect(block).not.toMatch(/objective: "[^"]*BOB|objective: "FUTURE/);
    expect(block).toContain('written where: by "alice@example.com" on this machine');
  });

  it("resumes Bob's own work at his /clear, never Alice's", () => {
    const block = injected(h, 'BOB-AFTER-CLEAR');
    expect(block).toContain('objective: "Fix the lexer for objective bob BOB-EDIT"');
    expect(block).toContain('"follow-up of the current task: BOB-TEST run the lexer test"');
    expect(block).toContain('BOB-ERROR');
    expect(block).not.toMatch(/objective: "[^"]*ALICE|objective: "FUTURE/);
  });

  it("lists the other person's capsules in the ledger with their author", () => {
    expect(injected(h, 'ALICE-AFTER-CLEAR')).toMatch(/other-author \(written by "bob@example\.com, synced from machine m-[0-9A-Z]{26}"\)/);
    expect(injected(h, 'BOB-AFTER-CLEAR')).toMatch(/other-author \(written by "alice@example\.com, synced from machine m-[0-9A-Z]{26}"\)/);
    expect(injected(h, 'BOB-AFTER-CLEAR')).toContain('git capsule resume --id <id>');
  });

  it('names the capsule dated 2099 in the ledger and never selects it, with or without a lineage', () => {
    expect(injected(h, 'ALICE-AFTER-CLEAR')).toContain('future-created-at');
    expect(manual).toContain('objective: "Write the parser for objective alice ALICE-EDIT"');
    expect(manual).toContain('future-created-at');
    expect(manual).not.toContain('objective: "FUTURE');
  });
});
