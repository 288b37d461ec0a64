import { slimRecord, SLIM_STRING_CHARS } from '../../lib/transcript/slim-record';

describe('slimRecord', () => {
  it('cuts every long string to its start and leaves short ones and other values alone', () => {
    const data = { type: 'user', n: 3, ok: true, none: null, message: { content: [{ type: 'tool_result', content: 'y'.repeat(SLIM_STRING_CHARS + 10) }] } };
    const slim = slimRecord({ line: 7, data });
    expect(slim.line).toBe(7);
    expect(slim.data).toEqual({ ...data, message: { content: [{ type: 'tool_result', content: 'y'.repeat(SLIM_STRING_CHARS) }] } });
    expect((data.message.content[0]!.content as string).length).toBe(SLIM_STRING_CHARS + 10);
  });

  it('keeps a "__proto__" key as data, never as a prototype', () => {
    const data = JSON.parse('{"type":"user","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const slim = slimRecord({ line: 1, data });
    expect(Object.getPrototypeOf(slim.data)).toBe(Object.prototype);
    expect(Object.keys(slim.data)).toContain('__proto__');
    expect((slim.data as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('does not walk a pathologically deep value', () => {
    let deep: unknown = 'z'.repeat(SLIM_STRING_CHARS * 2);
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(() => slimRecord({ line: 1, data: { type: 'user', deep } })).not.toThrow();
  });
});
