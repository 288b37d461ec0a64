import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir`, as text (binary files too, as latin1: a planted secret is ASCII either way); none when it is missing. */
export function filesAsText(dir: string): Array<{ path: string; text: string }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesAsText(path) : [{ path, text: readFileSync(path, 'latin1') }];
  });
}
