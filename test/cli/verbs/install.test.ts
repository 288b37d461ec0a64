import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOOK_MARKER } from '../../../lib/hosts/claude/settings-file';
import { runCli } from '../../support/run-cli';
import { makeTempRepo, type TempRepo } from '../../hooks/hook-fixtures';

const EVENTS = ['PostCompact', 'PreCompact', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit'];
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('git capsule install', () => {
  let repo: TempRepo;
  let settings: string;
  beforeEach(() => {
    repo = makeTempRepo();
    settings = join(repo.dir, '.claude', 'settings.json');
  });
  afterEach(() => repo.cleanup());

  it('adds the six hooks with timeouts to a new project settings file', async () => {
    const r = await runCli(['install', '--json'], { cwd: join(repo.dir), env: repo.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).added.sort()).toEqual(EVENTS);
    const hooks = readJson(settings).hooks;
    expect(Object.keys(hooks).sort()).toEqual(EVENTS);
    expect(hooks.Stop[0].hooks[0]).toMatchObject({ type: 'command', timeout: 10 });
    expect(hooks.Stop[0].hooks[0].command).toMatch(new RegExp(`^node ".*/hooks/stop\\.js" ${HOOK_MARKER}$`));
  });

  it('keeps every other key and hook of an existing file, and adds nothing the second time', async () => {
    mkdirSync(join(repo.dir, '.claude'));
    const mine = { model: 'x', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo mine' }] }], PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo pre' }] }] } };
    writeFileSync(settings, JSON.stringify(mine));
    await runCli(['install'], { cwd: repo.dir, env: repo.env });
    const second = await runCli(['install', '--json'], { cwd: repo.dir, env: repo.env });
    expect(JSON.parse(second.stdout).added).toEqual([]);
    const after = readJson(settings);
    expect(after.model).toBe('x');
    expect(after.hooks.PreToolUse).toEqual(mine.hooks.PreToolUse);
    expect(after.hooks.Stop).toHaveLength(2);
    expect(after.hooks.Stop[0]).toEqual(mine.hooks.Stop[0]);
  });

  it('refuses to overwrite a settings file that is not JSON', async () => {
    mkdirSync(join(repo.dir, '.claude'));
    writeFileSync(settings, '{ broken');
    const r = await runCli(['install'], { cwd: repo.dir, env: repo.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[SETTINGS_INVALID]');
    expect(readFileSync(settings, 'utf8')).toBe('{ broken');
  });

  it('edits the user settings with --user', async () => {
    const r = await runCli(['install', '--user', '--json'], { cwd: repo.dir, env: repo.env });
    expect(JSON.parse(r.stdout).settings).toBe(join(repo.env.HOME!, '.claude', 'settings.json'));
    expect(Object.keys(readJson(join(repo.env.HOME!, '.claude', 'settings.json')).hooks)).toHaveLength(EVENTS.length);
  });

  it('prints the plugin install commands with --plugin and writes nothing', async () => {
    const r = await runCli(['install', '--plugin'], { cwd: repo.dir, env: repo.env });
    expect(r.stdout).toContain('/plugin install capsule');
    expect(() => readFileSync(settings)).toThrow();
  });
});

describe('git capsule uninstall', () => {
  let repo: TempRepo;
  let settings: string;
  beforeEach(() => {
    repo = makeTempRepo();
    settings = join(repo.dir, '.claude', 'settings.json');
  });
  afterEach(() => repo.cleanup());

  it('removes exactly what install added and restores the file as it was', async () => {
    mkdirSync(join(repo.dir, '.claude'));
    const mine = { model: 'x', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo mine' }] }] } };
    writeFileSync(settings, JSON.stringify(mine));
    await runCli(['install'], { cwd: repo.dir, env: repo.env });
    const r = await runCli(['uninstall', '--json'], { cwd: repo.dir, env: repo.env });
    expect(JSON.parse(r.stdout).removed).toBe(EVENTS.length);
    expect(readJson(settings)).toEqual(mine);
  });

  it('leaves a file without capsule hooks untouched', async () => {
    const r = await runCli(['uninstall', '--json'], { cwd: repo.dir, env: repo.env });
    expect(JSON.parse(r.stdout).removed).toBe(0);
    expect(() => readFileSync(settings)).toThrow();
  });
});
