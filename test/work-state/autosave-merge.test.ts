import { parseCapsule } from '../../lib/capsule/parse';
import { renderCapsule } from '../../lib/capsule/render';
import { validateCapsuleText } from '../../lib/capsule/validate';
import { AUTOSAVE_SECTION_MAX, mergeAutosave, NO_NEXT_STEP, UNKNOWN_OBJECTIVE, UNKNOWN_WAITING_ON, type AutosaveContext, type AutosaveEvent } from '../../lib/work-state/autosave-merge';

const ctx = (minutes = 0): AutosaveContext => ({
  now: new Date(Date.UTC(2026, 10, 29, 21, minutes)),
  sessionId: 'be432d9d-65be-4eb2-b8b5-e7b9ae7fd1f1',
  newId: '01JDQ7000000000000000000AB',
  repoHead: '0123456789abcdef0123456789abcdef01234567',
  repoBranch: 'main',
});

const turn: AutosaveEvent[] = [
  { kind: 'user-request', intent: 'task', text: 'fix the failing parser test' },
  { kind: 'file-read', text: 'src/a.ts', path: 'src/a.ts' },
  { kind: 'file-modified', text: 'src/a.ts (Edit)', path: 'src/a.ts' },
  { kind: 'error', text: '`npm test`: FAIL test/parser.test.js' },
  { kind: 'rejected', text: 'user correction: no, keep the old API' },
  { kind: 'decision', text: "Let's use the parser from lib/capsule." },
  { kind: 'git', text: 'git commit -m wip' },
  { kind: 'next-step', text: 'Run the parser tests again' },
];

/** The document as it is read back from the memory branch. */
const roundTrip = (doc: Parameters<typeof renderCapsule>[0]) => parseCapsule(renderCapsule(doc)).doc!;

describe('mergeAutosave', () => {
  it('writes explicit unknown markers and says plainly that no next step was captured', () => {
    const { doc, changed } = mergeAutosave(null, [], ctx());
    expect(changed).toBe(true);
    expect(doc.frontmatter).toMatchObject({ objective: UNKNOWN_OBJECTIVE, waiting_on: UNKNOWN_WAITING_ON, trigger: 'autosave', status: 'active', next_valid_action: NO_NEXT_STEP });
    expect(validateCapsuleText(renderCapsule(doc)).problems).toEqual([]);
  });

  it('folds one turn into the contract fields and the sections', () => {
    const { doc } = mergeAutosave(null, turn, ctx());
    expect(doc.frontmatter).toMatchObject({ objective: 'fix the failing parser test', next_valid_action: 'Run the parser tests again', waiting_on: UNKNOWN_WAITING_ON });
    expect(doc.sections.files).toEqual(['modified: src/a.ts']);
    expect(doc.sections.errors).toEqual(['open: `npm test`: FAIL test/parser.test.js']);
    expect(doc.sections.rejected).toEqual(['user correction: no, keep the old API']);
    expect(doc.sections.done).toEqual(['git: git commit -m wip']);
    expect(doc.sections.facts).toContain("decision: Let's use the parser from lib/capsule.");
    expect(doc.frontmatter).toMatchObject({ repo_head: ctx().repoHead, repo_branch: 'main', session_id: ctx().sessionId });
    expect(validateCapsuleText(renderCapsule(doc)).problems).toEqual([]);
  });

  it('rewrites an open error as resolved by what fixed it, and reopens it when it fails again', () => {
    const first = roundTrip(mergeAutosave(null, turn, ctx()).doc);
    const fixed = mergeAutosave(first, [{ kind: 'resolution', resolves: '`npm test`: FAIL test/parser.test.js', text: '`npm test` passed (Tests: 3 passed, 3 total)' }], ctx(1)).doc;
    expect(fixed.sections.errors).toEqual(['resolved: `npm test`: FAIL test/parser.test.js → `npm test` passed (Tests: 3 passed, 3 total)']);
    const again = mergeAutosave(fixed, [{ kind: 'error', text: '`npm test`: FAIL test/parser.test.js' }], ctx(2)).doc;
    expect(again.sections.errors).toEqual(['open: `npm test`: FAIL test/parser.test.js']);
  });

  it('puts what was reported finished and what now passes in Done, and a finished objective when a new task comes', () => {
    const first = roundTrip(mergeAutosave(null, turn, ctx()).doc);
    const { doc } = mergeAutosave(first, [
      { kind: 'done', text: 'reported: The parser tests pass now' },
      { kind: 'done', text: '`npm test` passed (Tests: 3 passed, 3 total)' },
      { kind: 'user-request', intent: 'task', text: 'now update the docs', previousDone: true },
    ], ctx(5));
    expect(doc.frontmatter.objective).toBe('now update the docs');
    expect(doc.frontmatter.next_valid_action).toBe(NO_NEXT_STEP);
    expect(doc.sections.done).toEqual(['git: git commit -m wip', 'task: fix the failing parser test', 'reported: The parser tests pass now', '`npm test` passed (Tests: 3 passed, 3 total)']);
  });

  it('lists a file once, modified wins over read, and a file touched again moves to the end', () => {
    const { doc } = mergeAutosave(null, [
      { kind: 'file-read', text: 'a', path: 'src/a.ts' },
      { kind: 'file-read', text: 'b', path: 'src/b.ts' },
      { kind: 'file-modified', text: 'a', path: 'src/a.ts' },
      { kind: 'file-read', text: 'a', path: 'src/a.ts' },
      { kind: 'file-read', text: 'c', path: 'src/c.ts' },
    ], ctx());
    expect(doc.sections.files).toEqual(['read: src/b.ts', 'modified: src/a.ts', 'read: src/c.ts']);
  });

  it('drops the last-user-request facts of earlier autosaves', () => {
    const legacy = roundTrip({ ...mergeAutosave(null, [], ctx()).doc, sections: { ...mergeAutosave(null, [], ctx()).doc.sections, facts: ['last user request: Thanks!', 'decision: keep it'] } });
    expect(mergeAutosave(legacy, [{ kind: 'git', text: 'git push' }], ctx(1)).doc.sections.facts).toEqual(['decision: keep it']);
  });

  it("takes a supervisor's message for neither the objective nor the next action", () => {
    const events: AutosaveEvent[] = [
      { kind: 'user-request', intent: 'task', text: '[supervisor-resume] The context was cleared at the budget point by git capsule supervise.' },
      { kind: 'user-request', intent: 'task', text: '[git-capsule supervise] The context holds about 160k tokens: past the hard point 158.8k.' },
      { kind: 'user-request', intent: 'task', text: 'add the retry to the uploader' },
    ];
    const { doc } = mergeAutosave(null, events, ctx());
    expect(doc.frontmatter.objective).toBe('add the retry to the uploader');
    expect(doc.frontmatter.next_valid_action).not.toContain('supervis');
  });

  it('names the last open task when no step was stated, and moves completed tasks to done', () => {
    const tasks: AutosaveEvent[] = [
      { kind: 'task', text: '[completed] write the parser' },
      { kind: 'task', text: '[in_progress] wire the hook' },
      { kind: 'user-request', intent: 'go-on', text: 'go' },
    ];
    const first = roundTrip(mergeAutosave(null, [{ kind: 'task', text: '[pending] write the parser' }], ctx()).doc);
    const { doc } = mergeAutosave(first, tasks, ctx(1));
    expect(doc.sections.claimed).toEqual(['[in_progress] wire the hook']);
    expect(doc.sections.done).toContain('task completed: write the parser');
    expect(doc.frontmatter.next_valid_action).toBe('Continue the open task: "wire the hook" (in progress)');
  });

  it('reports no change, and keeps updated_at, when the same events arrive again', () => {
    const first = roundTrip(mergeAutosave(null, turn, ctx()).doc);
    const again = mergeAutosave(first, turn, ctx(9));
    expect(again.changed).toBe(false);
    expect(again.doc.frontmatter.updated_at).toBe(first.frontmatter.updated_at);
  });

  it('stamps updated_at and keeps id and created_at when the document changes', () => {
    const first = roundTrip(mergeAutosave(null, turn, ctx()).doc);
    const next = mergeAutosave(first, [{ kind: 'error', text: '`make`: Error 2' }], { ...ctx(9), newId: 'OTHER' });
    expect(next.changed).toBe(true);
    expect(next.doc.frontmatter).toMatchObject({ id: first.frontmatter.id, created_at: first.frontmatter.created_at, updated_at: '2026-11-29T21:09:00+00:00' });
  });

  it('bounds a section and counts what it folded', () => {
    const max = AUTOSAVE_SECTION_MAX.files;
    const many = Array.from({ length: max + 15 }, (_, i) => ({ kind: 'file-read', text: `f${i}`, path: `src/f${i}.ts` }));
    const { doc } = mergeAutosave(null, many, ctx());
    expect(doc.sections.files).toHaveLength(max);
    expect(doc.sections.files[0]).toBe('… 16 earlier items folded');
    expect(doc.sections.files[max - 1]).toBe(`read: src/f${max + 14}.ts`);
  });

  it('folds resolved errors before open ones when the section is full', () => {
    const events: AutosaveEvent[] = [{ kind: 'error', text: 'keep me open' }];
    const max = AUTOSAVE_SECTION_MAX.errors;
    for (let i = 0; i < max + 5; i++) events.push({ kind: 'error', text: `e${i}` }, { kind: 'resolution', resolves: `e${i}`, text: 'fixed' });
    const { doc } = mergeAutosave(null, events, ctx());
    expect(doc.sections.errors).toHaveLength(max);
    expect(doc.sections.errors).toContain('open: keep me open');
    expect(doc.sections.errors[0]).toBe('… 7 earlier items folded');
  });

  it("carries the open failures' pairing data in open_checks, and removes it once none is open", () => {
    const check = JSON.stringify({ text: '`npm test` (exit 1): boom', signature: 'Bash:npm test', family: 'npm test', args: [], kind: 'test' });
    const open = roundTrip(mergeAutosave(null, turn, { ...ctx(), openChecks: [check] }).doc);
    expect(open.frontmatter.open_checks).toEqual([check]);
    expect(validateCapsuleText(renderCapsule(open)).problems).toEqual([]);
    const closed = mergeAutosave(open, [{ kind: 'resolution', text: '`npm test` passed', resolves: '`npm test` (exit 1): boom' }], { ...ctx(1), openChecks: [] }).doc;
    expect(closed.frontmatter.open_checks).toBeUndefined();
  });

  it('links a parent capsule once and never replaces it', () => {
    const first = roundTrip(mergeAutosave(null, [], { ...ctx(), parentCapsuleId: 'PARENT1' }).doc);
    const { doc } = mergeAutosave(first, [{ kind: 'error', text: 'x failed' }], { ...ctx(1), parentCapsuleId: 'PARENT2' });
    expect(doc.frontmatter.parent_capsule_id).toBe('PARENT1');
  });
});

describe('mergeAutosave: the task list as state', () => {
  const task = (text: string): AutosaveEvent => ({ kind: 'task', text });

  it('keeps one row per subject, its latest status, pending rows in their order', () => {
    const { doc } = mergeAutosave(null, [task('[pending] parse'), task('[pending] render'), task('[pending] ship'), task('[in_progress] parse')], ctx());
    expect(doc.sections.claimed).toEqual(['[pending] render', '[pending] ship', '[in_progress] parse']);
    expect(doc.frontmatter.next_valid_action).toBe('Continue the open task: "parse" (in progress)');
  });

  it('names the first pending task when none is in progress, and moves completed ones to Done', () => {
    const { doc } = mergeAutosave(null, [task('[pending] parse'), task('[pending] render'), task('[completed] parse')], ctx());
    expect(doc.sections.claimed).toEqual(['[pending] render']);
    expect(doc.sections.done).toContain('task completed: parse');
    expect(doc.frontmatter.next_valid_action).toBe('Continue the open task: "render" (pending, the next in the task list)');
  });

  it('carries rows across a /clear by subject: the next session updates them under new ids', () => {
    const before = roundTrip(mergeAutosave(null, [task('[pending] parse'), task('[pending] render')], ctx()).doc);
    const { doc } = mergeAutosave(before, [task('[completed] parse'), task('[in_progress] render')], ctx(1));
    expect(doc.sections.claimed).toEqual(['[in_progress] render']);
  });

  it('never names a row that carries only an id as the next step', () => {
    const { doc } = mergeAutosave(null, [task('[in_progress] task 3')], ctx());
    expect(doc.frontmatter.next_valid_action).toBe(NO_NEXT_STEP);
  });

  it("keeps a subagent's finding among the facts", () => {
    const { doc } = mergeAutosave(null, [{ kind: 'finding', text: 'short', quote: 'subagent "x" reported: root cause in src/a.ts' }], ctx());
    expect(doc.sections.facts).toEqual(['subagent "x" reported: root cause in src/a.ts']);
  });
});

describe('mergeAutosave: every modified file is kept', () => {
  it('drops files only read before any modified one when the section is full', () => {
    const events: AutosaveEvent[] = [];
    for (let i = 0; i < 60; i++) events.push({ kind: 'file-modified', text: `src/m${i}.ts (Edit)`, path: `src/m${i}.ts` });
    for (let i = 0; i < 200; i++) events.push({ kind: 'file-read', text: `src/r${i}.ts`, path: `src/r${i}.ts` });
    const { doc } = mergeAutosave(null, events, ctx());
    for (let i = 0; i < 60; i++) expect(doc.sections.files).toContain(`modified: src/m${i}.ts`);
  });
});
