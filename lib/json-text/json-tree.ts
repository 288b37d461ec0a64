import { CapsuleError } from '../errors/capsule-error';

/** A JSON value with the offsets it occupies in its text (`end` is exclusive). */
export type JsonNode =
  | { kind: 'object'; start: number; end: number; members: JsonMember[] }
  | { kind: 'array'; start: number; end: number; elements: JsonNode[] }
  | { kind: 'scalar'; start: number; end: number; value: unknown };

/** One `"key": value` of an object: `start` is the key's opening quote, `end` the value's end. */
export interface JsonMember {
  key: string;
  start: number;
  keyEnd: number;
  value: JsonNode;
  end: number;
}

/**
 * Parses JSON text into a tree of offsets, so an edit can touch only the bytes it means to and
 * keep every other byte (indentation, key order, spacing) as the file has it. Strict JSON only:
 * a comment, a trailing comma or a second value is JSON_TEXT_INVALID.
 */
export function parseJsonTree(text: string): JsonNode {
  let i = 0;
  const fail = (what: string): never => {
    throw new CapsuleError('JSON_TEXT_INVALID', `not strict JSON at offset ${i}: ${what}`, { offset: i });
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = (): string => {
    const start = i;
    if (text[i] !== '"') fail('expected a string');
    for (i++; i < text.length && text[i] !== '"'; i++) {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail('control character in a string');
    }
    if (i >= text.length) fail('unterminated string');
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): JsonNode => {
    ws();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const members: JsonMember[] = [];
      ws();
      if (text[i] === '}') return { kind: 'object', start, end: ++i, members };
      for (;;) {
        ws();
        const memberStart = i;
        const key = string();
        const keyEnd = i;
        ws();
        if (text[i++] !== ':') fail("expected ':'");
        const v = value();
        members.push({ key, start: memberStart, keyEnd, value: v, end: v.end });
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return { kind: 'object', start, end: ++i, members };
        else fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const elements: JsonNode[] = [];
      ws();
      if (text[i] === ']') return { kind: 'array', start, end: ++i, elements };
      for (;;) {
        elements.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return { kind: 'array', start, end: ++i, elements };
        else fail("expected ',' or ']'");
      }
    }
    if (c === '"') {
      const s = string();
      return { kind: 'scalar', start, end: i, value: s };
    }
    const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 64));
    if (!m) fail('expected a value');
    i += m![0].length;
    return { kind: 'scalar', start, end: i, value: JSON.parse(m![0]) };
  };
  const root = value();
  ws();
  if (i !== text.length) fail('text after the value');
  return root;
}

/** The member named `key` of an object node (the last one, as JSON.parse reads a repeated key), or undefined. */
export function memberOf(node: JsonNode | undefined, key: string): JsonMember | undefined {
  if (node?.kind !== 'object') return undefined;
  for (let k = node.members.length - 1; k >= 0; k--) if (node.members[k]!.key === key) return node.members[k];
  return undefined;
}
