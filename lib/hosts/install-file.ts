import { chmodSync, existsSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';

/**
 * The file operations every host's install verb shares (Claude Code's settings file, Copilot's
 * hooks file): a folder found empty, and a write that never leaves a half-written file.
 */

/** True when `dir` exists and holds nothing; false when it does not exist or cannot be read. */
export function isEmptyDir(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}

/** Writes through a temp file and a rename, keeping the mode of the file it replaces. */
export function writeAtomically(path: string, text: string): void {
  const temp = `${path}.capsule.tmp`;
  writeFileSync(temp, text);
  if (existsSync(path)) chmodSync(temp, statSync(path).mode & 0o7777);
  renameSync(temp, path);
}
