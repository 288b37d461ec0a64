import { budgetOnUserPromptSubmit } from '../budget-runtime/budget-hooks';
import type { HookSpec } from './run-hook';

/**
 * UserPromptSubmit: the budget warning, once per context window, from the warning point
 * (DESIGN §6). It must stay cheap: no yaml, no ajv, no store, no git process (the margins from
 * git config come from the snapshot the last SessionStart or Stop took).
 */
export const userPromptSubmitHook: HookSpec<'UserPromptSubmit'> = {
  event: 'UserPromptSubmit',
  handle: async (input, ctx) => budgetOnUserPromptSubmit(input, ctx),
};
