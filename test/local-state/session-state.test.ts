import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { readSessionState, sessionStatePath, writeSessionState } from '../../lib/local-state/session-state';

describe('sessionStatePath', () => {
  it('keeps a plain session id as the file name and hashes anything else', () => {
    expect(basename(sessionStatePath('/r', 'be432d9d-65be'))).toBe('be432d9d-65be.json');
    expect(basename(sessionStatePath('/r', '../../etc/passwd'))).toMatch(/^[0-9a-f]{40}\.json$/);
    expect(dirname(sessionStatePath('/r', '../x'))).toBe('/r/sessions');
  });
});

describe('readSessionState', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'capsule-state-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips what writeSessionState wrote', () => {
    writeSessionState(dir, 's1', { autosaveId: 'A', cursor: { bytes: 3, lines: 1, head: 'h', headLength: 3 } });
    expect(readSessionState(dir, 's1')).toEqual({ autosaveId: 'A', cursor: { bytes: 3, lines: 1, head: 'h', headLength: 3 } });
  });

  it('reads a missing or corrupt state as empty', () => {
    expect(readSessionState(dir, 'nobody')).toEqual({});
    mkdirSync(join(dir, 'sessions'), { recursive: true });
    writeFileSync(sessionStatePath(dir, 's2'), '{not json');
    expect(readSessionState(dir, 's2')).toEqual({});
  });
});

describe('writeSessionState, a state that did not change', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'capsule-state-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const state = { autosaveId: 'A', cursor: { bytes: 3, lines: 1, head: 'h', headLength: 3 } };

  it('leaves a file that already holds the same text as it is (no temp file, no rename)', () => {
    writeSessionState(dir, 's1', state);
    const before = statSync(sessionStatePath(dir, 's1')).ino;
    writeSessionState(dir, 's1', { ...state });
    expect(statSync(sessionStatePath(dir, 's1')).ino).toBe(before);
    writeSessionState(dir, 's1', { ...state, autosaveId: 'B' });
    expect(statSync(sessionStatePath(dir, 's1')).ino).not.toBe(before);
    expect(readSessionState(dir, 's1').autosaveId).toBe('B');
  });

  it('rewrites a same-text file that others can read, so it becomes private', () => {
    writeSessionState(dir, 's1', state);
    chmodSync(sessionStatePath(dir, 's1'), 0o644);
    writeSessionState(dir, 's1', state);
    expect(statSync(sessionStatePath(dir, 's1')).mode & 0o777).toBe(0o600);
  });
});
