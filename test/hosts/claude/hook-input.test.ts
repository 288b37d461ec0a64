import { checkHookInput } from '../../../lib/hosts/claude/hook-input';
import { payload } from '../../hooks/hook-fixtures';

describe('checkHookInput', () => {
  it.each(['SessionStart', 'Stop', 'PreCompact', 'UserPromptSubmit', 'SessionEnd'] as const)('accepts the real %s payload', (event) => {
    expect(checkHookInput(event, payload(event)).ok).toBe(true);
  });

  it.each([
    ['SessionStart', { source: 3 }, 'source'],
    ['Stop', { session_id: { toString: 'x' } }, 'session_id'],
    ['PreCompact', { session_id: '' }, 'session_id'],
    ['Stop', { last_assistant_message: ['done'] }, 'last_assistant_message'],
    ['Stop', { stop_hook_active: 'false' }, 'stop_hook_active'],
    ['PreCompact', { trigger: null }, 'trigger'],
    ['UserPromptSubmit', { prompt: 42 }, 'prompt'],
    ['SessionEnd', { cwd: 7 }, 'cwd'],
    ['Stop', { transcript_path: false }, 'transcript_path'],
  ] as const)('rejects a %s payload whose field has the wrong type (%j)', (event, override, field) => {
    const result = checkHookInput(event, payload(event, override));
    expect(result).toMatchObject({ ok: false, field });
  });

  it.each([null, [], 'text', 3])('rejects a payload that is not an object (%j)', (raw) => {
    expect(checkHookInput('Stop', raw)).toMatchObject({ ok: false, field: '(payload)' });
  });

  it('accepts a null last_assistant_message and custom_instructions', () => {
    expect(checkHookInput('Stop', payload('Stop', { last_assistant_message: null })).ok).toBe(true);
    expect(checkHookInput('PreCompact', payload('PreCompact', { custom_instructions: null })).ok).toBe(true);
  });
});
