import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExtensionState } from '../resume/declared-ack';
import { checkLifecycleExtensionText, LIFECYCLE_EXTENSION_PATH } from '../resume/lifecycle-extension';

/**
 * Reads `.capsule/lifecycle-extension.json` of the project, for both surfaces (resume and
 * `render capsule_ack`), so a declaration refused on one is refused on the other. Absent means
 * none declared; unreadable, malformed or invalid means refused whole. Never throws.
 */
export async function loadLifecycleExtension(projectDir: string): Promise<ExtensionState> {
  const path = join(projectDir, LIFECYCLE_EXTENSION_PATH);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'none' };
    return { state: 'refused', path, refusal: { rule: 'unreadable', message: `unreadable (${code ?? 'error'})` } };
  }
  const check = checkLifecycleExtensionText(text);
  return check.ok ? { state: 'accepted', path, extension: check.extension } : { state: 'refused', path, refusal: check.refusal };
}
