import { contentBlocks, type RawTranscriptRecord } from '../../transcript/records';

// Wrappers Claude Code puts around rows that are not something the user typed.
const HOST_WRAPPERS = /^\s*<(?:local-command-stdout|local-command-stderr|local-command-caveat|task-notification|system-reminder|bash-stdout|bash-stderr)>/;

/**
 * True for a text the host wrapped (a task notification, hook feedback, command output): not
 * something the user typed. A background Stop's block wakes the model with such a text, and
 * UserPromptSubmit sees it as a prompt.
 */
export function isHostWrapped(text: string): boolean {
  return HOST_WRAPPERS.test(text);
}

/**
 * The text the user typed in a `user` record, or null when the record is not a typed prompt:
 * tool results, meta rows (hook feedback, command expansions), compact summaries, task
 * notifications and local-command output. A slash command reads as `/name args`.
 */
export function typedPromptText(record: RawTranscriptRecord): string | null {
  if (record.type !== 'user' || record.isMeta === true || record.isCompactSummary === true) return null;
  if (record.isVisibleInTranscriptOnly === true || record.origin?.kind === 'task-notification') return null;
  const blocks = contentBlocks(record);
  if (blocks.length === 0 || blocks.some((b) => b.type === 'tool_result')) return null;
  const text = blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
  if (text.trim() === '' || HOST_WRAPPERS.test(text)) return null;
  const command = /<command-name>([^<]*)<\/command-name>/.exec(text);
  if (command) {
    const args = /<command-args>([^<]*)<\/command-args>/.exec(text);
    return `${command[1]!.trim()}${args && args[1]!.trim() !== '' ? ` ${args[1]!.trim()}` : ''}`;
  }
  return text;
}
