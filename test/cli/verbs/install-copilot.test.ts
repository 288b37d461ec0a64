import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../support/run-cli';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../hooks/hook-fixtures';

const ROOT = join(__dirname, '..', '..', '..');

describe('git capsule install --copilot', () => {
  let repo: TempRepo;
  let home: string;
  let env: NodeJS.ProcessEnv;
  const cli = (args: string[]) => runCli(args, { cwd: repo.dir, env });
  beforeEach(() => {
    repo = makeTempRepo();
    home = makeTempDir().dir;
    env = { ...repo.env, HOME: home, COPILOT_HOME: '', CAPSULE_HOOKS_DIR: join(ROOT, 'dist', 'hooks') };
  });
  afterEach(() => repo.cleanup());
  const userFile = () => join(home, '.copilot', 'hooks', 'git-capsule.json');

  it("writes ~/.copilot/hooks/git-capsule.json with every event Copilot runs, each this machine's bundle with --host copilot", async () => {
    const r = await cli(['install', '--copilot']);
    expect(r.code).toBe(0);
    const file = JSON.parse(readFileSync(userFile(), 'utf8'));
    expect(file.version).toBe(1);
    expect(Object.keys(file.hooks).sort()).toEqual(['agentStop', 'preCompact', 'sessionEnd', 'sessionStart', 'userPromptSubmitted']);
    expect(file.hooks.sessionStart).toEqual([{ type: 'command', bash: `node "${join(ROOT, 'dist', 'hooks', 'session-start.js')}" --host copilot`, timeoutSec: 10 }]);
  });

  it('writes nothing the second time', async () => {
    await cli(['install', '--copilot']);
    expect((await cli(['install', '--copilot', '--json'])).stdout).toContain('"written": false');
  });

  it('leaves the user\'s other hook files alone, and uninstall removes the file and the folders it made', async () => {
    await cli(['install', '--copilot']);
    expect(existsSync(join(home, '.copilot'))).toBe(true);
    expect((await cli(['uninstall', '--copilot'])).stdout).toContain('restored');
    expect(existsSync(join(home, '.copilot'))).toBe(false);
  });

  it('puts back byte for byte a file that was at its path before', async () => {
    mkdirSync(join(home, '.copilot', 'hooks'), { recursive: true });
    writeFileSync(join(home, '.copilot', 'hooks', 'mine.json'), '{"version":1,"hooks":{}}');
    const before = '{\r\n\t"version" : 1, "hooks" : { "agentStop" : [ ] } }';
    writeFileSync(userFile(), before);
    await cli(['install', '--copilot']);
    expect(readFileSync(userFile(), 'utf8')).not.toBe(before);
    await cli(['uninstall', '--copilot']);
    expect(readFileSync(userFile(), 'utf8')).toBe(before);
    expect(readFileSync(join(home, '.copilot', 'hooks', 'mine.json'), 'utf8')).toBe('{"version":1,"hooks":{}}');
  });

  it('leaves a file edited since install alone', async () => {
    await cli(['install', '--copilot']);
    const file = JSON.parse(readFileSync(userFile(), 'utf8'));
    file.hooks.sessionStart.push({ type: 'command', bash: 'echo mine', timeoutSec: 5 });
    writeFileSync(userFile(), JSON.stringify(file));
    expect((await cli(['uninstall', '--copilot'])).stdout).toContain('left alone');
    expect(existsSync(userFile())).toBe(true);
  });

  it('with --project writes .github/hooks/git-capsule.json naming no path of this machine, and says the folder must be trusted', async () => {
    const r = await cli(['install', '--copilot', '--project']);
    expect(r.stdout).toMatch(/trust the folder/);
    const text = readFileSync(join(repo.dir, '.github', 'hooks', 'git-capsule.json'), 'utf8');
    expect(text).not.toContain(ROOT);
    expect(JSON.parse(text).hooks.agentStop[0].bash).toBe('git-capsule-hook stop --host copilot');
  });

  it('follows COPILOT_HOME', async () => {
    env.COPILOT_HOME = join(home, 'elsewhere');
    await cli(['install', '--copilot']);
    expect(existsSync(join(home, 'elsewhere', 'hooks', 'git-capsule.json'))).toBe(true);
  });

  const doctor = async () => (JSON.parse((await cli(['doctor', '--json'])).stdout) as Array<{ name: string; status: string; detail: string }>).find((c) => c.name === 'copilot hooks');

  it('is what doctor reports as the Copilot route, and says nothing of Copilot where it is not installed', async () => {
    expect(await doctor()).toBeUndefined();
    await cli(['install', '--copilot']);
    expect(await doctor()).toMatchObject({ status: 'ok', detail: expect.stringContaining(userFile()) });
  });

  it('makes doctor say the repository route needs a trusted folder, and warn when both levels run the hooks', async () => {
    await cli(['install', '--copilot', '--project']);
    expect(await doctor()).toMatchObject({ status: 'ok', detail: expect.stringContaining('trusted') });
    await cli(['install', '--copilot']);
    expect(await doctor()).toMatchObject({ status: 'warn', detail: expect.stringContaining('runs twice') });
  });
});
