import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dirs';

// Most tests start from the same few repositories (an empty one with an identity, a bare remote
// and two clones of it): the real git CLI makes each one once per test file, in a folder of its
// own, and every test gets a copy of that folder, so a test starts no git process before its own
// steps. A clone names its remote, and git logs where it was cloned from, by absolute path: the
// copy says its own folder wherever the template said the template's, as the same git commands
// run in the copy's folder would have written.

const templates = new Map<string, string>();

/**
 * A fresh temp folder (prefix `prefix`) holding a copy of what `make(root)` built in a temp
 * folder of its own; `make` runs once per `key` and test file.
 */
export function copyOfTemplate(key: string, prefix: string, make: (root: string) => void): string {
  let template = templates.get(key);
  if (template === undefined || !existsSync(template)) {
    template = tempDir(`${prefix}template-`);
    make(template);
    templates.set(key, template);
  }
  const root = tempDir(prefix);
  cpSync(template, root, { recursive: true });
  repointPaths(root, template, root);
  return root;
}

/** Rewrites `from` to `to` in the git config files and reflogs under `dir` (where git writes a repository's path). */
function repointPaths(dir: string, from: string, to: string, inLogs = false): void {
  const isGitDir = existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects'));
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'objects') repointPaths(path, from, to, inLogs || (isGitDir && name === 'logs'));
      continue;
    }
    if (!inLogs && !(isGitDir && name === 'config')) continue;
    const text = readFileSync(path, 'utf8');
    if (text.includes(from)) writeFileSync(path, text.split(from).join(to));
  }
}
