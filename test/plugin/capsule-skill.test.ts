import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, makeRepo } from '../store/support/temp-repo';
import { runBundle } from '../support/run-cli';

const SKILL = readFileSync(join(__dirname, '..', '..', 'skills', 'context-capsule', 'SKILL.md'), 'utf8');

/** The command a step names in its first backtick span: `N. **Title:** `command` …`. */
function stepCommand(title: string): string {
  const m = new RegExp(`\\*\\*${title}:?\\*\\*:? \`([^\`]+)\``).exec(SKILL);
  if (!m) throw new Error(`no command in step ${title}`);
  return m[1]!;
}

// The skill's template with each `<placeholder>` filled as an agent would: real words, no id or date.
function filledTemplate(): string {
  const template = /```markdown\n([\s\S]*?)```/.exec(SKILL)![1]!.replace(/^ {3}/gm, '');
  return template.replace(/<[^>\n]+>/g, (p) => (p.includes('path') ? 'src/parser.ts' : 'the parser handles nested lists'));
}

// Runs a skill command as written, with the bundled CLI standing in for `git capsule` (the
// skill says to when git-capsule is not on PATH).
function run(command: string, dir: string, env: NodeJS.ProcessEnv) {
  const args = command.replace(/^git capsule /, '').split(' ');
  return runBundle(args, { cwd: dir, env });
}

describe('the context-capsule skill, followed literally', () => {
  it('reaches `capsule written: <id>` with a capsule that validates, inventing no value', () => {
    const { dir, env } = makeRepo();
    try {
      const file = join(dir, '..', 'capsule.md');
      const draft = filledTemplate();
      expect(draft).not.toMatch(/^(?:id|created_at):/m);
      writeFileSync(file, draft);
      const check = run(stepCommand('Check it').replace('/tmp/capsule.md', file), dir, { ...env, CLAUDE_CODE_SESSION_ID: 'sess-skill' });
      expect(check).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ok: /) });
      const write = run(stepCommand('Commit it').replace('/tmp/capsule.md', file), dir, { ...env, CLAUDE_CODE_SESSION_ID: 'sess-skill' });
      expect(write.code).toBe(0);
      const id = write.stdout.trim();
      expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
      const literal = SKILL.match(/`(capsule written: <id>)`/)![1]!.replace('<id>', id);
      expect(literal).toBe(`capsule written: ${id}`);
      const shown = runBundle(['show', id], { cwd: dir, env });
      expect(shown.stdout).toContain('session_id: sess-skill');
      const written = join(dir, '..', 'written.md');
      writeFileSync(written, shown.stdout);
      expect(runBundle(['validate', written], { cwd: dir, env })).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ok: .* is a resumable capsule/) });
    } finally {
      cleanup(dir);
    }
  });
});

describe("the context-capsule skill's allowed-tools", () => {
  it('allows every git command its steps run, so the agent is not stopped for a permission at step 1', () => {
    const allowed = /^allowed-tools: (.*)$/m.exec(SKILL)![1]!.split(/,\s*/).map((t) => /^Bash\((.*):\*\)$/.exec(t)?.[1]).filter((p): p is string => p !== undefined);
    const commands = [...SKILL.matchAll(/`(git [^`]+)`/g)].map((m) => m[1]!);
    expect(commands).toEqual(expect.arrayContaining(['git status --short', 'git log -5 --oneline']));
    for (const command of commands) expect({ command, allowed: allowed.some((p) => command.startsWith(p)) }).toEqual({ command, allowed: true });
  });
});
