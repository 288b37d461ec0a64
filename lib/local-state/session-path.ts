import { STATE_FILES, statePath } from './state-files';

// Apart from session-state.ts, so a hook that only needs a session's file name (the prompt journal
// at UserPromptSubmit) does not load the redactor that writing a session's state needs.

/** The file that holds one session's state; ids that are not plain become a hash. */
export function sessionStatePath(runtimeDir: string, sessionId: string): string {
  if (/^[A-Za-z0-9_-]{1,100}$/.test(sessionId)) return statePath(runtimeDir, STATE_FILES.sessions, `${sessionId}.json`);
  // Loaded only here: host session ids are plain, and node:crypto costs ~5 ms at every hook start.
  // A lazy require: this module must not load at start.
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const name = createHash('sha1').update(sessionId).digest('hex');
  return statePath(runtimeDir, STATE_FILES.sessions, `${name}.json`);
}
