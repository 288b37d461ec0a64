import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeIfAvailable } from '../support/needs';
import { findHarness, harnessSession, REPO_ROOT, harnessMissing } from './claude-client';

const harness = findHarness();
const BIN = join(REPO_ROOT, 'bin');
const PATH_WITH_BIN = `${BIN}:${process.env.PATH ?? ''}`;

/**
 * A repository template whose committed .claude/settings.json is what `git capsule install
 * --project` wrote in a scratch clone; `inside` also puts git-capsule in the project, as a
 * devDependency would, so the commands take the ${CLAUDE_PROJECT_DIR} form.
 */
function projectTemplate(roots: string[], inside: boolean, installArgs: string[] = ['install', '--project']): () => string {
  return () => {
    const root = mkdtempSync(join(tmpdir(), 'capsule-e2e-install-'));
    roots.push(root);
    const scratch = join(root, 'scratch');
    execFileSync('git', ['init', '-q', scratch]);
    const hooksDir = join(scratch, 'node_modules', 'git-capsule', 'dist', 'hooks');
    if (inside) cpSync(join(REPO_ROOT, 'dist'), join(scratch, 'node_modules', 'git-capsule', 'dist'), { recursive: true });
    const env = { ...process.env, PATH: PATH_WITH_BIN, CAPSULE_STATE_DIR: join(root, 'state'), ...(inside ? { CAPSULE_HOOKS_DIR: hooksDir } : {}) };
    // Synchronous (the harness session's beforeAll calls this), so it runs the built CLI.
    execFileSync(process.execPath, [join(REPO_ROOT, 'dist', 'git-capsule.js'), ...installArgs], { cwd: scratch, env });
    const template = join(root, 'template');
    cpSync(join(scratch, '.claude'), join(template, '.claude'), { recursive: true });
    if (inside) cpSync(join(scratch, 'node_modules'), join(template, 'node_modules'), { recursive: true });
    return template;
  };
}

function memoryLog(out: string): string {
  const repo = join(out, 'repo');
  try {
    return execFileSync('git', ['log', 'refs/heads/capsules', '--format=%B'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch {
    return '';
  }
}

const FORMS = [
  { form: 'the git-capsule-hook command on PATH', inside: false, command: /^command -v git-capsule-hook >\/dev\/null 2>&1 \|\| exit 0; exec git-capsule-hook stop --capsule-hook$/ },
  { form: '${CLAUDE_PROJECT_DIR}/node_modules/git-capsule/…', inside: true, command: /^node "\$\{CLAUDE_PROJECT_DIR\}\/node_modules\/git-capsule\/dist\/hooks\/stop\.js" --capsule-hook$/ },
];

describeIfAvailable('the real-client suite', harnessMissing(harness))('install --project, committed, run by the real client', () => {
  describe.each(FORMS)('$form', ({ inside, command }) => {
    const roots: string[] = [];
    afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
    const session = harnessSession(harness ?? '', {
      name: inside ? 'install-inside' : 'install-path',
      plugin: false,
      template: projectTemplate(roots, inside),
      prompts: ['hello'],
      env: { PATH: PATH_WITH_BIN },
    });

    it('is a settings file that names no path of this machine', () => {
      const text = readFileSync(join(session.out, 'repo', '.claude', 'settings.json'), 'utf8');
      expect(text).not.toContain(REPO_ROOT);
      expect(text).not.toContain(tmpdir());
      expect(JSON.parse(text).hooks.Stop[0].hooks[0].command).toMatch(command);
    });

    it("runs the hooks: the session's Stop wrote its autosave to the memory branch, with no hook error", () => {
      expect(session.run.status).toBe(0);
      expect(memoryLog(session.out)).toContain('Capsule-Trigger: autosave');
      expect(existsSync(join(session.out, 'repo', '.git', 'capsule', 'errors.log'))).toBe(false);
    });
  });
});

/** Everything the client printed and logged in a harness run's steps (stream-json, stderr, debug log). */
function clientOutput(out: string): string {
  return readdirSync(out).filter((f) => /^step-\d+\./.test(f)).map((f) => readFileSync(join(out, f), 'utf8')).join('\n');
}

// A teammate clones the project with the committed --project registration but has no
// git-capsule-hook on PATH: with only the plugin, the plugin's hooks run and the shared commands
// step aside; with neither, no hook fails and SessionStart says in one line what to install.
describeIfAvailable('the real-client suite', harnessMissing(harness))('a committed --project registration on a teammate machine without git-capsule-hook', () => {
  const TEAMMATE_PATH = (process.env.PATH ?? '').split(':').filter((d) => !existsSync(join(d, 'git-capsule-hook'))).join(':');
  describe.each([
    { who: 'who has only the plugin', plugin: true },
    { who: 'who has nothing installed yet', plugin: false },
  ])('$who', ({ plugin }) => {
    const roots: string[] = [];
    afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
    const session = harnessSession(harness ?? '', {
      name: plugin ? 'teammate-plugin' : 'teammate-none',
      plugin,
      template: projectTemplate(roots, false),
      prompts: ['hello'],
      env: { PATH: TEAMMATE_PATH },
    });

    it('runs the session with no hook failing ("not found", a non-zero exit) and no error logged', () => {
      expect(session.run.status).toBe(0);
      const output = clientOutput(session.out);
      expect(output).not.toMatch(/git-capsule-hook: (command )?not found|exit code 127/);
      expect(existsSync(join(session.out, 'repo', '.git', 'capsule', 'errors.log'))).toBe(false);
    });

    if (plugin) {
      it("gets the plugin's hooks: the turn is autosaved once", () => {
        expect(memoryLog(session.out).match(/Capsule-Trigger: autosave/g)?.length ?? 0).toBeGreaterThan(0);
      });
    } else {
      it('is told at SessionStart, in one line, what to install; nothing is written', () => {
        expect(clientOutput(session.out)).toContain('which is not on PATH here: npm install -g git-capsule, or install the capsule plugin');
        expect(memoryLog(session.out)).toBe('');
      });
    }
  });
});

// The README's default route: `git capsule install` in this clone, run by the real client.
describeIfAvailable('the real-client suite', harnessMissing(harness))('git capsule install (this clone: .claude/settings.local.json), run by the real client', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
  const session = harnessSession(harness ?? '', { name: 'install-local', plugin: false, template: projectTemplate(roots, false, ['install']), prompts: ['hello'] });

  it("runs the hooks from the local settings file: the session's Stop wrote its autosave, with no hook error", () => {
    expect(session.run.status).toBe(0);
    expect(JSON.parse(readFileSync(join(session.out, 'repo', '.claude', 'settings.local.json'), 'utf8')).hooks.Stop[0].hooks[0].command).toMatch(/^node "\/.*\/dist\/hooks\/stop\.js" --capsule-hook$/);
    expect(memoryLog(session.out)).toContain('Capsule-Trigger: autosave');
    expect(existsSync(join(session.out, 'repo', '.git', 'capsule', 'errors.log'))).toBe(false);
  });
});
