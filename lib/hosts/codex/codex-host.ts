import type { HostAdapter } from '../host';
import { codexBudget } from './codex-budget';
import { codexLineageSignal } from './client-process';
import { CODEX_HOOK_EVENTS } from './hook-events';
import { checkCodexInput, codexIgnores } from './hook-input';
import { renderCodexOutput } from './hook-output';

/**
 * The Codex CLI 0.169.0 (docs/hosts.md "The Codex CLI"): payloads checked against its input
 * schemas, the rollout JSONL, an envelope with only the fields each event's output schema has,
 * 10,000 UTF-8 bytes per injected text (2,500 tokens × 4), the client process as the lineage
 * signal across a TUI `/clear` (hooks get no session variable), and no Stop loop guard in the
 * host, so the runner keeps one.
 */
export const codexHost: HostAdapter = {
  name: 'codex',
  label: 'Codex CLI',
  events: CODEX_HOOK_EVENTS,
  checkInput: checkCodexInput,
  ignores: codexIgnores,
  // Hooks run in the session's cwd and the payload names it; a model's `cd` does not move it.
  projectDir: (input) => input.cwd,
  renderOutput: renderCodexOutput,
  injectionLimit: { max: 10_000, unit: 'utf8-bytes' },
  lineageSignal: () => codexLineageSignal(process.ppid),
  budget: codexBudget,
  stopLoopGuard: 'ours',
  stopBlock: 'json',
};
