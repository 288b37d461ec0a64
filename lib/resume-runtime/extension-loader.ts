import { existsSync } from 'node:fs';
import { readRegularFile } from '../local-state/regular-file';
import { join } from 'node:path';
import type { ExtensionState } from '../resume/declared-ack';
import { checkLifecycleExtensionText, LIFECYCLE_EXTENSION_PATH } from '../resume/lifecycle-extension';

/** Far above any valid declaration (24 + 24 lines of at most 500 characters, two acks). */
const DECLARATION_MAX_BYTES = 256 * 1024;

/**
 * Reads `.capsule/lifecycle-extension.json` of the project, for both surfaces (resume and
 * `render capsule_ack`), so a declaration refused on one is refused on the other. Absent means
 * none declared; unreadable, malformed or invalid means refused whole. Never throws.
 */
export async function loadLifecycleExtension(projectDir: string): Promise<ExtensionState> {
  const path = join(projectDir, LIFECYCLE_EXTENSION_PATH);
  // Most projects declare none: a stat answers that without loading node:fs/promises (~2 ms).
  // The read itself stays asynchronous, so a path that blocks (a FIFO) cannot stall the hook's timer.
  if (!existsSync(path)) return { state: 'none' };
  let text: string;
  try {
    // A regular file, opened without blocking and read to a bound: a declaration tracked in the
    // repository as a link to /dev/zero or a FIFO must not hold the session start.
    text = readRegularFile(path, { followLinks: true, maxBytes: DECLARATION_MAX_BYTES });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'none' };
    return { state: 'refused', path, refusal: { rule: 'unreadable', message: `unreadable (${code ?? 'error'})` } };
  }
  const check = checkLifecycleExtensionText(text);
  return check.ok ? { state: 'accepted', path, extension: check.extension } : { state: 'refused', path, refusal: check.refusal };
}
