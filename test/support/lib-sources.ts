import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The lib/ folder of this checkout. */
export const LIB_DIR = join(__dirname, '..', '..', 'lib');

/** Every `.ts` file below `dir`, for tests that read the source itself (layers, codes, readers of a variable). */
export function typeScriptFiles(dir: string = LIB_DIR): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? typeScriptFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}
