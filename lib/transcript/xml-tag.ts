/**
 * The text between `<name>` and the next `</name>` in `text`, trimmed, or undefined. Index scans,
 * not a regex: a non-greedy `<name>([\s\S]*?)</name>` restarts at every unclosed `<name>` and
 * costs the square of a pasted text full of them (630 KB: 21 s per Stop, the cursor never
 * advancing), where this is one pass.
 */
export function tagContent(text: string, name: string): string | undefined {
  const open = `<${name}>`;
  const start = text.indexOf(open);
  if (start === -1) return undefined;
  const end = text.indexOf(`</${name}>`, start + open.length);
  return end === -1 ? undefined : text.slice(start + open.length, end).trim();
}
