import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Every temp dir a test helper makes is removed when its test file ends, whether or not the
// test called its cleanup: the run's temp dir must be empty at the end (test/support/temp-guard.js).
const made: string[] = [];
if (typeof afterAll === 'function') afterAll(removeTempDirs);

/** A fresh directory under the run's TMPDIR, removed after the test file's last test at the latest. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every directory `tempDir` made so far in this test file. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
