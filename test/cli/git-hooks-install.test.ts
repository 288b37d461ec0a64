import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderGitHook, shellQuote, GIT_HOOK_EVENTS } from '../../lib/cli/git-hook-script';
import { gitHooksStatus, installGitHooks, uninstallGitHooks } from '../../lib/cli/git-hooks-install';
import { isCapsuleError } from '../../lib/errors/capsule-error';
import { createGitRunner } from '../../lib/git/git-runner';
import { capsuleText, git, makeTrio, refOf, REMOTE_REF, removeTrio, writeCapsules, type Trio } from '../sync/sync-trio';

const CLI = `${shellQuote(process.execPath)} ${shellQuote(join(__dirname, '..', '..', 'dist', 'git-capsule.js'))}`;
const USER_HOOK = '#!/bin/sh\n# the user\'s own hook\necho "user hook $1" >> "$(git rev-parse --git-dir)/user-hook.log"\ncat >> "$(git rev-parse --git-dir)/user-hook.log"\nexit ${USER_HOOK_EXIT:-0}\n';

let trio: Trio;
beforeEach(() => {
  trio = makeTrio();
});
afterEach(() => removeTrio(trio));

const runner = (dir: string) => createGitRunner({ cwd: dir, env: trio.env });
const hooks = (dir: string) => join(dir, '.git', 'hooks');
const mode = (path: string) => statSync(path).mode & 0o777;

/** Pushes main from `dir` with a new commit; returns exit code and stderr. */
function pushMain(dir: string, env: NodeJS.ProcessEnv = trio.env): { code: number; stderr: string } {
  git(dir, ['commit', '-q', '--allow-empty', '-m', 'work'], env);
  const r = spawnSync('git', ['push', '-q', 'origin', 'main'], { cwd: dir, env, encoding: 'utf8' });
  return { code: r.status ?? -1, stderr: r.stderr };
}

describe('installGitHooks', () => {
  it('writes its three hooks, sets capsule.autoSync and reports them installed', async () => {
    const report = await installGitHooks(runner(trio.a), { cliCommand: CLI });
    expect(report.autoSync).toBe(true);
    expect(report.hooks.map((h) => [h.event, h.state, h.chained])).toEqual([['pre-push', 'installed', false], ['post-merge', 'installed', false], ['post-rewrite', 'installed', false]]);
    for (const e of GIT_HOOK_EVENTS) expect(mode(join(hooks(trio.a), e))).toBe(0o755);
  });

  it('moves an existing hook aside, calls it first with the same arguments and stdin, and keeps its exit status', async () => {
    const path = join(hooks(trio.a), 'pre-push');
    writeFileSync(path, USER_HOOK);
    chmodSync(path, 0o750);
    const report = await installGitHooks(runner(trio.a), { cliCommand: CLI });
    expect(report.hooks[0]).toMatchObject({ state: 'installed', chained: true });
    expect(readFileSync(`${path}.capsule-chained`, 'utf8')).toBe(USER_HOOK);

    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    expect(pushMain(trio.a).code).toBe(0);
    const log = readFileSync(join(trio.a, '.git', 'user-hook.log'), 'utf8');
    expect(log).toMatch(/^user hook origin\nrefs\/heads\/main [0-9a-f]+ refs\/heads\/main [0-9a-f]+\n$/);
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(refOf(trio.a, trio.env));

    await writeCapsules(trio.a, trio.env, [capsuleText(2)]);
    const blocked = pushMain(trio.a, { ...trio.env, USER_HOOK_EXIT: '3' });
    expect(blocked.code).not.toBe(0);
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).not.toBe(refOf(trio.a, trio.env));
  });

  it('honours a relative core.hooksPath', async () => {
    git(trio.a, ['config', 'core.hooksPath', 'team-hooks'], trio.env);
    const report = await installGitHooks(runner(join(trio.a)), { cliCommand: CLI });
    expect(report.hooksDir).toBe(join(trio.a, 'team-hooks'));
    expect(existsSync(join(trio.a, 'team-hooks', 'pre-push'))).toBe(true);
    expect(existsSync(join(hooks(trio.a), 'pre-push'))).toBe(false);
  });

  it('refuses with HOOKS_DISABLED when core.hooksPath is /dev/null', async () => {
    git(trio.a, ['config', 'core.hooksPath', '/dev/null'], trio.env);
    const err = await installGitHooks(runner(trio.a)).catch((e: unknown) => e);
    expect(isCapsuleError(err, 'HOOKS_DISABLED')).toBe(true);
  });

  it('refuses with HOOK_CHAIN_OCCUPIED rather than overwrite a leftover chained hook', async () => {
    writeFileSync(join(hooks(trio.a), 'post-merge'), USER_HOOK, { mode: 0o755 });
    writeFileSync(join(hooks(trio.a), 'post-merge.capsule-chained'), 'older\n', { mode: 0o755 });
    const err = await installGitHooks(runner(trio.a)).catch((e: unknown) => e);
    expect(isCapsuleError(err, 'HOOK_CHAIN_OCCUPIED')).toBe(true);
    expect(readFileSync(join(hooks(trio.a), 'post-merge'), 'utf8')).toBe(USER_HOOK);
  });

  it('refreshes its own hooks when installed twice without chaining itself', async () => {
    writeFileSync(join(hooks(trio.a), 'pre-push'), USER_HOOK, { mode: 0o700 });
    await installGitHooks(runner(trio.a), { cliCommand: CLI });
    const again = await installGitHooks(runner(trio.a), { cliCommand: CLI });
    expect(again.hooks[0]).toMatchObject({ state: 'installed', chained: true });
    expect(readFileSync(join(hooks(trio.a), 'pre-push.capsule-chained'), 'utf8')).toBe(USER_HOOK);
  });
});

describe('uninstallGitHooks', () => {
  it('restores the user hook byte-identical with its mode, removes ours and unsets capsule.autoSync', async () => {
    const path = join(hooks(trio.a), 'pre-push');
    writeFileSync(path, USER_HOOK);
    chmodSync(path, 0o741);
    await installGitHooks(runner(trio.a), { cliCommand: CLI });
    const report = await uninstallGitHooks(runner(trio.a));
    expect(readFileSync(path, 'utf8')).toBe(USER_HOOK);
    expect(mode(path)).toBe(0o741);
    expect(existsSync(`${path}.capsule-chained`)).toBe(false);
    expect(existsSync(join(hooks(trio.a), 'post-merge'))).toBe(false);
    expect(report.autoSync).toBe(false);
  });

  it('leaves a hook that is not ours alone', async () => {
    await installGitHooks(runner(trio.a), { cliCommand: CLI });
    writeFileSync(join(hooks(trio.a), 'post-merge'), USER_HOOK, { mode: 0o755 });
    await uninstallGitHooks(runner(trio.a));
    expect(readFileSync(join(hooks(trio.a), 'post-merge'), 'utf8')).toBe(USER_HOOK);
    expect((await gitHooksStatus(runner(trio.a))).hooks.map((h) => h.state)).toEqual(['absent', 'foreign', 'absent']);
  });
});

describe('git hooks at work', () => {
  it('pushes the memory branch with a push and merges it after a pull', async () => {
    await installGitHooks(runner(trio.a), { cliCommand: CLI });
    await installGitHooks(runner(trio.b), { cliCommand: CLI });
    git(trio.b, ['pull', '-q', 'origin', 'main'], trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    expect(pushMain(trio.a).code).toBe(0);
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(refOf(trio.a, trio.env));
    expect(refOf(trio.b, trio.env)).toBeNull();
    git(trio.b, ['pull', '-q', '--no-rebase', 'origin', 'main'], trio.env);
    expect(refOf(trio.b, trio.env)).toBe(refOf(trio.a, trio.env));
  });

  it('merges it after a git pull --rebase that rebased local commits, and not after a rebase of your own', async () => {
    await installGitHooks(runner(trio.a), { cliCommand: CLI });
    await installGitHooks(runner(trio.b), { cliCommand: CLI });
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    expect(pushMain(trio.a).code).toBe(0);
    git(trio.b, ['commit', '-q', '--allow-empty', '-m', 'local work'], trio.env);
    git(trio.b, ['commit', '-q', '--allow-empty', '-m', 'more local work'], trio.env);
    git(trio.b, ['-c', 'rebase.autoSquash=false', 'rebase', '-q', '--force-rebase', 'HEAD~1'], trio.env);
    expect(refOf(trio.b, trio.env)).toBeNull(); // a rebase of your own makes no network call
    git(trio.b, ['pull', '-q', '--rebase', 'origin', 'main'], trio.env);
    expect(git(trio.b, ['log', '-1', '--format=%s', 'HEAD~2'], trio.env)).toBe('work'); // it did rebase
    expect(refOf(trio.b, trio.env)).toBe(refOf(trio.a, trio.env));
  });

  it('does nothing while capsule.autoSync is not true', async () => {
    await installGitHooks(runner(trio.a), { cliCommand: CLI });
    git(trio.a, ['config', 'capsule.autoSync', 'false'], trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    expect(pushMain(trio.a).code).toBe(0);
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBeNull();
  });

  it('never blocks the push when git-capsule fails, and says so in one line', async () => {
    await installGitHooks(runner(trio.a), { cliCommand: shellQuote(join(trio.root, 'no-such-cli')) });
    const r = pushMain(trio.a);
    expect(r.code).toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('git-capsule: memory branch not pushed');
    expect(git(trio.remote, ['rev-parse', 'main'], trio.env)).toBe(git(trio.a, ['rev-parse', 'main'], trio.env));
  });

  it('never blocks the pull when git-capsule fails', async () => {
    await installGitHooks(runner(trio.b), { cliCommand: shellQuote(join(trio.root, 'no-such-cli')) });
    expect(pushMain(trio.a).code).toBe(0);
    const r = spawnSync('git', ['pull', '-q', '--no-rebase', 'origin', 'main'], { cwd: trio.b, env: trio.env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('git-capsule: memory branch not merged');
    expect(git(trio.b, ['rev-parse', 'main'], trio.env)).toBe(git(trio.a, ['rev-parse', 'main'], trio.env));
  });
});

describe('git-hooks/', () => {
  it.each(GIT_HOOK_EVENTS)('ships %s as the renderer writes it with the default command', (event) => {
    const path = join(__dirname, '..', '..', 'git-hooks', event);
    expect(readFileSync(path, 'utf8')).toBe(renderGitHook(event));
    expect(mode(path) & 0o111).not.toBe(0);
  });
});

