import { foldContract, isStated, NO_NEXT_STEP, UNKNOWN_OBJECTIVE, UNKNOWN_WAITING_ON, type ContractFields } from '../../lib/work-state/contract-fields';
import type { AutosaveEvent } from '../../lib/work-state/autosave-merge';

const start: ContractFields = { objective: UNKNOWN_OBJECTIVE, waiting_on: UNKNOWN_WAITING_ON, next_valid_action: '' };
const task = (text: string, previousDone = false): AutosaveEvent => ({ kind: 'user-request', intent: 'task', text, previousDone });
const said = (kind: string, text: string, extra: Partial<AutosaveEvent> = {}): AutosaveEvent => ({ kind, text, ...extra });
const fold = (events: AutosaveEvent[], from = start, openTask?: string) => foldContract(from, events, openTask);

describe('foldContract', () => {
  describe('objective', () => {
    it('follows a new task, and moves the finished one to Done', () => {
      const out = fold([task('Add the discount field'), task('Add rate limiting', true)]);
      expect(out.fields.objective).toBe('Add rate limiting');
      expect(out.done).toEqual(['task: Add the discount field']);
    });

    it('notes a task left unfinished as set aside, not as done', () => {
      const out = fold([task('Add the discount field'), { ...task('Add rate limiting', false), switchTask: true }]);
      expect(out.done).toEqual([]);
      expect(out.facts).toEqual(['set aside unfinished: Add the discount field']);
    });

    it.each(['chat', 'go-on'])('is never set by %s', (intent) => {
      expect(fold([said('user-request', 'Hi! How are you?', { intent })]).fields.objective).toBe(UNKNOWN_OBJECTIVE);
    });

    it('takes a question only when there is no objective yet', () => {
      expect(fold([said('user-request', 'What does this repo do?', { intent: 'question' })]).fields.objective).toBe(`Answer the user's question: "What does this repo do?"`);
      expect(fold([task('Fix the webhook'), said('user-request', 'What do you make of this log?', { intent: 'question' })]).fields.objective).toBe('Fix the webhook');
    });

    it("does not move an answered question to Done when a task follows", () => {
      const out = fold([said('user-request', 'What does this repo do?', { intent: 'question' }), task('Fix the webhook', true)]);
      expect(out.done).toEqual([]);
    });
  });

  describe('next_valid_action', () => {
    it("is the agent's own stated step", () => {
      expect(fold([task('x'), said('next-step', 'Wire the limiter into src/api/login.js')]).fields.next_valid_action).toBe('Wire the limiter into src/api/login.js');
    });

    it('stays the stated step across chat, and goes stale when a later turn works without stating one', () => {
      const stated = fold([task('x'), said('next-step', 'Update the fixture')]).fields;
      expect(fold([said('user-request', 'thanks', { intent: 'chat' })], stated).fields.next_valid_action).toBe('Update the fixture');
      expect(fold([said('user-request', 'go ahead', { intent: 'go-on' }), said('progress', '')], stated).fields.next_valid_action).toBe(NO_NEXT_STEP);
    });

    it('falls back to the last open task, then to an honest none captured', () => {
      expect(fold([task('x')], start, '"wire the hook" (in progress)').fields.next_valid_action).toBe('Continue the open task: "wire the hook" (in progress)');
      expect(fold([task('x')]).fields.next_valid_action).toBe(NO_NEXT_STEP);
      expect(NO_NEXT_STEP).toMatch(/^No next step captured/);
    });

    it('is reset by a new task', () => {
      const stated = fold([task('a'), said('next-step', 'Do a2')]).fields;
      expect(fold([{ ...task('b'), switchTask: true }], stated).fields.next_valid_action).toBe(NO_NEXT_STEP);
    });

    it('treats the fallbacks of earlier autosaves as not stated', () => {
      expect(isStated('No next action was captured; last user request: "Thanks!"')).toBe(false);
      expect(isStated('Continue the last open task captured by autosave: "[pending] x"')).toBe(false);
      expect(isStated('Convert connect() to a pool')).toBe(true);
    });
  });

  describe('waiting_on', () => {
    it('is the closing question until the user answers', () => {
      const asked = fold([task('x'), said('question', 'Should it be listed under Breaking?')]).fields;
      expect(asked.waiting_on).toBe(`The user's answer to: "Should it be listed under Breaking?"`);
      expect(fold([said('user-request', 'Breaking, yes', { intent: 'chat' })], asked).fields.waiting_on).toBe(UNKNOWN_WAITING_ON);
    });

    it('is a running background task until the host reports none, and a question outranks it', () => {
      const running = fold([said('waiting', '"integration suite" (running)', { source: 'background' })]).fields;
      expect(running.waiting_on).toBe('Background task "integration suite" (running)');
      expect(fold([said('waiting-cleared', '', { source: 'background' })], running).fields.waiting_on).toBe(UNKNOWN_WAITING_ON);
      expect(fold([said('question', 'Deploy now?'), said('waiting', 'CI is running', { source: 'ci' })]).fields.waiting_on).toMatch(/^The user's answer/);
    });

    it('keeps a CI wait across chat, and a cleared background task does not clear it', () => {
      const ci = fold([said('waiting', 'I am waiting for pipeline #4411', { source: 'ci' })]).fields;
      expect(fold([said('user-request', 'ok', { intent: 'go-on' }), said('waiting-cleared', '', { source: 'background' })], ci).fields.waiting_on).toBe('I am waiting for pipeline #4411');
    });
  });

  it("takes the summariser's fields as stated", () => {
    const out = fold([said('summary-field', 'Move sessions to Redis', { field: 'objective' }), said('summary-field', 'Inject the client', { field: 'next_valid_action' })]);
    expect(out.fields).toMatchObject({ objective: 'Move sessions to Redis', next_valid_action: 'Inject the client' });
  });
});

describe('foldContract: the task model', () => {
  const current = (events: AutosaveEvent[]) => fold([task('Fix the DST bug in src/time/schedule.ts'), ...events]);

  it.each([
    ['a request with no switch and no report of done', task('Add rate limiting to the login endpoint')],
    ['a follow-up after a report of done', { ...task('Add that DST test', true), followUp: true }],
    ['a request that names only what the last message named', task('Fix the script', true)],
  ])('keeps the current task through %s, noting it as a follow-up', (_what, event) => {
    const out = fold([task('Fix the DST bug in src/time/schedule.ts'), said('final-message', 'The deploy script fails on the DST check.', { quote: 'The deploy script fails on the DST check.' }), event]);
    expect(out.fields.objective).toBe('Fix the DST bug in src/time/schedule.ts');
    expect(out.facts).toEqual([`follow-up of the current task: ${event.text}`]);
    expect(out.done).toEqual([]);
  });

  it("keeps the current task when the request answers the agent's question, even after a report of done", () => {
    const out = current([said('question', 'Should I add a cap?'), task('Add the cap at 100', true)]);
    expect(out.fields.objective).toBe('Fix the DST bug in src/time/schedule.ts');
  });

  it('switches on an explicit new task, finished or not', () => {
    const out = current([{ ...task('Switch newOrderId to crypto.randomUUID'), switchTask: true }]);
    expect(out.fields.objective).toBe('Switch newOrderId to crypto.randomUUID');
    expect(out.facts).toEqual(['set aside unfinished: Fix the DST bug in src/time/schedule.ts']);
  });

  it('switches on a request for other work after the agent reported the current one done', () => {
    const out = current([task('Add pagination to the orders endpoint', true)]);
    expect(out.fields.objective).toBe('Add pagination to the orders endpoint');
    expect(out.done).toEqual(['task: Fix the DST bug in src/time/schedule.ts']);
  });

  it('never takes a placeholder as the objective, and still quotes it as the latest request', () => {
    const out = fold([{ kind: 'user-request', intent: 'chat', text: 'prompt 1', quote: 'prompt 1', placeholder: true, unread: true }]);
    expect(out.fields.objective).toBe(UNKNOWN_OBJECTIVE);
    expect(out.fields.latest_request).toBe('prompt 1');
  });

  it('takes an unread first request as the task as stated, and an unread later one as a follow-up of it, never a task or a switch', () => {
    const de = (text: string): AutosaveEvent => ({ kind: 'user-request', intent: 'chat', text, quote: text, unread: true, previousDone: true });
    const first = fold([de('Bitte schreib den Exporter so um, dass er streamt.')]);
    expect(first.fields.objective).toBe('Bitte schreib den Exporter so um, dass er streamt.');
    expect(first.fields.task_as_stated).toBe('Bitte schreib den Exporter so um, dass er streamt.');
    const later = fold([de('Und füge bitte noch einen Test hinzu.')], first.fields);
    expect(later.fields.objective).toBe('Bitte schreib den Exporter so um, dass er streamt.');
    expect(later.fields.latest_request).toBe('Und füge bitte noch einen Test hinzu.');
    expect(later.facts).toEqual(['follow-up of the current task: Und füge bitte noch einen Test hinzu.']);
  });

  it("quotes the client's own compaction summary as evidence, and labels nothing from it", () => {
    const out = current([said('compact-summary', 'Primary request: fix the DST bug.', { quote: '1. Primary Request and Intent: fix the DST bug. 6. Current Work: the test.' })]);
    expect(out.fields.compact_summary).toBe('1. Primary Request and Intent: fix the DST bug. 6. Current Work: the test.');
    expect(out.fields.objective).toBe('Fix the DST bug in src/time/schedule.ts');
    expect(out.fields.next_valid_action).toBe(NO_NEXT_STEP);
  });

  it('quotes the task as the user first stated it, and the final message of the last turn', () => {
    const out = fold([{ ...task('Add the cap.'), quote: 'Please, add the cap.' }, said('final-message', 'Added.', { quote: 'Added. Next step: run it.' })]);
    expect(out.fields.task_as_stated).toBe('Please, add the cap.');
    expect(out.fields.final_message).toBe('Added. Next step: run it.');
  });
});
