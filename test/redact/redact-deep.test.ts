import { redactDeep } from '../../lib/redact/redact-deep';
import { generateEnvFile, generateSecrets, secretCore } from './secret-corpus';

describe('redactDeep', () => {
  it('redacts secrets in every string of nested objects and arrays', () => {
    const secrets = generateSecrets(42);
    const input = { a: [{ b: secrets.map((s) => s.context) }], c: { d: { e: secrets.map((s) => s.context).join('\n') } } };
    const { value, findings } = redactDeep(input);
    const out = JSON.stringify(value);
    for (const s of secrets) expect(out).not.toContain(secretCore(s.value));
    expect(findings.length).toBeGreaterThan(10);
  });

  it('replaces a string or number under a secret-named key whole', () => {
    const { value, findings } = redactDeep({ user: 'ann', password: 'hunter2', pin: 1234, apiKey: 9876543210, nested: { client_secret: 'abc def' } });
    expect(value).toEqual({
      user: 'ann',
      password: '[REDACTED:secret-assignment]',
      pin: 1234,
      apiKey: '[REDACTED:secret-assignment]',
      nested: { client_secret: '[REDACTED:secret-assignment]' },
    });
    expect(findings).toEqual([{ kind: 'secret-assignment', count: 3 }]);
  });

  it('names the provider kind when a secret-named field holds a known token', () => {
    const { value, findings } = redactDeep({ token: `ghp_${'Q7'.repeat(18)}` });
    expect(value).toEqual({ token: '[REDACTED:github-token]' });
    expect(findings).toEqual([{ kind: 'github-token', count: 1 }]);
  });

  it('keeps placeholders, empty strings, booleans and nulls under secret-named keys', () => {
    const input = { password: '', token: '${TOKEN}', auth: true, secret: null, api_key: '********' };
    expect(redactDeep(input)).toEqual({ value: input, findings: [] });
  });

  it('redacts every value of a string that is a whole .env file', () => {
    const { text, secrets } = generateEnvFile(3);
    const { value } = redactDeep({ toolUseResult: { file: { content: text } } });
    for (const s of secrets) expect(JSON.stringify(value)).not.toContain(s);
  });

  it('does not modify its input', () => {
    const input = { message: { content: [{ type: 'text', text: 'password=hunter22' }] } };
    const before = JSON.stringify(input);
    redactDeep(input);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('keeps a cycle as a cycle in the copy', () => {
    const input: Record<string, unknown> = { text: 'token=abc123xyz' };
    input.self = input;
    const { value } = redactDeep(input);
    expect(value.self).toBe(value);
    expect(value.text).toBe('token=[REDACTED:secret-assignment]');
  });

  it('returns non-plain objects and primitives as they are', () => {
    const date = new Date(0);
    expect(redactDeep({ at: date, n: 3, ok: false }).value).toEqual({ at: date, n: 3, ok: false });
    expect(redactDeep('password=hunter22').value).toBe('password=[REDACTED:secret-assignment]');
  });
});

describe('redactDeep on keys', () => {
  it('redacts a secret that is a key of a map (a command keyed to its failure)', () => {
    const token = `ghp_${'Ab1'.repeat(12)}`;
    const out = redactDeep({ openFailures: { [`Bash:curl -H "Authorization: token ${token}" x`]: 'Exit code 22' } }).value;
    expect(JSON.stringify(out)).not.toContain(token);
    expect(Object.values(out.openFailures)).toEqual(['Exit code 22']);
  });
});
