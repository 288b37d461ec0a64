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
