import { closeSync } from 'node:fs';
import { openRegularFile } from '../../local-state/regular-file';
import { basename, resolve } from 'node:path';
import { CapsuleError } from '../../errors/capsule-error';
import { findTranscriptPath } from './find-transcript';
import { claudeProjectsRoot, isSubagentTranscript, sessionIdFromFileName } from './claude-paths';

/** A transcript file chosen for reading, and how it was chosen. */
export interface TranscriptSource {
  path: string;
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
  const sessionId = session !== undefined && session !== '' ? session : null;
  const path = findTranscriptPath({ env: opts.env, projectDirs: [project], sessionId });
  if (path !== null) return load(path, sessionId === null ? 'newest' : opts.session !== undefined ? 'session' : 'hook-session');
  if (sessionId !== null) throw noTranscript(`no transcript for session ${sessionId} under ${root ?? '$HOME/.claude/projects'}`, { session: sessionId, root });
  throw noTranscript(`no Claude Code transcript for ${project} under ${root ?? '$HOME/.claude/projects'}`, { project, root });
}

// Only checks the file opens: the reader streams it (lib/hosts/claude/history-file.ts), never holding it whole.
function load(path: string, chosenBy: TranscriptSource['chosenBy'], given = path): TranscriptSource {
  try {
    closeSync(openRegularFile(path, { followLinks: true }));
  } catch (err) {
    throw noTranscript(`cannot read ${given} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { path }, err);
  }
  const sidechain = isSubagentTranscript(path);
  return { path, sessionId: sidechain ? undefined : sessionIdFromFileName(basename(path)), sidechain, chosenBy };
}

function noTranscript(what: string, data: Record<string, unknown>, cause?: unknown): CapsuleError {
  return new CapsuleError('HISTORY_NO_TRANSCRIPT', `history: ${what}; expected a Claude Code session transcript. Pass --file <path.jsonl> or --session <id>, or set CLAUDE_CONFIG_DIR.`, data, { cause });
}
