import { extractCodexWorkState } from '../../../lib/hosts/codex/work-events';
import { patchFiles } from '../../../lib/hosts/codex/rollout-steps';
import { rollout, rolloutRecords } from './codex-fixtures';

const CWD = '/home/dev/project';
const kinds = (events: Array<{ kind: string; text: string }>, kind: string) => events.filter((e) => e.kind === kind).map((e) => e.text);

describe('extractCodexWorkState on the real rollout sample', () => {
  const { events, carry } = extractCodexWorkState(rolloutRecords());

  it('names the file apply_patch added, by the absolute path of its FileChange', () => {
    expect(events).toContainEqual(expect.objectContaining({ kind: 'file-modified', path: `${CWD}/notes.txt`, text: `${CWD}/notes.txt (apply_patch)` }));
  });

  it("reads the failing command's exit code from its CommandExecution item", () => {
    expect(kinds(events, 'error')).toContain('`echo failing >&2; exit 3` (exit 3): failing');
    expect(carry.openFailures).toContainEqual(expect.objectContaining({ signature: 'Bash:echo failing >&2; exit 3', text: '`echo failing >&2; exit 3` (exit 3): failing' }));
  });

  it('names a file a shell redirect wrote', () => {
    expect(events).toContainEqual(expect.objectContaining({ kind: 'file-modified', path: `${CWD}/hello.txt` }));
  });

  it("never takes the compaction's summary for the agent's words", () => {
    expect(JSON.stringify(events)).not.toContain('FAKE COMPACT SUMMARY');
  });

  it('takes the last typed prompt for the last user request', () => {
    expect(kinds(events, 'user-request').slice(-1)).toEqual(['fill the context']);
  });
});

describe('extractCodexWorkState', () => {
  it('reads the exit code from the function_call_output text when there is no CommandExecution item', () => {
    const { events } = extractCodexWorkState([rollout.turn(CWD), rollout.exec('c1', 'npm test'), rollout.output('c1', 1, 'E2E-FAILURE\n3 failing')]);
    expect(kinds(events, 'error')).toEqual(['`npm test` (exit 1): E2E-FAILURE — 3 failing']);
  });

  it('takes a call with no result yet at its word, with no error', () => {
    const { events } = extractCodexWorkState([rollout.turn(CWD), rollout.exec('c1', 'echo x > out.txt')]);
    expect(events.filter((e) => e.kind !== 'progress')).toEqual([expect.objectContaining({ kind: 'file-modified', path: `${CWD}/out.txt` })]);
  });

  it('pairs a failure with the same command succeeding in a later delta', () => {
    const first = extractCodexWorkState([rollout.turn(CWD), rollout.exec('c1', 'npm test'), rollout.ran('c1', 'npm test', 1, 'boom')]);
    const second = extractCodexWorkState([rollout.turn(CWD), rollout.exec('c2', 'npm test'), rollout.ran('c2', 'npm test', 0, 'ok')], { carry: first.carry });
    expect(second.events.filter((e) => e.kind === 'resolution')).toEqual([expect.objectContaining({ text: '`npm test` passed', resolves: '`npm test` (exit 1): boom' })]);
    expect(second.carry.openFailures).toEqual([]);
  });

  it("names the files Codex's command parser saw read, made absolute", () => {
    const parsed = [{ type: 'read', cmd: 'sed -n 1,20p src/a.ts', name: 'a.ts', path: 'src/a.ts' }];
    const { events } = extractCodexWorkState([rollout.turn(CWD), rollout.exec('c1', 'sed -n 1,20p src/a.ts'), rollout.ran('c1', 'sed -n 1,20p src/a.ts', 0, 'x', parsed)]);
    expect(events.filter((e) => e.kind !== 'progress')).toEqual([expect.objectContaining({ kind: 'file-read', path: `${CWD}/src/a.ts` })]);
  });

  it("falls back to the patch's own file headers when there is no FileChange item", () => {
    const patch = '*** Begin Patch\n*** Update File: src/b.ts\n@@\n-x\n+y\n*** End Patch\n';
    const { events } = extractCodexWorkState([rollout.turn(CWD), rollout.patch('p1', patch), rollout.patchOutput('p1', 0, 'Success.')]);
    expect(events.filter((e) => e.kind !== 'progress')).toEqual([expect.objectContaining({ kind: 'file-modified', path: `${CWD}/src/b.ts` })]);
  });

  it('reports a failed patch as an error, not as a modified file', () => {
    const patch = '*** Begin Patch\n*** Update File: src/b.ts\n@@\n-x\n+y\n*** End Patch\n';
    const { events } = extractCodexWorkState([rollout.turn(CWD), rollout.patch('p1', patch), rollout.patchOutput('p1', 1, 'apply_patch verification failed: context not found')], { projectRoot: CWD });
    expect(kinds(events, 'file-modified')).toEqual([]);
    expect(kinds(events, 'error')).toEqual(['apply_patch src/b.ts: apply_patch verification failed: context not found']);
  });

  it('names files relative to the project root, and under the home directory by ~', () => {
    const parsed = [{ type: 'read', cmd: 'cat ~/notes.md', name: 'notes.md', path: '/home/dev/notes.md' }];
    const patch = '*** Begin Patch\n*** Update File: src/b.ts\n@@\n-x\n+y\n*** End Patch\n';
    const { events } = extractCodexWorkState(
      [rollout.turn(CWD), rollout.patch('p1', patch), rollout.patchOutput('p1', 0, 'Success.'), rollout.exec('c1', 'cat ~/notes.md'), rollout.ran('c1', 'cat ~/notes.md', 0, 'x', parsed)],
      { projectRoot: CWD, homeDir: '/home/dev' },
    );
    expect(events.filter((e) => e.path !== undefined).map((e) => e.path)).toEqual(['src/b.ts', '~/notes.md']);
  });

  it('records a user correction and a decision from typed prompts', () => {
    const { events } = extractCodexWorkState([rollout.prompt("no, don't touch the parser"), rollout.prompt("let's use sqlite for the cache")]);
    expect(kinds(events, 'rejected')).toEqual(["rejected by the user: no, don't touch the parser"]);
    expect(kinds(events, 'decision')).toEqual(["user: let's use sqlite for the cache"]);
  });

  it("skips a slash command sent as text, and takes a decision from Stop's last message", () => {
    const { events } = extractCodexWorkState([rollout.prompt('/compact')], { lastAssistantMessage: 'I will use the v2 endpoint instead.' });
    expect(kinds(events, 'user-request')).toEqual([]);
    expect(kinds(events, 'decision')).toEqual(['I will use the v2 endpoint instead.']);
  });

  it('keeps goals as tasks', () => {
    const goal = rollout.line('response_item', { type: 'function_call', name: 'create_goal', arguments: JSON.stringify({ objective: 'ship the importer' }), call_id: 'g1' });
    expect(kinds(extractCodexWorkState([goal]).events, 'task')).toEqual(['[goal] ship the importer']);
  });
});

describe('patchFiles', () => {
  it('lists every file a patch adds, updates, deletes or moves to, once', () => {
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b.txt\n*** Move to: c.txt\n*** Delete File: d.txt\n*** Update File: a.txt\n*** End Patch';
    expect(patchFiles(patch)).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt']);
  });
});
