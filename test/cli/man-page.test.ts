import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { renderManPage } from '../../lib/cli/man-page';
import { VERBS } from '../../lib/cli/verbs';
import { runCli } from '../support/run-cli';
import { describeIfAvailable } from '../support/needs';
import { tempDir } from '../support/temp-dirs';

const ROOT = join(__dirname, '..', '..');
const PAGE = join(ROOT, 'man', 'man1', 'git-capsule.1');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** Runs a command with bin/ first on PATH and no user git config, the way a user with PATH="$PWD/bin:$PATH" would. */
function asUser(cmd: string, args: string[]) {
  const { MANPATH: _manpath, ...env } = process.env;
  return spawnSync(cmd, args, {
    env: { ...env, PATH: `${join(ROOT, 'bin')}:${process.env.PATH ?? ''}`, MANPAGER: 'cat', PAGER: 'cat', GIT_PAGER: 'cat', MANWIDTH: '100', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

const has = (tool: string) => spawnSync(tool, ['--version'], { encoding: 'utf8' }).status === 0;

describe('man/man1/git-capsule.1', () => {
  it('is what the build renders from the verbs\' help texts (run `npm run build` and commit man/)', async () => {
    expect(readFileSync(PAGE, 'utf8')).toBe(await renderManPage(pkg.version));
  });

  it("carries every verb's usage", async () => {
    const page = readFileSync(PAGE, 'utf8');
    for (const name of Object.keys(VERBS)) {
      const first = (await VERBS[name]!()).usage.split('\n')[0]!;
      expect(page).toContain(first.replace(/\\/g, '\\e').replace(/-/g, '\\-').replace(/…/g, '\\[u2026]'));
    }
  });

  it('is linked by a global npm install (package.json "man"), beside both commands', () => {
    expect(pkg.man).toEqual(['./man/man1/git-capsule.1']);
    const prefix = tempDir('capsule-global-');
    const r = spawnSync('npm', ['install', '-g', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', prefix, ROOT], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, npm_config_cache: join(prefix, '.npm') } });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
    expect(realpathSync(join(prefix, 'share', 'man', 'man1', 'git-capsule.1'))).toBe(realpathSync(PAGE));
    for (const bin of ['git-capsule', 'git-capsule-hook']) expect(existsSync(join(prefix, 'bin', bin))).toBe(true);
  }, 130_000);
});

describeIfAvailable('the man page checks', has('man') && has('groff') ? null : 'man or groff is not installed')('the man page, read by man', () => {
  it('formats without a troff warning', () => {
    const r = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', PAGE], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('is what `git capsule --help` shows (git turns it into `man git-capsule`)', () => {
    const r = asUser('git', ['capsule', '--help']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('GIT-CAPSULE(1)');
    expect(r.stdout).toContain('usage: git capsule sync [<remote>]');
  });
});

describe('help the git way', () => {
  it('prints a verb\'s usage with `git capsule help <verb>` and with `git capsule <verb> -h`', () => {
    for (const args of [['capsule', 'help', 'sync'], ['capsule', 'sync', '-h'], ['capsule', 'history', 'list', '-h']]) {
      const r = asUser('git', args);
      expect({ args, status: r.status }).toEqual({ args, status: 0 });
      expect(r.stdout).toContain(`usage: git capsule ${args.includes('history') ? 'history' : 'sync'}`);
    }
  });

  it('refuses `help` of a verb that does not exist, naming the form that lists them', async () => {
    const r = await runCli(['help', 'frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Run 'git capsule help' for the list");
  });

  it('points a usage error at `git capsule help <verb>`, which works where `--help` opens the man page', async () => {
    const r = await runCli(['list', '--no-such-flag']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("See 'git capsule help list'.");
  });

  it('lists the forms that work in the top-level help', async () => {
    const r = await runCli(['help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("'git capsule help <verb>' or 'git capsule <verb> -h'");
  });
});
