import { claudeRecordView } from '../hosts/claude/record-view';
import { extractWorkState } from '../hosts/claude/work-events';
import { extractCodexWorkState } from '../hosts/codex/work-events';
import { extractCopilotWorkState } from '../hosts/copilot/work-events';
import type { HostName, HostRecordView, HostWorkStateReader } from '../hosts/host';

/**
 * Each host's transcript reader (HostWorkStateReader), by the adapter's name. Only the hooks
 * that fold a transcript (Stop, PreCompact, SessionEnd through lib/hooks/autosave.ts) import
 * this, so the UserPromptSubmit bundle carries no reader.
 */
export const WORK_STATE_READERS: { readonly [H in HostName]: HostWorkStateReader } = {
  claude: extractWorkState,
  codex: extractCodexWorkState,
  copilot: extractCopilotWorkState,
};

/** The part of a record each host's reader reads (HostRecordView); a host not listed has its records redacted whole. */
export const RECORD_VIEWS: { readonly [H in HostName]?: HostRecordView } = {
  claude: claudeRecordView,
};
