import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { runSupervisor, type SuperviseRun } from '../../lib/supervise-runtime/run-supervisor';
import { DEFAULT_CONTINUATION } from '../../lib/supervise/supervisor-text';
import { makeIsolatedRepo, type IsolatedRepo } from '../support/repo';
import { CLI_BUNDLE } from '../support/run-cli';

// The supervisor's process side against a stand-in client (fixtures/fake-client.mjs) that
// records every message that reaches it mid-turn; the real client is test/e2e/supervise-session.
const FAKE = join(__dirname, 'fixtures', 'fake-client.mjs');
const CAP = '01JD3Z8M2V6K6Y9Q2W4R5T7X8C';

interface Outcome {
  code: number;
  stdout: string;
  lines: string[];
  summary: { received: string[]; violations: string[]; phasesAtClear: string[]; phasesAtLiteral: string[] } | null;
  reports: string[];
}

let repo: IsolatedRepo;
beforeEach(() => {
  repo = makeIsolatedRepo({ prefix: 'capsule-supervise-' });
});
afterEach(() => repo.cleanup());

async function supervise(input: string | Readable, { fakeEnv, ...opts }: Partial<SuperviseRun> & { fakeEnv?: NodeJS.ProcessEnv } = {}): Promise<Outcome> {
  let stdout = '';
  const reports: string[] = [];
  const output = new Writable({
    decodeStrings: true,
    write(chunk: Buffer, _enc, done) {
      stdout += chunk.toString('latin1'); // bytes as they came: decoded below, all at once
      done();
    },
  });
  const code = await runSupervisor({
    argv: [process.execPath, FAKE],
    options: { resetAt: { kind: 'hard' }, continuation: DEFAULT_CONTINUATION, maxResets: null, capsuleWaitMs: 200, holdPollMs: 50 },
    inputFormat: 'auto',
    input: typeof input === 'string' ? Readable.from([input]) : input,
    output,
    report: (line) => reports.push(line),
    json: false,
    cwd: repo.dir,
    env: { ...repo.env, FAKE_CAPSULE_CLI: CLI_BUNDLE, ...fakeEnv },
    forwardSignals: false,
    ...opts,
  });
  stdout = Buffer.from(stdout, 'latin1').toString('utf8');
  const lines = stdout.split('\n').filter(Boolean);
  const last = lines.at(-1);
  const summary = last?.includes('"fake_summary"') ? JSON.parse(last) : null;
  return { code, stdout, lines, summary, reports };
}

describe('runSupervisor', () => {
  it('sends every message in order, each only when the client is idle', async () => {
    const r = await supervise('one\ntwo\n{"type":"user","message":{"role":"user","content":"three"}}\n\nfour\n');
    expect(r.code).toBe(0);
    expect(r.summary).toMatchObject({ received: ['one', 'two', 'three', 'four'], violations: [] });
  });

  it("relays the client's stream byte for byte, lines that are not JSON included", async () => {
    const copy = join(repo.dir, 'client-stdout.bin');
    const r = await supervise(`RELAY-TEST\nWRITE-CAPSULE ${CAP} BLOCK TOKENS=160000\n`, { fakeEnv: { FAKE_STDOUT_COPY: copy } });
    expect(r.stdout).toContain('\nnot json, but relayed: ünïcödé ✓\n');
    expect(r.stdout).toBe(readFileSync(copy, 'utf8'));
  });

  it('passes a control line at once, while a turn runs', async () => {
    const input = new PassThrough();
    const running = supervise(input, { fakeEnv: { FAKE_TURN_MS: '400' } });
    input.write('slow turn\n');
    // Right behind the message, not on a timer: 100 ms late on a loaded machine (a GC pause in
    // this worker) could land it after the fake's 400 ms turn ended. The message is sent first
    // (nothing runs yet), so the control line still meets a running turn: held behind it, it would
    // reach the client only after the turn's result, and say so.
    input.end('{"type":"control_request","request_id":"r1","request":{"subtype":"interrupt"}}\n');
    const r = await running;
    expect(r.lines.map((l) => JSON.parse(l)).find((e) => e.type === 'control_response')).toMatchObject({ while_running: true, request_id: 'r1' });
  });

  it("exits with the client's exit code, and names the messages it could not deliver", async () => {
    const r = await supervise('EXIT 7\nnever sent\n');
    expect(r.code).toBe(7);
    expect(r.reports).toEqual(['git capsule supervise: the client exited with 1 message not yet sent', 'git capsule supervise: the client exited with code 7 after 0 resets']);
  });

  it('exits with 128 + the signal number when a signal ends the client', async () => {
    const r = await supervise('SIGNAL\n');
    expect(r.code).toBe(128 + 15);
  });

  it('refuses a client that cannot start, with its code', async () => {
    await expect(supervise('one\n', { argv: ['/nonexistent/claude-nowhere'] })).rejects.toMatchObject({ code: 'SUPERVISE_SPAWN_FAILED' });
  });

  it('reads a prompt file as well as standard input', async () => {
    const file = join(repo.dir, 'prompts.txt');
    writeFileSync(file, 'from the file\nsecond line\n');
    const { createReadStream } = await import('node:fs');
    const r = await supervise(createReadStream(file));
    expect(r.summary?.received).toEqual(['from the file', 'second line']);
  });

  describe('a reset', () => {
    it('writes capsule-pending while the capsule is awaited and a terminal phase before /clear, then the continuation and the held message', async () => {
      const r = await supervise(`WRITE-CAPSULE ${CAP} BLOCK TOKENS=160000\nafter the reset\n`);
      expect(r.code).toBe(0);
      expect(r.summary).toMatchObject({
        received: [`WRITE-CAPSULE ${CAP} BLOCK TOKENS=160000`, '/clear', DEFAULT_CONTINUATION, 'after the reset'],
        violations: [],
        phasesAtLiteral: ['capsule-pending'],
        phasesAtClear: ['complete'],
      });
      expect(r.reports.join('\n')).toContain(`reset 1: capsule written: ${CAP} (an active capsule on the memory branch); sending /clear`);
    });

    it('clears after the bounded wait when the agent ignores the block, saying the autosave stands', async () => {
      const r = await supervise('TOKENS=160000 BLOCK, but no capsule\nnext\n');
      expect(r.summary?.received).toEqual(['TOKENS=160000 BLOCK, but no capsule', '/clear', DEFAULT_CONTINUATION, 'next']);
      expect(r.reports.join('\n')).toMatch(/reset 1: no capsule written \(waited 0\.\d s after the request\); the lineage's autosave stands/);
    });

    it('does not count an announced capsule that is not on the memory branch', async () => {
      const r = await supervise(`ANNOUNCE ${CAP} TOKENS=160000 BLOCK\n`);
      const said = r.reports.join('\n');
      expect(said).toContain(`reset 1: the agent announced capsule ${CAP}, but no such capsule is on the memory branch; it does not count`);
      expect(said).toContain("the lineage's autosave stands");
      expect(r.summary?.received.slice(1)).toEqual(['/clear', DEFAULT_CONTINUATION]);
    });

    it('asks for the capsule itself when the hook did not, and never clears mid-turn', async () => {
      const r = await supervise('TOKENS=170000\n');
      expect(r.summary?.received[1]).toMatch(/^\[git-capsule supervise\] The context holds about 170k tokens/);
      expect(r.summary?.received.slice(2)).toEqual(['/clear', DEFAULT_CONTINUATION]);
      expect(r.summary?.violations).toEqual([]);
    });

    it("measures from the session transcript when a turn's events carry no usage", async () => {
      const r = await supervise('NO-USAGE TOKENS=170000\n');
      expect(r.summary?.received[1]).toMatch(/^\[git-capsule supervise\] The context holds about 170k tokens: past the hard point 158\.8k/);
      const below = await supervise('NO-USAGE TOKENS=150000\n');
      expect(below.summary?.received).toEqual(['NO-USAGE TOKENS=150000']);
    });

    it('removes its own coordination file when the client exits', async () => {
      await supervise(`WRITE-CAPSULE ${CAP} BLOCK TOKENS=160000\n`);
      const dir = join(repo.stateDir, 'supervise');
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
    });

    it('writes into a declared coordination file, keeping what other conductors put there', async () => {
      const file = join(repo.dir, 'conductor.json');
      writeFileSync(file, JSON.stringify({ phase: 'done', team: 'blue' }));
      const r = await supervise(`WRITE-CAPSULE ${CAP} BLOCK TOKENS=160000\n`, { env: { ...repo.env, FAKE_CAPSULE_CLI: CLI_BUNDLE, CAPSULE_COORDINATION_STATE: file } });
      expect(r.summary).toMatchObject({ phasesAtLiteral: ['capsule-pending'], phasesAtClear: ['complete'] });
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ phase: 'complete', team: 'blue', conductor: 'git capsule supervise', capsule_id: CAP });
    });
  });
});
