import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '../../lib/local-state/private-file';
import { resolveStateDir } from '../../lib/local-state/state-dir';
import { forgetTrustedDirs, trustStateDir } from '../../lib/local-state/state-dir-trust';
import { tempDir } from '../support/temp-dirs';

// Issue 36, section 3: the runtime state dir is checked the way ssh checks ~/.ssh, on every
// folder of its real path, not only its last component. These tests run as root here, so
// "another user" is nobody (uid 65534): root can hand a folder to it with chown, and the checks
// then see exactly what they would see on a machine where someone else made that folder.
const NOBODY = 65534;
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const describeAsOwner = typeof process.getuid === 'function' ? describe : describe.skip;
const itAsRoot = asRoot ? it : it.skip;

let root: string;
beforeEach(() => {
  root = tempDir('capsule-trust-');
  forgetTrustedDirs();
});

const mode = (path: string) => statSync(path).mode & 0o7777;
/** A folder another user owns, open to everyone (0777), as a shared /tmp folder would be. */
function foreignOpenDir(path: string): string {
  mkdirSync(path, { recursive: true });
  chmodSync(path, 0o777);
  chownSync(path, NOBODY, NOBODY);
  return path;
}
/** A repository's common dir (`.git`), 0755 and ours. */
function commonDir(): string {
  const dir = join(root, 'repo', '.git');
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  return dir;
}

describeAsOwner('the runtime state dir, checked like ~/.ssh', () => {
  itAsRoot('never writes through a .git/capsule link to a 0777 folder another user owns', () => {
    const target = foreignOpenDir(join(root, 'shared'));
    const common = commonDir();
    symlinkSync(target, join(common, 'capsule'));
    const state = resolveStateDir({ env: {}, commonDir: common })!;

    expect(() => writePrivateFile(join(state, 'sessions', 's.json'), '{}')).toThrow(expect.objectContaining({ code: 'STATE_FILE_UNSAFE', data: { path: state } }));
    expect(readdirSync(target)).toEqual([]);
  });

  itAsRoot('refuses a state dir another user owns (STATE_DIR_UNSAFE), writing nothing in it', () => {
    const state = foreignOpenDir(join(commonDir(), 'capsule'));
    expect(() => writePrivateFile(join(resolveStateDir({ env: {}, commonDir: join(root, 'repo', '.git') })!, 'a.json'), '{}')).toThrow(expect.objectContaining({ code: 'STATE_DIR_UNSAFE' }));
    expect(readdirSync(state)).toEqual([]);
  });

  itAsRoot('refuses a state dir below a folder another user owns, found through a link on the way (its real path is checked)', () => {
    const shared = foreignOpenDir(join(root, 'shared'));
    chmodSync(shared, 0o755);
    symlinkSync(shared, join(root, 'via'));
    const state = resolveStateDir({ env: { CAPSULE_STATE_DIR: join(root, 'via', 'state') }, commonDir: null })!;
    expect(() => writePrivateFile(join(state, 'a.json'), '{}')).toThrow(expect.objectContaining({ code: 'STATE_DIR_UNSAFE', data: expect.objectContaining({ path: shared }) }));
    expect(existsSync(join(shared, 'state'))).toBe(false);
  });

  it('refuses a state dir below a folder others can write (no sticky bit), and accepts one below a sticky folder like /tmp', () => {
    const open = join(root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(() => trustStateDir(join(open, 'state'))).toThrow(expect.objectContaining({ code: 'STATE_DIR_UNSAFE', data: expect.objectContaining({ path: open }) }));
    expect(existsSync(join(open, 'state'))).toBe(false);
    chmodSync(open, 0o1777);
    forgetTrustedDirs();
    trustStateDir(join(open, 'state'));
    expect(mode(join(open, 'state'))).toBe(0o700);
  });

  itAsRoot('refuses a state dir below a folder writable by a group that is not ours, and accepts our own group (umask 002)', () => {
    const group = join(root, 'group');
    mkdirSync(group);
    chmodSync(group, 0o775);
    chownSync(group, process.getuid!(), NOBODY);
    expect(() => trustStateDir(join(group, 'state'))).toThrow(expect.objectContaining({ code: 'STATE_DIR_UNSAFE', data: expect.objectContaining({ path: group }) }));
    chownSync(group, process.getuid!(), process.getgid!());
    forgetTrustedDirs();
    trustStateDir(join(group, 'state'));
    expect(mode(join(group, 'state'))).toBe(0o700);
  });

  it('narrows a state dir and its folders created 0777 beforehand to 0700', () => {
    const state = join(commonDir(), 'capsule');
    mkdirSync(join(state, 'sessions'), { recursive: true });
    chmodSync(state, 0o777);
    chmodSync(join(state, 'sessions'), 0o777);
    writePrivateFile(join(resolveStateDir({ env: {}, commonDir: join(root, 'repo', '.git') })!, 'sessions', 's.json'), '{}');
    expect(mode(state)).toBe(0o700);
    expect(mode(join(state, 'sessions'))).toBe(0o700);
    expect(mode(join(state, 'sessions', 's.json'))).toBe(0o600);
  });

  it('refuses a link anywhere between the state dir and the file, not only the last folder', () => {
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(join(elsewhere, 'deeper'), { recursive: true, mode: 0o700 });
    const state = resolveStateDir({ env: {}, commonDir: commonDir() })!;
    mkdirSync(state, { mode: 0o700 });
    symlinkSync(elsewhere, join(state, 'sessions'));
    expect(() => writePrivateFile(join(state, 'sessions', 'deeper', 's.json'), '{}')).toThrow(expect.objectContaining({ code: 'STATE_FILE_UNSAFE', data: { path: join(state, 'sessions') } }));
    expect(readdirSync(join(elsewhere, 'deeper'))).toEqual([]);
  });
});
