// Bundled to dist/hooks/impl/stop.js (scripts/build.mjs); hooks/hooks.json runs it through the launcher.
import { defaultDeps } from './default-deps';
import { runHookProcess } from './hook-process';
import { makeStopHook } from './stop';

runHookProcess(makeStopHook(defaultDeps));
