// Bundled to dist/hooks/impl/session-end.js (scripts/build.mjs); hooks/hooks.json runs it through the launcher.
import { defaultDeps } from './default-deps';
import { runHookProcess } from './hook-process';
import { makeSessionEndHook } from './session-end';

runHookProcess(makeSessionEndHook(defaultDeps));
