import type { HookEventName } from '../host';
import { COPILOT_EVENT_NAMES, COPILOT_HOOK_EVENTS } from './hook-events';

/** One command hook as Copilot's `hooks/*.json` holds it. */
export interface CopilotCommandHook {
  type: 'command';
  bash: string;
  timeoutSec: number;
}

/** A Copilot hooks file (`~/.copilot/hooks/*.json`, `.github/hooks/*.json`). */
export interface CopilotHooksFile {
  version: 1;
  hooks: Record<string, CopilotCommandHook[]>;
}

/**
 * git-capsule's registration for the Copilot CLI: one command per event it runs, each the
 * event's bundle with `--host copilot` (`command(file)` writes the shell-neutral form: node, a
 * quoted bundle path, plain flags), with the event's timeout. Copilot keys events by its own
 * names (sessionStart, userPromptSubmitted, agentStop, preCompact, sessionEnd).
 */
export function copilotHooksFile(command: (file: string) => string): CopilotHooksFile {
  const hooks: Record<string, CopilotCommandHook[]> = {};
  for (const [event, spec] of Object.entries(COPILOT_HOOK_EVENTS) as Array<[keyof typeof COPILOT_EVENT_NAMES & HookEventName, { file: string; hostTimeoutSec: number }]>) {
    hooks[COPILOT_EVENT_NAMES[event]] = [{ type: 'command', bash: `${command(spec.file)} --host copilot`, timeoutSec: spec.hostTimeoutSec }];
  }
  return { version: 1, hooks };
}
