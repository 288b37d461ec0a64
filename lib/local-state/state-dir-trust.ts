import { chmodSync, existsSync, lstatSync, mkdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CapsuleError } from '../errors/capsule-error';

// The runtime state dir holds transcript cursors, autosave documents and error lines. Checking
// only its last component let a `.git/capsule` link to a 0777 folder another user owns take
// every write, and a folder created 0777 beforehand stayed 0777. So it is checked the way ssh
// checks ~/.ssh: on the folder's real path, every folder above it is owned by us or root and
// writable by no one else (the sticky bit excepted: /tmp lets no one rename our entries; and,
// unlike ssh, a folder writable by our own primary group: with umask 002 and a group per user,
// the default on Fedora and RHEL, every project folder is 0775 and that group holds only us); the
// state dir and every folder in it are ours, never links, and narrowed to 0700. Windows has no
// owner ids or mode bits to check: only the links are refused there.

const DIR_MODE = 0o700;
const STICKY = 0o1000;

/** Whose state this process keeps: its uid (null where the platform has none: Windows). */
export interface StateOwner {
  uid: number | null;
  /** Its primary group (null on Windows): a folder writable by this group only is accepted above the state dir. */
  gid: number | null;
}

/** This process's owner. */
export function currentOwner(): StateOwner {
  return { uid: typeof process.getuid === 'function' ? process.getuid() : null, gid: typeof process.getgid === 'function' ? process.getgid() : null };
}

// State roots the resolver handed out (lib/local-state/state-dir.ts), and folders checked in this process.
const knownRoots = new Set<string>();
const trusted = new Set<string>();

/** Records a state root the resolver handed out, so a write below it checks every folder from it down. */
export function noteStateRoot(root: string): void {
  knownRoots.add(resolve(root));
}

/** The state root `dir` lies in (the longest one known), or `dir` itself when none is known. */
export function stateRootOf(dir: string): string {
  const abs = resolve(dir);
  let best: string | null = null;
  for (const root of knownRoots) {
    const rel = relative(root, abs);
    const inside = rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
    if (inside && (best === null || root.length > best.length)) best = root;
  }
  return best ?? abs;
}

/**
 * Creates the state dir `root` if missing (0700) and checks it and every folder above it (see
 * the file's comment); narrows it to 0700 when it is ours and wider. Checked once per process.
 * Throws STATE_DIR_UNSAFE (an owner or a mode), STATE_FILE_UNSAFE (a link or not a folder).
 */
export function trustStateDir(root: string, owner: StateOwner = currentOwner()): void {
  const abs = resolve(root);
  if (trusted.has(abs)) return;
  checkAncestors(dirname(abs), owner);
  try {
    mkdirSync(abs, { mode: DIR_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  checkOwn(abs, owner);
  trusted.add(abs);
}

/**
 * Creates `dir` (inside a state root, see stateRootOf) one folder at a time, checking the root
 * and every folder from it down as ours (never a link, owned by us, narrowed to 0700). Throws
 * STATE_DIR_UNSAFE, STATE_FILE_UNSAFE.
 */
export function ensureOwnDir(dir: string, owner: StateOwner = currentOwner()): void {
  const abs = resolve(dir);
  if (trusted.has(abs)) return;
  const root = stateRootOf(abs);
  trustStateDir(root, owner);
  let at = root;
  for (const part of relative(root, abs).split(sep).filter(Boolean)) {
    at = join(at, part);
    if (trusted.has(at)) continue;
    try {
      mkdirSync(at, { mode: DIR_MODE });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    checkOwn(at, owner);
    trusted.add(at);
  }
}

/** Forgets what this process checked (tests change owners and modes between writes). */
export function forgetTrustedDirs(): void {
  trusted.clear();
}

/** A folder of ours: not a link, a folder, owned by us; narrowed to 0700 when wider. */
function checkOwn(path: string, owner: StateOwner): void {
  const stat = lstatSync(path);
  // A link or a non-folder keeps the code it always had (private-file.ts): STATE_FILE_UNSAFE.
  if (stat.isSymbolicLink() || !stat.isDirectory()) {
    const what = stat.isSymbolicLink() ? 'a symbolic link' : 'not a folder';
    throw new CapsuleError('STATE_FILE_UNSAFE', `refusing to use ${path}: it is ${what}, where git-capsule keeps its own runtime state; remove it (git-capsule recreates it) or point CAPSULE_STATE_DIR elsewhere`, { path });
  }
  if (owner.uid === null) return;
  if (stat.uid !== owner.uid) throw unsafe(path, `is owned by uid ${stat.uid}, not by this user (uid ${owner.uid})`, 'remove it (git-capsule recreates the folder)');
  if ((stat.mode & 0o077) !== 0) chmodSync(path, DIR_MODE);
}

/** Every folder on the real path of `dir` (created when missing; links above the state dir resolved, as ssh does): owned by us or root, and not writable by others unless sticky. */
function checkAncestors(dir: string, owner: StateOwner): void {
  if (owner.uid === null) return;
  // A missing parent (of a CAPSULE_STATE_DIR): the nearest existing folder is checked, then the rest created ours (0700).
  let existing = dir;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  for (let at = realpathSync.native(existing); ; at = dirname(at)) {
    checkAncestor(at, statSync(at), owner);
    if (dirname(at) === at) break;
  }
  if (existing !== dir) mkdirSync(dir, { recursive: true, mode: DIR_MODE });
}

function checkAncestor(path: string, stat: Stats, owner: StateOwner): void {
  if (stat.uid !== owner.uid && stat.uid !== 0) throw unsafe(path, `is owned by uid ${stat.uid}, neither this user (uid ${owner.uid}) nor root`, 'move the repository, or set CAPSULE_STATE_DIR to a private folder');
  const othersWrite = (stat.mode & 0o002) !== 0 || ((stat.mode & 0o020) !== 0 && stat.gid !== owner.gid);
  if (othersWrite && (stat.mode & STICKY) === 0) throw unsafe(path, `is writable by ${(stat.mode & 0o002) !== 0 ? 'every user' : `its group (gid ${stat.gid})`} (mode ${(stat.mode & 0o7777).toString(8)})`, `chmod go-w ${path}, or set CAPSULE_STATE_DIR to a private folder`);
}

function unsafe(path: string, what: string, fix: string): CapsuleError {
  return new CapsuleError('STATE_DIR_UNSAFE', `refusing to keep runtime state under ${path}: it ${what}, so another user could read or redirect what git-capsule writes there; ${fix}`, { path, what });
}
