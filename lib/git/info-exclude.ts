import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { runGitSync } from './git-sync';

/** The comment line written above each pattern, so removal takes exactly the lines added. */
const NOTE = '# git-capsule install: hook commands with this machine\'s paths';

/**
 * Makes git ignore `path` (relative to the top of the work tree) through the repository's own
 * `info/exclude`, which is never committed: the local settings file names this machine's paths,
 * and `git add -A` must not pick it up. Nothing is written when git already ignores it (a
 * .gitignore, a global excludes file). Returns the exclude file written, or null.
 */
export function excludeLocalFile(topDir: string, path: string, env: NodeJS.ProcessEnv): string | null {
  const ignored = runGitSync(['check-ignore', '-q', '--no-index', '--', path], { cwd: topDir, env, timeoutMs: 5000, okExitCodes: [1] });
  if (ignored.exitCode === 0) return null;
  const file = excludeFile(topDir, env);
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${NOTE}\n/${path}\n`);
  return file;
}

/** Removes the lines `excludeLocalFile` added for `path`; returns the file edited, or null when they were not there. */
export function unexcludeLocalFile(topDir: string, path: string, env: NodeJS.ProcessEnv): string | null {
  const file = excludeFile(topDir, env);
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  const block = `${NOTE}\n/${path}\n`;
  if (!text.includes(block)) return null;
  writeFileSync(file, text.replace(block, ''));
  return file;
}

function excludeFile(topDir: string, env: NodeJS.ProcessEnv): string {
  const out = runGitSync(['rev-parse', '--git-path', 'info/exclude'], { cwd: topDir, env, timeoutMs: 5000 }).stdout.trim();
  return isAbsolute(out) ? out : join(topDir, out);
}
