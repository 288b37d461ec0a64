import { isCapsuleId, newCapsuleId, ULID_PATTERN } from '../../lib/capsule/id';

describe('newCapsuleId', () => {
  it('makes a ULID', () => {
    expect(newCapsuleId(new Date())).toMatch(ULID_PATTERN);
  });

  it('sorts by time', () => {
    const a = newCapsuleId(new Date('2026-01-01T00:00:00Z'));
    const b = newCapsuleId(new Date('2026-01-01T00:00:00.001Z'));
    expect(a < b).toBe(true);
  });

  it('encodes the time and the random bytes deterministically', () => {
    expect(newCapsuleId(new Date(0), () => Buffer.alloc(10, 0xff))).toBe(`0000000000${'Z'.repeat(16)}`);
  });

  it('differs between two ids of the same millisecond', () => {
    const now = new Date();
    expect(newCapsuleId(now)).not.toBe(newCapsuleId(now));
  });
});

describe('isCapsuleId', () => {
  it.each([
    ['01JDQ6Z8W1N9V3C5Q7R2T4Y6XA', true],
    ['0190f6d2-7a3b-7c4d-8e5f-0123456789ab', true],
    ['0190f6d2-7a3b-4c4d-8e5f-0123456789ab', false],
    ['../../etc', false],
    [42, false],
  ])('judges %p as %p', (value, expected) => {
    expect(isCapsuleId(value)).toBe(expected);
  });
});
