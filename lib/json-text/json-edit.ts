import type { JsonMember, JsonNode } from './json-tree';

/** How a file writes its JSON, read from the file itself so an insertion looks like its neighbours. */
export interface JsonStyle {
  /** One level of indentation ('' for a one-line file). */
  indent: string;
  eol: string;
  /** What sits between a key and its value: ': ', ':', ' : ' … */
  colon: string;
  /** A one-line file's space after ',' and inside braces. */
  inlineSpace: string;
}

/** One replacement of the text: `[start, end)` becomes `text`. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** The style of a file's JSON, from its root object's first member and the first indented line. */
export function detectStyle(text: string, root: JsonNode): JsonStyle {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const first = root.kind === 'object' ? root.members[0] : undefined;
  const colon = first ? text.slice(first.keyEnd, first.value.start) : ': ';
  const inner = text.slice(root.start + 1, root.end - 1);
  if (first && !/[\r\n]/.test(inner)) {
    return { indent: '', eol, colon, inlineSpace: text.slice(root.start + 1, first.start) };
  }
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return { indent, eol, colon: first ? colon : ': ', inlineSpace: '' };
}

/** Renders a plain JSON value in the file's style, as it would sit at nesting `depth`. */
export function renderValue(value: unknown, style: JsonStyle, depth: number): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Array.isArray(value) ? value.map((v) => [null, v] as const) : Object.entries(value);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return `${open}${close}`;
  const item = ([k, v]: readonly [string | null, unknown]) => `${k === null ? '' : `${JSON.stringify(k)}${style.colon}`}${renderValue(v, style, depth + 1)}`;
  if (style.indent === '') {
    const s = style.inlineSpace;
    return `${open}${s}${entries.map(item).join(`,${s}`)}${s}${close}`;
  }
  const pad = style.eol + style.indent.repeat(depth + 1);
  return `${open}${pad}${entries.map(item).join(`,${pad}`)}${style.eol}${style.indent.repeat(depth)}${close}`;
}

/**
 * Appends members (object) or elements (array) after the container's last one, each separated
 * the way that last one is separated from the one before it (or from the opening brace), so the
 * file keeps its look. `depth` is the container's nesting depth (the root object is 0).
 */
export function appendEdit(text: string, container: JsonNode, items: Array<{ key?: string; value: unknown }>, style: JsonStyle, depth: number): TextEdit {
  const existing: Array<{ start: number; end: number }> = container.kind === 'object' ? container.members : container.kind === 'array' ? container.elements : [];
  const last = existing[existing.length - 1];
  // A container written on one line gets its new items on that line too.
  const oneLine = last !== undefined && !/[\r\n]/.test(text.slice(container.start, container.end));
  const itemStyle = oneLine ? { ...style, indent: '', inlineSpace: /^\s*/.exec(text.slice(container.start + 1))![0] } : style;
  const bodies = items.map((item) => `${item.key === undefined ? '' : `${JSON.stringify(item.key)}${style.colon}`}${renderValue(item.value, itemStyle, depth + 1)}`);
  if (last) {
    const before = existing.length > 1 ? existing[existing.length - 2]!.end : container.start + 1;
    const gap = text.slice(before, last.start);
    const sep = gap.includes(',') ? gap : `,${gap}`;
    return { start: last.end, end: last.end, text: bodies.map((b) => `${sep}${b}`).join('') };
  }
  // An empty container: open it up in the file's style.
  if (style.indent === '') {
    const s = style.inlineSpace;
    return { start: container.start + 1, end: container.end - 1, text: `${s}${bodies.join(`,${s}`)}${s}` };
  }
  const pad = style.eol + style.indent.repeat(depth + 1);
  return { start: container.start + 1, end: container.end - 1, text: `${pad}${bodies.join(`,${pad}`)}${style.eol}${style.indent.repeat(depth)}` };
}

/**
 * The deletions that remove the chosen members or elements of one container and exactly the
 * separators that belong to them: a run after a kept item goes from that item's end to the
 * run's end; a run at the front goes up to the next kept item's start. Deleting every item
 * leaves the container empty (`{}`/`[]`).
 */
export function removeEdits(container: JsonNode, remove: (index: number) => boolean): TextEdit[] {
  const items: Array<{ start: number; end: number }> = container.kind === 'object' ? container.members : container.kind === 'array' ? container.elements : [];
  const doomed = items.map((_, k) => remove(k));
  if (doomed.every(Boolean)) return items.length === 0 ? [] : [{ start: container.start + 1, end: container.end - 1, text: '' }];
  const edits: TextEdit[] = [];
  for (let a = 0; a < items.length; a++) {
    if (!doomed[a]) continue;
    let b = a;
    while (b + 1 < items.length && doomed[b + 1]) b++;
    edits.push(a > 0 ? { start: items[a - 1]!.end, end: items[b]!.end, text: '' } : { start: items[0]!.start, end: items[b + 1]!.start, text: '' });
    a = b;
  }
  return edits;
}

/** Applies non-overlapping edits (in any order) to a text. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((x, y) => y.start - x.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** The members of an object node (none for another kind). */
export function membersOf(node: JsonNode | undefined): JsonMember[] {
  return node?.kind === 'object' ? node.members : [];
}
