import type { HookAnswer } from '../../../lib/hosts/hook-answer';
import { renderCodexOutput } from '../../../lib/hosts/codex/hook-output';
import { HOOK_EVENT_NAMES } from '../../../lib/hosts/host';
import { hasOutputSchema, schemaErrors } from './codex-fixtures';

const EVERYTHING: HookAnswer = { additionalContext: 'CTX', systemMessage: 'capsule: note', plainText: 'Keep this line', block: { reason: 'write your capsule' } };
const ANSWERS: Array<[string, HookAnswer]> = [
  ['everything at once', EVERYTHING],
  ['context only', { additionalContext: 'CTX' }],
  ['a fail-open line', { systemMessage: 'capsule: Stop hook skipped [HOOK_TIMEOUT]' }],
  ['a block', { block: { reason: 'write your capsule' } }],
  ['plain text', { plainText: 'Keep this line' }],
];

describe('renderCodexOutput', () => {
  const cases = HOOK_EVENT_NAMES.filter(hasOutputSchema).flatMap((event) => ANSWERS.map(([what, answer]) => [event, what, answer] as const));

  it.each(cases)('renders %s with %s as JSON its shipped output schema accepts', (event, _what, answer) => {
    const out = renderCodexOutput(event, answer);
    if (out === '') return;
    expect(out.endsWith('\n')).toBe(true);
    expect(schemaErrors(event, 'output', JSON.parse(out))).toBeNull();
  });

  it('carries context on SessionStart and UserPromptSubmit', () => {
    for (const event of ['SessionStart', 'UserPromptSubmit'] as const) {
      expect(JSON.parse(renderCodexOutput(event, { additionalContext: 'CTX' }))).toEqual({ hookSpecificOutput: { hookEventName: event, additionalContext: 'CTX' } });
    }
  });

  it('carries a block on Stop only', () => {
    expect(JSON.parse(renderCodexOutput('Stop', EVERYTHING))).toEqual({ decision: 'block', reason: 'write your capsule', systemMessage: 'capsule: note' });
    expect(renderCodexOutput('UserPromptSubmit', { block: { reason: 'x' } })).toBe('');
  });

  it('prints nothing on SessionEnd, which has no output schema', () => {
    expect(hasOutputSchema('SessionEnd')).toBe(false);
    expect(renderCodexOutput('SessionEnd', EVERYTHING)).toBe('');
  });

  it("drops PreCompact's summary line, which Codex never passes to the summariser", () => {
    expect(renderCodexOutput('PreCompact', { plainText: 'Keep this line' })).toBe('');
  });

  it('says nothing for no answer', () => {
    expect(renderCodexOutput('Stop', undefined)).toBe('');
  });
});
