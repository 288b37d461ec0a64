import { modelWindow } from '../../lib/budget/model-window';

describe('modelWindow', () => {
  it.each([
    ['claude-opus-5-5', 1_000_000, 'claude-opus-5-5', 'catalog'],
    ['claude-opus-5', 1_000_000, 'claude-opus-5', 'catalog'],
    ['claude-opus-5-20260301', 1_000_000, 'claude-opus-5', 'catalog'],
    ['claude-sonnet-4-5-20250929', 200_000, 'claude-sonnet-4-5', 'catalog'],
    ['claude-sonnet-4-6[1m]', 1_000_000, 'claude-sonnet-4-6', 'tag-1m'],
    ['CLAUDE-SONNET-4-6[1M]', 1_000_000, 'claude-sonnet-4-6', 'tag-1m'],
    ['us.anthropic.claude-sonnet-4-20250514-v1:0', 200_000, undefined, 'default'],
    ['claude-sonnet-4-0@20250514', 200_000, 'claude-sonnet-4-0', 'catalog'],
    ['claude-haiku-5-5', 1_000_000, 'claude-haiku-5-5', 'catalog'],
    ['gpt-something', 200_000, undefined, 'default'],
    ['claude-sonnet-5-7', 200_000, undefined, 'default'],
    ['claude-opus-4-15', 200_000, undefined, 'default'],
    ['', 200_000, undefined, 'default'],
  ] as const)('gives %s a %d-token window', (model, window, canonical, source) => {
    const result = modelWindow(model);
    expect(result).toMatchObject({ window, source });
    expect(result.canonical).toBe(canonical);
  });

  it('treats a non-string model as unknown', () => {
    expect(modelWindow(undefined)).toMatchObject({ window: 200_000, source: 'default' });
    expect(modelWindow(42 as unknown as string)).toMatchObject({ window: 200_000, source: 'default' });
  });

  it('reports the 8K output cap of the oldest models', () => {
    expect(modelWindow('claude-3-5-haiku-20241022').maxOutputTokens).toBe(8192);
  });
});
