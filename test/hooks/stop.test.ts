import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCapsule } from '../../lib/capsule/parse';
import { defaultDeps } from '../../lib/hooks/default-deps';
import { makeStopHook } from '../../lib/hooks/stop';
import { userPromptSubmitHook } from '../../lib/hooks/user-prompt-submit';
import { readPrompts, recordPrompt, thisProcessStamp } from '../../lib/local-state/prompt-journal';
import { git, makeTempRepo, payload, runHookIn, readErrorLog, turnRecords, type TempRepo } from './hook-fixtures';

const NOW = new Date('2026-11-29T21:00:00Z');

describe('makeStopHook', () => {
  let repo: TempRepo;
  let transcript: string;
  beforeEach(() => {
    repo = makeTempRepo();
    transcript = join(repo.dir, '..', 'transcript.jsonl');
  });
  afterEach(() => repo.cleanup());

  const stop = (extra: Record<string, unknown> = {}) => runHookIn(repo, makeStopHook(defaultDeps), { transcript_path: transcript, ...extra }, NOW);
  const tip = () => git(repo.dir, 'rev-parse', '-q', '--verify', 'refs/heads/capsules');
  const capsuleFiles = () => git(repo.dir, 'ls-tree', '-r', '--name-only', 'refs/heads/capsules').split('\n').filter((p) => p.endsWith('/capsule.md'));
  const readCapsule = () => parseCapsule(git(repo.dir, 'show', `refs/heads/capsules:${capsuleFiles()[0]}`)).doc!;

  // Stop runs in the background: the client may start the next turn's UserPromptSubmit while this
  // turn's Stop still folds. That prompt, journaled by a hook started after this Stop, is the next
  // turn's: folded into this turn it came before the turn's closing question, which then outlived
  // its answer (the continuity bench's agreement-limit: "Go ahead?" still waited on).
  it("leaves the next turn's journaled prompt to the next fold, so an answer clears the question it answers", async () => {
    const session = String(payload('Stop').session_id);
    const mine = thisProcessStamp();
    const later = { ...mine, ...(mine.tick === undefined ? {} : { tick: String(Number(mine.tick) + 1) }), origin: mine.origin + 1 };
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, prompt: 'cap the avatar size', write: `${repo.dir}/src/avatar.js` }));
    recordPrompt(repo.stateDir, session, 'Sure, 2 MB is fine, go ahead.', later);
    await stop({ last_assistant_message: 'I propose rejecting files over 2 MB with 413. Go ahead?' });
    expect(readCapsule().frontmatter.waiting_on).toMatch(/Go ahead\?/);
    expect(readPrompts(repo.stateDir, session)).toEqual(['Sure, 2 MB is fine, go ahead.']);
    appendFileSync(transcript, turnRecords({ cwd: repo.dir, n: 2, prompt: 'Sure, 2 MB is fine, go ahead.', write: `${repo.dir}/src/avatar.js` }));
    await stop({ last_assistant_message: 'Uploads over 2 MB get 413 now.' });
    expect(readCapsule().frontmatter.waiting_on).not.toMatch(/Go ahead|2 MB/);
  });

  it('creates the memory branch and one autosave capsule holding the turn’s file and error', async () => {
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, prompt: 'build the widget', write: `${repo.dir}/src/widget.ts`, failing: 'npm test' }));
    const out = await stop();
    expect(out).toEqual({ stdout: '' });
    expect(capsuleFiles()).toHaveLength(1);
    const doc = readCapsule();
    expect(doc.frontmatter).toMatchObject({ trigger: 'autosave', objective: 'build the widget', session_id: payload('Stop').session_id });
    expect(doc.sections.files).toContain('modified: src/widget.ts');
    expect(doc.sections.errors.join('\n')).toContain('npm test');
    expect(readErrorLog(repo.stateDir)).toEqual([]);
  });

  it('keeps the autosave in its runtime state as committed: a secret the store redacts (here the branch name, which no record carries) is redacted there too', async () => {
    const token = `ghp_${'Zq7'.repeat(12)}`;
    git(repo.dir, 'checkout', '-q', '-b', token);
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, prompt: 'build the widget', write: `${repo.dir}/src/widget.ts` }));
    await stop();
    expect(git(repo.dir, 'show', `refs/heads/capsules:${capsuleFiles()[0]}`)).not.toContain(token);
    const states = readdirSync(join(repo.stateDir, 'sessions')).map((f) => readFileSync(join(repo.stateDir, 'sessions', f), 'utf8'));
    expect(states.join('\n')).toContain('autosaveDoc');
    expect(states.join('\n')).not.toContain(token);
  });

  it('updates the same capsule in place on the next turn', async () => {
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, write: `${repo.dir}/a.ts` }));
    await stop();
    appendFileSync(transcript, turnRecords({ cwd: repo.dir, n: 2, write: `${repo.dir}/b.ts` }));
    await stop();
    expect(capsuleFiles()).toHaveLength(1);
    expect(readCapsule().sections.files).toEqual(['modified: a.ts', 'modified: b.ts']);
  });

  it('records a fix in a later turn as the resolution of the earlier failure', async () => {
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, failing: 'npm test' }));
    await stop();
    appendFileSync(transcript, turnRecords({ cwd: repo.dir, n: 2, write: `${repo.dir}/fix.ts` }));
    await stop();
    appendFileSync(transcript, turnRecords({ cwd: repo.dir, n: 3, passing: 'npm test' }));
    await stop();
    expect(readCapsule().sections.errors).toEqual(['resolved: `npm test` (exit 3): widget test failed → `npm test` passed']);
  });

  it('keeps the first edit of a turn that appended more than 4 MiB', async () => {
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, write: `${repo.dir}/before.ts` }));
    await stop();
    const huge = turnRecords({ cwd: repo.dir, n: 3, write: `${repo.dir}/middle.ts` }).replace('x\\n', 'x'.repeat(6 * 1024 * 1024));
    appendFileSync(transcript, turnRecords({ cwd: repo.dir, n: 2, write: `${repo.dir}/early.ts` }) + huge + turnRecords({ cwd: repo.dir, n: 4, write: `${repo.dir}/late.ts` }));
    await stop();
    expect(readCapsule().sections.files).toEqual([`before.ts`, `early.ts`, `middle.ts`, `late.ts`].map((f) => `modified: ${f}`));
    expect(readErrorLog(repo.stateDir)).toEqual([]);
  });

  it('commits nothing when the transcript did not grow', async () => {
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, write: `${repo.dir}/a.ts` }));
    await stop();
    const before = tip();
    await stop();
    expect(tip()).toBe(before);
  });

  it('creates no capsule and no branch for a session that captured nothing', async () => {
    writeFileSync(transcript, '');
    await stop({ last_assistant_message: 'hi' });
    expect(() => tip()).toThrow();
  });

  it('reads a replaced transcript again from the start and logs it', async () => {
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, write: `${repo.dir}/a.ts` }) + turnRecords({ cwd: repo.dir, n: 2 }));
    await stop();
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 3, write: `${repo.dir}/c.ts` }));
    await stop();
    expect(readCapsule().sections.files).toContain('modified: c.ts');
    expect(readErrorLog(repo.stateDir)[0]).toMatch(/^TRANSCRIPT_RESTARTED /);
  });

  it('finds its autosave again from the index when the runtime state was lost', async () => {
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, write: `${repo.dir}/a.ts` }));
    await stop();
    require('node:fs').rmSync(join(repo.stateDir, 'sessions'), { recursive: true });
    appendFileSync(transcript, turnRecords({ cwd: repo.dir, n: 2, write: `${repo.dir}/b.ts` }));
    await stop();
    expect(capsuleFiles()).toHaveLength(1);
  });

  it('redacts secrets before the commit', async () => {
    const key = 'sk-ant-api03-' + 'A'.repeat(90);
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, prompt: `use the key ${key} to deploy`, failing: `curl -H "x-api-key: ${key}" https://api.example.com` }));
    await stop();
    const log = git(repo.dir, 'log', '-p', 'refs/heads/capsules');
    expect(log).not.toContain(key);
  });

  it.each([
    ['[supervisor-resume] keep going'],
    ['[supervisor-resume] the widget tests fail since the refactor'],
  ])('falls back to the unknown marker when the request text is harness text (%s), without taking it at all', async (prompt) => {
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, prompt, write: `${repo.dir}/a.ts` }));
    await stop();
    expect(readCapsule().frontmatter.objective).toMatch(/^unknown \(/);
    expect(readCapsule().frontmatter.next_valid_action).not.toContain('supervisor-resume');
    // A supervisor's continuation arrives at every reset: it is skipped, not refused and logged.
    expect(readErrorLog(repo.stateDir)).toEqual([]);
  });

  it("takes the next step from last_assistant_message and waits on the host's running background task", async () => {
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, prompt: 'Run the suite in the background and document /refunds.', write: `${repo.dir}/docs/api.md` }));
    await stop({ last_assistant_message: 'docs/api.md documents /refunds. Next I will open the pull request.', background_tasks: [{ id: 'b1', type: 'shell', status: 'running', description: 'Run the integration suite' }] });
    expect(readCapsule().frontmatter).toMatchObject({ next_valid_action: 'Open the pull request', waiting_on: 'Background task "Run the integration suite" (running)' });
    appendFileSync(transcript, turnRecords({ cwd: repo.dir, n: 2, prompt: 'thanks' }));
    await stop({ last_assistant_message: 'You are welcome.', background_tasks: [] });
    expect(readCapsule().frontmatter.waiting_on).toMatch(/^unknown \(/);
  });

  describe('the budget at the hard point', () => {
    // claude-sonnet-4-5: hard point 158,808 tokens (test/budget-runtime/budget-hooks.test.ts).
    const atHardPoint = (n: number) =>
      `${turnRecords({ cwd: repo.dir, n, write: `${repo.dir}/f${n}.ts` })}${JSON.stringify({ type: 'assistant', isSidechain: false, uuid: `usage${n}`, message: { model: 'claude-sonnet-4-5', role: 'assistant', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 160_000 } } })}\n`;
    const messageOf = (out: { stdout: string }) => (out.stdout === '' ? null : (JSON.parse(out.stdout) as { decision?: string; systemMessage?: string }));

    it('blocks once with the capsule request after the autosave committed, by exit 2 with the reason on stderr (the one block a background Stop can give)', async () => {
      writeFileSync(transcript, atHardPoint(1));
      const first = await stop();
      expect(first).toMatchObject({ stdout: '', block: { exitCode: 2 } });
      expect(first.block?.stderr).toContain('context-capsule');
      expect(capsuleFiles()).toHaveLength(1);
      appendFileSync(transcript, atHardPoint(2));
      expect(await stop()).toEqual({ stdout: '' });
    });

    it.each([
      ['before its commit (a ref that is no memory branch: MEMORY_ROOT)', 'capsule.ref', 'refs/heads/main', 'MEMORY_ROOT'],
      // fast-import refuses this setting after it was handed the commit, while the budget was read.
      ['in its commit (fast-import refuses the config: GIT_FAILED)', 'pack.indexVersion', '5', 'GIT_FAILED'],
    ])('keeps the block for the next Stop when the autosave failed %s: the decision is kept only after the commit', async (_when, key, value, code) => {
      writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 0, write: `${repo.dir}/f0.ts` }));
      expect(await stop()).toEqual({ stdout: '' }); // the memory branch exists: the next failure is the autosave's own
      appendFileSync(transcript, atHardPoint(1));
      git(repo.dir, 'config', key, value);
      const failed = await stop();
      expect(failed.block).toBeUndefined();
      expect(messageOf(failed)?.systemMessage).toContain(code);
      git(repo.dir, 'config', '--unset', key);
      appendFileSync(transcript, atHardPoint(2));
      expect((await stop()).block).toMatchObject({ exitCode: 2 });
    });
  });

  it("keeps no journal entry for the text a background Stop's block wakes the model with (it is not the user's prompt)", async () => {
    await runHookIn(repo, userPromptSubmitHook, { prompt: '<task-notification> <summary>Stop hook feedback</summary> </task-notification> <system-reminder> Stop hook blocking error from command "Stop": [git-capsule budget] past the hard point </system-reminder>' }, NOW);
    expect(existsSync(join(repo.stateDir, 'sessions', `${payload('Stop').session_id}.prompts.json`))).toBe(false);
  });

  it('reads the prompt UserPromptSubmit recorded when the transcript lags behind it, then empties the journal', async () => {
    writeFileSync(transcript, '');
    await runHookIn(repo, userPromptSubmitHook, { prompt: 'Rename customerId to accountId everywhere.' }, NOW);
    expect(existsSync(join(repo.stateDir, 'sessions', `${payload('Stop').session_id}.prompts.json`))).toBe(true);
    await stop({ last_assistant_message: 'Next I will grep for customerId.' });
    expect(readCapsule().frontmatter).toMatchObject({ objective: 'Rename customerId to accountId everywhere.', next_valid_action: 'Grep for customerId' });
    expect(existsSync(join(repo.stateDir, 'sessions', `${payload('Stop').session_id}.prompts.json`))).toBe(false);
  });
});
