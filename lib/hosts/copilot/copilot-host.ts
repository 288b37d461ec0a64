import type { HostAdapter } from '../host';
import { copilotBudget } from './copilot-budget';
import { copilotLineageSignal } from './client-process';
import { COPILOT_HOOK_EVENTS } from './hook-events';
import { checkCopilotInput } from './hook-input';
import { renderCopilotOutput } from './hook-output';
import { copilotSessionSource } from './session-source';

/**
 * The GitHub Copilot CLI 1.0.102 (test/fixtures/copilot): camelCase payloads translated into
 * the core's inputs, its `events.jsonl` transcript, a top-level `additionalContext` answer,
 * the client process as the lineage signal across `/clear` (a `new` session in a client that
 * ran one before is the one after it), and its own cap on repeated Stop blocks (8) backed by
 * ours, since the payload says when a Stop was forced.
 */
export const copilotHost: HostAdapter = {
  name: 'copilot',
  label: 'GitHub Copilot CLI',
  events: COPILOT_HOOK_EVENTS,
  checkInput: (event, raw) => checkCopilotInput(event, raw),
  // Hooks run in the project root and the payload names the session's cwd.
  projectDir: (input) => input.cwd,
  renderOutput: renderCopilotOutput,
  injectionLimit: { max: 10_000, unit: 'utf8-bytes' },
  lineageSignal: () => copilotLineageSignal(process.ppid),
  sessionSource: copilotSessionSource,
  budget: copilotBudget,
  stopLoopGuard: 'ours',
  // Copilot has no budget policy yet (budget stays pending), so no Stop block is ever sent; json like Codex if one is.
  stopBlock: 'json',
  resumeAfterCompact: 'next-prompt',
};
