/** The completion literal the capsule skill ends with (skills/context-capsule/SKILL.md, step 6). */
export const CAPSULE_LITERAL = 'capsule written:';

// An id as the store accepts one (lib/store/find-capsule.ts), on a line of its own. Markdown
// emphasis or code quotes around the line do not hide it; anything else on the line does.
const LITERAL_LINE = /^[\s`*_]*capsule written:\s*([0-9A-Za-z-]{1,64})[\s`*_.]*$/;

/**
 * The capsule id of the completion literal when `text` ends with it: the last non-blank line
 * reads `capsule written: <id>`. A literal followed by more text is not the completion (the
 * skill ends the reply with it, nothing after), and a mention mid-reply is not one either.
 *
 * @example
 * findCapsuleLiteral('Saved.\ncapsule written: 01JD3Z8M2V6K6Y9Q2W4R5T7X8C') // '01JD3Z8M2V6K6Y9Q2W4R5T7X8C'
 */
export function findCapsuleLiteral(text: string): string | null {
  const lines = text.split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    return LITERAL_LINE.exec(line)?.[1] ?? null;
  }
  return null;
}
