// Bundled to dist/hooks/impl/post-compact.js (scripts/build.mjs); hooks/hooks.json runs it through the launcher.
import { defaultDeps } from './default-deps';
import { runHookProcess } from './hook-process';
import { makePostCompactHook } from './post-compact';

runHookProcess(makePostCompactHook(defaultDeps));
