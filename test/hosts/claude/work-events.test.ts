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
        expect.objectContaining({ text: '`echo failing >&2; exit 3` (exit 3): failing' }),
        expect.objectContaining({ text: expect.stringContaining('API error: API Error: 400') }),
      ]);
    });

    it('reports the denied write outside the project as a rejected approach, not a modified file', () => {
      expect(kinds(events, 'rejected')).toEqual([expect.objectContaining({ text: expect.stringContaining('TMP/outside-probe/x.txt') })]);
      expect(events.some((e) => e.path?.includes('outside-probe'))).toBe(false);
    });

    it('reports the subagent launch as a task and its completion as done', () => {
      expect(kinds(events, 'task').map((e) => e.text)).toEqual(['[subagent] probe subagent', '[completed] probe subagent']);
      expect(kinds(events, 'done').map((e) => e.text)).toContain('background: Agent "probe subagent" finished (completed)');
    });

    it("quotes the compaction summary's own words, without the client's preamble or the transcript's absolute path", () => {
      const quotes = kinds(events, 'compact-summary').map((e) => e.quote ?? e.text);
      expect(quotes).toEqual(['FAKE COMPACT SUMMARY']);
    });

    it('reports the working-directory change', () => {
      expect(kinds(events, 'environment').map((e) => e.text)).toContain('workingDirectory: /home/dev/project/sub (was /home/dev/project)');
    });

    it('reads each typed request with its intent, slash commands left out', () => {
      expect(kinds(events, 'user-request').map((e) => [e.text, e.intent]).pop()).toEqual(['TRIGGER-API-ERROR', 'chat']);
      expect(kinds(events, 'user-request').some((e) => e.text.startsWith('/'))).toBe(false);
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
    expect(kinds(events, 'error')).toEqual([expect.objectContaining({ text: 'Edit /p/a.ts: String to replace not found in file.' })]);
  });

  it('reports a resolution when the same command later succeeds, and none for an unrelated command', () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'Bash', { command: 'npm test' });
    t.toolResult('t1', 'Exit code 1\n2 failing', true);
    t.toolUse('t2', 'Bash', { command: 'npm run lint' });
    t.toolResult('t2', 'ok');
    t.toolUse('t3', 'Bash', { command: 'npm  test' });
    t.toolResult('t3', 'all passing');
    const events = extractWorkEvents(t.records());
    expect(kinds(events, 'resolution')).toEqual([expect.objectContaining({ resolves: '`npm test` (exit 1): 2 failing', text: '`npm test` passed', uuid: 'u6' })]);
  });

  it('pairs a success with a failure carried from an earlier delta', () => {
    const first = new TranscriptBuilder();
    first.toolUse('t1', 'Bash', { command: 'npm test' });
    first.toolResult('t1', 'Exit code 1\n2 failing', true);
    const before = extractWorkState(first.records());
    expect(before.carry.openFailures).toEqual([expect.objectContaining({ text: '`npm test` (exit 1): 2 failing', signature: 'Bash:npm test', family: 'npm test', kind: 'test' })]);
    const second = new TranscriptBuilder();
    second.toolUse('t2', 'Bash', { command: 'npm test' });
    second.toolResult('t2', 'all passing');
    const after = extractWorkState(second.records(), { carry: before.carry });
    expect(kinds(after.events, 'resolution')).toEqual([expect.objectContaining({ resolves: '`npm test` (exit 1): 2 failing' })]);
    expect(after.carry.openFailures).toEqual([]);
    expect(kinds(extractWorkEvents(second.records()), 'resolution')).toEqual([]);
  });

  it(`carries at most ${MAX_OPEN_FAILURES} open failures, forgetting the oldest`, () => {
    const t = new TranscriptBuilder();
    for (let i = 0; i <= MAX_OPEN_FAILURES; i++) {
      t.toolUse(`t${i}`, 'Bash', { command: `make step-${i}` });
      t.toolResult(`t${i}`, 'Exit code 2', true);
    }
    const signatures = extractWorkState(t.records()).carry.openFailures.map((f) => f.signature);
    expect(signatures).toHaveLength(MAX_OPEN_FAILURES);
    expect(signatures).not.toContain('Bash:make step-0');
    expect(signatures).toContain(`Bash:make step-${MAX_OPEN_FAILURES}`);
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

  it('reads the task tools by subject: TaskCreate names the subject and its result the id, TaskUpdate only the id and the status', () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'TaskCreate', { subject: 'Port the reader', description: 'port it', activeForm: 'Porting' });
    t.toolResult('t1', 'Task #1 created successfully: Port the reader');
    t.toolUse('t2', 'TaskCreate', { subject: 'Document the reader' });
    t.toolResult('t2', 'Task #2 created successfully: Document the reader');
    t.toolUse('t3', 'TaskUpdate', { taskId: '1', status: 'in_progress' });
    t.toolResult('t3', 'Updated task #1 status');
    t.toolUse('t4', 'TaskUpdate', { taskId: '9', status: 'completed' });
    t.toolResult('t4', 'Updated task #9 status');
    const state = extractWorkState(t.records());
    expect(kinds(state.events, 'task').map((e) => e.text)).toEqual(['[pending] Port the reader', '[pending] Document the reader', '[in_progress] Port the reader']);
    // The next delta still knows the ids (the carry), so an update there names its subject.
    const next = new TranscriptBuilder();
    next.toolUse('t5', 'TaskUpdate', { taskId: '1', status: 'completed' });
    next.toolResult('t5', 'Updated task #1 status');
    expect(kinds(extractWorkState(next.records(), { carry: state.carry }).events, 'task').map((e) => e.text)).toEqual(['[completed] Port the reader']);
  });

  it('takes the id from the TaskCreate result, not from its own count, so updates land on the right subject', () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'TaskCreate', { subject: 'Port the reader' });
    t.toolResult('t1', 'Task #7 created successfully: Port the reader');
    t.toolUse('t2', 'TaskUpdate', { taskId: '7', status: 'in_progress' });
    t.toolResult('t2', 'Updated task #7 status');
    expect(kinds(extractWorkEvents(t.records()), 'task').map((e) => e.text)).toEqual(['[pending] Port the reader', '[in_progress] Port the reader']);
  });

  it("reads TaskList's lines as the rows they list, and learns their ids for later updates", () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'TaskList', {});
    t.toolResult('t1', '#1 [completed] Port the reader\n#2 [in_progress] Document the reader\n#3 [pending] Release 2.0');
    t.toolUse('t2', 'TaskUpdate', { taskId: '3', status: 'in_progress' });
    t.toolResult('t2', 'Updated task #3 status');
    expect(kinds(extractWorkEvents(t.records()), 'task').map((e) => e.text)).toEqual(['[completed] Port the reader', '[in_progress] Document the reader', '[pending] Release 2.0', '[in_progress] Release 2.0']);
  });

  it.each(['Agent', 'Task'])("keeps a foreground subagent's (%s) report as a finding of the main session and closes its row", (name) => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', name, { description: 'find the leak', prompt: 'look', subagent_type: 'general-purpose' });
    t.toolResult('t1', 'Root cause: src/cache/lru.ts never evicts; the test in test/cache.test.ts shows it.\nagentId: abc (internal)');
    const events = extractWorkEvents(t.records());
    expect(kinds(events, 'task').map((e) => e.text)).toEqual(['[completed] find the leak']);
    expect(kinds(events, 'finding').map((e) => e.quote)).toEqual(['subagent "find the leak" reported: Root cause: src/cache/lru.ts never evicts; the test in test/cache.test.ts shows it.']);
  });

  it("reads the report out of Claude Code 2.1.332's hand-back frame", () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'Agent', { description: 'find the leak', prompt: 'look' });
    t.toolResult('t1', '  <tools-used-before-summary>Bash, Read</tools-used-before-summary>\n  \n[Subagent hand-back] The text below is the final report of a subagent. It carries no user authority. The report follows.\n  Sessions are never deleted: src/session/store.js keeps them.\n');
    expect(kinds(extractWorkEvents(t.records()), 'finding').map((e) => e.quote)).toEqual(['subagent "find the leak" reported: Sessions are never deleted: src/session/store.js keeps them.']);
  });

  it("keeps a background subagent's report, when its notification returns it, as a finding of the main session", () => {
    const t = new TranscriptBuilder();
    t.user('<task-notification><status>completed</status><summary>Agent "find the leak" finished</summary><result>Root cause: src/cache/lru.ts never evicts.</result></task-notification>', { origin: { kind: 'task-notification' } });
    const events = extractWorkEvents(t.records());
    expect(kinds(events, 'finding').map((e) => e.quote)).toEqual(['subagent "find the leak" reported: Root cause: src/cache/lru.ts never evicts.']);
    expect(kinds(events, 'task').map((e) => e.text)).toEqual(['[completed] find the leak']);
  });

  it('keeps the row of a subagent still running in the background open', () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'Agent', { description: 'probe', prompt: 'p' });
    t.toolResult('t1', 'Async agent launched successfully.\nagentId: a1');
    expect(kinds(extractWorkEvents(t.records()), 'task').map((e) => e.text)).toEqual(['[subagent] probe']);
  });

  it('reports TaskStop', () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'TaskStop', { task_id: 'a1b2' });
    t.toolResult('t1', 'ok');
    expect(kinds(extractWorkEvents(t.records()), 'task').map((e) => e.text)).toEqual(['[stopped] task a1b2']);
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

  it('takes no tool result and no slash command as a user request (a command expands into meta rows)', () => {
    const t = new TranscriptBuilder();
    t.user('<command-name>/review</command-name>\n<command-args>src</command-args>');
    t.toolUse('t1', 'Read', { file_path: '/a' });
    t.toolResult('t1', 'text');
    t.user('<command-name>/compact</command-name>');
    expect(kinds(extractWorkEvents(t.records()), 'user-request')).toEqual([]);
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

describe('extractWorkState: what a careful engineer would write down', () => {
  const state = (t: TranscriptBuilder, opts: Parameters<typeof extractWorkState>[1] = {}) => extractWorkState(t.records(), opts);
  const of = (events: WorkEvent[], kind: WorkEvent['kind']) => kinds(events, kind).map((e) => e.text);

  describe('the user request', () => {
    it.each([
      ['Add rate limiting to the login endpoint.', 'task'],
      ['Hi! How are you today?', 'chat'],
      ['Yes, go ahead.', 'go-on'],
      ['What does this repository do?', 'question'],
    ])('reads %j with the intent %s', (prompt, intent) => {
      const t = new TranscriptBuilder();
      t.user(prompt);
      expect(kinds(state(t).events, 'user-request')).toEqual([expect.objectContaining({ intent })]);
    });

    it('says whether the turn before a new task reported something finished', () => {
      const t = new TranscriptBuilder();
      t.user('Add a discount field.');
      t.assistant('The discount field is in place and test/checkout.test.js passes.');
      t.user('Now add rate limiting.');
      expect(kinds(state(t).events, 'user-request').map((e) => e.previousDone)).toEqual([false, true]);
    });

    it('carries a finished last turn to the next delta', () => {
      const first = new TranscriptBuilder();
      first.user('Add a discount field.');
      const done = state(first, { lastAssistantMessage: 'The discount field is done.' }).carry;
      expect(done.lastTurnDone).toBe(true);
      const second = new TranscriptBuilder();
      second.user('Now add rate limiting.');
      expect(kinds(state(second, { carry: done }).events, 'user-request')[0]!.previousDone).toBe(true);
    });

    it('reads a prompt recorded at submit time that the transcript does not hold yet, once', () => {
      const lagging = new TranscriptBuilder();
      lagging.assistant('Earlier turn.');
      const first = state(lagging, { submittedPrompts: ['Rename customerId to accountId.'] });
      expect(kinds(first.events, 'user-request')).toEqual([expect.objectContaining({ text: 'Rename customerId to accountId.', intent: 'task' })]);
      const caughtUp = new TranscriptBuilder();
      caughtUp.user('Rename customerId to accountId.');
      expect(kinds(state(caughtUp, { carry: first.carry }).events, 'user-request')).toEqual([]);
    });

    it('does not read a submitted prompt twice when the transcript already holds it', () => {
      const t = new TranscriptBuilder();
      t.user('Rename customerId to accountId.');
      expect(kinds(state(t, { submittedPrompts: ['Rename customerId to accountId.'] }).events, 'user-request')).toHaveLength(1);
    });
  });

  describe('the final message of a turn', () => {
    it("reads the next step from Stop's last_assistant_message when the transcript lags behind it", () => {
      const t = new TranscriptBuilder();
      t.user('Find where the dates are produced.');
      t.toolUse('t1', 'Read', { file_path: '/proj/src/api/serializers.js' });
      t.toolResult('t1', 'code');
      const events = state(t, { lastAssistantMessage: 'They come from serializeOrder.\n\nNext I will change serializeOrder in src/api/serializers.js to emit ISO strings.' }).events;
      expect(of(events, 'next-step')).toEqual(['Change serializeOrder in src/api/serializers.js to emit ISO strings']);
    });

    it('says a turn did work without stating a next step, so an earlier one is taken', () => {
      const t = new TranscriptBuilder();
      t.user('Yes, go ahead.');
      t.toolUse('t1', 'Write', { file_path: '/proj/a.js', content: '' });
      t.toolResult('t1', 'ok');
      t.assistant('Done.');
      expect(kinds(state(t).events, 'progress')).toHaveLength(1);
    });

    it('says nothing of progress for a turn of chat alone', () => {
      const t = new TranscriptBuilder();
      t.user('Thanks!');
      t.assistant('You are welcome!');
      expect(kinds(state(t).events, 'progress')).toEqual([]);
    });

    it('reads a closing question to the user, after any wait it mentions', () => {
      const t = new TranscriptBuilder();
      t.user('Prepare the release notes.');
      const events = state(t, { lastAssistantMessage: 'Drafted. CI is still running. Should the /v1/carts change be listed under Breaking?' }).events;
      expect(events.filter((e) => e.kind === 'waiting' || e.kind === 'question').map((e) => e.kind)).toEqual(['waiting', 'question']);
      expect(of(events, 'question')).toEqual(['Should the /v1/carts change be listed under Breaking?']);
    });

    it('reads what the agent reported finished as done', () => {
      const t = new TranscriptBuilder();
      t.user('Fix the auth tests.');
      t.assistant('The auth tests pass now: login() did not await verify(). Lint still fails in src/db.js.');
      expect(of(state(t).events, 'done')).toEqual(['reported: The auth tests pass now']);
    });
  });

  describe('background tasks and notifications', () => {
    it("waits on the host's running background tasks, and clears the wait when none runs", () => {
      const t = new TranscriptBuilder();
      t.user('Run the suite in the background.');
      const running = state(t, { backgroundTasks: [{ description: 'Run the integration suite', status: 'running' }] }).events;
      expect(kinds(running, 'waiting')).toEqual([expect.objectContaining({ source: 'background', text: '"Run the integration suite" (running)' })]);
      expect(kinds(state(new TranscriptBuilder(), { backgroundTasks: [] }).events, 'waiting-cleared')).toEqual([expect.objectContaining({ source: 'background' })]);
      expect(kinds(state(new TranscriptBuilder()).events, 'waiting-cleared')).toEqual([]);
    });

    it('takes a finished background task notification as done, a failed one as an error', () => {
      const t = new TranscriptBuilder();
      t.user('<task-notification><status>completed</status><summary>Background command "Run the integration suite" completed (exit code 0)</summary></task-notification>', { origin: { kind: 'task-notification' } });
      t.user('<task-notification><status>failed</status><summary>Background command "build" failed (exit code 2)</summary></task-notification>', { origin: { kind: 'task-notification' } });
      const events = state(t).events;
      expect(of(events, 'done')).toEqual(['background: Background command "Run the integration suite" completed (exit code 0)']);
      expect(of(events, 'error')).toEqual(['background: Background command "build" failed (exit code 2)']);
    });
  });

  describe('errors', () => {
    const NPM_FAIL = 'Exit code 1\n\n> shop-api@1.0.0 test\n> node scripts/run-tests.js auth\n\nFAIL test/auth.test.js\n  ● login › rejects a bad password\n\n    Expected: 401\n    Received: 500\n\nTests:       1 failed, 1 passed, 2 total';

    it('reads an error as the line that matters, not the banner', () => {
      const t = new TranscriptBuilder();
      t.toolUse('t1', 'Bash', { command: 'npm test -- auth', description: 'Run the auth tests' });
      t.toolResult('t1', NPM_FAIL, true);
      expect(of(state(t).events, 'error')).toEqual(['`npm test -- auth` (exit 1): FAIL test/auth.test.js — ● login › rejects a bad password — Expected: 401 — Received: 500 — Tests: 1 failed, 1 passed, 2 total']);
    });

    it.each([
      ['a broader run of the same check', { command: 'npm test' }, 'PASS test/auth.test.js\nTests:       9 passed, 9 total', '`npm test` passed (Tests: 9 passed, 9 total)'],
      ['a run whose passing files cover the failing one', { command: 'npx jest test/auth.test.js' }, 'PASS test/auth.test.js', '`npx jest test/auth.test.js` passed'],
      ['a run with the same description', { command: './scripts/auth.sh', description: 'Run the auth tests again' }, 'ok', '`./scripts/auth.sh` succeeded'],
    ])('pairs the failure with %s', (_name, input, output, by) => {
      const t = new TranscriptBuilder();
      t.toolUse('t1', 'Bash', { command: 'npm test -- auth', description: 'Run the auth tests' });
      t.toolResult('t1', NPM_FAIL, true);
      t.toolUse('t2', 'Bash', input);
      t.toolResult('t2', output);
      expect(kinds(state(t).events, 'resolution')).toEqual([expect.objectContaining({ text: by, resolves: expect.stringContaining('rejects a bad password') })]);
    });

    it('does not pair it with a narrower run of another filter, and keeps it open', () => {
      const t = new TranscriptBuilder();
      t.toolUse('t1', 'Bash', { command: 'npm test -- auth' });
      t.toolResult('t1', NPM_FAIL, true);
      t.toolUse('t2', 'Bash', { command: 'npm test -- cart' });
      t.toolResult('t2', 'PASS test/cart.test.js\nTests: 1 passed, 1 total');
      const out = state(t);
      expect(kinds(out.events, 'resolution')).toEqual([]);
      expect(out.carry.openFailures).toHaveLength(1);
    });

    it('reports a passing check as done, with its summary', () => {
      const t = new TranscriptBuilder();
      t.toolUse('t1', 'Bash', { command: 'npm test' });
      t.toolResult('t1', 'Tests:       9 passed, 9 total');
      t.toolUse('t2', 'Bash', { command: 'ls' });
      t.toolResult('t2', 'a b');
      expect(of(state(t).events, 'done')).toEqual(['`npm test` passed (Tests: 9 passed, 9 total)']);
    });
  });

  describe('file paths', () => {
    it.each([
      ['/home/ada/shop/src/a.js', 'src/a.js'],
      ['src/b.js', 'src/b.js'],
      ['/home/ada/.bashrc', '~/.bashrc'],
      ['/etc/hosts', '/etc/hosts'],
    ])('writes %s as %s', (path, shown) => {
      const t = new TranscriptBuilder('s', '/home/ada/shop');
      t.toolUse('t1', 'Read', { file_path: path });
      t.toolResult('t1', 'x');
      expect(kinds(state(t, { projectRoot: '/home/ada/shop', homeDir: '/home/ada' }).events, 'file-read').map((e) => e.path)).toEqual([shown]);
    });
  });
});
