import { parseCreatedAt, utcSortKey } from '../../lib/capsule/created-at';

describe('parseCreatedAt', () => {
  it.each([
    ['2026-12-02T04:58:02+00:00', Date.UTC(2026, 11, 2, 4, 58, 2)],
    ['2026-12-02 05:58:02.5+0100', Date.UTC(2026, 11, 2, 4, 58, 2, 500)],
    ['2026-12-02t04:58z', Date.UTC(2026, 11, 2, 4, 58)],
  ])('reads %s as its instant', (value, epochMs) => {
    expect(parseCreatedAt(value)).toEqual({ ok: true, epochMs });
  });

  it.each([
    ['2026-12-02', 'CREATED_AT_DATE_ONLY'],
    ['2026-12-02T04:58:02', 'CREATED_AT_NO_OFFSET'],
    ['2026-02-30T04:58:02Z', 'CREATED_AT_INVALID'],
    ['yesterday', 'CREATED_AT_INVALID'],
  ])('names the problem of %s (%s)', (value, code) => {
    const result = parseCreatedAt(value);
    expect(result.ok ? null : result.problem.code).toBe(code);
  });

  it('answers the same stamp asked again with the same result, a fresh copy each time', () => {
    const first = parseCreatedAt('2026-12-02');
    if (first.ok) throw new Error('a date-only stamp parsed');
    first.problem.code = 'CHANGED';
    const again = parseCreatedAt('2026-12-02');
    expect(again).toEqual({ ok: false, problem: expect.objectContaining({ code: 'CREATED_AT_DATE_ONLY', field: 'created_at' }) });
    expect(again).not.toBe(first);
  });

  it('names the field it was asked about, even for the stamp it just read under another name', () => {
    parseCreatedAt('2026-12-02');
    const result = parseCreatedAt('2026-12-02', 'updated_at');
    expect(result.ok ? null : [result.problem.field, result.problem.message.startsWith('updated_at')]).toEqual(['updated_at', true]);
  });

  it('reads a value that is no string every time', () => {
    expect(parseCreatedAt(null)).toEqual({ ok: false, problem: expect.objectContaining({ code: 'CREATED_AT_INVALID' }) });
    expect(parseCreatedAt(['2026-12-02T04:58:02Z'])).toEqual({ ok: false, problem: expect.objectContaining({ code: 'CREATED_AT_INVALID', message: expect.stringContaining('a list') }) });
  });
});

describe('utcSortKey', () => {
  it.each([
    [Date.UTC(2026, 11, 2, 4, 58, 2, 7), '20261202T045802007Z'],
    [Date.UTC(1970, 0, 1), '19700101T000000000Z'],
    [Date.UTC(9999, 11, 31, 23, 59, 59, 999), '99991231T235959999Z'],
    [Date.UTC(10000, 0, 1), '+0100000101T000000000Z'],
    [Date.UTC(-1, 0, 1), '0000010101T000000000Z'],
  ])('keys the instant %d as %s', (epochMs, key) => {
    expect(utcSortKey(epochMs)).toBe(key);
  });
});
