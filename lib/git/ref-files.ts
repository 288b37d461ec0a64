import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const OID = /^[0-9a-f]{40}$/;

/** Where a ref is read from the git files: the worktree's git dir (HEAD, per-worktree refs) and the shared one. */
export interface RefDirs {
  gitDir: string;
  commonDir: string;
}

/** What the files say about a ref: its object id, or that it is absent (no loose file, no packed line). */
export type RefValue = { oid: string } | { absent: true };

/**
 * Reads a ref the way git's files backend stores it: a loose file (HEAD and per-worktree refs
 * in the git dir, the rest in the common dir), else its line in `packed-refs`; symbolic refs are
 * followed. Null when the files cannot answer for sure (garbage in a ref file, a loop, an
 * unreadable file): the caller asks git. Reftable repositories must not be read this way.
 */
export function readRefFile(dirs: RefDirs, ref: string, depth = 0): RefValue | null {
  if (depth > 5 || ref.includes('..') || ref.startsWith('/')) return null;
  const loose = readText(join(perWorktree(ref) ? dirs.gitDir : dirs.commonDir, ref));
  if (loose === undefined) return null;
  if (loose !== null) {
    const symbolic = /^ref:\s*(\S+)$/.exec(loose);
    if (symbolic) return readRefFile(dirs, symbolic[1]!, depth + 1);
    return OID.test(loose) ? { oid: loose } : null;
  }
  const packed = readText(join(dirs.commonDir, 'packed-refs'));
  if (packed === undefined) return null;
  if (packed !== null) {
    for (const line of packed.split('\n')) {
      if (line.endsWith(` ${ref}`) && OID.test(line.slice(0, 40)) && line.length === 41 + ref.length) return { oid: line.slice(0, 40) };
    }
  }
  return { absent: true };
}

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

/** HEAD and the refs git keeps per worktree; every other ref lives in the common dir. */
function perWorktree(ref: string): boolean {
  return !ref.startsWith('refs/') || ref.startsWith('refs/worktree/') || ref.startsWith('refs/bisect/') || ref.startsWith('refs/rewritten/');
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
 * True when reading refs and objects from the files gives what git itself would: the refs are
 * files (no reftable) and no replace refs swap objects for others (git honours them on every
 * read). Checked once per store open: two stats and one small read.
 */
export function filesSpeakForGit(commonDir: string): boolean {
  if (existsSync(join(commonDir, 'reftable')) || existsSync(join(commonDir, 'refs', 'replace'))) return false;
  const packed = readText(join(commonDir, 'packed-refs'));
  return packed !== undefined && !(packed ?? '').includes(' refs/replace/');
}
