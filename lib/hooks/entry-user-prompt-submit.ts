// Bundled to dist/hooks/impl/user-prompt-submit.js (scripts/build.mjs); hooks/hooks.json runs it through the launcher.
// Kept free of yaml, ajv and the store: it runs before every prompt (bench target ≤ 1.2× node).
import { runHookProcess } from './hook-process';
import { userPromptSubmitHook } from './user-prompt-submit';

runHookProcess(userPromptSubmitHook);
