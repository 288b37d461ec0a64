import { closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { CapsuleError } from '../errors/capsule-error';
import { readRegularFile } from './regular-file';
import { ensureOwnDir } from './state-dir-trust';

// Every file git-capsule keeps in the runtime state dir goes through here: it holds transcript
// cursors, autosave documents and error lines, so it is private to the user (files 0600, folders
// 0700), and a symbolic link planted where one of our files goes (errors.log → ~/.bashrc) is
// never followed: opens use O_NOFOLLOW, writes go to a fresh temp file renamed into place (a
// rename replaces a link, it never writes through one), and only regular files are read.
// O_NOFOLLOW and O_NONBLOCK are absent on Windows, where the flags are 0 and links are rare.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * Creates `dir` (and missing parents, 0700) after checking its state root and every folder from
 * there down (lib/local-state/state-dir-trust.ts: STATE_DIR_UNSAFE); throws STATE_FILE_UNSAFE
 * when it is a link or not a folder.
 */
export function ensurePrivateDir(dir: string): void {
  ensureOwnDir(dir);
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink() || !stat.isDirectory()) throw unsafe(dir, stat.isSymbolicLink() ? 'a symbolic link' : 'not a folder');
}

/** Writes `text` to `path` atomically (temp file + rename), mode 0600, creating its folder. Throws STATE_FILE_UNSAFE. */
export function writePrivateFile(path: string, text: string): void {
  ensurePrivateDir(dirname(path));
  const temp = `${path}.${process.pid}.tmp`;
  let fd: number;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Left by a killed writer with our pid (or planted): unlink removes a link itself, never its target.
    unlinkSync(temp);
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, FILE_MODE);
  }
  try {
    writeAll(fd, text);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/** Appends `text` to the regular file at `path` (created 0600; an older, wider file is narrowed). Throws STATE_FILE_UNSAFE. */
export function appendPrivateFile(path: string, text: string): void {
  ensurePrivateDir(dirname(path));
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK, FILE_MODE);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw unsafe(path, 'not a regular file');
    if ((stat.mode & 0o077) !== 0) fchmodSync(fd, FILE_MODE);
    writeAll(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** The text of the regular file at `path` (never through a link), or null when it is missing, a link, a FIFO or unreadable. */
export function readPrivateFile(path: string): string | null {
  try {
    return readRegularFile(path, { followLinks: false });
  } catch {
    return null;
  }
}

// Uint8Array rather than Buffer: @types/node 20.9 and TypeScript 5.9 disagree about Buffer's ArrayBuffer.
function writeAll(fd: number, text: string): void {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

function unsafe(path: string, what: string): CapsuleError {
  return new CapsuleError('STATE_FILE_UNSAFE', `refusing to use ${path}: it is ${what}, where git-capsule keeps its own runtime state; remove it (git-capsule recreates it) or point CAPSULE_STATE_DIR elsewhere`, { path });
}
