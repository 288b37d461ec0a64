import { checkCodexInput, codexIgnores } from '../../../lib/hosts/codex/hook-input';
import { HOOK_EVENT_NAMES } from '../../../lib/hosts/host';
import { codexPayload, codexPayloadNames, schemaErrors } from './codex-fixtures';

describe('checkCodexInput', () => {
  const cases = HOOK_EVENT_NAMES.flatMap((event) => codexPayloadNames(event).map((name) => [name, event] as const));

  it.each(cases)('accepts the real payload %s, which its shipped input schema accepts too', (name, event) => {
    const raw = codexPayload(name);
    expect(schemaErrors(event, 'input', raw)).toBeNull();
    expect(checkCodexInput(event, raw).ok).toBe(true);
  });

  it('hands over only the fields the core reads, nothing Codex-specific', () => {
    const result = checkCodexInput('Stop', codexPayload('Stop.stop_hook_active'));
    expect(result.ok && Object.keys(result.input).sort()).toEqual(['cwd', 'hook_event_name', 'last_assistant_message', 'session_id', 'stop_hook_active', 'transcript_path']);
  });

  it('turns a null transcript_path (a session with no rollout) into an absent one', () => {
    const result = checkCodexInput('SessionEnd', codexPayload('SessionEnd.other', { transcript_path: null }));
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && 'transcript_path' in result.input).toBe(false);
  });

  it('keeps the model SessionStart names, for the budget', () => {
    const result = checkCodexInput('SessionStart', codexPayload('SessionStart.compact'));
    expect(result.ok && result.input.model).toBe('gpt-5.5');
  });

  it.each([
    ['Stop', 'Stop', { session_id: 7 }, 'session_id'],
    ['Stop', 'Stop', { session_id: undefined }, 'session_id'],
    ['SessionStart', 'SessionStart.clear', { source: null }, 'source'],
    ['Stop', 'Stop', { stop_hook_active: 'true' }, 'stop_hook_active'],
    ['UserPromptSubmit', 'UserPromptSubmit', { prompt: ['x'] }, 'prompt'],
    ['PreCompact', 'PreCompact.auto', { transcript_path: 3 }, 'transcript_path'],
    ['SessionEnd', 'SessionEnd.other', { session_id: '' }, 'session_id'],
  ] as const)('rejects a %s payload whose field has the wrong type (%s %j)', (event, name, override, field) => {
    expect(checkCodexInput(event, codexPayload(name, override))).toMatchObject({ ok: false, field });
  });
});

describe('codexIgnores', () => {
  it("ignores a sub-agent's prompt, which carries its parent's session and rollout", () => {
    expect(codexIgnores(codexPayload('UserPromptSubmit.subagent'))).toMatch(/sub-agent/);
  });

  it("takes the main session's own payloads", () => {
    expect(codexIgnores(codexPayload('UserPromptSubmit'))).toBeNull();
    expect(codexIgnores(codexPayload('PreCompact.auto'))).toBeNull();
  });
});
