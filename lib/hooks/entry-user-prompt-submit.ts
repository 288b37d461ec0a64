// Bundled to dist/hooks/user-prompt-submit.js (scripts/build.mjs); hooks/hooks.json runs it with node.
import { runHookProcess } from './hook-process';
import { userPromptSubmitHook } from './user-prompt-submit';

runHookProcess(userPromptSubmitHook);
