import { compactSummaryBody } from '../../../lib/hosts/claude/compact-summary-body';

const WRAPPED = [
  'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.',
  '',
  '<system-reminder>',
  '<tools-used-before-summary>Bash, Write</tools-used-before-summary>',
  '</system-reminder>',
  'Summary:',
  'Fixed the cache test; next: wire the writer.',
  '',
  'If you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: /home/alice/.claude/projects/-home-alice-shop/0f3c.jsonl',
  '',
  'Continue the conversation from where it left off without asking the user any further questions.',
].join('\n');

describe('compactSummaryBody', () => {
  it("keeps the summariser's words and drops the client's preamble and the transcript pointer", () => {
    const body = compactSummaryBody(WRAPPED);
    expect(body).toContain('Fixed the cache test; next: wire the writer.');
    expect(body).not.toMatch(/This session is being continued|tools-used-before-summary|\/home\/alice|transcript at/);
  });

  it('returns a summary without the wrapper as it is', () => {
    expect(compactSummaryBody('Summary of the work: X.\nY.')).toBe('Summary of the work: X.\nY.');
  });

  it('keeps a "Summary:" line of a text the client did not wrap', () => {
    expect(compactSummaryBody('Notes\nSummary:\nA')).toBe('Notes\nSummary:\nA');
  });
});
