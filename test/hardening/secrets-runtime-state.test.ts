import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODEX_HOOK_EVENTS } from '../../lib/hosts/codex/hook-events';
import { makeTestRepo, type TestRepo } from '../resume-runtime/repo';
import { rollout } from '../hosts/codex/codex-fixtures';

// Issue 36, runtime state: a Codex command that failed is carried to the next turn as an open
// failure (its text, signature and arguments) in the session's state file. What is kept of its
// arguments passes the allow-list: a passphrase of plain words (which no rule and no opaque-token
// mask would call secret) becomes [ARG], and an S3 presigned URL keeps no signature.
const HOOKS = join(__dirname, '..', '..', 'dist', 'hooks');
const SESSION = '01a230d4-782a-72d0-ba84-41438a9184ed';
const PASSPHRASE = 'correcthorsebatterystaplexyz';
const SIGNATURE = 'a3f1c9e07b6d2f4a8c1e5b9d3f7a2c6e0b4d8f1a5c9e3b7d2f6a0c4e8b1d5f9a';
const COMMAND = `acmectl login --user ops ${PASSPHRASE} && curl -fsS "https://bkt.s3.amazonaws.com/a.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=${SIGNATURE}" -o a.zip`;

function stateText(dir: string): string {
  if (!existsSync(dir)) return '';
  return readdirSync(dir).map((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? stateText(path) : readFileSync(path, 'utf8');
  }).join('\n');
}

describe('the runtime state of a Codex session with a failed command', () => {
  let repo: TestRepo;
  let state: string;
  let objects: string;
  beforeAll(() => {
    if (!existsSync(join(HOOKS, 'stop.js'))) throw new Error(`build first: ${HOOKS} is missing (npm run build)`);
    repo = makeTestRepo();
    const transcript = join(repo.dir, '..', `rollout-2026-12-01T08-59-20-${SESSION}.jsonl`);
    const rows = [rollout.turn(repo.dir), rollout.prompt('download the build and log in'), rollout.exec('call_1', COMMAND), rollout.output('call_1', 1, 'Error: login failed (401)')];
    writeFileSync(transcript, rows.map((r) => `${JSON.stringify(r.data)}\n`).join(''));
    const r = spawnSync(process.execPath, [join(HOOKS, `${CODEX_HOOK_EVENTS.Stop.file}.js`), '--host', 'codex'], {
      cwd: repo.dir,
      env: repo.env,
      input: JSON.stringify({ session_id: SESSION, transcript_path: transcript, cwd: repo.dir, hook_event_name: 'Stop', model: 'gpt-5.5', turn_id: 't1', stop_hook_active: false, last_assistant_message: 'The login failed.' }),
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    state = stateText(repo.stateDir);
    objects = repo.git(['log', '-p', 'capsules']);
  });
  afterAll(() => repo?.cleanup());

  it('carries the failure as an open failure, with what the command runs', () => {
    const session = JSON.parse(readFileSync(join(repo.stateDir, 'sessions', `${SESSION}.json`), 'utf8')) as { workCarry?: { openFailures?: Array<{ text: string; signature: string }> } };
    const failures = session.workCarry?.openFailures ?? [];
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]!.signature).toContain('acmectl login');
    expect(failures[0]!.signature).toContain('[ARG]');
  });

  it('keeps neither the passphrase nor the presigned signature in the runtime state or the memory branch', () => {
    for (const text of [state, objects]) {
      expect(text).not.toContain(PASSPHRASE.slice(0, 12));
      expect(text).not.toContain(SIGNATURE.slice(0, 12));
    }
  });
});
