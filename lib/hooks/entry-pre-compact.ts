// Bundled to dist/hooks/pre-compact.js (scripts/build.mjs); hooks/hooks.json runs it with node.
import { runHookProcess } from './hook-process';
import { preCompactHook } from './pre-compact';

runHookProcess(preCompactHook);
