// Bundled to dist/hooks/session-start.js (scripts/build.mjs); hooks/hooks.json runs it with node.
import { runHookProcess } from './hook-process';
import { sessionStartHook } from './session-start';

runHookProcess(sessionStartHook);
