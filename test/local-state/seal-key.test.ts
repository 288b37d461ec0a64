import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSealKey, readSealKey } from '../../lib/local-state/seal-key';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seal-key-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const bytes = (n: number) => new Uint8Array(n).map((_, i) => i + 1);

describe('ensureSealKey', () => {
  it('makes the key once, 0600, and hands every later call the same one', () => {
    expect(readSealKey(dir)).toBeNull();
    const made = ensureSealKey(dir, bytes);
    expect(made.fresh).toBe(true);
    expect(made.key).toHaveLength(32);
    expect(statSync(join(dir, 'seal-key')).mode & 0o777).toBe(0o600);
    const again = ensureSealKey(dir, () => new Uint8Array(32));
    expect(again).toEqual({ key: made.key, fresh: false });
  });

  it('narrows a key file the group or others may read to 0600', () => {
    ensureSealKey(dir, bytes);
    chmodSync(join(dir, 'seal-key'), 0o644);
    readSealKey(dir);
    expect(statSync(join(dir, 'seal-key')).mode & 0o777).toBe(0o600);
  });

  it('refuses a damaged key file with SEAL_KEY_UNREADABLE', () => {
    writeFileSync(join(dir, 'seal-key'), 'not a key\n', { mode: 0o600 });
    expect(() => readSealKey(dir)).toThrow(expect.objectContaining({ code: 'SEAL_KEY_UNREADABLE' }));
  });
});
