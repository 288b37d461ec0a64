import { readRuntimeJson, writeRuntimeJson } from './runtime-files';
import { STATE_FILES } from './state-files';

/** What `install` remembers of a settings file it wrote, so `uninstall` can put it back exactly. */
export const INSTALL_RECORD_FILE = STATE_FILES.installRecord.path;

/** One settings file: its text before install (null: it did not exist) and the text install left. */
export interface InstalledFile {
  before: string | null;
  after: string;
  /** Folders install created for the file (`.claude/`), removed again when uninstall leaves them empty. */
  createdDirs: string[];
}

type Record_ = Record<string, InstalledFile>;

function readAll(runtimeDir: string): Record_ {
  const value = readRuntimeJson(runtimeDir, INSTALL_RECORD_FILE);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record_) : {};
}

/** The record of one settings file, when it has the expected shape. */
export function readInstalledFile(runtimeDir: string, path: string): InstalledFile | null {
  const entry = readAll(runtimeDir)[path] as Partial<InstalledFile> | undefined;
  return entry && typeof entry.after === 'string' && (entry.before === null || typeof entry.before === 'string') && Array.isArray(entry.createdDirs)
    ? (entry as InstalledFile)
    : null;
}

/**
 * Records that install turned `previous` into `next`. A second install onto the text the first
 * left keeps the first `before` (uninstall then undoes both); onto a text someone changed since,
 * it starts over from that text.
 */
export function recordInstall(runtimeDir: string, path: string, previous: string | null, next: string, createdDirs: string[]): void {
  const all = readAll(runtimeDir);
  const prior = readInstalledFile(runtimeDir, path);
  all[path] = prior !== null && prior.after === previous ? { ...prior, after: next } : { before: previous, after: next, createdDirs };
  writeRuntimeJson(runtimeDir, INSTALL_RECORD_FILE, all);
}

/** Forgets a settings file (after uninstall). */
export function forgetInstall(runtimeDir: string, path: string): void {
  const all = readAll(runtimeDir);
  if (!(path in all)) return;
  delete all[path];
  writeRuntimeJson(runtimeDir, INSTALL_RECORD_FILE, all);
}
