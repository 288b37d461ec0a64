import { newCapsuleId } from '../capsule/id';
import { readCachedConfig } from '../local-state/cached-config';
import { createGitRunner } from '../git/git-runner';
import { openStore } from '../store/open-store';
import { randomBytesForId } from '../store/random-bytes';
import { parseTranscriptChunk } from '../transcript/jsonl';
import type { HookDeps } from './hook-deps';

/** The real modules behind the hooks; each entry bundles only what its handler reaches. */
export const defaultDeps: HookDeps = {
  openStore,
  parseTranscriptChunk,
  newCapsuleId: (now) => newCapsuleId(now, randomBytesForId),
  // Loaded on first use: only SessionStart(clear|compact) resumes, and the renderer and its
  // modules would otherwise initialise at every Stop, PreCompact and SessionEnd start.
  runResume: async (opts) => (await import('../resume-runtime/run-resume')).runResume(opts),
  readGitConfig: async ({ cwd, env }) => (await readCachedConfig(createGitRunner({ cwd, env }))).values,
};
