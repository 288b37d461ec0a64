import { randomBytes } from 'node:crypto';

// The run-time values a scenario may name (see Scenario.setup): `{{ulid:NAME:MINUTES_AGO}}`, the
// same ULID for the same NAME within one run, and `{{iso:MINUTES_AGO}}`, an ISO-8601 time with offset.

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID whose time part is `ms` (48 bits, 10 characters) followed by 80 random bits (16 characters). */
export function ulidAt(ms: number): string {
  let time = '';
  for (let t = ms, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32]! + time;
  const bytes = randomBytes(10);
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let rand = '';
  for (let i = 0; i < 16; i++, bits >>= 5n) rand = CROCKFORD[Number(bits & 31n)]! + rand;
  return time + rand;
}

/** `2026-12-06T03:15:18+00:00`: an ISO-8601 time in UTC, with the offset written out. */
export function isoAt(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
}

/** Replaces every `{{ulid:…}}` and `{{iso:…}}` in the value's strings (other `{{…}}`, the fake API's `{{cwd}}`, stay). */
export function expandVars<T>(value: T, now = Date.now()): T {
  const ulids = new Map<string, string>();
  const text = JSON.stringify(value).replace(/\{\{(ulid|iso):([A-Za-z0-9_-]*):?(\d*)\}\}/g, (_, kind: string, a: string, b: string) => {
    if (kind === 'iso') return isoAt(now - Number(a || 0) * 60_000);
    if (!ulids.has(a)) ulids.set(a, ulidAt(now - Number(b || 0) * 60_000));
    return ulids.get(a)!;
  });
  return JSON.parse(text) as T;
}
