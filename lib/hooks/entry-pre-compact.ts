// Bundled to dist/hooks/impl/pre-compact.js (scripts/build.mjs); hooks/hooks.json runs it through the launcher.
import { defaultDeps } from './default-deps';
import { runHookProcess } from './hook-process';
import { makePreCompactHook } from './pre-compact';

runHookProcess(makePreCompactHook(defaultDeps));
