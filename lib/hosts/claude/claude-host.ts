import { CHARACTER_LIMIT } from '../../resume/text-limit';
import type { HostAdapter } from '../host';
import { HOOK_EVENTS } from './hook-events';
import { claudeLineageSignal } from './lineage-signal';
import { checkHookInput } from './hook-input';
import { renderHookOutput } from './hook-output';

/**
 * Claude Code 2.1.332 (docs/hosts.md "The seam"): payloads already in the core's shape, the session JSONL
 * transcript, the JSON envelope with PreCompact's plain stdout, 10,000 characters per injected
 * text, `CLAUDE_PID` shared across a `/clear`, and a host that stops re-running a blocked Stop
 * on its own (`stop_hook_active`, `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`).
 */
export const claudeHost: HostAdapter = {
  name: 'claude',
  label: 'Claude Code',
  events: HOOK_EVENTS,
  checkInput: checkHookInput,
  // The payload's cwd follows the Bash tool's `cd`; the project dir the host names does not.
  projectDir: (input, env) => env.CLAUDE_PROJECT_DIR || input.cwd,
  renderOutput: renderHookOutput,
  injectionLimit: CHARACTER_LIMIT,
  lineageSignal: claudeLineageSignal,
  stopLoopGuard: 'host',
  // hooks/hooks.json registers Stop with `asyncRewake`: in the background only exit 2 blocks.
  stopBlock: 'exit-2',
};
