import { MAX_CAPSULE_BYTES } from '../../lib/capsule/limits';
import { validateCapsuleText } from '../../lib/capsule/validate';
import { capsuleFixtures, capsuleWith } from './fixtures';

const codes = (text: string) => validateCapsuleText(text).problems.map((p) => p.code);

describe('validateCapsuleText', () => {
  it.each(capsuleFixtures())('accepts the fixture %s', (_name, text) => {
    expect(validateCapsuleText(text).problems).toEqual([]);
  });

  it('returns the fields it read', () => {
    expect(validateCapsuleText(capsuleWith({})).fields).toMatchObject({ id: '01JDQ6Z8W1N9V3C5Q7R2T4Y6XA', status: 'active' });
  });

  it.each(['id', 'objective', 'waiting_on', 'next_valid_action', 'created_at', 'status'])(
    'names a missing required field %s',
    (field) => {
      const problems = validateCapsuleText(capsuleWith({ [field]: null })).problems;
      expect(problems).toContainEqual(expect.objectContaining({ code: 'MISSING_REQUIRED_FIELD', field }));
    },
  );

  it.each(['objective', 'waiting_on', 'next_valid_action'])('names an empty required field %s', (field) => {
    expect(validateCapsuleText(capsuleWith({ [field]: '"  "' })).problems).toContainEqual(
      expect.objectContaining({ code: 'EMPTY_FIELD', field }),
    );
  });

  it.each(['', 'null', '~'])('names waiting_on written as bare null (%p)', (raw) => {
    expect(codes(capsuleWith({ waiting_on: raw }))).toEqual(['WAITING_ON_NULL']);
  });

  it('accepts waiting_on written as the quoted word null', () => {
    expect(codes(capsuleWith({ waiting_on: '"null"' }))).toEqual([]);
  });

  it.each([
    ['2026-11-29', 'CREATED_AT_DATE_ONLY'],
    ['2026-11-29T10:00:00', 'CREATED_AT_NO_OFFSET'],
    ['yesterday', 'CREATED_AT_INVALID'],
    ['2026-02-30T10:00:00Z', 'CREATED_AT_INVALID'],
    ['1700000000', 'CREATED_AT_INVALID'],
  ])('names the created_at %p as %s, never silently midnight', (stamp, code) => {
    expect(codes(capsuleWith({ created_at: stamp }))).toEqual([code]);
  });

  it.each(['2026-11-29T10:00:00Z', '2026-11-29T10:00:00.123+05:30', '2026-11-29 10:00-0800'])('accepts the stamp %p', (stamp) => {
    expect(codes(capsuleWith({ created_at: stamp }))).toEqual([]);
  });

  it.each(['draft', 'Active', 'done'])('names the status %p outside the vocabulary', (status) => {
    expect(codes(capsuleWith({ status }))).toEqual(['STATUS_UNKNOWN']);
  });

  it.each([
    ['id', 'not-a-ulid'],
    ['trigger', 'cron'],
    ['tags', 'just-a-string'],
    ['repo_head', 'abc'],
    ['objective', 'x'.repeat(4001)],
  ])('names a schema problem in %s', (field, raw) => {
    expect(validateCapsuleText(capsuleWith({ [field]: raw })).problems).toEqual([
      expect.objectContaining({ code: 'SCHEMA', field }),
    ]);
  });

  it('runs the content gate on objective and next_valid_action', () => {
    expect(codes(capsuleWith({ objective: '"[auto-pull] merged"', next_valid_action: 're-read the active turn state' }))).toEqual([
      'CONTENT_GATE_OBJECTIVE',
      'CONTENT_GATE_NEXT_ACTION',
    ]);
  });
});

describe('validateCapsuleText on hostile input', () => {
  const bomb = [
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
    'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
    'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    'f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  ].join('\n');

  it.each([
    ['YAML that does not parse', '---\nobjective: [unclosed\n---\n', 'YAML_SYNTAX'],
    ['frontmatter that is a list', '---\n- a\n- b\n---\n', 'YAML_NOT_MAPPING'],
    ['frontmatter that is a scalar', '---\njust text\n---\n', 'YAML_NOT_MAPPING'],
    ['empty frontmatter', '---\n---\n', 'YAML_NOT_MAPPING'],
    ['duplicate keys', `${capsuleWith({}).replace('---\n', '---\nid: 01JDQ6Z8W1N9V3C5Q7R2T4Y6XB\n')}`, 'YAML_DUPLICATE_KEY'],
    ['an alias bomb', `---\n${bomb}\n---\n`, 'YAML_ALIAS_LIMIT'],
    ['a list used as a key', capsuleWith({}).replace('---\n', '---\n? [complex, key]\n: v\n'), 'YAML_COMPLEX_KEY'],
    ['a mapping used as a key, nested', capsuleWith({}).replace('---\n', '---\nextra:\n  ? {a: 1}\n  : v\n'), 'YAML_COMPLEX_KEY'],
    ['two YAML documents', '---\na: 1\n...\nb: 2\n---\n', 'YAML_SYNTAX'],
    ['a NUL byte', capsuleWith({ objective: 'a\u0000b' }), 'BINARY_CONTENT'],
    ['other binary bytes', `${capsuleWith({})}\u0001\u0002\u0003`, 'BINARY_CONTENT'],
    ['a missing closing ---', '---\nid: 01JDQ6Z8W1N9V3C5Q7R2T4Y6XA\nobjective: x\n', 'FRONTMATTER_UNTERMINATED'],
    ['no frontmatter at all', '# Just a heading\n', 'NO_FRONTMATTER'],
    ['a 5 MB document', `${capsuleWith({})}${'x'.repeat(5 * 1024 * 1024)}`, 'TOO_LARGE'],
  ])('names %s as %s and does not throw', (_what, text, code) => {
    expect(codes(text)).toEqual([code]);
  });

  it('prints no library warning for hostile YAML (a hook would put it on stderr)', () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      codes(capsuleWith({}).replace('---\n', '---\n? [complex, key]\n: v\n'));
      codes('---\nobjective: [unclosed\n---\n');
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('reads a document with a UTF-8 BOM', () => {
    expect(codes(`\uFEFF${capsuleWith({})}`)).toEqual([]);
  });

  it('reads a document with CRLF line ends', () => {
    expect(codes(capsuleWith({}).replace(/\n/g, '\r\n'))).toEqual([]);
  });

  it('accepts a document exactly at the size limit', () => {
    const head = capsuleWith({});
    expect(codes(head + 'x'.repeat(MAX_CAPSULE_BYTES - Buffer.byteLength(head)))).toEqual([]);
  });

  it('treats a YAML tag it does not know as plain data', () => {
    expect(codes(capsuleWith({ objective: '!!js/function "function () { return 1 }"' }))).toEqual([]);
  });

  it('names a non-string text instead of throwing', () => {
    expect(codes(42 as unknown as string)).toEqual(['BINARY_CONTENT']);
  });
});
