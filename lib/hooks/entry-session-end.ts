// Bundled to dist/hooks/session-end.js (scripts/build.mjs); hooks/hooks.json runs it with node.
import { runHookProcess } from './hook-process';
import { sessionEndHook } from './session-end';

runHookProcess(sessionEndHook);
