// Bundled to dist/hooks/session-start.js (scripts/build.mjs); hooks/hooks.json runs it with node.
// Wired to its handler once lib/store is in main; until then it passes through.
import { runHookProcess } from './hook-process';

runHookProcess({ event: 'SessionStart', handle: async () => undefined });
