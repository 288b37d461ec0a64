import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../lib/cli/main';
import { MAX_LINE_BYTES } from '../../../lib/transcript/jsonl-oversize';
import type { CliContext } from '../../../lib/cli/context';
import { SAMPLE_PATH, SAMPLE_SESSION, TranscriptBuilder } from '../../hosts/claude/transcript-builder';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let home: string;
const project = '/home/dev/project';
const projectDir = () => join(home, 'projects', '-home-dev-project');

async function run(args: string[], env: NodeJS.ProcessEnv = {}, cwd = project): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = {
    cwd,
    env: { CLAUDE_CONFIG_DIR: home, ...env },
    now: () => new Date('2026-11-29T12:00:00Z'),
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: async () => '',
    isTTY: false,
  };
  const code = await main(['history', ...args], ctx);
  return { code, stdout, stderr };
}

function writeSession(id: string, builder: TranscriptBuilder, mtime: number): string {
  mkdirSync(projectDir(), { recursive: true });
  const path = join(projectDir(), `${id}.jsonl`);
  writeFileSync(path, builder.text());
  utimesSync(path, mtime, mtime);
  return path;
}

const OLD = '11111111-1111-4111-8111-111111111111';
const NEW = '22222222-2222-4222-8222-222222222222';

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'capsule-history-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('history verb', () => {
  it('lists an explicit transcript file', async () => {
    const r = await run(['list', '--file', SAMPLE_PATH]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('#3 user');
    expect(r.stdout).toContain('hello');
  });

  it('prints a JSON page with addresses, windows and the next cursor', async () => {
    const r = await run(['list', '--file', SAMPLE_PATH, '--limit', '2', '--json']);
    const out = JSON.parse(r.stdout);
    expect(out.sessionId).toBe(SAMPLE_SESSION);
    expect(out.events.map((e: { seq: number }) => e.seq)).toEqual([3, 16]);
    expect(out.windows).toHaveLength(2);
    expect(out.next).toBe('16');
    const next = JSON.parse((await run(['list', '--file', SAMPLE_PATH, '--limit', '2', '--cursor', out.next, '--json'])).stdout);
    expect(next.events[0].seq).toBe(22);
  });

  it('reads the current session named by the hook environment', async () => {
    writeSession(OLD, sessionWith('old session'), 1000);
    writeSession(NEW, sessionWith('new session'), 2000);
    const r = await run(['list', '--json'], { CLAUDE_CODE_SESSION_ID: OLD });
    expect(JSON.parse(r.stdout)).toEqual(expect.objectContaining({ chosenBy: 'hook-session', sessionId: OLD }));
  });

  it('reads the newest transcript of the project when no session is named', async () => {
    writeSession(OLD, sessionWith('old session'), 2000);
    writeSession(NEW, sessionWith('new session'), 1000);
    const out = JSON.parse((await run(['list', '--json'])).stdout);
    expect(out.chosenBy).toBe('newest');
    expect(out.events[0].text).toBe('old session');
  });

  it('finds a --session transcript kept under another project directory', async () => {
    const other = join(home, 'projects', '-elsewhere');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, `${NEW}.jsonl`), sessionWith('far away').text());
    const out = JSON.parse((await run(['list', '--session', NEW, '--json'])).stdout);
    expect(out.events[0].text).toBe('far away');
  });

  it('reads an address and continues with the footer cursor', async () => {
    copyFileSync(SAMPLE_PATH, join(home, 'sample.jsonl'));
    const r = await run(['read', '18', '--limit', '1', '--file', join(home, 'sample.jsonl')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('#16 tool Write [ok] result #18');
    expect(r.stdout).toContain('history read --file');
    expect(r.stdout).toMatch(/ 17\n$/);
  });

  it.each([
    [['list'], {}, 1, 'HISTORY_NO_TRANSCRIPT'],
    [['list'], { CLAUDE_CODE_SESSION_ID: 'no-such-session' }, 1, 'HISTORY_NO_TRANSCRIPT'],
    [['list', '--file', 'missing.jsonl'], {}, 1, 'HISTORY_NO_TRANSCRIPT'],
    [[], {}, 2, 'USAGE'],
    [['show'], {}, 2, 'USAGE'],
    [['list', '--file', SAMPLE_PATH, '--role', 'robot'], {}, 2, 'USAGE'],
    [['list', '--file', SAMPLE_PATH, '--page', '2', '--cursor', '3'], {}, 2, 'USAGE'],
    [['list', '--file', SAMPLE_PATH, '--limit', '0'], {}, 2, 'USAGE'],
    [['read', '--file', SAMPLE_PATH], {}, 2, 'USAGE'],
    [['read', 'x7', '--file', SAMPLE_PATH], {}, 2, 'USAGE'],
    [['read', '9999', '--file', SAMPLE_PATH], {}, 1, 'HISTORY_UNKNOWN_SEQ'],
  ])('fails %j with exit %i and code %s', async (args, env, code, errorCode) => {
    const r = await run(args as string[], env as NodeJS.ProcessEnv);
    expect(r.code).toBe(code);
    expect(r.stderr).toContain(`[${errorCode}]`);
  });

  it('bounds a JSON read of an event larger than a page and says which characters it holds', async () => {
    const t = new TranscriptBuilder();
    t.user('z'.repeat(100_000));
    const path = join(home, 'huge.jsonl');
    writeFileSync(path, t.text());
    const out = JSON.parse((await run(['read', '1', '--file', path, '--json'])).stdout);
    expect(out.events[0].partial).toEqual({ seq: 1, from: 0, to: expect.any(Number), of: expect.any(Number) });
    expect(out.next).toBe(`1:${out.events[0].partial.to}`);
    expect(out.events[0].text.length).toBeLessThan(33_000);
  });

  it('refuses a corrupted transcript, naming the line', async () => {
    const path = join(home, 'bad.jsonl');
    writeFileSync(path, `${sessionWith('a').text()}{"broken\n`);
    const r = await run(['list', '--file', path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[HISTORY_MALFORMED_LINE]');
    expect(r.stderr).toContain('line 2');
  });

  it('reads a transcript with a line over the 8 MiB cap as a stub, counts it, and reads the rest in full', async () => {
    const t = new TranscriptBuilder();
    t.user('start');
    t.toolUse('toolu_big', 'Bash', { command: 'cat giant.log' });
    t.toolResult('toolu_big', 'G'.repeat(MAX_LINE_BYTES + 1000));
    t.toolUse('toolu_small', 'Bash', { command: 'echo hi' });
    t.toolResult('toolu_small', 'hi there');
    t.assistant('finished');
    const path = join(home, 'giant.jsonl');
    writeFileSync(path, t.text());
    const list = await run(['list', '--file', path, '--json']);
    expect(list.code).toBe(0);
    const out = JSON.parse(list.stdout);
    expect(out.oversizeLines).toEqual([3]);
    expect(out.missing).toEqual([]);
    expect(out.events.map((e: { text: string }) => e.text)).toEqual(['start', expect.stringMatching(/^→ Bash\(cat giant\.log\) ← \[content not read: \d+ bytes on one line/), '→ Bash(echo hi) ← hi there', 'finished']);
    const read = await run(['read', String(out.events[1].seq), '--file', path]);
    expect(read.stdout).toContain('1 line(s) over the line cap read without their content');
    expect(read.stdout).toMatch(/← \[content not read: \d+ bytes on one line, over the 8388608-byte line cap\]\n/);
    expect(read.stdout).toContain('← hi there');
    expect(read.stdout).not.toContain('GGGG');
  });

  it('prints the incomplete-history notice before a query error', async () => {
    const t = new TranscriptBuilder();
    t.user('x', { parentUuid: 'gone' });
    const path = join(home, 'gap.jsonl');
    writeFileSync(path, t.text());
    const r = await run(['list', '--file', path, '--query', '']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^\[incomplete history\].*gone/);
    expect(r.stderr).toContain('[HISTORY_QUERY_EMPTY]');
  });
});

// One typed prompt without a sessionId, so the file name alone names the session.
function sessionWith(text: string): TranscriptBuilder {
  const t = new TranscriptBuilder();
  t.user(text, { sessionId: undefined });
  return t;
}
