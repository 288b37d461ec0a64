import { renderCopilotOutput } from '../../../lib/hosts/copilot/hook-output';

describe('renderCopilotOutput', () => {
  it('answers sessionStart and userPromptSubmitted with a top-level additionalContext', () => {
    expect(JSON.parse(renderCopilotOutput('SessionStart', { additionalContext: 'ctx' }))).toEqual({ additionalContext: 'ctx' });
    expect(JSON.parse(renderCopilotOutput('UserPromptSubmit', { additionalContext: 'ctx' }))).toEqual({ additionalContext: 'ctx' });
  });

  it('blocks agentStop with decision and reason', () => {
    expect(JSON.parse(renderCopilotOutput('Stop', { block: { reason: 'why' } }))).toEqual({ decision: 'block', reason: 'why' });
  });

  it('prints nothing Copilot has no field for (a user-facing line, context at agentStop or preCompact)', () => {
    expect(renderCopilotOutput('Stop', { systemMessage: 'hi', additionalContext: 'x' })).toBe('');
    expect(renderCopilotOutput('PreCompact', { plainText: 'line', additionalContext: 'x' })).toBe('');
    expect(renderCopilotOutput('SessionEnd', undefined)).toBe('');
  });
});
