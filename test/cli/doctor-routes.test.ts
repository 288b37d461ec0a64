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
function runBuiltHook(repo: TempRepo, route: 'plugin' | 'settings', session = SESSION) {
  const env = { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, ...(route === 'plugin' ? { CLAUDE_PLUGIN_ROOT: ROOT, CLAUDE_PLUGIN_DATA: join(repo.env.HOME!, '.claude', 'plugins', 'data', 'capsule-inline') } : {}) };
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'hooks', 'user-prompt-submit.js')], { input: JSON.stringify(payload('UserPromptSubmit', { cwd: repo.dir, session_id: session })), env, encoding: 'utf8' });
  expect(r.status).toBe(0);
}

async function doctor(repo: TempRepo, env: NodeJS.ProcessEnv = repo.env): Promise<Record<string, Check>> {
  const r = await runCli(['doctor', '--json'], { cwd: repo.dir, env });
  return Object.fromEntries((JSON.parse(r.stdout) as Check[]).map((c) => [c.name, c]));
}

describe('doctor: the routes the hooks take', () => {
  let repo: TempRepo;
  beforeEach(() => (repo = makeTempRepo()));
  afterEach(() => repo.cleanup());

  it('sees a plugin loaded with --plugin-dir from what its hooks recorded, and does not advise install', async () => {
    runBuiltHook(repo, 'plugin');
    const checks = await doctor(repo);
    expect(checks.hooks).toMatchObject({ status: 'ok', detail: `the capsule plugin runs the hooks (${ROOT})` });
    expect(checks['hook runs']!.detail).toMatch(new RegExp(`plugin ${ROOT} \\((dev|\\d+\\.\\d+\\.\\d+), --plugin-dir\\): UserPromptSubmit \\d+s ago`));
    expect(checks.hooks!.fix).toBeUndefined();
  });

  it('warns that every hook runs twice when settings hooks are installed beside a plugin that ran', async () => {
    runBuiltHook(repo, 'plugin');
    await runCli(['install'], { cwd: repo.dir, env: repo.env });
    const checks = await doctor(repo);
    expect(checks.hooks).toMatchObject({ status: 'warn', detail: expect.stringContaining('every hook runs twice'), fix: expect.stringContaining('git capsule uninstall') });
  });

  it('warns the other way round: the plugin enabled in settings beside settings hooks that ran', async () => {
    await runCli(['install', '--user'], { cwd: repo.dir, env: repo.env });
    runBuiltHook(repo, 'settings');
    mkdirSync(join(repo.dir, '.claude'), { recursive: true });
    writeFileSync(join(repo.dir, '.claude', 'settings.json'), '{ "enabledPlugins": { "capsule@git-capsule": true } }\n');
    const checks = await doctor(repo);
    expect(checks.hooks).toMatchObject({ status: 'warn', detail: expect.stringContaining('enabled in'), fix: expect.stringContaining('git capsule uninstall --user') });
    expect(checks['hook runs']!.detail).toContain('settings command');
  });

  it('names the session in which two routes both ran one event', async () => {
    runBuiltHook(repo, 'plugin');
    runBuiltHook(repo, 'settings');
    await runCli(['install'], { cwd: repo.dir, env: repo.env });
    expect((await doctor(repo)).hooks!.detail).toContain(`UserPromptSubmit ran twice in session ${SESSION}`);
  });

  it('warns about settings hooks wired in two files', async () => {
    await runCli(['install'], { cwd: repo.dir, env: repo.env });
    await runCli(['install', '--user'], { cwd: repo.dir, env: repo.env });
    expect((await doctor(repo)).hooks).toMatchObject({ status: 'warn', detail: expect.stringContaining('wired in 2 files'), fix: 'keep one: run git capsule uninstall --user' });
  });

  it('fails a shared settings file whose command is not on PATH here', async () => {
    await runCli(['install', '--project'], { cwd: repo.dir, env: { ...repo.env, PATH: `${BIN}:${repo.env.PATH}` } });
    expect((await doctor(repo)).hooks).toMatchObject({ status: 'fail', detail: expect.stringContaining('git-capsule-hook is not on PATH') });
    expect((await doctor(repo, { ...repo.env, PATH: `${BIN}:${repo.env.PATH}` })).hooks!.status).toBe('ok');
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
