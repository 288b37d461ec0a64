import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { CapsuleError } from '../errors/capsule-error';
import { claudeProjectsRoot, isClaudeProjectDir, isSubagentTranscript, sessionIdFromFileName } from '../transcript/claude-paths';

/** A transcript file chosen for reading, and how it was chosen. */
export interface TranscriptSource {
  path: string;
  text: string;
  sessionId?: string;
  sidechain: boolean;
  chosenBy: 'file' | 'session' | 'hook-session' | 'newest';
}

/**
 * Finds the transcript to read: `--file`, else `--session` or the hook's CLAUDE_CODE_SESSION_ID
 * (in this project's directory, then any project's), else the newest transcript of this project
 * (CLAUDE_PROJECT_DIR or the cwd). Throws HISTORY_NO_TRANSCRIPT.
 */
export function findTranscript(opts: { file?: string; session?: string; cwd: string; env: NodeJS.ProcessEnv }): TranscriptSource {
  if (opts.file !== undefined) return load(resolve(opts.cwd, opts.file), 'file', opts.file);
  const root = claudeProjectsRoot(opts.env);
  const project = opts.env.CLAUDE_PROJECT_DIR || opts.cwd;
  const session = opts.session ?? opts.env.CLAUDE_CODE_SESSION_ID;
  const dirs = root === null ? [] : listDirs(root);
  const own = dirs.filter((d) => isClaudeProjectDir(d, project));
  if (session !== undefined && session !== '') {
    const chosenBy = opts.session !== undefined ? 'session' : 'hook-session';
    for (const dir of [...own, ...dirs.filter((d) => !own.includes(d))]) {
      const path = join(root!, dir, `${session}.jsonl`);
      if (isFile(path)) return load(path, chosenBy);
    }
    throw noTranscript(`no transcript for session ${session} under ${root ?? '$HOME/.claude/projects'}`, { session, root });
  }
  const newest = own
    .flatMap((dir) => listFiles(join(root!, dir)).filter((f) => sessionIdFromFileName(f) !== undefined).map((f) => join(root!, dir, f)))
    .map((path) => ({ path, mtime: statSync(path).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? 1 : -1))[0];
  if (newest === undefined) throw noTranscript(`no Claude Code transcript for ${project} under ${root ?? '$HOME/.claude/projects'}`, { project, root });
  return load(newest.path, 'newest');
}

function load(path: string, chosenBy: TranscriptSource['chosenBy'], given = path): TranscriptSource {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw noTranscript(`cannot read ${given} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { path }, err);
  }
  const sidechain = isSubagentTranscript(path);
  return { path, text, sessionId: sidechain ? undefined : sessionIdFromFileName(basename(path)), sidechain, chosenBy };
}

function noTranscript(what: string, data: Record<string, unknown>, cause?: unknown): CapsuleError {
  return new CapsuleError('HISTORY_NO_TRANSCRIPT', `history: ${what}; expected a Claude Code session transcript. Pass --file <path.jsonl> or --session <id>, or set CLAUDE_CONFIG_DIR.`, data, { cause });
}

function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  } catch {
    return []; // no projects directory yet: the caller reports HISTORY_NO_TRANSCRIPT
  }
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name);
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
