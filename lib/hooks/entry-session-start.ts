// Bundled to dist/hooks/impl/session-start.js (scripts/build.mjs); hooks/hooks.json runs it through the launcher.
import { defaultDeps } from './default-deps';
import { runHookProcess } from './hook-process';
import { makeSessionStartHook } from './session-start';

runHookProcess(makeSessionStartHook(defaultDeps));
