import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookTimedOut } from '../support/hook-timeout';
import { cloneInto, git, makeTrio, refOf, REMOTE_REF, removeTrio, statuses, type Trio } from './sync-trio';

// A small team through the real built Claude Code hooks and the real opt-in git hooks: each
// author works in sessions of Stop hooks with a /clear in between, commits code, and runs
// `git pull` (post-merge: sync --no-push) and `git push` (pre-push: sync) as people do. The bench
// (bench/team-sync.mjs) runs the same at 5 authors × 2 sessions × 150 turns × 5 days.
// One day here: no clock moves between days, so a second day replayed the first one's steps
// (same turns, same push and /clear points) at twice the cost. Two sessions a day still give
// every author a startup after a pull, a /clear that resumes, a SessionEnd and six pushes, each
// after the other authors moved the remote, which is what the bounds below are about.

const DIST = join(__dirname, '..', '..', 'dist');
const AUTHORS = 3;
const DAYS = 1;
const SESSIONS = 2;
const TURNS = 6;
const PUSH_EVERY = 3;
const CLEAR_AT = 4;
jest.setTimeout(900_000);

let trio: Trio;
let authors: Array<{ name: string; user: string; dir: string; session: string; transcript: string; turn: number }>;
let sessions = 0;
beforeAll(() => {
  trio = makeTrio();
  authors = ['a', 'b', 'c'].slice(0, AUTHORS).map((letter) => ({ name: `author-${letter}`, user: `User ${letter}`, dir: letter === 'a' ? trio.a : letter === 'b' ? trio.b : cloneInto(trio, letter), session: '', transcript: '', turn: 0 }));
  for (const a of authors) {
    const r = spawnSync(process.execPath, [join(DIST, 'git-capsule.js'), 'git-hooks', 'install'], { cwd: a.dir, env: trio.env, encoding: 'utf8' });
    expect(r.status).toBe(0);
  }
});
afterAll(() => removeTrio(trio));

type Author = (typeof authors)[number];
const owner = new Map<string, string>();

function hook(a: Author, file: string, payload: Record<string, unknown>): { stdout: string } {
  const run = () => spawnSync(process.execPath, [join(DIST, 'hooks', file)], { cwd: a.dir, env: { ...trio.env, CLAUDE_PID: `${a.name}-pid` }, input: JSON.stringify({ cwd: a.dir, transcript_path: a.transcript, ...payload }), encoding: 'utf8' });
  let r = run();
  // Once more after a HOOK_TIMEOUT (test/support/hook-timeout.ts; seen: SessionStart > 7 s at
  // load 27 on 2 cores); what a timed-out hook lost shows below.
  if (hookTimedOut(r.status, r.stdout)) r = run();
  expect([r.status, r.stdout.includes('systemMessage') ? r.stdout : '']).toEqual([0, '']);
  return { stdout: r.stdout };
}

function startSession(a: Author, source: string): string {
  sessions += 1;
  a.session = `5e55a000-0000-4000-8000-${String(sessions).padStart(12, '0')}`;
  owner.set(a.session, a.name);
  a.transcript = join(trio.root, `${a.session}.jsonl`);
  writeFileSync(a.transcript, '');
  return hook(a, 'session-start.js', { session_id: a.session, hook_event_name: 'SessionStart', source }).stdout;
}

function turn(a: Author): void {
  a.turn += 1;
  const base = { isSidechain: false, cwd: a.dir, sessionId: a.session, timestamp: new Date().toISOString(), gitBranch: 'main' };
  const file = `${a.dir}/src/${a.name}-${a.turn % 5}.ts`;
  const records = [
    { ...base, type: 'user', uuid: `u${a.turn}`, message: { role: 'user', content: `step ${a.turn}` } },
    { ...base, type: 'assistant', uuid: `w${a.turn}`, message: { id: `m${a.turn}`, role: 'assistant', content: [{ type: 'tool_use', id: `t${a.turn}`, name: 'Write', input: { file_path: file, content: 'x\n' } }] } },
    { ...base, type: 'user', uuid: `r${a.turn}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${a.turn}`, content: `File created successfully at: ${file}` }] } },
    { ...base, type: 'assistant', uuid: `d${a.turn}`, message: { id: `md${a.turn}`, role: 'assistant', content: [{ type: 'text', text: `done ${a.turn}` }] } },
  ];
  appendFileSync(a.transcript, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  hook(a, 'stop.js', { session_id: a.session, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: `done ${a.turn}` });
}

/** Commit some code, pull (post-merge runs sync --no-push), push (pre-push runs sync). Returns the commits the push added to the memory. */
function pullAndPush(a: Author): { added: number; by: string[] } {
  writeFileSync(join(a.dir, `${a.name}.txt`), `turn ${a.turn}\n`);
  git(a.dir, ['add', '-A'], trio.env);
  git(a.dir, ['commit', '-q', '--allow-empty', '-m', `${a.name} turn ${a.turn}`], trio.env);
  git(a.dir, ['pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main'], trio.env);
  const before = refOf(trio.remote, trio.env, REMOTE_REF);
  const push = spawnSync('git', ['push', '-q', 'origin', 'main'], { cwd: a.dir, env: trio.env, encoding: 'utf8' });
  expect([push.status, push.stderr]).toEqual([0, '']);
  const after = refOf(trio.remote, trio.env, REMOTE_REF)!;
  const range = before === null ? [after] : [`${before}..${after}`];
  // The deterministic root every memory branch starts from arrives with the first push; it is no commit of this sync's.
  const by = git(trio.remote, ['log', '--min-parents=1', '--format=%an', ...range], trio.env).split('\n').filter(Boolean);
  return { added: by.length, by };
}

/** Every capsule and status event a clone holds, by id (layout aside). */
function holdings(dir: string): Set<string> {
  const paths = git(dir, ['ls-tree', '-r', '--name-only', 'refs/heads/capsules'], trio.env).split('\n');
  return new Set(paths.map((p) => /\/([^/]+)\/(capsule\.md|status\/[^/]+)$/.exec(p)).filter((m): m is RegExpExecArray => m !== null).map((m) => `${m[1]}/${m[2]}`));
}

describe('a small team on one remote, through the real hooks', () => {
  it('publishes a few commits per push, downloads nothing on a plain clone, and ends with every capsule and status event on every clone', async () => {
    const everSeen = new Set<string>();
    const pushes: Array<{ added: number; by: string[]; user: string }> = [];
    let resumes = 0;
    let crossAuthor = 0;
    for (let day = 0; day < DAYS; day += 1) {
      for (let s = 0; s < SESSIONS; s += 1) {
        for (const a of authors) {
          a.turn = 0;
          git(a.dir, ['pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main'], trio.env);
          startSession(a, 'startup');
        }
        for (let t = 1; t <= TURNS; t += 1) {
          for (const a of authors) {
            turn(a);
            if (t === CLEAR_AT) {
              hook(a, 'session-end.js', { session_id: a.session, hook_event_name: 'SessionEnd', reason: 'clear' });
              const text = startSession(a, 'clear');
              const id = /\(capsule ([0-9A-Z]{26})\)/.exec(text)?.[1];
              if (id) {
                resumes += 1;
                const doc = execFileSync(process.execPath, [join(DIST, 'git-capsule.js'), 'show', id], { cwd: a.dir, env: trio.env, encoding: 'utf8' });
                if (owner.get(/^session_id: "?([^"\n]+)"?$/m.exec(doc)?.[1] ?? '') !== a.name) crossAuthor += 1;
              }
            }
            if (t % PUSH_EVERY === 0) pushes.push({ ...pullAndPush(a), user: a.user });
            for (const h of holdings(a.dir)) everSeen.add(h);
          }
        }
        for (const a of authors) hook(a, 'session-end.js', { session_id: a.session, hook_event_name: 'SessionEnd', reason: 'other' });
      }
    }
    // Everyone pulls and pushes once more, one after the other.
    for (const a of [...authors, ...authors]) pushes.push({ ...pullAndPush(a), user: a.user });

    // At most one publish commit per push, on top of the remote tip: never the commit per turn, never a merge beside it.
    expect(Math.max(...pushes.map((p) => p.added))).toBeLessThanOrEqual(1);
    // By the author who pushed.
    for (const p of pushes) expect(p.by.filter((who) => who !== p.user)).toEqual([]);
    const perTurn = Number(git(authors[0]!.dir, ['rev-list', '--count', '--all', '--', 'capsules'], trio.env));
    expect(Number(git(trio.remote, ['rev-list', '--count', REMOTE_REF], trio.env))).toBeLessThan(perTurn);
    // Nothing lost: every capsule and status event any clone held is on every clone.
    for (const a of authors) {
      const held = holdings(a.dir);
      expect([...everSeen].filter((h) => !held.has(h))).toEqual([]);
      expect(refOf(a.dir, trio.env)).toBe(refOf(trio.remote, trio.env, REMOTE_REF));
      expect(Object.keys(await statuses(a.dir, trio.env)).length).toBeGreaterThanOrEqual(AUTHORS * DAYS * SESSIONS);
      expect(Number(/^size: (\d+)/m.exec(git(a.dir, ['count-objects', '-v'], trio.env))![1])).toBeLessThan(10 * 1024);
    }
    // A plain clone of the project downloads none of it.
    const fresh = join(trio.root, 'fresh');
    git(trio.root, ['clone', '-q', '--no-local', trio.remote, fresh], trio.env);
    const memory = git(trio.remote, ['rev-list', '--objects', REMOTE_REF], trio.env).split('\n').map((l) => l.split(' ')[0]!);
    const present = spawnSync('git', ['cat-file', '--batch-check'], { cwd: fresh, env: trio.env, input: `${memory.join('\n')}\n`, encoding: 'utf8' }).stdout.split('\n').filter((l) => l && !l.endsWith(' missing'));
    expect(present).toEqual([]);
    expect(readFileSync(join(fresh, '.git', 'packed-refs'), 'utf8')).not.toContain('capsule');
    expect(resumes).toBe(AUTHORS * DAYS * SESSIONS);
    // crossAuthor is reported, not asserted: today a /clear after a sync can hand back a teammate's
    // newer autosave (main has it too; the lineage issue's to fix). bench/team-sync.mjs records the count.
    if (process.env.TEAM_SIMULATION_REPORT) process.stderr.write(`team simulation: ${pushes.length} pushes, at most ${Math.max(...pushes.map((p) => p.added))} memory commits each; ${everSeen.size} capsules and events; resumes ${resumes}, of another author's capsule ${crossAuthor}\n`);
  });
});
