import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { realClientDescribe, resumeBlockIn, StreamHarness } from './support/stream-session';

const SCRIPT = {
  rules: [
    { name: 'compact-summary', when: { lastUserText: 'Respond with TEXT ONLY|summary of the conversation|detailed summary' }, respond: { text: '<summary>STREAM-SUMMARY</summary>' } },
    { name: 'side-request', when: { hasTools: false }, respond: { text: 'side' } },
    { name: 'after-tool', when: { lastIsToolResult: true }, respond: { text: 'done' } },
    { name: 'one-edit', when: { prompt: 'ONE-EDIT' }, respond: { tool_use: { name: 'Write', input: { file_path: '{{cwd}}/one.txt', content: 'one\n' } } } },
    { name: 'two-edit', when: { prompt: 'TWO-EDIT' }, respond: { tool_use: { name: 'Write', input: { file_path: '{{cwd}}/two.txt', content: 'two\n' } } } },
    { name: 'env', when: { prompt: 'SHOW-ENV' }, respond: { tool_use: { name: 'Bash', input: { command: 'echo "pid=$CLAUDE_PID sid=$CLAUDE_CODE_SESSION_ID"', description: 'env' } } } },
    { name: 'default-text', when: { any: true }, respond: { text: 'ok' } },
  ],
};

// The driver itself: two client processes alive at once in one repository, interleaved turns,
// and a /clear inside one of them, all against the real client.
realClientDescribe('the stream-json session driver', () => {
  let h: StreamHarness;
  const seen: Record<string, { before: string; after: string; pid: number; ids: string[] }> = {};
  beforeAll(async () => {
    h = await StreamHarness.start({ name: 'driver', script: SCRIPT });
    const one = h.session({ name: 'one' });
    const two = h.session({ name: 'two' });
    const r1 = await one.send('ONE-EDIT write one');
    await two.send('TWO-EDIT write two');
    await one.send('SHOW-ENV print the env');
    await one.clear();
    const r2 = await one.send('ONE-AFTER what now?');
    seen.one = { before: r1.sessionId, after: r2.sessionId, pid: one.pid, ids: one.sessionIds };
    seen.two = { before: two.sessionId!, after: two.sessionId!, pid: two.pid, ids: two.sessionIds };
    await Promise.all([one.close(), two.close()]);
  }, 400_000);
  afterAll(async () => h?.close());

  it('runs two sessions as two client processes', () => {
    expect(seen.one!.pid).not.toBe(seen.two!.pid);
    expect(seen.one!.before).not.toBe(seen.two!.before);
    expect(readFileSync(join(h.repo, 'one.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(h.repo, 'two.txt'), 'utf8')).toBe('two\n');
  });

  it('gives the cleared session a new session id in the same client process', () => {
    expect(seen.one!.after).not.toBe(seen.one!.before);
    expect(seen.one!.ids).toEqual([seen.one!.before, seen.one!.after]);
    const env = h.requests().find((r) => r.text.includes('pid='))!.text;
    expect(env).toContain(`pid=${seen.one!.pid}`);
  });

  it('delivers the hooks\' resume text into the first request after /clear', () => {
    const after = h.firstRequestWith('ONE-AFTER');
    expect(after).toBeDefined();
    expect(resumeBlockIn(after!.text)).toContain('GIT-CAPSULE RESUME');
  });

  it('leaves the autosaves on the memory branch of the shared repository', () => {
    const files = execFileSync('git', ['ls-tree', '-r', '--name-only', 'refs/heads/capsules'], { cwd: h.repo, encoding: 'utf8' });
    expect(files.split('\n').filter((f) => f.endsWith('/capsule.md')).length).toBeGreaterThanOrEqual(2);
  });
});
