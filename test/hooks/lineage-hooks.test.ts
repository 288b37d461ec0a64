import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCapsule } from '../../lib/capsule/parse';
import { defaultDeps } from '../../lib/hooks/default-deps';
import { makePreCompactHook } from '../../lib/hooks/pre-compact';
import { runHook, type HookSpec } from '../../lib/hooks/run-hook';
import { makeSessionEndHook } from '../../lib/hooks/session-end';
import { makeSessionStartHook } from '../../lib/hooks/session-start';
import { makeStopHook } from '../../lib/hooks/stop';
import type { HookEventName } from '../../lib/hosts/host';
import { git, makeTempRepo, payload, turnRecords, type TempRepo } from './hook-fixtures';
import { runCli } from '../support/run-cli';

const NOW = new Date('2026-11-29T21:00:00Z');

/**
 * One simulated client process: its own pid (a live `sleep`, so liveness checks see it), a
 * session id that changes at every /clear, and a transcript per session, driving the real hook
 * handlers with the payload shapes and the `CLAUDE_PID` environment Claude Code gives them.
 */
class Client {
  readonly proc: ChildProcess;
  session: string;
  private turn = 0;
  private n = 0;
  constructor(private readonly repo: TempRepo, private readonly name: string) {
    this.proc = spawn('sleep', ['120'], { stdio: 'ignore' });
    this.session = this.newId();
  }
  private newId(): string {
    this.n += 1;
    return `${this.name}-${this.n}-0000-4000-8000-000000000000`;
  }
  get transcript(): string {
    return join(this.repo.dir, '..', `${this.session}.jsonl`);
  }
  run<E extends HookEventName>(spec: HookSpec<E>, fields: Record<string, unknown> = {}, at = NOW) {
    return runHook(spec, {
      readStdin: async () => JSON.stringify(payload(spec.event, { cwd: this.repo.dir, session_id: this.session, transcript_path: this.transcript, ...fields })),
      env: { ...this.repo.env, CLAUDE_PID: String(this.proc.pid), CLAUDE_PROJECT_DIR: this.repo.dir },
      now: () => at,
      cwd: this.repo.dir,
    });
  }
  async start(): Promise<void> {
    writeFileSync(this.transcript, '');
    await this.run(makeSessionStartHook(defaultDeps), { source: 'startup' });
  }
  /** One turn of work, then Stop (the autosave). */
  async work(opts: { prompt: string; write?: string; failing?: string; passing?: string }, at: Date): Promise<void> {
    this.turn += 1;
    appendFileSync(this.transcript, turnRecords({ cwd: this.repo.dir, n: this.turn, sessionId: this.session, ...opts, ...(opts.write ? { write: `${this.repo.dir}/${opts.write}` } : {}) }));
    await this.run(makeStopHook(defaultDeps), {}, at);
  }
  /** One turn of work whose Stop has not run yet (in the background, or cancelled by the client). */
  workWithoutStop(opts: { prompt: string; write?: string }): void {
    this.turn += 1;
    appendFileSync(this.transcript, turnRecords({ cwd: this.repo.dir, n: this.turn, sessionId: this.session, ...opts, ...(opts.write ? { write: `${this.repo.dir}/${opts.write}` } : {}) }));
  }
  /** A `git capsule` command the agent runs from the Bash tool: the client's pid and the session's id in its environment. */
  shell(args: string[], at = NOW) {
    return runCli(args, { cwd: this.repo.dir, env: { ...this.repo.env, CLAUDE_PID: String(this.proc.pid), CLAUDE_CODE_SESSION_ID: this.session }, now: at });
  }
  /** `/clear`: SessionEnd(clear) for this session, then SessionStart(clear) for a new one; returns the injected text. */
  async clear(at: Date): Promise<string> {
    await this.run(makeSessionEndHook(defaultDeps), { reason: 'clear' }, at);
    this.session = this.newId();
    writeFileSync(this.transcript, '');
    const out = await this.run(makeSessionStartHook(defaultDeps), { source: 'clear' }, at);
    return out.stdout === '' ? '' : (JSON.parse(out.stdout).hookSpecificOutput?.additionalContext ?? '');
  }
}

const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

describe('the hooks across /clear, keyed by the host process signal', () => {
  let repo: TempRepo;
  const clients: Client[] = [];
  beforeEach(() => (repo = makeTempRepo()));
  afterEach(() => {
    for (const c of clients.splice(0)) c.proc.kill('SIGKILL');
    repo.cleanup();
  });
  const client = (name: string) => {
    const c = new Client(repo, name);
    clients.push(c);
    return c;
  };
  const docs = () =>
    git(repo.dir, 'ls-tree', '-r', '--name-only', 'refs/heads/capsules')
      .split('\n')
      .filter((p) => p.endsWith('/capsule.md'))
      .map((p) => parseCapsule(git(repo.dir, 'show', `refs/heads/capsules:${p}`)).doc!);

  it("resumes each client's own work when two clients in one repository clear in turn", async () => {
    const a = client('aaaaaaaa');
    const b = client('bbbbbbbb');
    await a.start();
    await b.start();
    await a.work({ prompt: 'Build the ALPHA parser', write: 'alpha.ts' }, at(1));
    await b.work({ prompt: 'Fix the BETA lexer', write: 'beta.ts' }, at(2));
    const textA = await a.clear(at(3));
    expect(textA).toContain('Build the ALPHA parser');
    expect(textA).not.toContain('BETA');
    const textB = await b.clear(at(4));
    expect(textB).toContain('Fix the BETA lexer');
    expect(textB).not.toContain('ALPHA');
  });

  it('carries files, errors and objective through three /clears in a row, with work between', async () => {
    const a = client('cccccccc');
    await a.start();
    await a.work({ prompt: 'OBJECTIVE-ONE make the exporter stream', write: 'exporter.ts', failing: 'npm test -- exporter' }, at(1));
    await a.clear(at(2));
    await a.work({ prompt: 'second stretch', write: 'second.ts' }, at(3));
    await a.clear(at(4));
    const empty = await a.clear(at(5)); // a session that did nothing is cleared too
    expect(empty).toContain('OBJECTIVE-ONE');
    await a.work({ prompt: 'third stretch', write: 'third.ts' }, at(6));
    const text = await a.clear(at(7));
    for (const fact of ['OBJECTIVE-ONE make the exporter stream', 'exporter.ts', 'widget test failed', 'second.ts', 'third.ts']) expect(text).toContain(fact);
    const newest = docs().find((d) => d.frontmatter.session_id === a.session.replace(/-5-/, '-4-'))!;
    expect(newest.frontmatter.objective).toBe('OBJECTIVE-ONE make the exporter stream');
  });

  it('resolves an error carried over a /clear when the same check passes in the next session (the pairing data is in the capsule)', async () => {
    const a = client('ffffffff');
    await a.start();
    await a.work({ prompt: 'Make the exporter stream', write: 'exporter.ts', failing: 'npm test' }, at(1));
    expect(await a.clear(at(2))).toMatch(/open: `npm test` \(exit 3\): widget test failed/);
    await a.work({ prompt: 'go on', passing: 'npm test' }, at(3));
    const text = await a.clear(at(4));
    expect(text).toMatch(/resolved: `npm test` \(exit 3\): widget test failed → `npm test` passed/);
    expect(text).not.toMatch(/open: `npm test`/);
  });

  it('links each continuing autosave to the capsule it resumed', async () => {
    const a = client('dddddddd');
    await a.start();
    await a.work({ prompt: 'first', write: 'one.ts' }, at(1));
    const first = docs()[0]!;
    await a.clear(at(2));
    await a.work({ prompt: 'second', write: 'two.ts' }, at(3));
    const second = docs().find((d) => d.frontmatter.id !== first.frontmatter.id)!;
    expect(second.frontmatter.parent_capsule_id).toBe(first.frontmatter.id);
    expect(second.sections.files).toEqual(expect.arrayContaining(['modified: one.ts', 'modified: two.ts']));
  });

  it('resumes the checkpoint of a compaction, and the session after it keeps the facts from before', async () => {
    const a = client('eeeeeeee');
    await a.start();
    await a.work({ prompt: 'Make the cache faster BEFORE-COMPACT', write: 'cache.ts', failing: 'npm run bench' }, at(1));
    await a.run(makePreCompactHook(defaultDeps), { trigger: 'auto' }, at(2));
    a.session = a.session.replace(/-1-/, '-9-'); // the compacted session goes on under a new id
    writeFileSync(a.transcript, '');
    const compacted = await a.run(makeSessionStartHook(defaultDeps), { source: 'compact' }, at(2));
    expect(JSON.parse(compacted.stdout).hookSpecificOutput.additionalContext).toMatch(/trigger "pre-compact"/);
    await a.work({ prompt: 'after compaction', write: 'after.ts' }, at(3));
    const text = await a.clear(at(4));
    for (const fact of ['Make the cache faster BEFORE-COMPACT', 'cache.ts', 'after.ts', 'widget test failed']) expect(text).toContain(fact);
  });

  it('resumes the same capsule again when SessionStart(clear) runs twice for one session (a hook registered twice)', async () => {
    const a = client('abcdabcd');
    await a.start();
    await a.work({ prompt: 'TWICE-ONLY make the loader lazy', write: 'loader.ts' }, at(1));
    const first = await a.clear(at(2));
    expect(first).toContain('TWICE-ONLY');
    const again = await a.run(makeSessionStartHook(defaultDeps), { source: 'clear' }, at(2));
    const text = JSON.parse(again.stdout).hookSpecificOutput.additionalContext as string;
    expect(text).toContain('TWICE-ONLY make the loader lazy');
  });

  it('leaves the hand-over even when the last autosave cannot run', async () => {
    const a = client('ffffffff');
    const b = client('99999999');
    await a.start();
    await b.start();
    await a.work({ prompt: 'Write the ALPHA-ONLY parser', write: 'a.ts' }, at(1));
    await b.work({ prompt: 'Write the BETA-NEWER lexer', write: 'b.ts' }, at(2));
    // The SessionEnd hook is cut short before its fold: only the hand-over (written first) survives.
    await a.run(makeSessionEndHook({ ...defaultDeps, openStore: () => Promise.reject(new Error('cut short')) }), { reason: 'clear' }, at(3));
    a.session = a.session.replace(/-1-/, '-2-');
    writeFileSync(a.transcript, '');
    const out = await a.run(makeSessionStartHook(defaultDeps), { source: 'clear' }, at(3));
    const text = JSON.parse(out.stdout).hookSpecificOutput.additionalContext as string;
    expect(text).toContain('ALPHA-ONLY');
    expect(text).not.toContain('BETA-NEWER');
    expect(text).toContain('which ended with /clear');
  });

  // Stop runs in the background (hooks/hooks.json asyncRewake): the /clear right after a turn
  // can reach SessionStart before that turn's Stop has started, let alone committed. The resume
  // must carry the turn all the same (lib/hooks/fold-cleared.ts).
  it("resumes the cleared session's last turn when its Stop has not run and SessionEnd was cut short before its fold", async () => {
    const a = client('5a5a5a5a');
    await a.start();
    await a.work({ prompt: 'FIRST-TURN sketch the cache', write: 'first.ts' }, at(1));
    a.workWithoutStop({ prompt: 'LAST-TURN wire the cache into the reader', write: 'last.ts' });
    const cleared = a.session;
    const transcript = a.transcript;
    await a.run(makeSessionEndHook({ ...defaultDeps, openStore: () => Promise.reject(new Error('cut short')) }), { reason: 'clear' }, at(2));
    a.session = a.session.replace(/-1-/, '-2-');
    writeFileSync(a.transcript, '');
    const out = await a.run(makeSessionStartHook(defaultDeps), { source: 'clear' }, at(2));
    const text = JSON.parse(out.stdout).hookSpecificOutput.additionalContext as string;
    expect(text).toContain('LAST-TURN wire the cache into the reader');
    expect(text).toContain('last.ts');
    expect(text).toContain('first.ts');
    // The late Stop of the cleared session (its final message as the transcript ends) then finds
    // nothing left to fold: no second commit.
    const tip = git(repo.dir, 'rev-parse', 'refs/heads/capsules');
    await runHook(makeStopHook(defaultDeps), {
      readStdin: async () => JSON.stringify(payload('Stop', { cwd: repo.dir, session_id: cleared, transcript_path: transcript, last_assistant_message: 'done 2' })),
      env: { ...repo.env, CLAUDE_PID: String(a.proc.pid), CLAUDE_PROJECT_DIR: repo.dir },
      now: () => at(2),
      cwd: repo.dir,
    });
    expect(git(repo.dir, 'rev-parse', 'refs/heads/capsules')).toBe(tip);
    expect(docs().filter((d) => d.frontmatter.session_id === cleared)).toHaveLength(1);
  });

  it("resumes the cleared session's last turn when no SessionEnd ran at all (the same client process's previous session, its transcript from its last fold)", async () => {
    const a = client('6b6b6b6b');
    await a.start();
    await a.work({ prompt: 'FIRST-TURN sketch the index', write: 'index-a.ts' }, at(1));
    a.workWithoutStop({ prompt: 'LAST-TURN persist the index', write: 'index-b.ts' });
    a.session = a.session.replace(/-1-/, '-2-');
    writeFileSync(a.transcript, '');
    const out = await a.run(makeSessionStartHook(defaultDeps), { source: 'clear' }, at(2));
    const text = JSON.parse(out.stdout).hookSpecificOutput.additionalContext as string;
    expect(text).toContain('LAST-TURN persist the index');
    expect(text).toContain('index-b.ts');
  });

  it('re-bases a session on the capsule it resumes by id: after its next /clear the objective is that work, not the task it did before', async () => {
    const a = client('1a1a1a1a');
    await a.start();
    await a.work({ prompt: 'EARLIER-TASK rename the config loader', write: 'config.ts' }, at(1));
    const earlier = docs().find((d) => d.frontmatter.session_id === a.session)!;
    const handoff = (await runCli(['write', '--objective', 'HANDOFF-WORK wire the streaming writer', '--waiting-on', 'nothing', '--next', 'Remove the buffered path'], { cwd: repo.dir, env: repo.env, now: at(2) })).stdout.trim();
    expect(JSON.parse((await a.shell(['resume', '--id', handoff, '--json'], at(3))).stdout)).toMatchObject({ capsuleId: handoff, consumed: true });
    await a.work({ prompt: 'go on with it', write: 'stream.ts' }, at(4));
    const rebased = docs().find((d) => d.frontmatter.session_id === a.session && d.frontmatter.id !== earlier.frontmatter.id)!;
    expect(rebased.frontmatter).toMatchObject({ objective: 'HANDOFF-WORK wire the streaming writer', parent_capsule_id: handoff, trigger: 'autosave' });
    const text = await a.clear(at(5));
    expect(text).toMatch(/objective: "HANDOFF-WORK wire the streaming writer"/);
    expect(text).toContain('stream.ts');
    expect(text).not.toMatch(/objective: "EARLIER-TASK/);
  });

  it('keeps the autosave of a session that loads again the capsule it already goes on from', async () => {
    const a = client('3e3e3e3e');
    await a.start();
    await a.work({ prompt: 'OBJECTIVE-KEPT make the exporter stream', write: 'exporter.ts' }, at(1));
    const resumed = /Resumed capsule ([0-9A-Z]{26})/.exec(await a.clear(at(2)))![1]!;
    await a.work({ prompt: 'second stretch', write: 'second.ts' }, at(3));
    // The agent runs the resume skill again, on the capsule this session already stands on.
    expect(JSON.parse((await a.shell(['resume', '--json'], at(4))).stdout)).toMatchObject({ capsuleId: resumed, consumed: true });
    await a.work({ prompt: 'third stretch', write: 'third.ts' }, at(5));
    const text = await a.clear(at(6));
    for (const fact of ['OBJECTIVE-KEPT make the exporter stream', 'exporter.ts', 'second.ts', 'third.ts']) expect(text).toContain(fact);
  });

  it('sets aside the autosave a re-based session leaves, so a later /clear of its lineage never brings the earlier task back', async () => {
    const a = client('2b2b2b2b');
    await a.start();
    await a.work({ prompt: 'EARLIER-TASK rename the config loader', write: 'config.ts' }, at(1));
    const earlier = String(docs().find((d) => d.frontmatter.session_id === a.session)!.frontmatter.id);
    const handoff = (await runCli(['write', '--objective', 'HANDOFF-WORK wire the streaming writer', '--waiting-on', 'nothing', '--next', 'Remove the buffered path'], { cwd: repo.dir, env: repo.env, now: at(2) })).stdout.trim();
    await a.shell(['resume', '--id', handoff], at(3));
    await a.work({ prompt: 'go on with it', write: 'stream.ts' }, at(4));
    expect(JSON.parse((await runCli(['show', earlier, '--json'], { cwd: repo.dir, env: repo.env })).stdout)).toMatchObject({ status: 'paused' });
    expect(await a.clear(at(5))).toMatch(/objective: "HANDOFF-WORK/);
    // The session after the clear saves nothing and is cleared too: the lineage still stands on the handed-off work.
    const again = await a.clear(at(6));
    expect(again).toMatch(/objective: "HANDOFF-WORK wire the streaming writer"/);
    expect(again).not.toMatch(/objective: "EARLIER-TASK/);
  });

  it("never takes, from a new session, a capsule of an earlier session of another live client, and says how to take it on purpose", async () => {
    const b = client('3c3c3c3c');
    await b.start();
    await b.work({ prompt: 'BETA-WORK make the lexer incremental', write: 'lexer.ts' }, at(1));
    await b.shell(['write', '--objective', 'BETA-AUTHORED make the lexer incremental', '--waiting-on', 'nothing', '--next', 'Benchmark it'], at(2));
    const betaAutosave = String(docs().find((d) => d.frontmatter.session_id === b.session && d.frontmatter.trigger === 'autosave')!.frontmatter.id);
    // b's next session resumes the authored capsule; b's first autosave stays active, in b's live lineage.
    expect(await b.clear(at(3))).toContain('BETA-AUTHORED');
    const a = client('4d4d4d4d');
    await a.start();
    const out = JSON.parse((await a.shell(['resume', '--json'], at(4))).stdout);
    expect(out).toMatchObject({ capsuleId: null, consumed: false });
    expect(out.text).not.toContain('BETA-WORK');
    expect(out.text).toContain('1x live-session (another live session on this machine');
    expect(out.text).toContain(`id "${betaAutosave}"`);
    expect(out.text).toContain('take one on purpose with git capsule resume --id <id>');
  });

  const contextOf = (out: { stdout: string }) => (out.stdout === '' ? '' : (JSON.parse(out.stdout).hookSpecificOutput?.additionalContext as string));

  it("orients a new session beside another live session's capsule without offering it, or a resume that would take it", async () => {
    const b = client('5e5e5e5e');
    await b.start();
    await b.work({ prompt: 'BETA-LIVE make the lexer incremental', write: 'lexer.ts' }, at(1));
    const a = client('6f6f6f6f');
    writeFileSync(a.transcript, '');
    const text = contextOf(await a.run(makeSessionStartHook(defaultDeps), { source: 'startup' }, at(2)));
    expect(text).not.toContain('BETA-LIVE');
    expect(text).toContain("this repository's active capsule is not this session's to load");
    expect(text).toContain('git capsule resume --id <id>');
  });

  it("orients a new session on this author's capsule of an ended session, by id, past a newer one of a live session", async () => {
    const gone = client('7a7a7a7a');
    await gone.start();
    await gone.work({ prompt: 'ENDED-WORK finish the exporter', write: 'exporter.ts' }, at(1));
    const ended = String(docs().find((d) => d.frontmatter.session_id === gone.session)!.frontmatter.id);
    gone.proc.kill('SIGKILL');
    const b = client('8b8b8b8b');
    await b.start();
    await b.work({ prompt: 'BETA-LIVE make the lexer incremental', write: 'lexer.ts' }, at(2));
    await new Promise((done) => setTimeout(done, 200)); // the killed client is gone
    const a = client('9c9c9c9c');
    writeFileSync(a.transcript, '');
    const text = contextOf(await a.run(makeSessionStartHook(defaultDeps), { source: 'startup' }, at(3)));
    expect(text).toContain(`the newest this session may load is ${ended}`);
    expect(text).toContain('ENDED-WORK');
    expect(text).not.toContain('BETA-LIVE');
    expect(text).toContain(`git capsule resume --id ${ended}`);
  });

  it("orients a session resumed with claude --resume on its own capsule, never on another live session's newer one", async () => {
    const a = client('adadadad');
    await a.start();
    await a.work({ prompt: 'OWN-WORK fix the date parser', write: 'date.ts' }, at(1));
    const own = String(docs().find((d) => d.frontmatter.session_id === a.session)!.frontmatter.id);
    a.proc.kill('SIGKILL'); // that client exits; later `claude --resume <id>` runs the same session in a new one
    const b = client('bebebebe');
    await b.start();
    await b.work({ prompt: 'BETA-LIVE make the lexer incremental', write: 'lexer.ts' }, at(2));
    const resumed = client('cfcfcfcf');
    resumed.session = a.session;
    const text = contextOf(await resumed.run(makeSessionStartHook(defaultDeps), { source: 'resume' }, at(3)));
    expect(text).toContain(`this session's own capsule is ${own}`);
    expect(text).toContain('OWN-WORK');
    expect(text).not.toContain('BETA-LIVE');
    expect(text).not.toContain('git capsule resume');
  });

  it("links each compacted session to its own checkpoint when two sessions compact at once", async () => {
    const a = client('abababab');
    const b = client('bcbcbcbc');
    await a.start();
    await b.start();
    await a.work({ prompt: 'Write the ALPHA-COMPACT parser', write: 'a.ts' }, at(1));
    await b.work({ prompt: 'Write the BETA-COMPACT lexer', write: 'b.ts' }, at(1));
    await a.run(makePreCompactHook(defaultDeps), { trigger: 'auto' }, at(2));
    await b.run(makePreCompactHook(defaultDeps), { trigger: 'auto' }, at(3)); // the one marker file now names B's checkpoint
    const checkpointOf = (prompt: string) => docs().find((d) => d.frontmatter.trigger === 'pre-compact' && String(d.frontmatter.objective).includes(prompt))!.frontmatter.id;
    a.session = a.session.replace(/-1-/, '-9-');
    writeFileSync(a.transcript, '');
    await a.run(makeSessionStartHook(defaultDeps), { source: 'compact' }, at(4));
    await a.work({ prompt: 'after', write: 'after.ts' }, at(5));
    const continued = docs().find((d) => d.frontmatter.session_id === a.session)!;
    expect(continued.frontmatter.parent_capsule_id).toBe(checkpointOf('ALPHA-COMPACT'));
  });
});
