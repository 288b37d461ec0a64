// Bundled to dist/hooks/user-prompt-submit.js (scripts/build.mjs); hooks/hooks.json runs it with node.
// Kept free of yaml, ajv and the store: it runs before every prompt (bench target ≤ 1.4× node).
import { runHookProcess } from './hook-process';
import { userPromptSubmitHook } from './user-prompt-submit';

runHookProcess(userPromptSubmitHook);
