import { readFileSync } from 'node:fs';
import { claudeRecordView } from '../../../lib/hosts/claude/record-view';
import { extractWorkState } from '../../../lib/hosts/claude/work-events';
import { redactRecords } from '../../../lib/hosts/redact-records';
import { parseTranscriptChunk } from '../../../lib/transcript/jsonl';
import type { TranscriptRecord } from '../../../lib/transcript/records';
import type { WorkState } from '../../../lib/transcript/work-event-types';
import { SAMPLE_PATH, TranscriptBuilder } from './transcript-builder';

const viewed = (records: TranscriptRecord[]) => records.map((r) => ({ line: r.line, data: claudeRecordView(r.data) }));

/** The sample read as the autosave reads it, one delta of `size` lines per Stop, the carry handed on. */
function foldInDeltas(records: TranscriptRecord[], size: number): WorkState[] {
  const out: WorkState[] = [];
  let carry: WorkState['carry'] | undefined;
  for (let at = 0; at < records.length; at += size) {
    const state = extractWorkState(records.slice(at, at + size), { carry, lastAssistantMessage: 'Done.', projectRoot: '/home/dev/project', homeDir: '/home/dev' });
    out.push(state);
    carry = state.carry;
  }
  return out;
}

describe('claudeRecordView', () => {
  const { records } = parseTranscriptChunk(readFileSync(SAMPLE_PATH, 'utf8'));

  it.each([1, 7, 20, records.length])('gives the same work state as whole records on the real sample read %i lines at a time', (size) => {
    expect(foldInDeltas(viewed(records), size)).toEqual(foldInDeltas(records, size));
  });

  it('keeps a prompt, an assistant message and the environment attachment whole', () => {
    const t = new TranscriptBuilder();
    const prompt = t.user('fix the parser');
    const reply = t.assistant('Fixed.');
    const environment = t.attachment('environment', undefined, { attachment: { type: 'environment', changes: [{ field: 'workingDirectory', from: '/a' }], snapshot: { workingDirectory: '/b' } } });
    expect([prompt, reply, environment].map(claudeRecordView)).toEqual([prompt, reply, environment]);
  });

  it("leaves out a tool result's structured copy (the whole file a Write wrote), which the reader never reads", () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'Write', { file_path: '/proj/a.ts', content: 'export const a = 1;\n' });
    const result = t.toolResult('t1', 'File created successfully at: /proj/a.ts', false, { toolUseResult: { type: 'create', filePath: '/proj/a.ts', content: 'export const a = 1;\n', originalFile: null } });
    const { toolUseResult: _copy, ...rest } = result;
    expect(claudeRecordView(result)).toEqual(rest);
    expect(extractWorkState(viewed(t.records()))).toEqual(extractWorkState(t.records()));
  });

  it('keeps only the branch, uuid and time of a record the reader does not read whole', () => {
    const t = new TranscriptBuilder();
    const snapshot = t.attachment('prompt_snapshot', 'a long rendered prompt', { gitBranch: 'feat' });
    const request = t.add({ type: 'api-request', params: { messages: ['the whole request'] } } as never);
    expect(claudeRecordView(snapshot)).toEqual({ type: 'attachment', isSidechain: false, gitBranch: 'feat', uuid: snapshot.uuid, timestamp: snapshot.timestamp });
    expect(claudeRecordView(request)).toEqual({ type: 'api-request', isSidechain: false, uuid: request.uuid, timestamp: request.timestamp });
  });

  it('still reports a branch change seen only on a record it does not read whole, with that record uuid and time', () => {
    const t = new TranscriptBuilder();
    t.user('a', { gitBranch: 'main' });
    const hook = t.attachment('hook_success', undefined, { gitBranch: 'feat' });
    t.add({ type: 'system', subtype: 'turn_duration', gitBranch: 'main' });
    const git = (rs: TranscriptRecord[]) => extractWorkState(rs).events.filter((e) => e.kind === 'git');
    expect(git(viewed(t.records()))).toEqual([
      expect.objectContaining({ text: 'branch changed: main → feat', uuid: hook.uuid, timestamp: hook.timestamp }),
      expect.objectContaining({ text: 'branch changed: feat → main' }),
    ]);
    expect(git(viewed(t.records()))).toEqual(git(t.records()));
  });

  it('keeps nothing of a sidechain record, which the reader skips', () => {
    const t = new TranscriptBuilder();
    const side = t.user('a subagent prompt', { isSidechain: true, gitBranch: 'other' });
    expect(claudeRecordView(side)).toEqual({ isSidechain: true });
    t.user('main prompt', { gitBranch: 'main' });
    expect(extractWorkState(viewed(t.records()))).toEqual(extractWorkState(t.records()));
  });

  it('is redacted by redactRecords: a secret in a prompt it keeps is gone', () => {
    const t = new TranscriptBuilder();
    t.user('deploy with AKIAIOSFODNN7EXAMPLQ please');
    const [record] = redactRecords(t.records(), claudeRecordView);
    expect(JSON.stringify(record)).not.toContain('AKIAIOSFODNN7EXAMPLQ');
    expect(JSON.stringify(record)).toContain('[REDACTED:');
  });
});
