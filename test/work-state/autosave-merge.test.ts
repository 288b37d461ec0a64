import { parseCapsule } from '../../lib/capsule/parse';
import { renderCapsule } from '../../lib/capsule/render';
import { validateCapsuleText } from '../../lib/capsule/validate';
import { mergeAutosave, UNKNOWN_OBJECTIVE, UNKNOWN_WAITING_ON, type AutosaveContext, type AutosaveEvent } from '../../lib/work-state/autosave-merge';

const ctx = (minutes = 0): AutosaveContext => ({
  now: new Date(Date.UTC(2026, 10, 29, 21, minutes)),
  sessionId: 'be432d9d-65be-4eb2-b8b5-e7b9ae7fd1f1',
  newId: '01JDQ7000000000000000000AB',
  repoHead: '0123456789abcdef0123456789abcdef01234567',
  repoBranch: 'main',
});

const turn: AutosaveEvent[] = [
  { kind: 'file-read', text: '/p/src/a.ts', path: '/p/src/a.ts' },
  { kind: 'file-modified', text: '/p/src/a.ts (Edit)', path: '/p/src/a.ts' },
  { kind: 'error', text: 'Bash `npm test` failed: Exit code 1' },
  { kind: 'rejected', text: 'user correction: no, keep the old API' },
  { kind: 'decision', text: "Let's use the parser from lib/capsule." },
  { kind: 'git', text: 'git commit -m wip' },
  { kind: 'user-request', text: 'fix the failing parser test' },
];

/** The document as it is read back from the memory branch. */
const roundTrip = (doc: Parameters<typeof renderCapsule>[0]) => parseCapsule(renderCapsule(doc)).doc!;

describe('mergeAutosave', () => {
  it('writes explicit unknown markers and says plainly that no next action was captured', () => {
    const { doc, changed } = mergeAutosave(null, [], ctx());
    expect(changed).toBe(true);
    expect(doc.frontmatter).toMatchObject({ objective: UNKNOWN_OBJECTIVE, waiting_on: UNKNOWN_WAITING_ON, trigger: 'autosave', status: 'active' });
    expect(doc.frontmatter.next_valid_action).toMatch(/^No next action was captured/);
    expect(validateCapsuleText(renderCapsule(doc)).problems).toEqual([]);
  });

  it('folds one turn into the sections and takes the objective from the first user request', () => {
    const { doc } = mergeAutosave(null, turn, ctx());
    expect(doc.frontmatter.objective).toBe('fix the failing parser test');
    expect(doc.frontmatter.next_valid_action).toContain('"fix the failing parser test"');
    expect(doc.sections.files).toEqual(['read: /p/src/a.ts', 'modified: /p/src/a.ts']);
    expect(doc.sections.errors).toEqual(['Bash `npm test` failed: Exit code 1']);
    expect(doc.sections.rejected).toEqual(['user correction: no, keep the old API']);
    expect(doc.sections.done).toEqual(['git: git commit -m wip']);
    expect(doc.sections.facts).toContain("decision: Let's use the parser from lib/capsule.");
    expect(doc.frontmatter).toMatchObject({ repo_head: ctx().repoHead, repo_branch: 'main', session_id: ctx().sessionId });
    expect(validateCapsuleText(renderCapsule(doc)).problems).toEqual([]);
  });

  it('keeps the first objective and points the next action at the newest request', () => {
    const first = roundTrip(mergeAutosave(null, turn, ctx()).doc);
    const { doc } = mergeAutosave(first, [{ kind: 'user-request', text: 'now update the docs' }], ctx(5));
    expect(doc.frontmatter.objective).toBe('fix the failing parser test');
    expect(doc.frontmatter.next_valid_action).toContain('"now update the docs"');
    expect(doc.sections.facts.filter((f) => f.startsWith('last user request'))).toEqual(['last user request: now update the docs']);
  });

  it("takes a supervisor's message for neither the objective nor the next action", () => {
    const events: AutosaveEvent[] = [
      { kind: 'user-request', text: '[supervisor-resume] The context was cleared at the budget point by git capsule supervise.' },
      { kind: 'user-request', text: '[git-capsule supervise] The context holds about 160k tokens: past the hard point 158.8k.' },
      { kind: 'user-request', text: 'add the retry to the uploader' },
    ];
    const { doc } = mergeAutosave(null, events, ctx());
    expect(doc.frontmatter.objective).toBe('add the retry to the uploader');
    expect(doc.frontmatter.next_valid_action).not.toContain('supervis');
  });

  it('names the last open task and moves completed tasks to done', () => {
    const tasks: AutosaveEvent[] = [
      { kind: 'task', text: '[completed] write the parser' },
      { kind: 'task', text: '[in_progress] wire the hook' },
      { kind: 'user-request', text: 'go' },
    ];
    const first = roundTrip(mergeAutosave(null, [{ kind: 'task', text: '[pending] write the parser' }], ctx()).doc);
    const { doc } = mergeAutosave(first, tasks, ctx(1));
    expect(doc.sections.claimed).toEqual(['[in_progress] wire the hook']);
    expect(doc.sections.done).toContain('task completed: write the parser');
    expect(doc.frontmatter.next_valid_action).toBe('Continue the last open task captured by autosave: "[in_progress] wire the hook"');
  });

  it('reports no change, and keeps updated_at, when the same events arrive again', () => {
    const first = roundTrip(mergeAutosave(null, turn, ctx()).doc);
    const again = mergeAutosave(first, turn, ctx(9));
    expect(again.changed).toBe(false);
    expect(again.doc.frontmatter.updated_at).toBe(first.frontmatter.updated_at);
  });

  it('stamps updated_at and keeps id and created_at when the document changes', () => {
    const first = roundTrip(mergeAutosave(null, turn, ctx()).doc);
    const next = mergeAutosave(first, [{ kind: 'error', text: 'Bash `make` failed: Exit code 2' }], { ...ctx(9), newId: 'OTHER' });
    expect(next.changed).toBe(true);
    expect(next.doc.frontmatter).toMatchObject({ id: first.frontmatter.id, created_at: first.frontmatter.created_at, updated_at: '2026-11-29T21:09:00+00:00' });
  });

  it('bounds a section and counts what it folded', () => {
    const many = Array.from({ length: 55 }, (_, i) => ({ kind: 'file-read', text: `/p/f${i}.ts`, path: `/p/f${i}.ts` }));
    const { doc } = mergeAutosave(null, many, ctx());
    expect(doc.sections.files).toHaveLength(40);
    expect(doc.sections.files[0]).toBe('… 16 earlier items folded');
    expect(doc.sections.files[39]).toBe('read: /p/f54.ts');
  });

  it('links a parent capsule once and never replaces it', () => {
    const first = roundTrip(mergeAutosave(null, [], { ...ctx(), parentCapsuleId: 'PARENT1' }).doc);
    const { doc } = mergeAutosave(first, [{ kind: 'error', text: 'x failed' }], { ...ctx(1), parentCapsuleId: 'PARENT2' });
    expect(doc.frontmatter.parent_capsule_id).toBe('PARENT1');
  });
});
