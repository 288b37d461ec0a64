import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describeIfAvailable } from '../support/needs';
import { tempDir } from '../support/temp-dirs';
import { freshCheckout } from './support/fresh-checkout';
import { findHarness, harnessMissing, harnessSession, REPO_ROOT } from './claude-client';

const harness = findHarness();
const PATH_WITH_BIN = `${join(REPO_ROOT, 'bin')}:${process.env.PATH ?? ''}`;

/** What the session's repository holds on its memory branch (commit messages), or '' when it has none. */
function memoryLog(out: string): string {
  try {
    return execFileSync('git', ['log', 'refs/heads/capsules', '--format=%B'], { cwd: join(out, 'repo'), encoding: 'utf8' });
  } catch {
    return '';
  }
}

/** `git status` of the session's repository, less the file the fake model's default turn writes. */
function gitStatus(out: string): string {
  const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: join(out, 'repo'), encoding: 'utf8' });
  return status.split('\n').filter((line) => line && line !== '?? hello.txt').join('\n');
}

const PROMPT = 'Add a health check endpoint in src/health.ts';

/**
 * The README's install routes that run before a session starts, each typed exactly as the
 * README gives it (the driver's -X step, in the session's repository, with the client's own
 * throwaway HOME), then one real session: its Stop must write the autosave, with no hook error.
 * The default routes (the plugin at user scope through its files, `--plugin-dir`, `git capsule
 * install` and `--project`) have their own suites: marketplace-install, every harness session,
 * install-project.
 */
describeIfAvailable('the real-client suite', harnessMissing(harness))('installed the way the README says, then run by the real client', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
  let marketplace = '';
  /** One fresh checkout serves every route: the marketplace is read at install time only. */
  const checkout = (): string => {
    if (!marketplace) {
      const root = tempDir('capsule-e2e-routes-');
      roots.push(root);
      marketplace = freshCheckout(join(root, 'git-capsule'), 1024);
    }
    return marketplace;
  };

  describe('claude plugin install capsule@git-capsule --scope project', () => {
    const session = harnessSession(harness ?? '', {
      name: 'route-project-scope',
      plugin: false,
      prompts: [PROMPT],
      setup: () => `"$CCH_CLIENT" plugin marketplace add ${checkout()} && "$CCH_CLIENT" plugin install capsule@git-capsule --scope project`,
    });

    it('enables the plugin in the committed .claude/settings.json, naming no path of this machine', () => {
      expect(session.run.status).toBe(0);
      const text = readFileSync(join(session.out, 'repo', '.claude', 'settings.json'), 'utf8');
      expect(JSON.parse(text)).toEqual({ enabledPlugins: { 'capsule@git-capsule': true } });
    });

    it("runs the plugin's hooks in that project: the Stop autosave is on the memory branch, no hook error", () => {
      expect(memoryLog(session.out)).toContain('Capsule-Trigger: autosave');
      expect(existsSync(join(session.out, 'repo', '.git', 'capsule', 'errors.log'))).toBe(false);
    });
  });

  describe('claude plugin install capsule@git-capsule --scope user', () => {
    const session = harnessSession(harness ?? '', {
      name: 'route-user-scope',
      plugin: false,
      prompts: [PROMPT],
      setup: () => `"$CCH_CLIENT" plugin marketplace add ${checkout()} && "$CCH_CLIENT" plugin install capsule@git-capsule --scope user`,
    });

    it("runs the plugin's hooks in any project of that user, writing nothing into the project", () => {
      expect(session.run.status).toBe(0);
      expect(memoryLog(session.out)).toContain('Capsule-Trigger: autosave');
      expect(existsSync(join(session.out, 'repo', '.git', 'capsule', 'errors.log'))).toBe(false);
      expect(gitStatus(session.out)).toBe('');
    });
  });

  describe('git capsule install --user (the CLI on PATH)', () => {
    const session = harnessSession(harness ?? '', {
      name: 'route-cli-user',
      plugin: false,
      prompts: [PROMPT],
      env: { PATH: PATH_WITH_BIN },
      setup: () => 'git capsule install --user',
    });

    it('registers the hooks in ~/.claude/settings.json and leaves the project untouched', () => {
      expect(session.run.status).toBe(0);
      const settings = JSON.parse(readFileSync(join(session.out, 'home', '.claude', 'settings.json'), 'utf8'));
      expect(settings.hooks.Stop[0].hooks[0].command).toMatch(/stop\.js" --capsule-hook$/);
      expect(gitStatus(session.out)).toBe('');
    });

    it('runs the hooks: the Stop autosave is on the memory branch, no hook error', () => {
      expect(memoryLog(session.out)).toContain('Capsule-Trigger: autosave');
      expect(existsSync(join(session.out, 'repo', '.git', 'capsule', 'errors.log'))).toBe(false);
    });
  });
});
