import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOOK_EVENTS } from '../../lib/hosts/claude/hook-events';
import { makeTestRepo, type TestRepo } from '../resume-runtime/repo';
import { TranscriptBuilder } from '../hosts/claude/transcript-builder';
import { mustNotSurvive, secretShapes, type SecretShape } from '../redact/secret-shapes';
import { generateSecrets } from '../redact/secret-corpus';
import { filesAsText } from '../support/files-as-text';

// Done-when of issue 16, item 1: every shape of both secret corpora, planted across prompts, tool
// inputs, tool outputs, file contents and task text, goes through the REAL built Stop and
// PreCompact hooks (dist/hooks/*.js, as the host runs them) turn by turn; afterwards no part of
// any secret is in any object of the repository (`git cat-file --batch-all-objects`, reachable or
// not), a ref name, a commit message, a file under .git, or the runtime state dir.
const HOOKS = join(__dirname, '..', '..', 'dist', 'hooks');
const SESSION = '8d2c1e4f-5a6b-4c7d-9e8f-0a1b2c3d4e5f';
const PLACES = ['prompt', 'tool input', 'tool output', 'file contents', 'task text'] as const;

/** Plants one shape where a session meets it, by turn of the place list. */
function plant(t: TranscriptBuilder, s: SecretShape, i: number, dir: string): void {
  const id = `toolu_${String(i).padStart(4, '0')}`;
  switch (PLACES[i % PLACES.length]) {
    case 'prompt':
      t.user(`Please deploy again, here is what you need:\n${s.context}\nthanks`);
      break;
    case 'tool input':
      t.toolUse(id, 'Bash', { command: s.context, description: 'run the deploy step' });
      t.toolResult(id, `Exit code 1\nerror: request failed for ${s.context}`, true);
      break;
    case 'tool output':
      t.toolUse(id, 'Bash', { command: 'cat deploy.log', description: 'read the log' });
      t.toolResult(id, `[deploy] step 3\n${s.context}\n[deploy] done`);
      break;
    case 'file contents':
      t.toolUse(id, 'Read', { file_path: `${dir}/config/app-${i}.cfg` });
      t.toolResult(id, `     1\t[app]\n     2\t${s.context}\n     3\tend`);
      t.toolUse(`${id}w`, 'Write', { file_path: `${dir}/scripts/deploy-${i}.sh`, content: `#!/bin/sh\nset -e\n${s.context}\n` });
      t.toolResult(`${id}w`, `File created successfully at: ${dir}/scripts/deploy-${i}.sh`);
      break;
    default:
      t.toolUse(id, 'TodoWrite', { todos: [{ content: `rotate the credential: ${s.context}`, status: 'in_progress', activeForm: 'Rotating' }] });
      t.toolResult(id, 'Todos have been modified successfully.');
      t.user(`<task-notification>\n<summary>Background job: ${s.context}</summary>\n<status>completed</status>\n</task-notification>`, { origin: { kind: 'task-notification' } });
  }
}

function runBuilt(event: 'Stop' | 'PreCompact', repo: TestRepo, payload: Record<string, unknown>): { code: number | null; stdout: string; ms: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, [join(HOOKS, `${HOOK_EVENTS[event].file}.js`)], {
    cwd: repo.dir,
    env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir },
    input: JSON.stringify({ session_id: SESSION, cwd: repo.dir, hook_event_name: event, ...payload }),
    encoding: 'utf8',
    timeout: HOOK_EVENTS[event].hostTimeoutSec * 1000,
  });
  return { code: r.status, stdout: r.stdout, ms: Date.now() - started };
}

describe('secrets through the built Stop and PreCompact hooks', () => {
  jest.setTimeout(300_000);
  const shapes = [...secretShapes(1616), ...generateSecrets(1617).map((s) => ({ shape: `${s.kind} (first corpus)`, value: s.value, context: s.context }))];
  let repo: TestRepo;
  let transcript: string;
  const timings: number[] = [];

  beforeAll(() => {
    if (!existsSync(join(HOOKS, 'stop.js'))) throw new Error(`build first: ${HOOKS} is missing (npm test builds it)`);
    repo = makeTestRepo();
    transcript = join(repo.dir, '..', 'session.jsonl');
    writeFileSync(transcript, '');
    const t = new TranscriptBuilder(SESSION, repo.dir);
    const perTurn = 12;
    for (let turn = 0; turn * perTurn < shapes.length; turn++) {
      const before = t.rows.length;
      shapes.slice(turn * perTurn, (turn + 1) * perTurn).forEach((s, i) => plant(t, s, turn * perTurn + i, repo.dir));
      appendFileSync(transcript, t.rows.slice(before).map((r) => `${JSON.stringify(r)}\n`).join(''));
      const last = shapes[turn * perTurn]!;
      const stop = runBuilt('Stop', repo, { transcript_path: transcript, stop_hook_active: false, last_assistant_message: `Done; I used ${last.context}` });
      expect({ code: stop.code, stdout: stop.stdout }).toEqual({ code: 0, stdout: '' });
      timings.push(stop.ms);
    }
    const compact = runBuilt('PreCompact', repo, { transcript_path: transcript, trigger: 'manual', custom_instructions: shapes[0]!.context });
    expect(compact.code).toBe(0);
    expect(compact.stdout).toMatch(/git-capsule checkpoint [0-9A-Z]{26}/);
    timings.push(compact.ms);
  });
  afterAll(() => repo?.cleanup());

  it('plants well over 80 shapes, in every place', () => {
    expect(shapes.length).toBeGreaterThanOrEqual(150);
    expect(new Set(shapes.map((_, i) => PLACES[i % PLACES.length])).size).toBe(PLACES.length);
  });

  it('commits capsules that carry redaction markers (the hooks did fold the secrets)', () => {
    const objects = spawnSync('git', ['cat-file', '--batch-all-objects', '--batch'], { cwd: repo.dir, env: repo.env, encoding: 'latin1', maxBuffer: 1 << 28 }).stdout;
    expect(repo.git(['rev-list', '--count', 'capsules'])).not.toBe('0');
    expect(objects).toMatch(/\[REDACTED:[a-z0-9-]+\]/);
  });

  it('leaves no part of any secret in any object, ref name, commit message, file under .git or runtime state', () => {
    const objects = spawnSync('git', ['cat-file', '--batch-all-objects', '--batch'], { cwd: repo.dir, env: repo.env, encoding: 'latin1', maxBuffer: 1 << 28 }).stdout;
    const places = [
      { where: 'objects (git cat-file --batch-all-objects)', text: objects },
      { where: 'ref names', text: repo.git(['for-each-ref', '--format=%(refname)']) },
      { where: 'commit messages', text: repo.git(['log', '--all', '--format=%B']) },
      ...filesAsText(join(repo.dir, '.git')).filter((f) => !f.path.includes(`${join('.git', 'objects')}`)).map((f) => ({ where: f.path, text: f.text })),
      ...filesAsText(repo.stateDir).map((f) => ({ where: f.path, text: f.text })),
    ];
    expect(filesAsText(repo.stateDir).length).toBeGreaterThan(0);
    const leaks = shapes.flatMap((s) => mustNotSurvive(s.value).flatMap((part) => places.filter((p) => p.text.includes(part)).map((p) => `${s.shape} [${s.context}] part ${part} in ${p.where}`)));
    expect(leaks).toEqual([]);
  });

  it('runs every hook to the end inside the host timeout', () => {
    // Wall time on a loaded machine measures the load; hostile-inputs.test.ts bounds the CPU time.
    expect(timings.filter((ms) => ms >= HOOK_EVENTS.Stop.hostTimeoutSec * 1000)).toEqual([]);
    if (process.env.HOSTILE_REPORT) process.stderr.write(`secrets corpus: ${timings.length} hook runs, wall ms ${timings.join(' ')}\n`);
  });
});
