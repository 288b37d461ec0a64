// Bundled to dist/hooks/stop.js (scripts/build.mjs); hooks/hooks.json runs it with node.
import { runHookProcess } from './hook-process';
import { stopHook } from './stop';

runHookProcess(stopHook);
