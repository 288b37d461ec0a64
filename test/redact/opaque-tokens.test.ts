import { FindingTally } from '../../lib/redact/finding-tally';
import { isOpaqueToken, maskOpaqueTokens } from '../../lib/redact/opaque-tokens';
import { redactKeptText } from '../../lib/redact/redact-secrets';
import { allowListShapes, twelveRuns } from './allow-list-shapes';
import { secretShapes } from './secret-shapes';
import { generateSecrets } from './secret-corpus';

describe('isOpaqueToken', () => {
  it.each([
    'XMLHttpRequest', 'getElementById', 'test/hardening/secrets-every-channel.test.ts', 'ERR_MODULE_NOT_FOUND',
    '01JDQ6Z8W1N9V3C5Q7R2T4Y6XA', '5b1f4c2e-7d3a-4e8b-9c0d-1e2f3a4b5c6d', '6e1d88dc9e340e73feff6f308d433ab3f01043ff',
    '2026-11-29T21', 'sha256-integrity', 'python3-venv-x86_64', 'node20-linux-x64', 'git-remote-https', 'v1beta1.Deployment',
  ])('keeps %s', (token) => {
    expect(isOpaqueToken(token)).toBe(false);
  });

  it.each(['Gojk10!BR5myiK', 'kXqPzLmWbRtYvN', 'E12CM8S6GU2303GMXJ0B', 'Lz9kH3eOZSXV4vTiawxi', 'vMNFWH;fYWIavr', 'VHltYzMyXjVNeDFE'])('masks %s', (token) => {
    expect(isOpaqueToken(token)).toBe(true);
  });

  it('keeps a name the repository vouches for', () => {
    expect(isOpaqueToken('UserProfile2FAx', { known: new Set(['UserProfile2FAx']) })).toBe(false);
    expect(isOpaqueToken('UserProfile2FAx')).toBe(true);
  });
});

describe('maskOpaqueTokens', () => {
  it('masks a path segment, not the path', () => {
    expect(maskOpaqueTokens('cat /tmp/upload-olTI5KgIY8hPE2tm33wbRY.json', new FindingTally())).toBe('cat /tmp/[REDACTED:opaque-token]');
    expect(maskOpaqueTokens('see src/redact/opaque-tokens.ts.', new FindingTally())).toBe('see src/redact/opaque-tokens.ts.');
  });

  it('masks a password stated in a German sentence and keeps the words', () => {
    // The mask alone, and the kept text, where the German password word names it first.
    expect(maskOpaqueTokens('Das Passwort für den Server lautet Gojk10!BR5myiK, bitte nicht weitergeben.', new FindingTally())).toBe(
      'Das Passwort für den Server lautet [REDACTED:opaque-token], bitte nicht weitergeben.',
    );
    expect(redactKeptText('Das Passwort für den Server lautet Gojk10!BR5myiK, bitte nicht weitergeben.').text).toBe(
      'Das Passwort für den Server lautet [REDACTED:prose-secret], bitte nicht weitergeben.',
    );
  });
});

describe('redactKeptText over the three corpora', () => {
  const shapes = [...allowListShapes(36), ...secretShapes(1616), ...generateSecrets(1617).map((s) => ({ shape: s.kind, value: s.value, context: s.context }))];

  it('leaves no twelve-character run of any secret', () => {
    const left = shapes.filter((s) => twelveRuns(s.value).some((r) => redactKeptText(s.context).text.includes(r)));
    expect(left.map((s) => `${s.shape}: ${redactKeptText(s.context).text.slice(0, 120)}`)).toEqual([]);
  });

  it('has the third corpus leak through the deny-list alone (it is a test of the allow-list)', () => {
    const { redactSecrets } = jest.requireActual<typeof import('../../lib/redact/redact-secrets')>('../../lib/redact/redact-secrets');
    const left = allowListShapes(36).filter((s) => twelveRuns(s.value).some((r) => redactSecrets(s.context).text.includes(r)));
    expect(left.length).toBeGreaterThan(30);
  });
});
