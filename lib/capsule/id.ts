const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Matches a ULID (26 Crockford base-32 characters, time first). */
export const ULID_PATTERN = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

/** Matches a UUIDv7 (also time-sortable), accepted for capsules written by other tools. */
export const UUID_V7_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * A new capsule id: a ULID, so ids sort by creation time and carry 80 random bits.
 *
 * @example newCapsuleId(now) // '01JDQ6Z8W1N9V3C5Q7R2T4Y6XA'
 */
export function newCapsuleId(now: Date, random: (n: number) => Buffer = cryptoRandomBytes): string {
  let time = now.getTime();
  let timePart = '';
  for (let i = 0; i < 10; i += 1) {
    timePart = CROCKFORD[time % 32] + timePart;
    time = Math.floor(time / 32);
  }
  const bytes = random(10);
  let bits = 0;
  let value = 0;
  let randomPart = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      randomPart += CROCKFORD[(value >> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return timePart + randomPart;
}

function cryptoRandomBytes(n: number): Buffer {
  // Loaded on first use: node:crypto costs ~5 ms, and most bundles that carry this never mint an id.
  // A lazy require: this module must not load at start.
  return (require('node:crypto') as typeof import('node:crypto')).randomBytes(n);
}

/** True for a ULID or UUIDv7, the two id shapes a capsule may carry. */
export function isCapsuleId(value: unknown): value is string {
  return typeof value === 'string' && (ULID_PATTERN.test(value) || UUID_V7_PATTERN.test(value));
}
