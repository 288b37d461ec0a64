import { readFileSync } from 'node:fs';
import { parseTranscriptChunk } from '../../../lib/transcript/jsonl';
import { extractWorkEvents, extractWorkState, type WorkEvent } from '../../../lib/hosts/claude/work-events';
import { MAX_OPEN_FAILURES } from '../../../lib/transcript/work-event-types';
import { MAX_WORK_EVENT_TEXT } from '../../../lib/transcript/work-event-types';
import { SAMPLE_PATH, TranscriptBuilder } from './transcript-builder';

const kinds = (events: WorkEvent[], kind: WorkEvent['kind']) => events.filter((e) => e.kind === kind);

describe('extractWorkEvents', () => {
  describe('on the real sample transcript', () => {
    const { records } = parseTranscriptChunk(readFileSync(SAMPLE_PATH, 'utf8'));
    const events = extractWorkEvents(records);

    it('reports the file the Write tool created', () => {
      expect(kinds(events, 'file-modified')).toEqual([
        expect.objectContaining({ path: '/home/dev/project/hello.txt', uuid: '571786f1-5cfb-4d91-846f-3d896c90de79' }),
      ]);
    });

    it('reports the failing Bash command with its exit code', () => {
      expect(kinds(events, 'error')).toEqual([
        expect.objectContaining({ text: expect.stringContaining('Exit code 3') }),
        expect.objectContaining({ text: expect.stringContaining('API error: API Error: 400') }),
      ]);
    });

    it('reports the denied write outside the project as a rejected approach, not a modified file', () => {
      expect(kinds(events, 'rejected')).toEqual([expect.objectContaining({ text: expect.stringContaining('TMP/outside-probe/x.txt') })]);
      expect(events.some((e) => e.path?.includes('outside-probe'))).toBe(false);
    });

    it('reports the subagent launch and its completion as tasks', () => {
      expect(kinds(events, 'task').map((e) => e.text)).toEqual(['[subagent] probe subagent', 'Agent "probe subagent" finished (completed)']);
    });

    it('reports the working-directory change', () => {
      expect(kinds(events, 'environment').map((e) => e.text)).toContain('workingDirectory: /home/dev/project/sub (was /home/dev/project)');
    });

    it('ends with the last typed user request', () => {
      expect(events[events.length - 1]).toEqual(expect.objectContaining({ kind: 'user-request', text: 'TRIGGER-API-ERROR' }));
      expect(kinds(events, 'user-request')).toHaveLength(1);
    });
  });

  it.each([
    ['Read', { file_path: '/p/a.ts' }, 'file-read', '/p/a.ts'],
    ['Read', { file_path: 'rel/a.ts' }, 'file-read', '/proj/rel/a.ts'],
    ['Edit', { file_path: '/p/a.ts', old_string: 'x', new_string: 'y' }, 'file-modified', '/p/a.ts'],
    ['Write', { file_path: '/p/b.ts', content: '' }, 'file-modified', '/p/b.ts'],
    ['MultiEdit', { file_path: '/p/c.ts', edits: [] }, 'file-modified', '/p/c.ts'],
    ['NotebookEdit', { notebook_path: '/p/n.ipynb', new_source: '' }, 'file-modified', '/p/n.ipynb'],
    ['Bash', { command: 'echo x > out.txt' }, 'file-modified', '/proj/out.txt'],
    ['Bash', { command: "sed -i 's/a/b/' /p/s.ts" }, 'file-modified', '/p/s.ts'],
  ])('reports %s %j as %s of %s', (name, input, kind, path) => {
    const t = new TranscriptBuilder();
    t.user('go');
    t.toolUse('t1', name, input);
    t.toolResult('t1', 'ok');
    expect(extractWorkEvents(t.records())).toContainEqual(expect.objectContaining({ kind, path }));
  });

  it('reports no read file for a Read that failed', () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'Read', { file_path: '/p/missing.ts' });
    t.toolResult('t1', 'File does not exist.', true);
    expect(kinds(extractWorkEvents(t.records()), 'file-read')).toEqual([]);
  });

  it('reports a call whose result is not recorded yet at its word', () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'Write', { file_path: '/p/new.ts' });
    expect(kinds(extractWorkEvents(t.records()), 'file-modified')).toEqual([expect.objectContaining({ path: '/p/new.ts' })]);
  });

  it('reports no modified file for an edit whose result was an error', () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'Edit', { file_path: '/p/a.ts' });
    t.toolResult('t1', 'String to replace not found in file.', true);
    const events = extractWorkEvents(t.records());
    expect(kinds(events, 'file-modified')).toEqual([]);
    expect(kinds(events, 'error')).toEqual([expect.objectContaining({ text: expect.stringContaining('Edit /p/a.ts failed') })]);
  });

  it('reports a resolution when the same command later succeeds, and none for a different command', () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'Bash', { command: 'npm test' });
    t.toolResult('t1', 'Exit code 1\n2 failing', true);
    t.toolUse('t2', 'Bash', { command: 'npm run lint' });
    t.toolResult('t2', 'ok');
    t.toolUse('t3', 'Bash', { command: 'npm  test' });
    t.toolResult('t3', 'all passing');
    const events = extractWorkEvents(t.records());
    expect(kinds(events, 'resolution')).toEqual([expect.objectContaining({ text: expect.stringContaining('was: Exit code 1'), uuid: 'u6' })]);
  });

  it('pairs a success with a failure carried from an earlier delta', () => {
    const first = new TranscriptBuilder();
    first.toolUse('t1', 'Bash', { command: 'npm test' });
    first.toolResult('t1', 'Exit code 1\n2 failing', true);
    const before = extractWorkState(first.records());
    expect(before.openFailures).toEqual({ 'Bash:npm test': 'Exit code 1 — 2 failing' });
    const second = new TranscriptBuilder();
    second.toolUse('t2', 'Bash', { command: 'npm test' });
    second.toolResult('t2', 'all passing');
    const after = extractWorkState(second.records(), { openFailures: before.openFailures });
    expect(kinds(after.events, 'resolution')).toEqual([expect.objectContaining({ text: expect.stringContaining('was: Exit code 1') })]);
    expect(after.openFailures).toEqual({});
    expect(kinds(extractWorkEvents(second.records()), 'resolution')).toEqual([]);
  });

  it(`carries at most ${MAX_OPEN_FAILURES} open failures, forgetting the oldest`, () => {
    const t = new TranscriptBuilder();
    for (let i = 0; i <= MAX_OPEN_FAILURES; i++) {
      t.toolUse(`t${i}`, 'Bash', { command: `make step-${i}` });
      t.toolResult(`t${i}`, 'Exit code 2', true);
    }
    const { openFailures } = extractWorkState(t.records());
    expect(Object.keys(openFailures)).toHaveLength(MAX_OPEN_FAILURES);
    expect(openFailures).not.toHaveProperty('Bash:make step-0');
    expect(openFailures).toHaveProperty(`Bash:make step-${MAX_OPEN_FAILURES}`);
  });

  it('treats an "Exit code N" result as an error even without is_error', () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'Bash', { command: 'make' });
    t.toolResult('t1', 'Exit code 2\nmake: *** [all] Error 1');
    expect(kinds(extractWorkEvents(t.records()), 'error')).toHaveLength(1);
  });

  it.each([
    ['a permission denial', 'Claude requested permissions to write to /x, but you haven\'t granted it yet.', { toolDenialKind: 'user-rejected' }, '/x'],
    ['a user rejection with feedback', "The user doesn't want to proceed with this tool use. The tool use was rejected. To tell you how to proceed, the user said:\nuse pnpm, not npm", {}, 'use pnpm, not npm'],
  ])('reports %s as a rejected approach', (_name, content, extra, expected) => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'Bash', { command: 'npm i' });
    t.toolResult('t1', content, true, extra);
    const events = extractWorkEvents(t.records());
    expect(kinds(events, 'rejected')).toEqual([expect.objectContaining({ text: expect.stringContaining(expected) })]);
    expect(kinds(events, 'error')).toEqual([]);
  });

  it.each([
    ['no, keep the old parser', 'rejected'],
    ["don't touch the schema", 'rejected'],
    ["let's go with the CLI approach", 'decision'],
  ])('reads the user prompt %j as %s', (prompt, kind) => {
    const t = new TranscriptBuilder();
    t.user(prompt);
    expect(kinds(extractWorkEvents(t.records()), kind as WorkEvent['kind'])).toEqual([expect.objectContaining({ text: expect.stringContaining(prompt) })]);
  });

  it('reports only the latest TodoWrite list, one task per item', () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'TodoWrite', { todos: [{ content: 'write parser', status: 'in_progress' }] });
    t.toolResult('t1', 'ok');
    t.toolUse('t2', 'TodoWrite', { todos: [{ content: 'write parser', status: 'completed' }, { content: 'write tests', status: 'pending' }] });
    t.toolResult('t2', 'ok');
    expect(kinds(extractWorkEvents(t.records()), 'task').map((e) => e.text)).toEqual(['[completed] write parser', '[pending] write tests']);
  });

  it.each([
    ['TaskCreate', { subject: 'Port the reader' }, '[created] Port the reader'],
    ['TaskUpdate', { taskId: '3', status: 'completed' }, '[completed] task 3'],
    ['TaskStop', { task_id: 'a1b2' }, '[stopped] task a1b2'],
    ['Task', { description: 'explore repo', prompt: 'look' }, '[subagent] explore repo'],
  ])('reports the task tool %s', (name, input, text) => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', name, input);
    t.toolResult('t1', 'ok');
    expect(kinds(extractWorkEvents(t.records()), 'task').map((e) => e.text)).toEqual([text]);
  });

  it.each([
    ['git commit -m "feat: x"', 'git commit -m "feat: x"'],
    ['git push origin main', 'git push origin main'],
  ])('reports the git operation %s', (command, text) => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'Bash', { command });
    t.toolResult('t1', 'ok');
    expect(kinds(extractWorkEvents(t.records()), 'git').map((e) => e.text)).toEqual([text]);
  });

  it('reports a branch change seen in the records', () => {
    const t = new TranscriptBuilder();
    t.user('a', { gitBranch: 'main' });
    t.user('b', { gitBranch: 'feat' });
    expect(kinds(extractWorkEvents(t.records()), 'git').map((e) => e.text)).toEqual(['branch changed: main → feat']);
  });

  it('reports an AskUserQuestion answer and an approved plan as decisions', () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'AskUserQuestion', { questions: [{ question: 'Which store?' }] });
    t.toolResult('t1', 'User has answered your questions: "Which store?"="git". You can now continue.');
    t.toolUse('t2', 'ExitPlanMode', { plan: 'Use git plumbing' });
    t.toolResult('t2', 'User has approved your plan.');
    expect(kinds(extractWorkEvents(t.records()), 'decision').map((e) => e.text)).toEqual([
      expect.stringContaining('"Which store?"="git"'),
      'plan approved: Use git plumbing',
    ]);
  });

  it('ignores sidechain records', () => {
    const t = new TranscriptBuilder();
    t.user('main request');
    t.toolUse('t1', 'Write', { file_path: '/p/side.ts' }, { isSidechain: true });
    t.toolResult('t1', 'ok', false, { isSidechain: true });
    t.user('side request', { isSidechain: true });
    const events = extractWorkEvents(t.records());
    expect(events).toEqual([expect.objectContaining({ kind: 'user-request', text: 'main request' })]);
  });

  it.each([
    ['a meta row', { isMeta: true }],
    ['a compact summary', { isCompactSummary: true }],
    ['a task notification', { origin: { kind: 'task-notification' } }],
  ])('does not take %s as the last user request', (_name, extra) => {
    const t = new TranscriptBuilder();
    t.user('real request');
    t.user('<summary>x</summary>', extra);
    expect(kinds(extractWorkEvents(t.records()), 'user-request').map((e) => e.text)).toEqual(['real request']);
  });

  it('does not take a tool result or /compact as the last user request, but takes a slash command', () => {
    const t = new TranscriptBuilder();
    t.user('<command-name>/review</command-name>\n<command-args>src</command-args>');
    t.toolUse('t1', 'Read', { file_path: '/a' });
    t.toolResult('t1', 'text');
    t.user('<command-name>/compact</command-name>');
    expect(kinds(extractWorkEvents(t.records()), 'user-request').map((e) => e.text)).toEqual(['/review src']);
  });

  it('reads a decision from last_assistant_message when the transcript lags behind it', () => {
    const t = new TranscriptBuilder();
    t.assistant('Looking.');
    const events = extractWorkEvents(t.records(), { lastAssistantMessage: 'Done. I decided to keep the cache. Next I run tests.' });
    expect(kinds(events, 'decision').map((e) => e.text)).toEqual(['I decided to keep the cache.']);
  });

  it('bounds every text to one short line and deduplicates repeats', () => {
    const t = new TranscriptBuilder();
    for (const id of ['t1', 't2']) {
      t.toolUse(id, 'Bash', { command: `false ${'x'.repeat(2000)}` });
      t.toolResult(id, `Exit code 1\n${'y\n'.repeat(500)}`, true);
    }
    const events = extractWorkEvents(t.records());
    expect(kinds(events, 'error')).toHaveLength(1);
    for (const e of events) {
      expect(e.text.length).toBeLessThanOrEqual(MAX_WORK_EVENT_TEXT);
      expect(e.text).not.toMatch(/\n/);
    }
  });

  it('returns nothing for no records', () => {
    expect(extractWorkEvents([])).toEqual([]);
  });
});
