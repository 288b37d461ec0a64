import { shellSessionId } from '../../lib/hosts/shell-session';

describe('shellSessionId', () => {
  it("reads Claude Code's Bash tool variable first, then Codex's exec_command one", () => {
    expect(shellSessionId({ CLAUDE_CODE_SESSION_ID: 'c-1', CODEX_SESSION_ID: '01a230d4-782a-72d0-ba84-41438a9184ed' })).toBe('c-1');
    expect(shellSessionId({ CODEX_SESSION_ID: '01a230d4-782a-72d0-ba84-41438a9184ed' })).toBe('01a230d4-782a-72d0-ba84-41438a9184ed');
  });

  it('takes no value that is not a plain id, and none outside an agent shell', () => {
    expect(shellSessionId({ CODEX_SESSION_ID: '../x' })).toBeUndefined();
    expect(shellSessionId({ CLAUDE_CODE_SESSION_ID: '' , CODEX_SESSION_ID: 'ok_2' })).toBe('ok_2');
    expect(shellSessionId({})).toBeUndefined();
  });
});
