import type { HostBudget } from '../host';

/**
 * The budget's inputs on the GitHub Copilot CLI: none yet. Its transcript reports each
 * request's tokens (`session.usage_record`) and the prompt limit, but where the client
 * compacts by itself was not found (a reported 95 % fill did not trigger it), so no point is
 * claimed. The resolution is left pending (the way one whose inputs have not arrived yet is),
 * so the budget stays silent instead of logging BUDGET_UNRESOLVABLE at every prompt and stop.
 */
export const copilotBudget: HostBudget = {
  readFill: () => ({ ok: true, fill: null, window: null, bytesRead: 0 }),
  nativePoint: () => ({ status: 'unresolvable', reason: 'the Copilot CLI reports no point where it compacts by itself', notes: [], pending: true }),
};
