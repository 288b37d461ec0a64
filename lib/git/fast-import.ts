import { CapsuleError, isCapsuleError } from '../errors/capsule-error';
import { WRITE_CONFIG, type GitIdentity } from './git-env';
import type { GitRunner } from './git-runner';

/** One commit for fast-import: files to write (content) or delete (null), under `ref`. */
export interface CommitSpec {
  identity: GitIdentity;
  epochSeconds: number;
  message: string;
  /** Parent commit; null makes a root commit. A mark (`:1`) names an earlier commit of the same stream. */
  from: string | null;
  /** Delete these directories first (`D <dir>`), e.g. the whole index on a rebuild. */
  deleteDirs?: readonly string[];
  /** Then place objects already in the repository (`M <mode> <oid> <path>`): a subtree moved whole, a blob copied. */
  objects?: ReadonlyMap<string, { mode: string; oid: string }>;
  files: ReadonlyMap<string, string | null>;
}

/** The arguments of every fast-import run: quiet, must end with `done`, hooks and signing off. */
export const FAST_IMPORT_ARGS: readonly string[] = [...WRITE_CONFIG, 'fast-import', '--quiet', '--done'];

/**
 * The same, keeping the pack fast-import wrote. Below `fastimport.unpackLimit` (100 objects, every
 * hook's commit) fast-import forks `git unpack-objects` to turn its pack into loose objects:
 * measured 2026-12-01, that fork is half of the import's CPU (12.5 → 5.8 ms per consume, 11 runs
 * each under `perf stat`) on every Stop, PreCompact and resume. The packs it leaves are rolled
 * into one in the background once they pile up (lib/git/housekeeping.ts).
 */
export const FAST_IMPORT_KEEP_PACK_ARGS: readonly string[] = [...WRITE_CONFIG, '-c', 'fastimport.unpackLimit=0', 'fast-import', '--quiet', '--done'];

/**
 * The fast-import stream for `commits` on `ref`; commit i gets mark `:i+1`, and `get-mark`
 * prints the last commit's id. Paths are ours (safe ids), so they need no quoting.
 */
export function buildImportStream(ref: string, commits: readonly CommitSpec[]): string {
  const parts: string[] = [];
  commits.forEach((c, i) => {
    const who = `${c.identity.name} <${c.identity.email}> ${c.epochSeconds} +0000`;
    parts.push(`commit ${ref}\nmark :${i + 1}\nauthor ${who}\ncommitter ${who}\n${data(c.message)}`);
    if (c.from !== null) parts.push(`from ${c.from}\n`);
    for (const dir of c.deleteDirs ?? []) parts.push(`D ${dir}\n`);
    for (const [path, o] of c.objects ?? []) parts.push(`M ${o.mode} ${o.oid} ${path}\n`);
    for (const [path, content] of c.files) parts.push(content === null ? `D ${path}\n` : `M 100644 inline ${path}\n${data(content)}`);
    parts.push('\n');
  });
  parts.push(`get-mark :${commits.length}\ndone\n`);
  return parts.join('');
}

/** The outcome of one import: the new commit, or a lost compare-and-swap race. */
export type ImportOutcome = { ok: true; commit: string } | { ok: false; reason: string };

/**
 * Runs one fast-import. fast-import reads the ref again at the end and moves it only if the
 * value it finds is an ancestor of the new commit, under the ref lock with that value as the
 * expected old one: a compare-and-swap. A lost race comes back as `{ ok: false }`; any other
 * failure throws GIT_FAILED. The stream must end with `done` (`--done`): a writer killed
 * mid-stream makes fast-import stop without moving the ref (leaving a crash report in the git
 * dir) instead of committing a partial file list.
 * `keepPack` keeps the pack fast-import wrote instead of unpacking it (FAST_IMPORT_KEEP_PACK_ARGS);
 * `whileRunning` runs once fast-import has the stream (GitCallOptions.whileRunning).
 */
export async function runImport(git: GitRunner, ref: string, commits: readonly CommitSpec[], opts: { keepPack?: boolean; whileRunning?: () => void } = {}): Promise<ImportOutcome> {
  try {
    const out = await git.run(opts.keepPack ? FAST_IMPORT_KEEP_PACK_ARGS : FAST_IMPORT_ARGS, { input: buildImportStream(ref, commits), whileRunning: opts.whileRunning });
    return { ok: true, commit: out.stdout.trim().split('\n').pop() ?? '' };
  } catch (err) {
    if (isCapsuleError(err, 'GIT_FAILED') && isLostRace(String(err.data.stderr ?? ''))) {
      return { ok: false, reason: String(err.data.stderr).trim() };
    }
    throw err;
  }
}

function isLostRace(stderr: string): boolean {
  return /Not updating|cannot lock ref|Unable to create .*\.lock|but expected|reference already exists/i.test(stderr);
}

function data(text: string): string {
  return `data ${Buffer.byteLength(text, 'utf8')}\n${text}\n`;
}

/** Thrown when every retry lost the race (WRITE_CONFLICT, with attempts). */
export function writeConflict(ref: string, attempts: number, reason: string): CapsuleError {
  return new CapsuleError('WRITE_CONFLICT', `could not move ${ref}: it changed under ${attempts} consecutive attempts (other writers); retry the command`, { ref, attempts, reason });
}
