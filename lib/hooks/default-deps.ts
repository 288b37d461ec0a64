import { openStore } from '../store/open-store';
import type { HookDeps } from './hook-deps';

/** The real modules behind the hooks; each entry bundles only what its handler reaches. */
export const defaultDeps: HookDeps = {
  openStore,
  // Loaded on first use: only SessionStart(clear|compact) resumes, and the renderer and its
  // modules would otherwise initialise at every Stop, PreCompact and SessionEnd start.
  runResume: async (opts) => (await import('../resume-runtime/run-resume')).runResume(opts),
};
