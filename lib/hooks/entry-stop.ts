// Bundled to dist/hooks/impl/stop.js (scripts/build.mjs); hooks/hooks.json runs it through the launcher.
// Wired to its handler (with lib/hooks/default-deps.ts) once lib/store, lib/redact and
// lib/resume-runtime are in main; until then it passes through.
import { runHookProcess } from './hook-process';

runHookProcess({ event: 'Stop', handle: async () => undefined });
