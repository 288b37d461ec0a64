import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { claudeProjectsRoot, isClaudeProjectDir, sessionIdFromFileName } from './claude-paths';

/**
 * Finds a session's transcript under Claude Code's `projects/` folder (`CLAUDE_CONFIG_DIR` or
 * `~/.claude`): the project's own folders first, then any folder. Without a session id, the
 * newest session transcript of the project's folders. Returns null when none is found. The one
 * lookup behind `git capsule budget` and `git capsule history`.
 */
export function findTranscriptPath(opts: { env: NodeJS.ProcessEnv; projectDirs: string[]; sessionId: string | null }): string | null {
  const root = claudeProjectsRoot(opts.env);
  if (root === null) return null;
  const dirs = listDirs(root);
  const own = dirs.filter((d) => opts.projectDirs.some((p) => isClaudeProjectDir(d, p)));
  if (opts.sessionId !== null) {
    const name = `${opts.sessionId}.jsonl`;
    for (const dir of [...own, ...dirs.filter((d) => !own.includes(d))]) if (isFile(join(root, dir, name))) return join(root, dir, name);
    return null;
  }
  let best: { path: string; mtime: number } | null = null;
  for (const dir of own) {
    for (const entry of listFiles(join(root, dir))) {
      if (sessionIdFromFileName(entry) === undefined) continue;
      const path = join(root, dir, entry);
      const mtime = mtimeOf(path);
      // Newest first; on equal times the larger path, so the choice never depends on readdir order.
      if (mtime !== null && (best === null || mtime > best.mtime || (mtime === best.mtime && path > best.path))) best = { path, mtime };
    }
  }
  return best?.path ?? null;
}

/** The session id a transcript file is named after (`<uuid>.jsonl`), else null. */
export function sessionIdOfTranscript(path: string): string | null {
  return sessionIdFromFileName(basename(path)) ?? null;
}

function listDirs(root: string): string[] {
  try {
    return readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  } catch {
    return [];
  }
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function mtimeOf(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}
