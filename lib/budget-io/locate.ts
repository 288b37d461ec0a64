import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

/** Where the CLI found the repository and its runtime state. */
export interface BudgetLocation {
  /** The project root (`CLAUDE_PROJECT_DIR`, else the git top level, else cwd). */
  projectDir: string;
  /** `CAPSULE_STATE_DIR`, else `<git common dir>/capsule`; null outside a repository. */
  runtimeDir: string | null;
}

/** Locates the project and the runtime dir, spawning git once (CLI use; hooks read .git files instead). */
export function locateBudget(cwd: string, env: NodeJS.ProcessEnv): BudgetLocation {
  let top: string | null = null;
  let common: string | null = null;
  try {
    const out = execFileSync('git', ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir'], {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).split('\n');
    top = out[0] || null;
    common = out[1] || null;
  } catch {
    // Outside a repository (or a bare one): the budget still reports, without runtime state.
  }
  const projectDir = env.CLAUDE_PROJECT_DIR ? resolve(env.CLAUDE_PROJECT_DIR) : top ?? resolve(cwd);
  const runtimeDir = env.CAPSULE_STATE_DIR ? resolve(cwd, env.CAPSULE_STATE_DIR) : common ? join(common, 'capsule') : null;
  return { projectDir, runtimeDir };
}

/** Claude Code's transcript folder name for a project path: every non-alphanumeric character becomes '-'. */
export function claudeProjectSlug(projectPath: string): string {
  return projectPath.replace(/[^a-zA-Z0-9]/g, '-');
}

/**
 * Finds a session's transcript under `<home>/.claude/projects/`: the project's own folder
 * first, then any folder. Without a session id, the newest transcript of the project's folders.
 * Returns null when none is found.
 */
export function findTranscript(opts: { home: string; projectDirs: string[]; sessionId: string | null }): string | null {
  const root = join(opts.home, '.claude', 'projects');
  const own = [...new Set(opts.projectDirs.map((d) => join(root, claudeProjectSlug(d))))];
  if (opts.sessionId !== null) {
    const name = `${opts.sessionId}.jsonl`;
    for (const dir of [...own, ...listDirs(root)]) if (isFile(join(dir, name))) return join(dir, name);
    return null;
  }
  let best: { path: string; mtime: number } | null = null;
  for (const dir of own) {
    for (const entry of listFiles(dir)) {
      if (!entry.endsWith('.jsonl')) continue;
      const path = join(dir, entry);
      const mtime = mtimeOf(path);
      if (mtime !== null && (best === null || mtime > best.mtime)) best = { path, mtime };
    }
  }
  return best?.path ?? null;
}

/** The session id a transcript file is named after, when the name is one. */
export function sessionIdOfTranscript(path: string): string | null {
  const name = basename(path);
  return /^[A-Za-z0-9_-]{1,128}\.jsonl$/.test(name) ? name.slice(0, -'.jsonl'.length) : null;
}

function listDirs(root: string): string[] {
  try {
    return readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(root, d.name));
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
