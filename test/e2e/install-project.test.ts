import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
function projectTemplate(roots: string[], inside: boolean): () => string {
  return () => {
    const root = mkdtempSync(join(tmpdir(), 'capsule-e2e-install-'));
    roots.push(root);
    const scratch = join(root, 'scratch');
    execFileSync('git', ['init', '-q', scratch]);
    const hooksDir = join(scratch, 'node_modules', 'git-capsule', 'dist', 'hooks');
    if (inside) cpSync(join(REPO_ROOT, 'dist'), join(scratch, 'node_modules', 'git-capsule', 'dist'), { recursive: true });
    const env = { ...process.env, PATH: PATH_WITH_BIN, CAPSULE_STATE_DIR: join(root, 'state'), ...(inside ? { CAPSULE_HOOKS_DIR: hooksDir } : {}) };
    // Synchronous (the harness session's beforeAll calls this), so it runs the built CLI.
    execFileSync(process.execPath, [join(REPO_ROOT, 'dist', 'git-capsule.js'), 'install', '--project'], { cwd: scratch, env });
    const template = join(root, 'template');
    cpSync(join(scratch, '.claude'), join(template, '.claude'), { recursive: true });
    if (inside) cpSync(join(scratch, 'node_modules'), join(template, 'node_modules'), { recursive: true });
    return template;
  };
}

function memoryLog(out: string): string {
  const repo = join(out, 'repo');
  try {
    return execFileSync('git', ['log', 'refs/heads/capsules', '--format=%B'], { cwd: repo, encoding: 'utf8' });
  } catch {
    return '';
  }
}

const FORMS = [
  { form: 'the git-capsule-hook command on PATH', inside: false, command: /^git-capsule-hook stop --capsule-hook$/ },
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
