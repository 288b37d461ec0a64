import type { HookSpec } from './run-hook';

/**
 * UserPromptSubmit: the budget warning, once per context window (DESIGN §6). Until the budget
 * decision is wired in, it says nothing. It must stay cheap: no yaml, no ajv, no git process.
 */
export const userPromptSubmitHook: HookSpec<'UserPromptSubmit'> = {
  event: 'UserPromptSubmit',
  handle: async () => undefined,
};
