import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/run-cli';
import { git, makeTempRepo, payload, type TempRepo } from '../hooks/hook-fixtures';

type Check = { name: string; status: string; detail: string; fix?: string };
const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin');
const SESSION = 'be432d9d-65be-4eb2-b8b5-e7b9ae7fd1f1';

/** Runs the built UserPromptSubmit bundle the way the host starts it: as the plugin (CLAUDE_PLUGIN_ROOT set) or from settings. */
function runBuiltHook(repo: TempRepo, route: 'plugin' | 'settings', session = SESSION, dataDir = 'capsule-inline') {
  const env = { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, ...(route === 'plugin' ? { CLAUDE_PLUGIN_ROOT: ROOT, CLAUDE_PLUGIN_DATA: join(repo.env.HOME!, '.claude', 'plugins', 'data', dataDir) } : {}) };
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'hooks', 'user-prompt-submit.js')], { input: JSON.stringify(payload('UserPromptSubmit', { cwd: repo.dir, session_id: session })), env, encoding: 'utf8' });
  expect(r.status).toBe(0);
}

async function doctor(repo: TempRepo, env: NodeJS.ProcessEnv = repo.env): Promise<Record<string, Check>> {
  const r = await runCli(['doctor', '--json'], { cwd: repo.dir, env });
  return Object.fromEntries((JSON.parse(r.stdout) as Check[]).map((c) => [c.name, c]));
}

/** What `claude plugin install capsule@git-capsule` leaves (2.1.332, user scope): its record and the enabled flag. */
function installPluginRecord(repo: TempRepo): void {
  const plugins = join(repo.env.HOME!, '.claude', 'plugins');
  mkdirSync(plugins, { recursive: true });
  writeFileSync(join(plugins, 'installed_plugins.json'), JSON.stringify({ version: 2, plugins: { 'capsule@git-capsule': [{ scope: 'user', installPath: join(plugins, 'cache', 'git-capsule', 'capsule', '0.1.0'), version: '0.1.0' }] } }));
  writeFileSync(join(repo.env.HOME!, '.claude', 'settings.json'), '{ "enabledPlugins": { "capsule@git-capsule": true } }\n');
}

/** What `claude plugin uninstall` leaves: no record, the flag gone. */
function uninstallPluginRecord(repo: TempRepo): void {
  writeFileSync(join(repo.env.HOME!, '.claude', 'plugins', 'installed_plugins.json'), JSON.stringify({ version: 2, plugins: {} }));
  writeFileSync(join(repo.env.HOME!, '.claude', 'settings.json'), '{ "enabledPlugins": {} }\n');
}

describe('doctor: the routes the hooks take, judged from the current wiring', () => {
  let repo: TempRepo;
  beforeEach(() => (repo = makeTempRepo()));
  afterEach(() => repo.cleanup());

  it('sees a plugin loaded with --plugin-dir from what its hooks recorded (nothing else records it), and does not advise install', async () => {
    runBuiltHook(repo, 'plugin');
    const checks = await doctor(repo);
    expect(checks.hooks).toMatchObject({ status: 'ok', detail: expect.stringContaining(`the capsule plugin ran with --plugin-dir (${ROOT})`) });
    expect(checks['hook runs']!.detail).toMatch(new RegExp(`^history, not wiring: plugin ${ROOT} \\((dev|\\d+\\.\\d+\\.\\d+), --plugin-dir\\): UserPromptSubmit \\d+s ago`));
    expect(checks.hooks!.fix).toBeUndefined();
  });

  it('after the plugin is uninstalled, says no route runs the hooks, and keeps its runs as history only', async () => {
    installPluginRecord(repo);
    runBuiltHook(repo, 'plugin', SESSION, 'capsule-git-capsule');
    expect((await doctor(repo)).hooks).toMatchObject({ status: 'ok', detail: expect.stringContaining('the capsule plugin (installed: capsule@git-capsule, user scope) runs the hooks') });
    uninstallPluginRecord(repo);
    const checks = await doctor(repo);
    expect(checks.hooks).toMatchObject({ status: 'warn', detail: expect.stringContaining('no route runs the git-capsule hooks') });
    expect(checks['hook runs']!.detail).toMatch(/^history, not wiring: plugin .*installed as capsule-git-capsule/);
  });

  it('warns that every hook runs twice beside the installed plugin; its fix (uninstall) leaves one route', async () => {
    installPluginRecord(repo);
    await runCli(['install'], { cwd: repo.dir, env: repo.env });
    const checks = await doctor(repo);
    expect(checks.hooks).toMatchObject({ status: 'warn', detail: expect.stringContaining('every hook runs twice'), fix: expect.stringContaining('keep one route: git capsule uninstall,') });
    await runCli(['uninstall'], { cwd: repo.dir, env: repo.env });
    expect((await doctor(repo)).hooks).toMatchObject({ status: 'ok', detail: expect.stringContaining('the capsule plugin (installed') });
  });

  it('warns beside a --plugin-dir run too, and names the session in which both routes ran one event', async () => {
    runBuiltHook(repo, 'plugin');
    runBuiltHook(repo, 'settings');
    await runCli(['install'], { cwd: repo.dir, env: repo.env });
    expect((await doctor(repo)).hooks).toMatchObject({ status: 'warn', detail: expect.stringContaining(`UserPromptSubmit ran twice in session ${SESSION}`) });
  });

  it('warns about settings hooks wired in two files; its fix leaves one', async () => {
    await runCli(['install'], { cwd: repo.dir, env: repo.env });
    await runCli(['install', '--user'], { cwd: repo.dir, env: repo.env });
    expect((await doctor(repo)).hooks).toMatchObject({ status: 'warn', detail: expect.stringContaining('wired in 2 files'), fix: 'keep one: run git capsule uninstall --user' });
    await runCli(['uninstall', '--user'], { cwd: repo.dir, env: repo.env });
    expect((await doctor(repo)).hooks).toMatchObject({ status: 'ok', detail: expect.stringContaining('(local settings)') });
  });

  it('warns when the plugin is enabled but not installed on this machine, naming the install command', async () => {
    mkdirSync(join(repo.dir, '.claude'), { recursive: true });
    writeFileSync(join(repo.dir, '.claude', 'settings.json'), '{ "enabledPlugins": { "capsule@git-capsule": true } }\n');
    expect((await doctor(repo)).hooks).toMatchObject({ status: 'warn', detail: expect.stringContaining('enabled'), fix: expect.stringContaining('claude plugin install capsule@git-capsule') });
    installPluginRecord(repo);
    expect((await doctor(repo)).hooks!.status).toBe('ok');
  });

  describe('a committed --project registration, on a teammate machine without git-capsule-hook', () => {
    beforeEach(() => runCli(['install', '--project'], { cwd: repo.dir, env: { ...repo.env, PATH: `${BIN}:${repo.env.PATH}` } }));

    it('says nothing runs and what to install; either fix works: the CLI on PATH', async () => {
      const checks = await doctor(repo);
      expect(checks.hooks).toMatchObject({ status: 'warn', detail: expect.stringContaining('git-capsule-hook, which is not on PATH here: no hook runs'), fix: expect.stringContaining('npm install -g git-capsule') });
      expect(checks.hooks!.fix).not.toContain('git capsule install --project');
      expect((await doctor(repo, { ...repo.env, PATH: `${BIN}:${repo.env.PATH}` })).hooks).toMatchObject({ status: 'ok', detail: expect.stringContaining('(project settings)') });
    });

    it('or the plugin: it runs the hooks and the shared commands step aside (not twice)', async () => {
      installPluginRecord(repo);
      expect((await doctor(repo)).hooks).toMatchObject({ status: 'ok', detail: expect.stringContaining('runs git-capsule-hook, which is not on PATH here, so its commands do nothing') });
    });
  });

  it('fails an unguarded PATH command (written before the guard) and says to put it on PATH, not to install again', async () => {
    mkdirSync(join(repo.dir, '.claude'), { recursive: true });
    const hooks = Object.fromEntries(['SessionStart', 'Stop', 'PreCompact', 'PostCompact', 'UserPromptSubmit', 'SessionEnd'].map((e) => [e, [{ hooks: [{ type: 'command', command: `git-capsule-hook x --capsule-hook` }] }]]));
    writeFileSync(join(repo.dir, '.claude', 'settings.json'), JSON.stringify({ hooks }));
    expect((await doctor(repo)).hooks).toMatchObject({ status: 'fail', detail: expect.stringContaining('git-capsule-hook is not on PATH'), fix: expect.stringContaining('npm install -g git-capsule') });
    expect((await doctor(repo, { ...repo.env, PATH: `${BIN}:${repo.env.PATH}` })).hooks!.status).toBe('ok');
  });

  it('in a fresh clone, does not call the missing memory ref "nothing to do" while no hook runs; its hooks fix then makes it so', async () => {
    let checks = await doctor(repo);
    expect(checks.hooks).toMatchObject({ status: 'warn', fix: expect.stringContaining('git capsule install') });
    expect(checks['memory ref']).toMatchObject({ status: 'warn', detail: expect.stringContaining('no hook runs to create it'), fix: expect.stringContaining('wire the hooks first') });
    await runCli(['install'], { cwd: repo.dir, env: repo.env });
    checks = await doctor(repo);
    expect(checks.hooks!.status).toBe('ok');
    expect(checks['memory ref']!.fix).toContain('nothing to do: the first autosave creates it');
    await runCli(['init'], { cwd: repo.dir, env: repo.env });
    expect((await doctor(repo))['memory ref']!.status).toBe('ok');
  });

  it('fails a capsule.ref outside refs/; its fix (unset it) makes the memory ref ok again', async () => {
    await runCli(['init'], { cwd: repo.dir, env: repo.env });
    git(repo.dir, 'config', 'capsule.ref', 'heads/capsules');
    expect((await doctor(repo))['memory ref']).toMatchObject({ status: 'fail', fix: expect.stringContaining('unset `git config capsule.ref`') });
    git(repo.dir, 'config', '--unset', 'capsule.ref');
    expect((await doctor(repo))['memory ref']!.status).toBe('ok');
  });
});

describe('doctor: hook managers that own core.hooksPath', () => {
  let repo: TempRepo;
  beforeEach(() => (repo = makeTempRepo()));
  afterEach(() => repo.cleanup());

  it("warns that husky's npm install rewrites .husky/_ and says how to chain into .husky/pre-push", async () => {
    mkdirSync(join(repo.dir, '.husky', '_'), { recursive: true });
    git(repo.dir, 'config', 'core.hooksPath', '.husky/_');
    await runCli(['git-hooks', 'install'], { cwd: repo.dir, env: repo.env });
    const check = (await doctor(repo))['git hooks']!;
    expect(check).toMatchObject({ status: 'warn', detail: expect.stringContaining('rewrites .husky/_ on every npm install') });
    expect(check.fix).toContain(`add 'git capsule sync --quiet -- "$1"' to .husky/pre-push`);
  });

  it('notices when the hooks capsule.autoSync expects are gone (what a husky reinstall does)', async () => {
    mkdirSync(join(repo.dir, '.husky', '_'), { recursive: true });
    git(repo.dir, 'config', 'core.hooksPath', '.husky/_');
    await runCli(['git-hooks', 'install'], { cwd: repo.dir, env: repo.env });
    rmSync(join(repo.dir, '.husky', '_'), { recursive: true });
    mkdirSync(join(repo.dir, '.husky', '_'));
    expect((await doctor(repo))['git hooks']).toMatchObject({ status: 'warn', detail: expect.stringContaining('the git-capsule hooks are gone') });
  });

  it.each([
    ['lefthook', 'lefthook.yml', 'pre-push: { commands: { capsule: { run: git capsule sync --quiet } } }'],
    ['pre-commit', '.pre-commit-config.yaml', 'pre-commit install --hook-type pre-push'],
  ])('names %s and how to chain the sync into its config', async (_name, file, chain) => {
    writeFileSync(join(repo.dir, file), 'x: 1\n');
    expect((await doctor(repo))['git hooks']).toMatchObject({ status: 'ok', detail: expect.stringContaining(chain) });
  });

  it('says nothing of managers in a plain repository', async () => {
    expect((await doctor(repo))['git hooks']).toMatchObject({ status: 'ok', detail: expect.stringContaining('optional: git capsule git-hooks install') });
  });
});

// A sync publishes the memory outside refs/heads/ (refs/capsules/<name>, docs/sync.md), so that is where the remote has it.
describe('doctor and list: a memory branch on a remote this clone has not fetched', () => {
  let writer: TempRepo;
  let reader: TempRepo;
  let remote: string;
  beforeEach(async () => {
    writer = makeTempRepo();
    reader = makeTempRepo();
    remote = join(writer.dir, '..', 'remote.git');
    git(writer.dir, 'init', '-q', '--bare', remote);
    git(writer.dir, 'remote', 'add', 'origin', remote);
    git(reader.dir, 'remote', 'add', 'origin', remote);
    await runCli(['write', '--objective', 'o', '--waiting-on', 'w', '--next', 'n'], { cwd: writer.dir, env: writer.env });
    await runCli(['sync'], { cwd: writer.dir, env: writer.env });
  });
  afterEach(() => {
    writer.cleanup();
    reader.cleanup();
  });

  it('doctor names the remote, the ref and the command that fetches it', async () => {
    const check = (await doctor(reader))['remote origin']!;
    expect(check).toMatchObject({ status: 'warn', detail: expect.stringContaining('origin has refs/capsules/capsules at'), fix: 'git capsule sync origin' });
    expect(check.detail).toContain('which this clone has not fetched');
    await runCli(['sync'], { cwd: reader.dir, env: reader.env });
    expect((await doctor(reader))['remote origin']).toMatchObject({ status: 'ok', detail: expect.stringContaining('is fetched here') });
  });

  it('finds the memory where a remote keeps it outside refs/heads/ (no plain clone fetches it), and ignores a branch of that name', async () => {
    const other = join(writer.dir, '..', 'other.git');
    git(writer.dir, 'init', '-q', '--bare', other);
    git(writer.dir, 'push', '-q', other, 'refs/heads/capsules:refs/capsules/capsules', 'HEAD:refs/heads/feature/capsules');
    git(reader.dir, 'remote', 'add', 'team', other);
    const checks = await doctor(reader);
    expect(checks['remote team']).toMatchObject({ status: 'warn', detail: expect.stringContaining('team has refs/capsules/capsules at'), fix: 'git capsule sync team' });
    git(reader.dir, 'fetch', '-q', 'team', 'refs/capsules/capsules:refs/capsule-remotes/team/capsules');
    expect((await doctor(reader))['remote team']).toMatchObject({ status: 'ok', detail: "team's refs/capsules/capsules (" + git(reader.dir, 'rev-parse', 'refs/capsule-remotes/team/capsules').slice(0, 12) + ') is fetched here' });
  });

  it('list says the capsules are on the remote and how to get them', async () => {
    const r = await runCli(['list'], { cwd: reader.dir, env: reader.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no capsules on refs/heads/capsules');
    expect(r.stdout).toContain('origin has capsules (refs/capsules/capsules) this clone has not fetched: run git capsule sync origin');
  });
});
