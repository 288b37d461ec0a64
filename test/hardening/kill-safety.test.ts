import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCapsule } from '../../lib/capsule/parse';
import { CLI_BUNDLE } from '../support/run-cli';
import { TranscriptBuilder } from '../hosts/claude/transcript-builder';
import { capsuleDoc, ulid } from '../support/capsule-doc';
import { dice } from '../support/seeded-random';
import { makeTestRepo } from '../resume-runtime/repo';
import { git as gitIn, makeTrio, removeTrio } from '../sync/sync-trio';

// SIGKILL at random points of the write path (the autosave's rewrite-in-place and a new capsule)
// and of `git capsule sync`, then `git fsck` and a check that every write that reported success
// is still there, and that later writers are not blocked. The full run is
// KILL_LOOP_ITERATIONS=200 KILL_LOOP_REPORT=1 (results in the README's hardening section); CI runs 8.
const ITERATIONS = Number(process.env.KILL_LOOP_ITERATIONS ?? 8);
const SEED = Number(process.env.KILL_LOOP_SEED ?? 4242);
const STOP_HOOK = join(__dirname, '..', '..', 'dist', 'hooks', 'stop.js');

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI in its own process group and SIGKILLs the whole group after `killAfterMs`
 * (unless it finished first): node and the git it is running (fast-import, update-ref, push) die
 * at the same random point. Killing node alone leaves its git child to finish the write on its
 * own a moment later, which is safe, but then fsck would race that orphan.
 */
function runAndKill(repo: { dir: string; env: NodeJS.ProcessEnv }, args: string[], killAfterMs: number, hook?: { script: string; input: string }): Promise<Outcome> {
  return new Promise((resolve) => {
    const argv = hook ? [hook.script] : [CLI_BUNDLE, ...args];
    const child = spawn(process.execPath, argv, { cwd: repo.dir, env: repo.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    child.stdin.on('error', () => undefined); // killed before it read its input
    child.stdin.end(hook?.input ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL'); // the group this test started, nothing else
      } catch {
        // already exited
      }
    }, killAfterMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Waits (bounded) for a detached `git gc --auto` a write started: fsck racing a repack reports objects in flight as missing. */
async function settle(dir: string): Promise<void> {
  for (const gitDir of [join(dir, '.git'), dir]) {
    for (let i = 0; i < 300 && existsSync(join(gitDir, 'gc.pid')); i++) await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The kill span after a run that finished in `tookMs`: shrunk by `factor`, and never more than
 * 1.2 × what that run took. The calibrating run is the first (it creates the branch and the
 * code cache) and often ran while the machine was busier, so without the cap every later kill
 * point could fall after the write had finished and a loop would kill nothing.
 */
function shrunkSpan(span: number, tookMs: number, factor: number, floor = 50): number {
  return Math.max(floor, Math.round(Math.min(span * factor, tookMs * 1.2)));
}

/** The `*.lock` files under a repository's refs (a bare one or a clone's .git). */
function refLocks(dir: string): string[] {
  const refs = existsSync(join(dir, '.git')) ? join(dir, '.git', 'refs') : join(dir, 'refs');
  return readdirSync(refs, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('.lock'));
}

function fsckProblems(repo: { dir: string; env: NodeJS.ProcessEnv }): string[] {
  try {
    execFileSync('git', ['fsck', '--no-dangling', '--no-progress'], { cwd: repo.dir, env: repo.env, stdio: ['ignore', 'pipe', 'pipe'] });
    return [];
  } catch (err) {
    // fsck reports missing and broken objects on stdout, other errors on stderr.
    const e = err as { status?: number; stdout?: Buffer; stderr?: Buffer };
    return [`exit ${e.status}: ${String(e.stdout ?? '')}${String(e.stderr ?? '')}`.trim()];
  }
}

describe('kill safety of the write path', () => {
  // A write right after a kill that left git's ref lock waits until the lock is stale (5 s).
  jest.setTimeout(Math.max(600_000, ITERATIONS * 12_000));

  it(`keeps git fsck clean and loses no reported write across ${ITERATIONS} SIGKILLs`, async () => {
    if (!existsSync(CLI_BUNDLE)) throw new Error(`build first: ${CLI_BUNDLE} is missing (npm test builds it)`);
    const repo = makeTestRepo();
    const d = dice(SEED);
    const reported = new Map<string, string>(); // id → the objective of its last reported write
    const problems: string[] = [];
    let killed = 0;
    let reportedWrites = 0;
    try {
      const autosaveId = ulid(1);
      // Calibrate: kill points spread over one whole unkilled write (node start, git calls, ref update).
      const file0 = join(repo.stateDir, '..', 'calibrate.md');
      writeFileSync(file0, capsuleDoc({ id: ulid(99), objective: 'calibrate' }));
      const started = Date.now();
      await runAndKill(repo, ['write', file0], 60_000);
      // Kill points are drawn from [0, span]; span adapts so about half the runs finish and half die
      // somewhere in the middle, however loaded the machine is.
      let span = Math.max(50, Math.round((Date.now() - started) * 1.2));
      for (let i = 0; i < ITERATIONS; i++) {
        // Half rewrite the session's autosave capsule in place, half write a new capsule.
        const rewrite = i > 0 && d.chance(0.5);
        const id = rewrite ? autosaveId : i === 0 ? autosaveId : ulid(100 + i);
        const objective = `iteration ${i}`;
        const file = join(repo.stateDir, `..`, `capsule-${i}.md`);
        writeFileSync(file, capsuleDoc({ id, objective, trigger: 'autosave' }));
        const args = ['write', file, ...(rewrite ? ['--replace'] : [])];
        // Every fourth write runs to the end: on a loaded machine (CI runs suites side by side)
        // every random kill point can fall before a write finishes, and the loop would then
        // check nothing reported. The others die at a random point.
        const spared = i % 4 === 3;
        const runStarted = Date.now();
        const out = await runAndKill(repo, args, spared ? 60_000 : d.int(span));
        if (out.signal === 'SIGKILL') {
          killed++;
          span = Math.round(span * 1.15);
        } else {
          span = shrunkSpan(span, Date.now() - runStarted, spared ? 1 : 0.87);
        }
        if (out.code === 0 && out.stdout.trim() === id) {
          reported.set(id, objective);
          reportedWrites++;
        }
        await settle(repo.dir);
        for (const p of fsckProblems(repo)) problems.push(`iteration ${i}: fsck: ${p}`);
      }
      // Every write that reported success is on the branch; a rewrite shows its last reported or a later attempt.
      const listing = repo.git(['ls-tree', '-r', '--name-only', 'capsules']);
      for (const [id, objective] of reported) {
        const path = listing.split('\n').find((p) => p.endsWith(`${id}/capsule.md`));
        if (path === undefined) {
          problems.push(`lost: ${id}`);
          continue;
        }
        const text = repo.git(['show', `capsules:${path}`]);
        const shown = Number(/objective: iteration (\d+)/.exec(text)?.[1]);
        if (!(shown >= Number(objective.split(' ')[1]))) problems.push(`${id}: shows ${shown}, reported ${objective}`);
      }
      // A later writer is never blocked by what a killed one left behind.
      const last = await runAndKill(repo, ['write', '--objective', 'after the loop', '--waiting-on', 'nothing', '--next', 'check'], 60_000);
      if (last.code !== 0) problems.push(`a write after the loop failed: exit ${last.code}: ${last.stderr.slice(0, 300)}`);
      if (process.env.KILL_LOOP_REPORT) process.stderr.write(`kill loop: ${ITERATIONS} iterations, ${killed} killed, ${reportedWrites} writes reported (${reported.size} capsules)\n`);
      expect(problems).toEqual([]);
      expect(killed).toBeGreaterThan(0);
      expect(reported.size).toBeGreaterThan(0);
    } finally {
      repo.cleanup();
    }
  });

  it(`keeps every turn of a session in its autosave across ${ITERATIONS} SIGKILLed Stop hooks`, async () => {
    if (!existsSync(STOP_HOOK)) throw new Error(`build first: ${STOP_HOOK} is missing (npm test builds it)`);
    const repo = makeTestRepo();
    const d = dice(SEED + 2);
    const transcript = join(repo.stateDir, '..', 'session.jsonl');
    const t = new TranscriptBuilder('kill-session', repo.dir);
    const problems: string[] = [];
    let killed = 0;
    try {
      t.user('Refactor the parser module');
      writeFileSync(transcript, t.text());
      const input = JSON.stringify({ session_id: 'kill-session', transcript_path: transcript, cwd: repo.dir, hook_event_name: 'Stop', stop_hook_active: false });
      const hook = { script: STOP_HOOK, input };
      const started = Date.now();
      await runAndKill(repo, [], 60_000, hook);
      let span = Math.max(50, Math.round((Date.now() - started) * 1.2));
      for (let i = 0; i < ITERATIONS; i++) {
        // One turn: an edit, then the Stop hook, killed at a random point or left to finish.
        const before = t.rows.length;
        t.toolUse(`toolu_${i}`, 'Edit', { file_path: `${repo.dir}/src/kill-file-${i}.ts`, old_string: 'a', new_string: 'b' });
        t.toolResult(`toolu_${i}`, 'The file has been updated.');
        appendFileSync(transcript, t.rows.slice(before).map((r) => JSON.stringify(r)).join('\n') + '\n');
        const runStarted = Date.now();
        const out = await runAndKill(repo, [], d.int(span), hook);
        if (out.signal === 'SIGKILL') {
          killed++;
          span = Math.round(span * 1.15);
        } else {
          span = shrunkSpan(span, Date.now() - runStarted, 0.87);
          if (out.code !== 0 || out.stdout !== '') problems.push(`iteration ${i}: the hook said: exit ${out.code} ${out.stdout.slice(0, 300)}`);
        }
        await settle(repo.dir);
        for (const p of fsckProblems(repo)) problems.push(`iteration ${i}: fsck: ${p}`);
      }
      // One Stop left to finish: the autosave holds every turn (files are capped at 40, the rest folded into a count).
      const last = await runAndKill(repo, [], 60_000, hook);
      if (last.code !== 0 || last.stdout !== '') problems.push(`the last Stop failed: exit ${last.code} ${last.stdout.slice(0, 300)}`);
      const paths = repo.git(['ls-tree', '-r', '--name-only', 'capsules']).split('\n').filter((p) => p.endsWith('/capsule.md'));
      const autosaves = paths.map((p) => parseCapsule(repo.git(['show', `capsules:${p}`])).doc).filter((doc) => doc?.frontmatter.trigger === 'autosave');
      if (autosaves.length !== 1) problems.push(`${autosaves.length} autosave capsules, expected 1`);
      const files = autosaves[0]?.sections.files ?? [];
      const folded = Number(/^… (\d+) earlier items? folded$/.exec(files[0] ?? '')?.[1] ?? 0);
      const listed = files.filter((f) => f.includes('kill-file-'));
      if (folded + listed.length !== ITERATIONS) problems.push(`the autosave accounts for ${folded} folded + ${listed.length} listed files, expected ${ITERATIONS}`);
      for (let i = Math.max(0, ITERATIONS - listed.length); i < ITERATIONS; i++) {
        if (!listed.includes(`modified: src/kill-file-${i}.ts`)) problems.push(`turn ${i} is missing from the autosave`);
      }
      if (process.env.KILL_LOOP_REPORT) process.stderr.write(`stop kill loop: ${ITERATIONS} iterations, ${killed} Stop hooks killed\n`);
      expect(problems).toEqual([]);
      expect(killed).toBeGreaterThan(0);
    } finally {
      repo.cleanup();
    }
  });

  // A sync killed inside `git fetch`/`git push` leaves a git ref lock (the remote-tracking ref,
  // or for this path remote the remote's own ref, whose receive-pack dies in the same process
  // group); the next sync waits it out until it is stale and goes on (see waitOutRefLock).
  it(`keeps every clone and the remote fsck-clean and loses no reported capsule across ${ITERATIONS} SIGKILLed syncs`, async () => {
    const trio = makeTrio();
    const d = dice(SEED + 1);
    const clones = [trio.a, trio.b].map((dir) => ({ dir, env: trio.env }));
    const reported = new Set<string>();
    const problems: string[] = [];
    let killed = 0;
    let syncs = 0;
    let locksLeft = 0; // ref locks the killed syncs left: the next sync must wait them out
    try {
      const started = Date.now();
      await runAndKill(clones[0]!, ['write', '--objective', 'calibrate', '--waiting-on', 'nothing', '--next', 'sync'], 60_000);
      await runAndKill(clones[0]!, ['sync', 'origin', '--quiet'], 60_000);
      let span = Math.max(100, Math.round((Date.now() - started) * 0.8));
      // On a loaded machine every sync may finish before its kill: go on (the span shrinks each time) until one is killed.
      for (let i = 0; i < ITERATIONS || (killed === 0 && i < ITERATIONS * 4); i++) {
        const clone = d.pick(clones);
        // A write now and then, so syncs have something to merge and push.
        if (i === 0 || d.chance(0.5)) {
          // Half of them killed too; the other half run to the end, so there is always something reported.
          const w = await runAndKill(clone, ['write', '--objective', `sync iteration ${i}`, '--waiting-on', 'nothing', '--next', 'sync'], i > 0 && d.chance(0.5) ? d.int(span) : 60_000);
          if (w.code === 0) reported.add(w.stdout.trim());
          else if (w.signal === null) problems.push(`iteration ${i}: a write failed: exit ${w.code}: ${w.stderr.slice(0, 300)}`);
        }
        const syncStarted = Date.now();
        const out = await runAndKill(clone, ['sync', 'origin', '--quiet'], d.int(span * 2));
        if (out.signal === 'SIGKILL') {
          killed++;
          locksLeft += [clone.dir, trio.remote].reduce((n, dir) => n + refLocks(dir).length, 0);
          span = Math.round(span * 1.1);
        } else {
          syncs++;
          span = shrunkSpan(span, (Date.now() - syncStarted) / 2, 0.9, 100);
        }
        for (const where of [...clones, { dir: trio.remote, env: trio.env }]) {
          await settle(where.dir);
          for (const p of fsckProblems(where)) problems.push(`iteration ${i}: ${where.dir}: ${p}`);
        }
      }
      // Unkilled syncs both ways: every capsule a write reported is everywhere.
      for (const clone of [clones[0]!, clones[1]!, clones[0]!]) {
        const done = await runAndKill(clone, ['sync', 'origin', '--quiet'], 120_000);
        if (done.code !== 0) problems.push(`final sync in ${clone.dir} failed: exit ${done.code}: ${done.stderr.slice(0, 300)}`);
      }
      for (const where of [trio.a, trio.b, trio.remote]) {
        const listing = gitIn(where, ['ls-tree', '-r', '--name-only', where === trio.remote ? 'refs/capsules/capsules' : 'refs/heads/capsules'], trio.env);
        for (const id of reported) if (!listing.includes(`/${id}/capsule.md`)) problems.push(`${where}: lost ${id}`);
      }
      if (process.env.KILL_LOOP_REPORT) process.stderr.write(`sync kill loop: ${ITERATIONS} iterations, ${killed} syncs killed, ${syncs} completed, ${reported.size} capsules reported written, ${locksLeft} ref locks left behind\n`);
      expect(problems.slice(0, 10)).toEqual([]);
      expect(killed).toBeGreaterThan(0);
      expect(reported.size).toBeGreaterThan(0);
    } finally {
      removeTrio(trio);
    }
  });
});
