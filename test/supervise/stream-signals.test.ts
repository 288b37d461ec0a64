import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readStreamLine, type StreamSignal } from '../../lib/supervise/stream-signals';

// Recorded from the real client 2.1.332 under the supervisor (init events left out): a turn at
// 20,000 tokens, one at 160,000 that the Stop hook blocks, the capsule written with Bash, the
// literal, the supervisor's /clear (conversation_reset, SessionStart:clear) and the continuation.
const recorded = readFileSync(join(__dirname, 'fixtures', 'stream-one-reset.jsonl'), 'utf8').split('\n').filter(Boolean);

const brief = (s: StreamSignal): string => {
  switch (s.kind) {
    case 'session': return `session ${s.id.slice(0, 8)}`;
    case 'fill': return `fill ${s.tokens}`;
    case 'assistant-text': return `text ${JSON.stringify(s.text.split('\n').at(-1))}`;
    case 'result': return `result${s.localCommand ? ` ${s.localCommand}` : ''}`;
    default: return s.kind;
  }
};

describe('readStreamLine', () => {
  it("reads the real client's stream: fills, the hook's block, the literal, the results and the new session", () => {
    let session = '';
    const signals = recorded.flatMap(readStreamLine).filter((s) => s.kind !== 'activity').map(brief);
    // Every event names its session: keep the changes only.
    const changes = signals.filter((s) => !s.startsWith('session') || (s !== session && (session = s)));
    expect(changes).toEqual([
      'session 740fe174',
      'fill 20000', 'text "one"', 'result',
      'fill 160000', 'text "two"', 'budget-block',
      'fill 160500',
      'fill 161000', 'text "capsule written: 01M8RKTR57WHEBDB6AHBWM0NHG"', 'result',
      'session 167254a4',
      'result clear',
      'fill 12000', 'text "Resumed; going on."',
    ]);
  });

  it('counts nothing a subagent says as the main agent', () => {
    const line = JSON.stringify({ type: 'assistant', parent_tool_use_id: 'toolu_1', message: { model: 'm', content: [{ type: 'text', text: 'capsule written: X' }], usage: { input_tokens: 190000 } } });
    expect(readStreamLine(line)).toEqual([{ kind: 'activity' }]);
  });

  it('takes the warning for no block', () => {
    const line = JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'Stop hook feedback:\n[git-capsule budget] The context holds about 150k tokens: past the warning point 142.4k.' }] } });
    expect(readStreamLine(line)).toEqual([{ kind: 'activity' }]);
  });

  it('reads the queued turn count of a result, and a compaction', () => {
    expect(readStreamLine('{"type":"result","queued_turn_count":2}')).toEqual([{ kind: 'result', localCommand: null, queued: 2 }]);
    expect(readStreamLine('{"type":"system","subtype":"compact_boundary"}')).toEqual([{ kind: 'compacted' }]);
  });

  it.each(['', 'not json', '[1,2]', '{"no":"type"}', '{"type":"assistant","message":{"usage":{"input_tokens":"many"}}}'])('learns nothing wrong from %p', (line) => {
    expect(readStreamLine(line).filter((s) => s.kind !== 'activity')).toEqual([]);
  });
});
