import { applyEdits, appendEdit, detectStyle, removeEdits } from '../../lib/json-text/json-edit';
import { memberOf, parseJsonTree } from '../../lib/json-text/json-tree';

/** Appends `items` to the container at `path` (member keys from the root) and returns the new text. */
function append(text: string, path: string[], items: Array<{ key?: string; value: unknown }>): string {
  const root = parseJsonTree(text);
  let node = root;
  for (const key of path) node = memberOf(node, key)!.value;
  return applyEdits(text, [appendEdit(text, node, items, detectStyle(text, root), path.length)]);
}

describe('parseJsonTree', () => {
  it('gives every member the offsets of its key and value', () => {
    const text = '{ "a" : [1, {"b": "x\\"y"}], "c": null }';
    const root = parseJsonTree(text);
    const a = memberOf(root, 'a')!;
    expect(text.slice(a.start, a.keyEnd)).toBe('"a"');
    expect(text.slice(a.value.start, a.value.end)).toBe('[1, {"b": "x\\"y"}]');
    expect(memberOf(root, 'c')!.value).toMatchObject({ kind: 'scalar', value: null });
  });

  it.each([['a comment', '{ // no\n}'], ['a trailing comma', '{"a": 1,}'], ['a second value', '{} {}'], ['a bare word', '{"a": yes}']])('refuses %s', (_what, text) => {
    expect(() => parseJsonTree(text)).toThrow(expect.objectContaining({ code: 'JSON_TEXT_INVALID' }));
  });

  it('reads a repeated key as JSON.parse does: the last one wins', () => {
    const root = parseJsonTree('{"a": 1, "a": 2}');
    expect(memberOf(root, 'a')!.value).toMatchObject({ value: 2 });
  });
});

describe('appendEdit', () => {
  it('separates a new member the way the last one is separated, in the file\'s indentation', () => {
    expect(append('{\n    "a": 1,\n    "b": 2\n}\n', [], [{ key: 'c', value: { d: [3] } }])).toBe('{\n    "a": 1,\n    "b": 2,\n    "c": {\n        "d": [\n            3\n        ]\n    }\n}\n');
  });

  it('keeps a comma-first style', () => {
    expect(append('{ "a": 1\n, "b": 2\n}', [], [{ key: 'c', value: 3 }])).toBe('{ "a": 1\n, "b": 2\n, "c": 3\n}');
  });

  it('writes into a one-line container on that line', () => {
    expect(append('{"a":[1]}', ['a'], [{ value: { x: 1 } }])).toBe('{"a":[1,{"x":1}]}');
    expect(append('{ "a": [ 1 ] }', ['a'], [{ value: { x: 1 } }])).toBe('{ "a": [ 1, { "x": 1 } ] }');
  });

  it('opens an empty container in the file\'s style', () => {
    expect(append('{\n\t"a": {}\n}', ['a'], [{ key: 'b', value: 1 }, { key: 'c', value: 2 }])).toBe('{\n\t"a": {\n\t\t"b": 1,\n\t\t"c": 2\n\t}\n}');
  });
});

describe('removeEdits', () => {
  const text = '[\n  1,\n  2,\n  3,\n  4\n]';
  const cut = (doomed: number[]) => applyEdits(text, removeEdits(parseJsonTree(text), (k) => doomed.includes(k)));

  it('takes a run after a kept item with the separator before it', () => {
    expect(cut([2, 3])).toBe('[\n  1,\n  2\n]');
  });

  it('takes a run at the front with the separator after it', () => {
    expect(cut([0, 1])).toBe('[\n  3,\n  4\n]');
  });

  it('takes separate runs independently', () => {
    expect(cut([0, 2])).toBe('[\n  2,\n  4\n]');
  });

  it('inverts an append exactly', () => {
    const grown = append(text, [], [{ value: 5 }, { value: 6 }]);
    expect(applyEdits(grown, removeEdits(parseJsonTree(grown), (k) => k >= 4))).toBe(text);
  });

  it('empties a container when every item goes', () => {
    expect(cut([0, 1, 2, 3])).toBe('[]');
  });
});
