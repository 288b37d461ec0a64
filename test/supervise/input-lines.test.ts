import { classifyInputLine, userMessageLine } from '../../lib/supervise/input-lines';

describe('classifyInputLine', () => {
  it('turns a plain line into a user message', () => {
    expect(classifyInputLine('fix the "parser" test', 'auto')).toEqual({ kind: 'message', line: '{"type":"user","message":{"role":"user","content":"fix the \\"parser\\" test"}}' });
  });

  it('passes a stream-json user message as it is', () => {
    const line = '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]},"parent_tool_use_id":null}';
    expect(classifyInputLine(line, 'auto')).toEqual({ kind: 'message', line });
  });

  it('passes any other stream-json line as a control line', () => {
    const line = '{"type":"control_response","response":{"subtype":"success","request_id":"1"}}';
    expect(classifyInputLine(line, 'auto')).toEqual({ kind: 'control', line });
  });

  it.each(['{not json', '{"text":"no type"}', '{"type":""}'])('reads %p as plain text', (line) => {
    expect(classifyInputLine(line, 'auto')).toEqual({ kind: 'message', line: userMessageLine(line) });
  });

  it('reads every line as plain text in text mode', () => {
    expect(classifyInputLine('{"type":"user"}', 'text')).toEqual({ kind: 'message', line: userMessageLine('{"type":"user"}') });
  });

  it('skips blank lines and strips a carriage return', () => {
    expect(classifyInputLine('  \r', 'auto')).toEqual({ kind: 'blank' });
    expect(classifyInputLine('go\r', 'auto')).toEqual({ kind: 'message', line: userMessageLine('go') });
  });
});
