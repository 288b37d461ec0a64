import { extractWorkState } from '../hosts/claude/work-events';
import { extractCodexWorkState } from '../hosts/codex/work-events';
import type { HostName, HostWorkStateReader } from '../hosts/host';

/**
 * Each host's transcript reader (HostWorkStateReader), by the adapter's name. Only the hooks
 * that fold a transcript (Stop, PreCompact, SessionEnd through lib/hooks/autosave.ts) import
 * this, so the UserPromptSubmit bundle carries no reader.
 */
export const WORK_STATE_READERS: { readonly [H in HostName]: HostWorkStateReader } = {
  claude: extractWorkState,
  codex: extractCodexWorkState,
};
