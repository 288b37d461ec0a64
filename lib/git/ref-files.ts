import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const OID = /^[0-9a-f]{40}$/;

/**
 * The branch a worktree's HEAD names, from its file (`main` for `ref: refs/heads/main`), as
 * `git symbolic-ref --short HEAD` says it; null when HEAD is detached (an object id); undefined
 * when the file cannot say for sure (missing, unreadable, reftable's `refs/heads/.invalid`, a
 * symbolic ref outside refs/heads/): the caller asks git.
 */
export function headBranchFromFile(gitDir: string): string | null | undefined {
  const head = readText(join(gitDir, 'HEAD'));
  if (head === null || head === undefined) return undefined;
  if (OID.test(head)) return null;
  const symbolic = /^ref: refs\/heads\/(\S+)$/.exec(head);
  return symbolic && symbolic[1] !== '.invalid' ? symbolic[1]! : undefined;
}

/** The trimmed text of a file; null when it does not exist; undefined when it exists but cannot be read. */
function readText(path: string): string | null | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : undefined;
  }
}

/**
 * True when reading refs from the files and walking commits through the object reader gives
 * what git itself would: the refs are files (no reftable) and no replace refs swap objects for
 * others (git honours them on every read). Two stats and one small read.
 */
export function filesSpeakForGit(commonDir: string): boolean {
  if (existsSync(join(commonDir, 'reftable')) || existsSync(join(commonDir, 'refs', 'replace'))) return false;
  const packed = readText(join(commonDir, 'packed-refs'));
  return packed !== undefined && !(packed ?? '').includes(' refs/replace/');
}
