import { join } from 'node:path';
import { makeIsolatedRepo, type IsolatedRepo } from '../../support/repo';
import { runBundle, runCli } from '../../support/run-cli';

const FAKE = join(__dirname, '..', '..', 'supervise-runtime', 'fixtures', 'fake-client.mjs');

let repo: IsolatedRepo;
beforeEach(() => {
  repo = makeIsolatedRepo({ prefix: 'capsule-supervise-' });
});
afterEach(() => repo.cleanup());

describe('git capsule supervise', () => {
  it("shows its own help, and leaves a --help after '--' to the client", async () => {
    const own = await runCli(['supervise', '--help']);
    expect(own.code).toBe(0);
    expect(own.stdout).toContain('usage: git capsule supervise [options] -- <client command …>');
    const dry = await runCli(['supervise', '--dry-run', '--', 'claude', '--help'], { cwd: repo.dir, env: repo.env });
    expect(dry.stdout).toMatch(/^would run: +claude --help -p --input-format stream-json/m);
  });

  it('prints its plan with --dry-run and starts nothing', async () => {
    const r = await runCli(['supervise', '--dry-run', '--max-resets', '3', '--', 'claude', '--model', 'claude-sonnet-4-5'], { cwd: repo.dir, env: repo.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("reset at:        the budget policy's hard point; now 158,808 tokens for claude-sonnet-4-5 in this project");
    expect(r.stdout).toContain('max resets:      3');
    expect(r.stdout).toContain(`coordination:    ${join(repo.stateDir, 'supervise')}/`);
  });

  it('prints the plan as one JSON object with --dry-run --json', async () => {
    const r = await runCli(['supervise', '--dry-run', '--json', '--reset-at', '120k', '--', 'claude', '--print'], { cwd: repo.dir, env: repo.env });
    expect(JSON.parse(r.stdout)).toMatchObject({
      command: ['claude', '--print', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'],
      resetAt: { kind: 'tokens', tokens: 120_000 },
      resetPoint: { ok: true, tokens: 120_000 },
      maxResets: null,
      coordination: { declared: false },
    });
  });

  it.each([
    [['supervise'], /no client command/],
    [['supervise', '--reset-at', 'soon', '--', 'claude'], /--reset-at 'soon' is not hard, warning or a token count/],
    [['supervise', '--max-resets', 'many', '--', 'claude'], /--max-resets 'many' is not a whole number/],
    [['supervise', '--input-format', 'xml', '--', 'claude'], /--input-format 'xml' is not auto or text/],
    [['supervise', 'claude'], /unexpected argument 'claude' \(the client command goes after '--'\)/],
    [['supervise', '--', 'claude', '--output-format', 'text'], /--output-format text, but the supervisor reads and writes the client's stream/],
  ])('refuses %p as a usage error', async (args, message) => {
    const r = await runCli(args, { cwd: repo.dir, env: repo.env });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(message) });
  });

  it('refuses a prompt file it cannot read', async () => {
    const r = await runCli(['supervise', '--prompt-file', 'nope.txt', '--', 'claude'], { cwd: repo.dir, env: repo.env });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: expect.stringContaining('[FILE_UNREADABLE] cannot read the prompt file nope.txt: ENOENT') });
  });

  it("runs the client from the built CLI and exits with the client's code", () => {
    const r = runBundle(['supervise', '--json', '--', process.execPath, FAKE], { cwd: repo.dir, env: repo.env, stdin: 'hello\nEXIT 4\n' });
    expect(r.code).toBe(4);
    expect(r.stdout).toContain('"result":"echo: hello"');
    expect(r.stderr.trim().split('\n').map((l) => JSON.parse(l))).toEqual([{ supervise: 'exit', code: 4, resets: 0 }]);
  });

  it('names a client that does not start', () => {
    const r = runBundle(['supervise', '--', 'no-such-client-anywhere'], { cwd: repo.dir, env: repo.env, stdin: 'hello\n' });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: expect.stringContaining('[SUPERVISE_SPAWN_FAILED] could not start the client "no-such-client-anywhere": ENOENT') });
  });
});
