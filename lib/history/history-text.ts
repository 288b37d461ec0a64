/** Keys whose value says what a tool call did, in the order they are tried. */
const TELLING_KEYS = ['command', 'file_path', 'notebook_path', 'pattern', 'url', 'query', 'description', 'subject', 'prompt'];

/** A tool input on one line: its telling field when it has one, else compact JSON; at most 300 characters. */
export function summariseToolInput(input: unknown): string {
  if (typeof input !== 'object' || input === null) return '';
  const record = input as Record<string, unknown>;
  const key = TELLING_KEYS.find((k) => typeof record[k] === 'string' && record[k] !== '');
  return oneLine(key === undefined ? JSON.stringify(record) : String(record[key]), 300);
}

/** Whitespace collapsed to single spaces and the length bounded with a trailing `…`. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The searchable and readable text of an event: its visible text, or a tool call with its result. */
export function eventBody(event: BodySource): string {
  return eventBodyParts(event).join('');
}

/** What eventBody needs of an event. */
export type BodySource = { text: string; tool?: { name: string; input: string; status: string; result?: string } };

/** eventBody as the parts it joins, so a long result is searched and previewed without a copy. */
export function eventBodyParts(event: BodySource): string[] {
  if (!event.tool) return [event.text];
  const t = event.tool;
  if (t.status === 'orphan-result') return [`← result of an unrecorded call ${t.name}\n← `, t.result ?? ''];
  const call = `→ ${t.name}(${t.input})\n`;
  if (t.status === 'pending') return [call, '… unfinished: no result recorded'];
  return [call, t.status === 'error' ? '← error: ' : '← ', t.result ?? ''];
}
