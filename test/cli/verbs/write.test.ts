import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { capsulePath } from '../../../lib/store/memory-format';
import { git } from '../../store/support/temp-repo';
import { runBundle, runCli } from '../../support/run-cli';
import { capsuleText, cliRepo } from './support';
import { identityStamp, withoutIdentity } from '../../support/capsule-doc';

describe('git capsule write', () => {
  let r: ReturnType<typeof cliRepo>;
  beforeEach(() => (r = cliRepo()));
  afterEach(() => r.done());

  it('builds a capsule from flags, assigning id, created_at and status, and prints the id', async () => {
    const out = await r.cli(['write', '--objective', 'Ship the store', '--waiting-on', 'review', '--next', 'Merge it', '--tag', 'a', '--tag', 'b', '--trigger', 'handoff']);
    expect(out).toMatchObject({ code: 0, stderr: '' });
    const id = out.stdout.trim();
    expect(id).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
    const shown = git(r.dir, ['show', `capsules:${capsulePath(id)}`], r.env);
    expect(shown).toContain('objective: Ship the store');
    expect(shown).toContain('created_at: 2026-11-29T21:00:00+00:00');
    expect(shown).toContain('status: active');
    expect(shown).toContain('trigger: handoff');
    expect(shown).toMatch(/tags:\n {2}- a\n {2}- b/);
  });

  it("records the project's HEAD and branch when it builds the document", async () => {
    const head = git(r.dir, ['rev-parse', 'HEAD'], r.env);
    const branch = git(r.dir, ['symbolic-ref', '--short', 'HEAD'], r.env);
    const id = (await r.cli(['write', '--objective', 'Ship it', '--waiting-on', 'nothing', '--next', 'Merge it'])).stdout.trim();
    const shown = git(r.dir, ['show', `capsules:${capsulePath(id)}`], r.env);
    expect(shown).toContain(`repo_head: ${head}`);
    expect(shown).toContain(`repo_branch: ${branch}`);
  });

  it("stamps the project's HEAD and branch on a complete hand-written file that leaves them out, every other byte as written", async () => {
    const head = git(r.dir, ['rev-parse', 'HEAD'], r.env);
    const branch = git(r.dir, ['symbolic-ref', '--short', 'HEAD'], r.env);
    // A document that carries its own id and created_at: nothing else about it is changed.
    const written = `${capsuleText()}`.replace('objective: Make the store write capsules', 'objective:   "Make the store write capsules"   # spaced as its author wrote it');
    writeFileSync(join(r.dir, 'c.md'), written);
    const out = await r.cli(['write', 'c.md', '--json']);
    expect(JSON.parse(out.stdout)).toMatchObject({ id: '01JDQ7000000000000000000AB', changed: true, path: 'capsules/2024-11-27/01JDQ7000000000000000000AB/capsule.md' });
    const stored = git(r.dir, ['show', `capsules:${capsulePath('01JDQ7000000000000000000AB')}`], r.env);
    expect(`${stored}\n`).toMatch(identityStamp('test@example.com'));
    expect(withoutIdentity(stored)).toBe(written.replace('\n---\n\n', `\nrepo_head: ${head}\nrepo_branch: ${branch}\n---\n\n`).trim());
  });

  it('keeps the HEAD and branch a document names', async () => {
    writeFileSync(join(r.dir, 'c.md'), capsuleText({ repo_head: 'a'.repeat(40), repo_branch: 'feature/elsewhere' }));
    await r.cli(['write', 'c.md']);
    const stored = git(r.dir, ['show', `capsules:${capsulePath('01JDQ7000000000000000000AB')}`], r.env);
    expect(stored).toContain(`repo_head: ${'a'.repeat(40)}`);
    expect(stored).toContain('repo_branch: feature/elsewhere');
    expect(stored.match(/^repo_branch:/gm)).toHaveLength(1);
  });

  it('reads standard input with -', async () => {
    const out = await r.cli(['write', '-'], capsuleText({ id: '01JDQ7000000000000000000CD' }));
    expect(out.stdout.trim()).toBe('01JDQ7000000000000000000CD');
  });

  it('refuses an invalid capsule with exit 1 and the problem code, writing nothing', async () => {
    const out = await r.cli(['write', '--objective', '[supervisor-resume] go on', '--waiting-on', 'x', '--next', 'y']);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('[CAPSULE_INVALID]');
    expect(() => git(r.dir, ['rev-parse', '--verify', 'capsules'], r.env)).toThrow();
  });

  it("records the writer's Claude Code session when it runs inside one, and never replaces a session_id the document names", async () => {
    const inSession = (args: string[], stdin?: string) => runCli(args, { cwd: r.dir, env: { ...r.env, CLAUDE_CODE_SESSION_ID: 'sess-42' }, now: new Date('2026-11-29T21:00:00Z'), stdin });
    const id = (await inSession(['write', '--objective', 'o', '--waiting-on', 'w', '--next', 'n'])).stdout.trim();
    expect(git(r.dir, ['show', `capsules:${capsulePath(id)}`], r.env)).toContain('session_id: sess-42');
    const named = (await inSession(['write', '-'], '---\nobjective: o\nwaiting_on: w\nnext_valid_action: n\nsession_id: mine\n---\n')).stdout.trim();
    expect(git(r.dir, ['show', `capsules:${capsulePath(named)}`], r.env)).toContain('session_id: mine');
  });

  it("records the writer's Codex session, which Codex's exec_command shell names in CODEX_SESSION_ID", async () => {
    const codex = '01a230d4-782a-72d0-ba84-41438a9184ed';
    const out = await runCli(['write', '--objective', 'o', '--waiting-on', 'w', '--next', 'n'], { cwd: r.dir, env: { ...r.env, CODEX_SESSION_ID: codex }, now: new Date('2026-11-29T21:00:00Z') });
    expect(git(r.dir, ['show', `capsules:${capsulePath(out.stdout.trim())}`], r.env)).toContain(`session_id: ${codex}`);
  });

  it('exits 2 on an unknown flag', async () => {
    expect((await r.cli(['write', '--bogus'])).code).toBe(2);
  });
});

describe('git capsule write redaction', () => {
  it('redacts a secret before it is committed and says so', async () => {
    const r = cliRepo();
    const token = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
    const out = await r.cli(['write', '--objective', `Rotate the deploy token ${token} today`, '--waiting-on', 'nothing', '--next', 'Rotate it']);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('redacted 1 secret');
    const shown = git(r.dir, ['log', '-p', 'capsules'], r.env);
    expect(shown).not.toContain(token);
    expect(shown).toContain('[REDACTED:');
    r.done();
  });
});

// The built CLI, as a user runs it: a capsule written by hand with its own id and created_at is
// this worktree's and branch's, so a resume here takes it over an older autosave of this worktree.
describe('a hand-written capsule in its own worktree', () => {
  let r: ReturnType<typeof cliRepo>;
  beforeEach(() => (r = cliRepo()));
  afterEach(() => r.done());

  it('is resumed over an older autosave of this worktree', () => {
    // As the Stop hook writes it: with the branch (before, the hand-written one without it lost to this).
    const autosave = capsuleText({ id: '01JDQ7000000000000000000A1', created_at: '2026-11-29T20:00:00Z', trigger: 'autosave', tags: ['autosave'], session_id: 'S-earlier', repo_branch: 'main', objective: 'EARLIER autosave' });
    const handWritten = capsuleText({ id: '01JDQ7000000000000000000B2', created_at: '2026-11-29T20:30:00Z', objective: 'HAND-WRITTEN plan for the exporter' });
    expect(handWritten).not.toMatch(/repo_branch|worktree/);
    expect(git(r.dir, ['symbolic-ref', '--short', 'HEAD'], r.env)).toBe('main');
    expect(runBundle(['write', '-'], { cwd: r.dir, env: r.env, stdin: autosave }).code).toBe(0);
    expect(runBundle(['write', '-'], { cwd: r.dir, env: r.env, stdin: handWritten }).code).toBe(0);
    const out = runBundle(['resume', '--no-consume', '--json'], { cwd: r.dir, env: r.env });
    expect(JSON.parse(out.stdout)).toMatchObject({ capsuleId: '01JDQ7000000000000000000B2' });
    expect(JSON.parse(out.stdout).text).toContain('valid, older than the selected capsule');
  });
});
