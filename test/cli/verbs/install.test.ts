import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { HOOK_MARKER, MISSING_HOOK_COMMAND_LINE } from '../../../lib/hosts/claude/settings-file';
import { runCli } from '../../support/run-cli';
import { git, makeTempDir, makeTempRepo, payload, type TempRepo } from '../../hooks/hook-fixtures';

const EVENTS = ['PostCompact', 'PreCompact', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit'];
const ROOT = join(__dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

// A settings file no serializer writes: tabs, CRLF, " : " before values, keys in no order,
// a user hook on one of our events, a hook group with a matcher, no final newline.
const UNUSUAL = [
  '{',
  '\t"permissions" : { "allow" : [ "Bash(npm test)" ] },',
  '\t"hooks" : {',
  '\t\t"Stop" : [ { "hooks" : [ { "type" : "command", "command" : "echo mine" } ] } ],',
  '\t\t"PreToolUse" : [',
  '\t\t\t{ "matcher" : "Bash", "hooks" : [ { "type" : "command", "command" : "echo pre" } ] }',
  '\t\t]',
  '\t},',
  '\t"model" : "opus",',
  '\t"env" : { "B" : "2", "A" : "1" }',
  '}',
].join('\r\n');

describe('git capsule install', () => {
  let repo: TempRepo;
  let local: string;
  let shared: string;
  const cli = (args: string[], env: NodeJS.ProcessEnv = repo.env) => runCli(args, { cwd: repo.dir, env });
  beforeEach(() => {
    repo = makeTempRepo();
    local = join(repo.dir, '.claude', 'settings.local.json');
    shared = join(repo.dir, '.claude', 'settings.json');
  });
  afterEach(() => repo.cleanup());

  it('wires the six hooks into the uncommitted settings.local.json by default, by absolute path', async () => {
    const r = await cli(['install', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ scope: 'local', settings: local });
    expect(JSON.parse(r.stdout).added.sort()).toEqual(EVENTS);
    const hooks = readJson(local).hooks;
    expect(Object.keys(hooks).sort()).toEqual(EVENTS);
    expect(hooks.Stop[0].hooks[0]).toMatchObject({ type: 'command', timeout: 10, asyncRewake: true });
    expect(hooks.Stop[0].hooks[0].command).toMatch(new RegExp(`^node "/.*/hooks/stop\\.js" ${HOOK_MARKER}$`));
    expect(existsSync(shared)).toBe(false);
  });

  it('writes --project commands that name no path of this machine: git-capsule-hook on PATH', async () => {
    const r = await cli(['install', '--project'], { ...repo.env, PATH: `${BIN}:${repo.env.PATH}` });
    expect(r.code).toBe(0);
    const text = readFileSync(shared, 'utf8');
    expect(readJson(shared).hooks.Stop[0].hooks[0].command).toBe(`command -v git-capsule-hook >/dev/null 2>&1 || exit 0; exec git-capsule-hook stop ${HOOK_MARKER}`);
    for (const machinePath of [ROOT, repo.dir, repo.env.HOME!]) expect(text).not.toContain(machinePath);
  });

  describe('the committed --project commands, run by sh as the host runs them', () => {
    const run = (event: string, PATH: string, home = repo.env.HOME!) => {
      const command = readJson(shared).hooks[event][0].hooks[0].command as string;
      return spawnSync('/bin/sh', ['-c', command], { cwd: repo.dir, env: { ...repo.env, PATH, HOME: home, CLAUDE_PROJECT_DIR: repo.dir }, input: JSON.stringify(payload(event as 'Stop', { cwd: repo.dir })), encoding: 'utf8' });
    };
    beforeEach(() => cli(['install', '--project'], { ...repo.env, PATH: `${BIN}:${repo.env.PATH}` }));

    it('run the hook through git-capsule-hook where it is on PATH (every event, PostCompact included)', () => {
      for (const event of EVENTS) {
        const r = run(event, `${BIN}:${repo.env.PATH}`);
        expect({ event, status: r.status, stderr: r.stderr }).toEqual({ event, status: 0, stderr: '' });
      }
      expect(git(repo.dir, 'log', 'refs/heads/capsules', '--format=%s')).not.toBe('');
    });

    it('for a teammate without it: exit 0 and silent, except one line at SessionStart saying what to install', () => {
      for (const event of EVENTS.filter((e) => e !== 'SessionStart')) expect(run(event, '/usr/bin:/bin')).toMatchObject({ status: 0, stdout: '', stderr: '' });
      const start = run('SessionStart', '/usr/bin:/bin');
      expect(start).toMatchObject({ status: 0, stderr: '' });
      expect(start.stdout.trim().split('\n')).toHaveLength(1);
      expect(JSON.parse(start.stdout)).toEqual({ systemMessage: MISSING_HOOK_COMMAND_LINE });
      expect(MISSING_HOOK_COMMAND_LINE).toContain('npm install -g git-capsule');
      expect(MISSING_HOOK_COMMAND_LINE).not.toMatch(/['"\\]/);
    });

    it('for a teammate who has only the plugin: silent at SessionStart too (the plugin runs the hooks)', () => {
      const plugins = join(repo.env.HOME!, '.claude', 'plugins');
      mkdirSync(plugins, { recursive: true });
      writeFileSync(join(plugins, 'installed_plugins.json'), JSON.stringify({ version: 2, plugins: { 'capsule@git-capsule': [{ scope: 'user' }] } }));
      expect(run('SessionStart', '/usr/bin:/bin')).toMatchObject({ status: 0, stdout: '', stderr: '' });
    });
  });

  it('writes --project commands under ${CLAUDE_PROJECT_DIR} when the bundles are inside the project', async () => {
    const inside = join(repo.dir, 'node_modules', 'git-capsule', 'dist', 'hooks');
    cpSync(join(ROOT, 'dist', 'hooks'), inside, { recursive: true });
    const r = await cli(['install', '--project'], { ...repo.env, CAPSULE_HOOKS_DIR: inside });
    expect(r.code).toBe(0);
    expect(readJson(shared).hooks.SessionStart[0].hooks[0].command).toBe(`node "\${CLAUDE_PROJECT_DIR}/node_modules/git-capsule/dist/hooks/session-start.js" ${HOOK_MARKER}`);
  });

  it('refuses --project when its command would not be on PATH, writing nothing', async () => {
    const r = await cli(['install', '--project'], { ...repo.env, PATH: '/usr/bin:/bin' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[HOOK_COMMAND_NOT_ON_PATH]');
    expect(existsSync(shared)).toBe(false);
  });

  it('keeps the default install out of git: adds the local file to .git/info/exclude, says so, and uninstall takes the line back', async () => {
    const exclude = join(repo.dir, '.git', 'info', 'exclude');
    const before = existsSync(exclude) ? readFileSync(exclude, 'utf8') : null;
    const r = await cli(['install']);
    expect(r.stdout).toContain(`ignored: added /.claude/settings.local.json to ${exclude}`);
    expect(readFileSync(exclude, 'utf8')).toContain('\n/.claude/settings.local.json\n');
    expect(git(repo.dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(JSON.parse((await cli(['install', '--json'])).stdout).excluded).toBeNull();
    const u = await cli(['uninstall']);
    expect(u.stdout).toContain(`removed /.claude/settings.local.json from ${exclude}`);
    expect(existsSync(exclude) ? readFileSync(exclude, 'utf8') : null).toBe(before ?? '');
  });

  it('adds no exclude line when git already ignores the local file', async () => {
    writeFileSync(join(repo.dir, '.gitignore'), '.claude/settings.local.json\n');
    const r = await cli(['install', '--json']);
    expect(JSON.parse(r.stdout).excluded).toBeNull();
    expect(existsSync(join(repo.dir, '.git', 'info', 'exclude')) ? readFileSync(join(repo.dir, '.git', 'info', 'exclude'), 'utf8') : '').not.toContain('settings.local.json');
  });

  it('edits the user settings with --user (CLAUDE_CONFIG_DIR when set)', async () => {
    const r = await cli(['install', '--user', '--json']);
    expect(JSON.parse(r.stdout).settings).toBe(join(repo.env.HOME!, '.claude', 'settings.json'));
    expect(Object.keys(readJson(join(repo.env.HOME!, '.claude', 'settings.json')).hooks)).toHaveLength(EVENTS.length);
    const config = join(repo.env.HOME!, 'claude-config');
    const again = await cli(['install', '--user', '--json'], { ...repo.env, CLAUDE_CONFIG_DIR: config });
    expect(JSON.parse(again.stdout).settings).toBe(join(config, 'settings.json'));
  });

  it('refuses --project with --user', async () => {
    const r = await cli(['install', '--project', '--user']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--project and --user exclude each other');
  });

  it('refuses outside a git repository, saying why', async () => {
    const outside = makeTempDir();
    try {
      const r = await runCli(['install'], { cwd: outside.dir, env: { ...repo.env, HOME: outside.dir } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('[NOT_A_REPO]');
      expect(r.stderr).toContain('the hooks would have nowhere to write');
      expect(existsSync(join(outside.dir, '.claude'))).toBe(false);
    } finally {
      outside.cleanup();
    }
  });

  it('refuses to overwrite a settings file that is not JSON', async () => {
    mkdirSync(join(repo.dir, '.claude'));
    writeFileSync(local, '{ broken');
    const r = await cli(['install']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[SETTINGS_INVALID]');
    expect(readFileSync(local, 'utf8')).toBe('{ broken');
  });

  it('adds nothing the second time', async () => {
    await cli(['install']);
    const before = readFileSync(local, 'utf8');
    const second = await cli(['install', '--json']);
    expect(JSON.parse(second.stdout).added).toEqual([]);
    expect(readFileSync(local, 'utf8')).toBe(before);
  });

  it('warns when another route already runs the hooks', async () => {
    await cli(['install', '--user']);
    const r = await cli(['install']);
    expect(r.stdout).toContain('wires the git-capsule hooks too: every hook runs twice');
  });

  it('prints the plugin install commands with --plugin and writes nothing', async () => {
    const r = await cli(['install', '--plugin']);
    expect(r.stdout).toContain('claude plugin install capsule@git-capsule');
    expect(r.stdout).not.toContain('<owner>');
    expect(existsSync(join(repo.dir, '.claude'))).toBe(false);
  });
});

describe('install, then uninstall, byte for byte', () => {
  let repo: TempRepo;
  let local: string;
  const cli = (args: string[]) => runCli(args, { cwd: repo.dir, env: repo.env });
  beforeEach(() => {
    repo = makeTempRepo();
    local = join(repo.dir, '.claude', 'settings.local.json');
    mkdirSync(join(repo.dir, '.claude'));
  });
  afterEach(() => repo.cleanup());

  it('only adds bytes to an unusual file: every byte it had stays, in order, and it still parses', async () => {
    writeFileSync(local, UNUSUAL);
    await cli(['install']);
    const after = readFileSync(local, 'utf8');
    expect(isSubsequence(UNUSUAL, after)).toBe(true);
    expect(Object.keys(readJson(local))).toEqual(['permissions', 'hooks', 'model', 'env']);
    expect(Object.keys(readJson(local).hooks)).toEqual(['Stop', 'PreToolUse', 'SessionStart', 'PreCompact', 'PostCompact', 'UserPromptSubmit', 'SessionEnd']);
    // The added lines look like their neighbours: tabs, CRLF, " : ".
    expect(after).toContain('\r\n\t\t"SessionStart" : [');
    expect(after).not.toMatch(/[^\r]\n/);
  });

  it('restores an unusual file byte for byte', async () => {
    writeFileSync(local, UNUSUAL);
    chmodSync(local, 0o640);
    await cli(['install']);
    const r = await cli(['uninstall', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ removed: EVENTS.length, restored: 'exact' });
    expect(readFileSync(local, 'utf8')).toBe(UNUSUAL);
    expect(statSync(local).mode & 0o777).toBe(0o640);
  });

  it('restores it byte for byte by cutting out its own bytes when the install record is gone', async () => {
    writeFileSync(local, UNUSUAL);
    await cli(['install']);
    rmSync(join(repo.stateDir, 'install-record.json'));
    const r = await cli(['uninstall', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ removed: EVENTS.length, restored: 'cut' });
    expect(readFileSync(local, 'utf8')).toBe(UNUSUAL);
  });

  it('keeps an edit made after install and removes only the capsule hooks', async () => {
    writeFileSync(local, UNUSUAL);
    await cli(['install']);
    writeFileSync(local, readFileSync(local, 'utf8').replace('"model" : "opus"', '"model" : "sonnet"'));
    const r = await cli(['uninstall', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ removed: EVENTS.length, restored: 'cut' });
    expect(readFileSync(local, 'utf8')).toBe(UNUSUAL.replace('"model" : "opus"', '"model" : "sonnet"'));
  });

  it('keeps a one-line file on one line and restores it', async () => {
    const oneLine = '{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo mine"}]}]}}\n';
    writeFileSync(local, oneLine);
    await cli(['install']);
    expect(readFileSync(local, 'utf8').trimEnd()).not.toContain('\n');
    rmSync(join(repo.stateDir, 'install-record.json'));
    await cli(['uninstall']);
    expect(readFileSync(local, 'utf8')).toBe(oneLine);
  });

  it('deletes the file, and the folder, that install created', async () => {
    rmSync(join(repo.dir, '.claude'), { recursive: true });
    await cli(['install']);
    expect(existsSync(local)).toBe(true);
    const r = await cli(['uninstall', '--json']);
    expect(JSON.parse(r.stdout).restored).toBe('exact');
    expect(existsSync(join(repo.dir, '.claude'))).toBe(false);
  });

  it('leaves a file without capsule hooks untouched', async () => {
    writeFileSync(local, UNUSUAL);
    const r = await cli(['uninstall', '--json']);
    expect(JSON.parse(r.stdout).removed).toBe(0);
    expect(readFileSync(local, 'utf8')).toBe(UNUSUAL);
  });
});

/** True when every character of `a` appears in `b` in order (b only added text). */
function isSubsequence(a: string, b: string): boolean {
  let i = 0;
  for (let j = 0; j < b.length && i < a.length; j++) if (a[i] === b[j]) i++;
  return i === a.length;
}
