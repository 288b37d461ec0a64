import { hostEvidence, hostFromArgv } from '../../lib/hooks/pick-host';

const CODEX_SESSION = '01a230d4-782a-72d0-ba84-41438a9184ed';
const CODEX_ROLLOUT = `/home/dev/.codex/sessions/2026/12/01/rollout-2026-12-01T08-59-20-${CODEX_SESSION}.jsonl`;
const CLAUDE_SESSION = 'be432d9d-65be-4eb2-b8b5-e7b9ae7fd1f1';
const CLAUDE_TRANSCRIPT = `/home/dev/.claude/projects/-home-dev-project/${CLAUDE_SESSION}.jsonl`;

describe('hostFromArgv', () => {
  it.each([
    [['--host', 'codex'], 'codex'],
    [['--host=claude'], 'claude'],
    [['--capsule-hook', '--host=codex'], 'codex'],
    [['--capsule-hook'], null],
    [[], null],
  ] as const)('reads %j as %j', (argv, host) => {
    expect(hostFromArgv(argv)).toBe(host);
  });

  it('returns an unknown name for the runner to report instead of guessing', () => {
    expect(hostFromArgv(['--host', 'cursor'])).toEqual({ invalid: 'cursor' });
  });
});

describe('hostEvidence', () => {
  it('takes the declared host over anything the payload shows', () => {
    const payload = { session_id: CLAUDE_SESSION, transcript_path: CLAUDE_TRANSCRIPT };
    expect(hostEvidence({ declared: 'codex', payload, env: {} })).toEqual({ host: 'codex', by: 'argument' });
  });

  it('recognises a Codex rollout named after the payload session', () => {
    expect(hostEvidence({ declared: null, payload: { session_id: CODEX_SESSION, transcript_path: CODEX_ROLLOUT }, env: {} })).toEqual({ host: 'codex', by: 'transcript' });
  });

  it('does not take a rollout named after another session as evidence', () => {
    const payload = { session_id: CLAUDE_SESSION, transcript_path: CODEX_ROLLOUT };
    expect(hostEvidence({ declared: null, payload, env: {} }).by).toBe('default');
  });

  it('recognises a Claude Code transcript named after the payload session', () => {
    expect(hostEvidence({ declared: null, payload: { session_id: CLAUDE_SESSION, transcript_path: CLAUDE_TRANSCRIPT }, env: {} })).toEqual({ host: 'claude', by: 'transcript' });
  });

  it("recognises Claude Code's session variable only when it equals the payload session", () => {
    const payload = { session_id: CLAUDE_SESSION, transcript_path: null };
    expect(hostEvidence({ declared: null, payload, env: { CLAUDE_CODE_SESSION_ID: CLAUDE_SESSION } })).toEqual({ host: 'claude', by: 'session-env' });
    // Inherited from an outer Claude Code session (codex started from its Bash tool): not evidence.
    expect(hostEvidence({ declared: null, payload: { session_id: CODEX_SESSION, transcript_path: null }, env: { CLAUDE_CODE_SESSION_ID: CLAUDE_SESSION } }).by).toBe('default');
  });

  it("recognises Copilot's camelCase payload by its events.jsonl under the session's own folder", () => {
    const payload = { sessionId: 'abc-1', transcriptPath: '/home/u/.copilot/session-state/abc-1/events.jsonl' };
    expect(hostEvidence({ declared: null, payload, env: {} })).toEqual({ host: 'copilot', by: 'transcript' });
    expect(hostEvidence({ declared: null, payload: { ...payload, sessionId: 'other' }, env: {} }).by).toBe('payload');
  });

  it("recognises Copilot's camelCase sessionId without a session_id (its registration through git-capsule-hook loses --host)", () => {
    expect(hostEvidence({ declared: null, payload: { sessionId: 'abc-1', cwd: '/x', source: 'new' }, env: {} })).toEqual({ host: 'copilot', by: 'payload' });
    expect(hostEvidence({ declared: null, payload: { sessionId: 'abc-1', session_id: 'abc-1' }, env: {} }).by).toBe('default');
  });

  it('reads --host copilot from the command line', () => {
    expect(hostFromArgv(['--host', 'copilot'])).toBe('copilot');
  });

  it('falls back to Claude Code, whose own registrations carry no --host, when nothing else is known', () => {
    expect(hostEvidence({ declared: null, payload: 'not an object', env: {} })).toEqual({ host: 'claude', by: 'default' });
  });
});
