import { claudeProjectDirName, claudeProjectsRoot, isClaudeProjectDir, isSubagentTranscript, sessionIdFromFileName } from '../../../lib/hosts/claude/claude-paths';

describe('claudeProjectDirName', () => {
  it.each([
    ['/home/dev/project', '-home-dev-project'],
    ['/work/my.app/src', '-work-my-app-src'],
    ['/tmp/a_b c', '-tmp-a-b-c'],
  ])('mangles %s to %s', (cwd, name) => {
    expect(claudeProjectDirName(cwd)).toBe(name);
  });
});

describe('isClaudeProjectDir', () => {
  it('matches a long directory name by its shortened prefix and hash suffix', () => {
    const cwd = `/${'deep/'.repeat(60)}x`;
    const name = `${claudeProjectDirName(cwd).slice(0, 200)}-1a2b3c`;
    expect(isClaudeProjectDir(name, cwd)).toBe(true);
    expect(isClaudeProjectDir('-home-dev-project', '/home/dev/project')).toBe(true);
    expect(isClaudeProjectDir('-home-dev-project2', '/home/dev/project')).toBe(false);
  });
});

describe('claudeProjectsRoot', () => {
  it.each([
    [{ CLAUDE_CONFIG_DIR: '/cfg', HOME: '/h' }, '/cfg/projects'],
    [{ HOME: '/h' }, '/h/.claude/projects'],
    [{}, null],
  ])('resolves %j to %s', (env, root) => {
    expect(claudeProjectsRoot(env)).toBe(root);
  });
});

describe('sessionIdFromFileName', () => {
  it('reads the session id of a main transcript only', () => {
    expect(sessionIdFromFileName('be432d9d-65be-4eb2-b8b5-e7b9ae7fd1f1.jsonl')).toBe('be432d9d-65be-4eb2-b8b5-e7b9ae7fd1f1');
    expect(sessionIdFromFileName('agent-a1b2.jsonl')).toBeUndefined();
    expect(isSubagentTranscript('/p/s/subagents/agent-a1b2.jsonl')).toBe(true);
    expect(isSubagentTranscript('/p/s.jsonl')).toBe(false);
  });
});
