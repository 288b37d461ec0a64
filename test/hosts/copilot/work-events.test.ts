import { extractCopilotWorkState } from '../../../lib/hosts/copilot/work-events';
import { copilotSteps } from '../../../lib/hosts/copilot/event-steps';
import type { TranscriptRecord } from '../../../lib/transcript/records';
import { copilotEvents } from './copilot-fixtures';

const ROOT = '/tmp/cp/repo';
const kinds = (events: Array<{ kind: string; text: string }>, kind: string) => events.filter((e) => e.kind === kind).map((e) => e.text);

describe('extractCopilotWorkState on a real events.jsonl', () => {
  const { events, carry } = extractCopilotWorkState(copilotEvents('events-sample'), { projectRoot: ROOT });

  it('names the file a bash redirect wrote, relative to the project', () => {
    expect(events).toContainEqual(expect.objectContaining({ kind: 'file-modified', path: 'src.ts' }));
  });

  it("reads the failing command's exit code and its error line", () => {
    expect(kinds(events, 'error').join('\n')).toMatch(/exit 1.*FAIL test\/x\.test\.ts: expected 2 received 1/);
    expect(carry.openFailures).toHaveLength(1);
  });

  it('takes each typed prompt as a user request', () => {
    expect(kinds(events, 'user-request').length).toBeGreaterThanOrEqual(2);
  });

  it("drops the shell trailer from a command's output", () => {
    expect(JSON.stringify(events)).not.toContain('<shellId:');
  });
});

describe("extractCopilotWorkState after a compaction", () => {
  const records = copilotEvents('events-after-compact');

  it("reads the compaction's replay of the turns (model.* lines) not as work of its own", () => {
    const calls = copilotSteps(records).filter((s) => s.kind === 'shell');
    expect(calls).toHaveLength(1);
  });

  it('still names the file of the one real call', () => {
    const { events } = extractCopilotWorkState(records, { projectRoot: ROOT });
    expect(events.filter((e) => e.kind === 'file-modified').map((e) => e.path)).toEqual(['src.ts']);
  });
});

describe('copilotSteps on calls the samples do not hold', () => {
  const line = (n: number, data: unknown): TranscriptRecord => ({ line: n, data: data as TranscriptRecord['data'] });
  const request = (name: string, args: unknown) => line(1, { type: 'assistant.message', id: 'a', data: { content: '', toolRequests: [{ toolCallId: 'c1', name, arguments: args }] } });
  const result = (data: unknown) => line(2, { type: 'tool.execution_complete', data: { toolCallId: 'c1', ...(data as object) } });

  it('reads create and edit as writes of their path, view as a read', () => {
    expect(copilotSteps([request('create', { path: 'a.ts', file_text: 'x' }), result({ success: true })])).toEqual([expect.objectContaining({ kind: 'file', tool: 'Write', files: ['a.ts'], outcome: 'ok' })]);
    expect(copilotSteps([request('edit', { path: 'b.ts' }), result({ success: true })])).toEqual([expect.objectContaining({ tool: 'Edit', files: ['b.ts'] })]);
    expect(copilotSteps([request('view', { path: 'c.ts' }), result({ success: true })])).toEqual([expect.objectContaining({ tool: 'Read', files: ['c.ts'] })]);
  });

  it('reads the files an apply_patch names', () => {
    const patch = '*** Begin Patch\n*** Add File: d.ts\n+x\n*** End Patch\n';
    expect(copilotSteps([request('apply_patch', patch), result({ success: true })])).toEqual([expect.objectContaining({ tool: 'Edit', files: ['d.ts'] })]);
  });

  it('takes a call without a result for pending, and a failed tool for an error', () => {
    expect(copilotSteps([request('bash', { command: 'make' })])).toEqual([expect.objectContaining({ kind: 'shell', outcome: 'pending' })]);
    expect(copilotSteps([request('create', { path: 'a.ts' }), result({ success: false, error: 'denied' })])).toEqual([expect.objectContaining({ outcome: 'error', output: 'denied' })]);
  });

  it('reads a shell exit code from the trailer when the result has no shellExecution', () => {
    const steps = copilotSteps([request('bash', { command: 'make' }), result({ success: true, result: { content: 'boom\n<shellId: 3 completed with exit code 2>' } })]);
    expect(steps).toEqual([expect.objectContaining({ outcome: 'error', exitCode: 2, output: 'boom' })]);
  });

  it('skips slash commands typed as prompts', () => {
    expect(copilotSteps([line(1, { type: 'user.message', data: { content: '/compact' } })])).toEqual([]);
  });
});
