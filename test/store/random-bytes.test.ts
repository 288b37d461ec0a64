import { randomBytesForId } from '../../lib/store/random-bytes';

describe('randomBytesForId', () => {
  it('returns the asked number of bytes, different on every call', () => {
    const a = randomBytesForId(10);
    const b = randomBytesForId(10);
    expect(a).toHaveLength(10);
    expect(b).toHaveLength(10);
    expect(a.toString('hex')).not.toBe(b.toString('hex'));
  });
});
