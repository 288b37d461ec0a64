import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCopilotInput, sessionTranscript } from '../../../lib/hosts/copilot/hook-input';
import { copilotPayload } from './copilot-fixtures';

const NO_HOME = { HOME: '/nonexistent-home' };

describe('checkCopilotInput on the payloads Copilot CLI 1.0.102 really sent', () => {
  it("takes sessionStart's camelCase sessionId and its source as they are", () => {
    const r = checkCopilotInput('SessionStart', copilotPayload('sessionStart'), NO_HOME);
    expect(r).toEqual({ ok: true, input: { session_id: '47a101fa-6328-4a14-80e7-39960d749a98', cwd: '/tmp/cp/repo', hook_event_name: 'SessionStart', source: 'new' } });
  });

  it("hands agentStop's transcriptPath and stop_hook_active over in the core's names", () => {
    const r = checkCopilotInput('Stop', copilotPayload('agentStop'), NO_HOME);
    expect(r.ok && r.input).toMatchObject({ transcript_path: expect.stringMatching(/session-state\/[0-9a-f-]+\/events\.jsonl$/), stop_hook_active: false });
  });

  it('reads the forced-stop flag under the SDK name too', () => {
    const raw = copilotPayload('agentStop');
    delete raw.stop_hook_active;
    const r = checkCopilotInput('Stop', { ...raw, stopHookActive: true }, NO_HOME);
    expect(r.ok && r.input.stop_hook_active).toBe(true);
  });

  it("takes preCompact's trigger and leaves an empty customInstructions out", () => {
    const r = checkCopilotInput('PreCompact', copilotPayload('preCompact'), NO_HOME);
    expect(r.ok && r.input).toMatchObject({ trigger: 'manual', transcript_path: expect.any(String) });
    expect(r.ok && 'custom_instructions' in r.input).toBe(false);
  });

  it('takes the prompt of userPromptSubmitted', () => {
    const r = checkCopilotInput('UserPromptSubmit', copilotPayload('userPromptSubmitted'), NO_HOME);
    expect(r.ok && r.input.prompt).toBe('write src.ts please');
  });

  it("reads sessionEnd's user_exit (sent at /clear and at exit alike) as clear, and leaves other reasons alone", () => {
    const r = checkCopilotInput('SessionEnd', copilotPayload('sessionEnd'), NO_HOME);
    expect(r.ok && r.input.reason).toBe('clear');
    const done = checkCopilotInput('SessionEnd', copilotPayload('sessionEnd', { reason: 'complete' }), NO_HOME);
    expect(done.ok && done.input.reason).toBe('complete');
  });

  it('refuses a session id of the wrong type without coercing it', () => {
    expect(checkCopilotInput('Stop', copilotPayload('agentStop', { sessionId: { id: 1 } }), NO_HOME)).toEqual({ ok: false, field: 'sessionId', expected: 'string', received: 'object' });
  });

  it('refuses an empty session id', () => {
    expect(checkCopilotInput('Stop', copilotPayload('agentStop', { sessionId: '' }), NO_HOME).ok).toBe(false);
  });

  it('refuses a Claude-shaped payload (snake_case session_id only)', () => {
    expect(checkCopilotInput('Stop', { session_id: 's', cwd: '/x', hook_event_name: 'Stop' }, NO_HOME)).toMatchObject({ ok: false, field: 'sessionId' });
  });
});

describe('the transcript of an event whose payload names none', () => {
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'capsule-copilot-home-'));
    mkdirSync(join(home, '.copilot', 'session-state', 'abc-123'), { recursive: true });
    writeFileSync(join(home, '.copilot', 'session-state', 'abc-123', 'events.jsonl'), '');
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it("is the session's events.jsonl under ~/.copilot when it is there", () => {
    const r = checkCopilotInput('SessionEnd', { sessionId: 'abc-123', cwd: '/x', reason: 'user_exit' }, { HOME: home });
    expect(r.ok && r.input.transcript_path).toBe(join(home, '.copilot', 'session-state', 'abc-123', 'events.jsonl'));
  });

  it('follows COPILOT_HOME', () => {
    expect(sessionTranscript('abc-123', { HOME: '/elsewhere', COPILOT_HOME: join(home, '.copilot') })).toBe(join(home, '.copilot', 'session-state', 'abc-123', 'events.jsonl'));
  });

  it('is none when the file is not there, or the id is no plain name', () => {
    expect(sessionTranscript('other', { HOME: home })).toBeNull();
    expect(sessionTranscript('../abc-123', { HOME: home })).toBeNull();
  });
});
