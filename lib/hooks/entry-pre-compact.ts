// Bundled to dist/hooks/pre-compact.js (scripts/build.mjs); hooks/hooks.json runs it with node.
// Wired to its handler once lib/store and lib/transcript are in main; until then it passes through.
import { runHookProcess } from './hook-process';

runHookProcess({ event: 'PreCompact', handle: async () => undefined });
