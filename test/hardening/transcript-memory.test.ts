import { spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_LINE_BYTES } from '../../lib/transcript/jsonl-oversize';
import { makeTestRepo, type TestRepo } from '../resume-runtime/repo';
import { writeBigTranscript, type BigTranscript } from './big-transcript';

// Every path that reads a Claude Code transcript, run on a ~200 MB transcript in a child process
// started the way Claude Code starts it (the built hook bundles and CLI in dist/), with one
// `--require` preload that records the process's peak RSS (getrusage maxrss) at exit.
//
// The bounds, from measurements on a 2-core machine (Node 20; README "Transcript memory"):
// - Stop and PreCompact read the delta since their cursor (up to 4 MiB as text, a longer one
//   streamed from at most its last 8 MiB, records slimmed) and commit: measured 44-74 MB, bound
//   100 MB (a 16 MiB window measured ~95 MB, 32 MiB ~105 MB);
// - UserPromptSubmit, `budget` and `statusline` read a tail of 256 KiB doubling to 16 MiB, lines
//   over 1 MiB scanned, not held: measured 42-53 MB (a 50 MB last line included), bound 80 MB
//   (holding lines up to the 8 MiB general cap instead measured ~100 MB);
// - `history` streams the whole file in 1 MiB reads, keeps ~0.5 KB per event (no text) and reads
//   again only the lines a page shows: measured 119-141 MB, bound 160 MB. Node alone is ~45 MB;
//   the rest is V8's young generation and parse garbage between collections. Before streaming,
//   `history` held the file, its records and every event's text: about 1 GB on this file.
// - `history` over 1500 calls whose 40 KB inputs have no telling field (the one-line summary is
//   cut from their JSON): measured ~94 MB, bound 120 MB; keeping the summary as a V8 slice of
//   its source string instead of a copy kept every input alive: ~150 MB.
// A bound is a memory limit, not a timing: wall times are printed, never asserted.
const MB = 1024 * 1024;
const TARGET_BYTES = Number(process.env.CAPSULE_MEMORY_TRANSCRIPT_MB ?? 200) * 1_000_000;
const HOOK_BOUND_MB = 100;
const TAIL_BOUND_MB = 80;
const HISTORY_BOUND_MB = 160;
const SUMMARY_BOUND_MB = 120;
const SESSION = 'be432d9d-65be-4eb2-b8b5-e7b9ae7fd1f1';
const DIST = join(__dirname, '..', '..', 'dist');

let root: string;
let repo: TestRepo;
let big: BigTranscript;
let transcript: string;
const report: string[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'capsule-memory-'));
  repo = makeTestRepo();
  transcript = join(root, `${SESSION}.jsonl`);
  // One giant tool output of ~50 MB on a single line, and one of ~12 MB (both over the 8 MiB cap).
  big = writeBigTranscript(transcript, { sessionId: SESSION, targetBytes: TARGET_BYTES, hugeLineBytes: [50 * MB, 12 * MB] });
  writeFileSync(join(root, 'peak-rss.js'), `process.on('exit', () => require('node:fs').writeFileSync(process.env.CAPSULE_TEST_PEAK_RSS_FILE, String(process.resourceUsage().maxRSS)));\n`);
}, 120_000);

afterAll(() => {
  process.stdout.write(`transcript memory (${(big?.bytes ?? 0) / 1e6} MB, ${big?.lines} lines):\n${report.join('\n')}\n`);
  repo?.cleanup();
  rmSync(root, { recursive: true, force: true });
});

interface Measured {
  code: number | null;
  stdout: string;
  peakMB: number;
}

/** Runs `node --require peak-rss.js <script> <args>` in the test repo, `input` on stdin. */
function measure(label: string, script: string, args: string[], input = ''): Measured {
  const peakFile = join(root, 'peak-rss.txt');
  rmSync(peakFile, { force: true });
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--require', join(root, 'peak-rss.js'), script, ...args], {
    cwd: repo.dir,
    env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, CLAUDE_CONFIG_DIR: join(root, 'claude'), CAPSULE_TEST_PEAK_RSS_FILE: peakFile },
    input,
    encoding: 'utf8',
    maxBuffer: 64 * MB,
  });
  const ms = Date.now() - started;
  const peakMB = existsSync(peakFile) ? Number(readFileSync(peakFile, 'utf8')) / 1024 : NaN;
  report.push(`  ${label.padEnd(44)} peak RSS ${peakMB.toFixed(0).padStart(4)} MB  ${(ms / 1000).toFixed(1)} s`);
  return { code: r.status, stdout: r.stdout, peakMB };
}

function hook(event: string, file: string, payload: Record<string, unknown>, session = SESSION, label = `${event} hook`): Measured {
  const input = JSON.stringify({ session_id: session, transcript_path: file, cwd: repo.dir, hook_event_name: event, ...payload });
  return measure(label, join(DIST, 'hooks', `${kebab(event)}.js`), [], input);
}

const cli = (label: string, args: string[], input = '') => measure(label, join(DIST, 'git-capsule.js'), args, input);
const kebab = (event: string) => event.replace(/[a-z][A-Z]/g, (m) => `${m[0]}-${m[1]}`).toLowerCase();

describe('reading a 200 MB transcript', () => {
  jest.setTimeout(180_000);

  it('writes the transcript it promises (size, giant lines over the cap)', () => {
    expect(big.bytes).toBeGreaterThanOrEqual(TARGET_BYTES);
    expect(big.hugeLines).toHaveLength(2);
    const fd = openSync(transcript, 'r');
    const head = new Uint8Array(64);
    readSync(fd, head, 0, 64, 0);
    closeSync(fd);
    expect(new TextDecoder().decode(head)).toMatch(/^\{"parentUuid":null/);
  });

  it('Stop (first read of a long transcript: its tail) stays under the hook bound', () => {
    const r = hook('Stop', transcript, { last_assistant_message: 'All done.', stop_hook_active: false });
    expect(r.code).toBe(0);
    expect(r.peakMB).toBeLessThan(HOOK_BOUND_MB);
  });

  it('PreCompact (fold and checkpoint) stays under the hook bound', () => {
    const r = hook('PreCompact', transcript, { trigger: 'auto', custom_instructions: null });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('git-capsule checkpoint');
    expect(r.peakMB).toBeLessThan(HOOK_BOUND_MB);
  });

  it('Stop reading a delta of 130 MB with the 50 MB line in it stays under the hook bound', () => {
    // A transcript that ended just before the giant line, autosaved, then grew by the rest.
    const growing = join(root, 'growing.jsonl');
    const cut = lineOffset(transcript, big.hugeLines[0]!);
    copyFileSync(transcript, growing);
    truncateSync(growing, cut);
    const session = '33333333-3333-4333-8333-333333333333';
    expect(hook('Stop', growing, { last_assistant_message: 'x', stop_hook_active: false }, session, 'Stop hook (before the 50 MB line)').code).toBe(0);
    appendRange(transcript, cut, growing);
    const r = hook('Stop', growing, { last_assistant_message: 'All done.', stop_hook_active: false }, session, 'Stop hook (delta of 130 MB)');
    expect(r.code).toBe(0);
    expect(r.peakMB).toBeLessThan(HOOK_BOUND_MB);
    rmSync(growing);
  });

  it('UserPromptSubmit (budget: the last usage record) stays under the tail bound', () => {
    const r = hook('UserPromptSubmit', transcript, { prompt: 'next step please' });
    expect(r.code).toBe(0);
    expect(r.peakMB).toBeLessThan(TAIL_BOUND_MB);
  });

  it('budget --json reads the last usage record under the tail bound', () => {
    const r = cli('budget --json --transcript', ['budget', '--json', '--transcript', transcript]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).fill).toEqual(expect.objectContaining({ tokens: expect.any(Number) }));
    expect(r.peakMB).toBeLessThan(TAIL_BOUND_MB);
  });

  it('budget and statusline reading back 16 MiB of a last line of 50 MB stay under the tail bound', () => {
    // The session ended on the giant tool output: no usage record within the 16 MiB tail limit.
    const ending = join(root, 'ending.jsonl');
    copyFileSync(transcript, ending);
    truncateSync(ending, lineOffset(transcript, big.hugeLines[0]! + 1));
    const budget = cli('budget --json (50 MB last line)', ['budget', '--json', '--transcript', ending]);
    expect(budget.code).toBe(0);
    expect(budget.peakMB).toBeLessThan(TAIL_BOUND_MB);
    const status = cli('statusline (50 MB last line)', ['statusline'], JSON.stringify({ session_id: SESSION, transcript_path: ending, cwd: repo.dir, model: { id: 'claude-opus-5-5', display_name: 'Opus' } }));
    expect(status.code).toBe(0);
    expect(status.peakMB).toBeLessThan(TAIL_BOUND_MB);
    rmSync(ending);
  });

  it('statusline reads the last usage record under the tail bound', () => {
    const r = cli('statusline', ['statusline'], JSON.stringify({ session_id: SESSION, transcript_path: transcript, cwd: repo.dir, model: { id: 'claude-opus-5-5', display_name: 'Opus' } }));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\d/);
    expect(r.peakMB).toBeLessThan(TAIL_BOUND_MB);
  });

  it('history list streams the file under the history bound and counts the giant lines', () => {
    const r = cli('history list --json', ['history', 'list', '--json', '--file', transcript]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.oversizeLines).toEqual(big.hugeLines);
    expect(out.leaf).toBe(big.leaf);
    expect(r.peakMB).toBeLessThan(HISTORY_BOUND_MB);
  });

  it('history list --query searches every event under the history bound', () => {
    const r = cli('history list --query', ['history', 'list', '--file', transcript, '--query', 'naïve "quoted"', '--limit', '5']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ \d+ matching event\(s\)/);
    expect(r.peakMB).toBeLessThan(HISTORY_BOUND_MB);
  });

  it('history read of the giant line shows its stub under the history bound', () => {
    const list = JSON.parse(cli('history list --json (seq lookup)', ['history', 'list', '--json', '--role', 'all', '--file', transcript, '--query', `over the ${MAX_LINE_BYTES}-byte line cap`]).stdout);
    const seq = list.events[0].seq;
    const r = cli('history read (the 50 MB line)', ['history', 'read', String(seq), '--limit', '3', '--file', transcript]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`line ${big.hugeLines[0]! - 1} [^\\n]*\\n→ Edit\\([^\\n]*\\n← \\[content not read: \\d{8} bytes on one line`));
    expect(r.peakMB).toBeLessThan(HISTORY_BOUND_MB);
  });
});

describe('history over tool calls with large inputs', () => {
  jest.setTimeout(60_000);

  it('keeps no input alive behind the one-line summaries', () => {
    const path = join(root, 'todos.jsonl');
    const fd = openSync(path, 'w');
    const content = 'todo item with words '.repeat(2000);
    let parent: string | null = null;
    for (let i = 0; i < 1500; i++) {
      const call = { type: 'assistant', uuid: `a${i}`, parentUuid: parent, sessionId: SESSION, message: { role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'TodoWrite', input: { todos: [{ content: `${i} ${content}`, status: 'pending' }] } }] } };
      const result = { type: 'user', uuid: `u${i}`, parentUuid: `a${i}`, sessionId: SESSION, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'ok' }] } };
      writeSync(fd, `${JSON.stringify(call)}\n${JSON.stringify(result)}\n`);
      parent = `u${i}`;
    }
    closeSync(fd);
    const r = cli('history list (1500 × 40 KB tool inputs)', ['history', 'list', '--file', path, '--limit', '3']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('tool TodoWrite');
    expect(r.peakMB).toBeLessThan(SUMMARY_BOUND_MB);
    rmSync(path);
  });
});

// Byte offset of a 1-based line, found by streaming (the file is too big to read whole here too).
function lineOffset(path: string, line: number): number {
  const fd = openSync(path, 'r');
  const buffer = new Uint8Array(MB);
  let seen = 1;
  for (let position = 0; ; ) {
    const n = readSync(fd, buffer, 0, MB, position);
    if (n === 0) throw new Error(`no line ${line}`);
    for (let i = buffer.indexOf(10); i !== -1 && i < n; i = buffer.indexOf(10, i + 1)) {
      if (++seen === line) {
        closeSync(fd);
        return position + i + 1;
      }
    }
    position += n;
  }
}

function appendRange(from: string, start: number, to: string): void {
  const fd = openSync(from, 'r');
  const buffer = new Uint8Array(4 * MB);
  for (let position = start; ; ) {
    const n = readSync(fd, buffer, 0, buffer.length, position);
    if (n === 0) break;
    appendFileSync(to, buffer.subarray(0, n));
    position += n;
  }
  closeSync(fd);
}
