import { redactDeep } from '../../lib/redact/redact-deep';
import { redactSecrets } from '../../lib/redact/redact-secrets';
import { mustNotSurvive, secretShapes } from './secret-shapes';

// Each shape of the second corpus on its own, through both entry points: no whole secret and no
// middle slice of one survives. test/hardening/secrets-through-hooks.test.ts runs the same
// corpus through the built Stop and PreCompact hooks into a repository.
const shapes = secretShapes(16);

describe('the second secrets corpus', () => {
  it('has at least 80 shapes, each named once', () => {
    expect(shapes.length).toBeGreaterThanOrEqual(80);
    expect(new Set(shapes.map((s) => s.shape)).size).toBe(shapes.length);
  });

  it.each(shapes.map((s) => [s.shape, s] as const))('redacts %s', (_shape, s) => {
    const text = redactSecrets(s.context).text;
    expect(mustNotSurvive(s.value).filter((part) => text.includes(part))).toEqual([]);
    expect(text).toContain('[REDACTED:');
  });

  it.each(shapes.map((s) => [s.shape, s] as const))('redacts %s inside a transcript record', (_shape, s) => {
    const record = { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: `$ run\n${s.context}\n` }] } };
    const text = JSON.stringify(redactDeep(record).value);
    expect(mustNotSurvive(s.value).filter((part) => text.includes(part) || text.includes(JSON.stringify(part).slice(1, -1)))).toEqual([]);
  });
});
