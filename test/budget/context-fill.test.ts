import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contextFill } from '../../lib/budget/context-fill';
import { parseTranscriptChunk } from '../../lib/transcript/jsonl';

const SAMPLE = join(__dirname, '..', 'fixtures', 'transcript-sample.jsonl');

function assistant(usage: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { type: 'assistant', uuid: 'u-' + JSON.stringify(usage).length, isSidechain: false, message: { model: 'claude-opus-5-5', usage }, ...extra };
}

const USAGE = { input_tokens: 1000, cache_creation_input_tokens: 200, cache_read_input_tokens: 30, output_tokens: 999 };

describe('contextFill', () => {
  it('sums input, cache creation and cache read tokens of the last main-chain assistant record', () => {
    expect(contextFill([assistant({ input_tokens: 5 }), assistant(USAGE)])).toMatchObject({ tokens: 1230, model: 'claude-opus-5-5', source: 'usage' });
  });

  it('skips sidechain records', () => {
    expect(contextFill([assistant(USAGE), assistant({ input_tokens: 99_999 }, { isSidechain: true })])?.tokens).toBe(1230);
  });

  it('skips <synthetic> records, which report zero usage after an API error', () => {
    const synthetic = { type: 'assistant', isApiErrorMessage: true, message: { model: '<synthetic>', usage: { input_tokens: 0 } } };
    expect(contextFill([assistant(USAGE), synthetic])?.tokens).toBe(1230);
  });

  it('skips a <synthetic> record that is not flagged as an API error', () => {
    const synthetic = { type: 'assistant', message: { model: '<synthetic>', usage: { input_tokens: 0 } } };
    expect(contextFill([assistant(USAGE), synthetic])?.tokens).toBe(1230);
  });

  it('skips a record flagged isApiErrorMessage even when its model looks real', () => {
    const failed = { type: 'assistant', isApiErrorMessage: true, message: { model: 'claude-opus-5-5', usage: { input_tokens: 0 } } };
    expect(contextFill([assistant(USAGE), failed])?.tokens).toBe(1230);
  });

  it('skips records of other types after the last assistant record', () => {
    expect(contextFill([assistant(USAGE), { type: 'user', message: { content: 'hi' } }, { type: 'attachment' }])?.tokens).toBe(1230);
  });

  it('reads postTokens of a compact boundary that follows the last assistant record', () => {
    const boundary = { type: 'system', subtype: 'compact_boundary', uuid: 'b1', compactMetadata: { preTokens: 1230, postTokens: 300 } };
    expect(contextFill([assistant(USAGE), boundary])).toEqual({ tokens: 300, model: null, source: 'compact_boundary', uuid: 'b1' });
  });

  it('returns null after a compact boundary without a usable postTokens', () => {
    const boundary = { type: 'system', subtype: 'compact_boundary', compactMetadata: { postTokens: 'many' } };
    expect(contextFill([assistant(USAGE), boundary])).toBeNull();
  });

  it('prefers requestedModel when it carries the [1m] tag', () => {
    expect(contextFill([assistant(USAGE, { requestedModel: 'claude-sonnet-4-6[1m]' })])?.model).toBe('claude-sonnet-4-6[1m]');
  });

  it.each([
    ['a missing usage', { type: 'assistant', message: { model: 'm' } }],
    ['a string input_tokens', assistant({ input_tokens: '5' })],
    ['a negative input_tokens', assistant({ input_tokens: -1 })],
    ['a message that is not an object', { type: 'assistant', message: 'x' }],
    ['a record that is not an object', 'assistant'],
    ['null', null],
  ])('ignores %s', (_name, bad) => {
    expect(contextFill([assistant(USAGE), bad])?.tokens).toBe(1230);
  });

  it('counts a missing cache field as zero', () => {
    expect(contextFill([assistant({ input_tokens: 7, cache_read_input_tokens: null })])?.tokens).toBe(7);
  });

  it('returns null when no record has usage', () => {
    expect(contextFill([{ type: 'user' }])).toBeNull();
    expect(contextFill([])).toBeNull();
  });

  it('reads the real client transcript: the last real usage, past the trailing <synthetic> error record', () => {
    const records = parseTranscriptChunk(readFileSync(SAMPLE, 'utf8')).records.map((r) => r.data);
    expect(contextFill(records)).toEqual({ tokens: 13_176, model: 'claude-opus-5-5', source: 'usage', uuid: '5a479442-0c5c-49fa-ae8c-48119da7a091' });
  });
});
