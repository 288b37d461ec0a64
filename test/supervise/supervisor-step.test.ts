import { resolveBudget } from '../../lib/budget/resolve-budget';
import { userMessageLine } from '../../lib/supervise/input-lines';
import type { SupervisorCommand, SupervisorEvent, SupervisorReport } from '../../lib/supervise/supervisor-events';
import { initialState, type SupervisorOptions, type SupervisorState } from '../../lib/supervise/supervisor-state';
import { HOOK_BLOCK_GRACE_MS, stepSupervisor } from '../../lib/supervise/supervisor-step';

// The real policy: claude-sonnet-4-5, no settings: native 167,000, hard 158,808, warning 142,424.
const OK = resolveBudget({ model: 'claude-sonnet-4-5', env: {}, settings: {}, margins: {} }).resolution;
const NO_AUTO_COMPACT = resolveBudget({ model: 'claude-sonnet-4-5', env: { DISABLE_AUTO_COMPACT: '1' }, settings: {}, margins: {} }).resolution;
const SUPPRESSED = resolveBudget({ model: 'claude-sonnet-4-5', env: { DISABLE_COMPACT: '1' }, settings: {}, margins: {} }).resolution;
const CAP = '01JD3Z8M2V6K6Y9Q2W4R5T7X8C';
const WAIT = 5000;

const OPTIONS: SupervisorOptions = { resetAt: { kind: 'hard' }, continuation: '[supervisor-resume] go on', maxResets: null, capsuleWaitMs: WAIT, holdPollMs: 1000 };

/** A supervisor driven event by event, keeping everything it said. */
class Drive {
  state: SupervisorState;
  now = 1_000_000;
  hold: string | null = null;
  commands: SupervisorCommand[] = [];

  constructor(options: Partial<SupervisorOptions> = {}) {
    this.state = initialState({ ...OPTIONS, ...options });
  }

  on(...events: SupervisorEvent[]): SupervisorCommand[] {
    const out: SupervisorCommand[] = [];
    for (const event of events) {
      const step = stepSupervisor(this.state, event, { now: this.now, conductorHold: () => this.hold });
      this.state = step.state;
      out.push(...step.commands);
    }
    this.commands.push(...out);
    return out;
  }

  /** The contents of every line sent so far, in order (`/clear` and the continuation included). */
  sent(): string[] {
    return this.commands.filter((c): c is Extract<SupervisorCommand, { type: 'send' }> => c.type === 'send').map((c) => JSON.parse(c.line).message?.content ?? c.line);
  }

  reports(kind?: SupervisorReport['kind']): SupervisorReport[] {
    return this.commands.flatMap((c) => (c.type === 'report' && (kind === undefined || c.report.kind === kind) ? [c.report] : []));
  }

  phases(): string[] {
    return this.commands.flatMap((c) => (c.type === 'phase' ? [c.phase] : []));
  }
}

const input = (text: string): SupervisorEvent => ({ type: 'input', line: userMessageLine(text) });
const result: SupervisorEvent = { type: 'result', localCommand: null, queued: 0 };
const clearResult: SupervisorEvent = { type: 'result', localCommand: 'clear', queued: 0 };
const fill = (tokens: number, resolution = OK): SupervisorEvent => ({ type: 'fill', tokens, resolution });
const literal = (id = CAP): SupervisorEvent => ({ type: 'assistant-text', text: `Saved.\ncapsule written: ${id}` });

/** A session that reaches the hard point in its second turn, where the hook's block asks for the capsule. */
function atHardPoint(d: Drive, withBlock = true): void {
  d.on({ type: 'session', id: 's1' }, input('one'), fill(20_000), result, input('two'), fill(160_000));
  if (withBlock) d.on({ type: 'budget-block' });
}

describe('stepSupervisor', () => {
  describe('passing the user messages', () => {
    it('sends one message at a time, the next only after the running turn has its result', () => {
      const d = new Drive();
      d.on(input('a'), input('b'), input('c'));
      expect(d.sent()).toEqual(['a']);
      d.on(result);
      expect(d.sent()).toEqual(['a', 'b']);
      d.on(result, result);
      expect(d.sent()).toEqual(['a', 'b', 'c']);
    });

    it('holds a message while a turn the client started by itself runs', () => {
      const d = new Drive();
      d.on({ type: 'activity' }, input('a'));
      expect(d.sent()).toEqual([]);
      d.on(result);
      expect(d.sent()).toEqual(['a']);
    });

    it('stays quiet while the client still has queued turns', () => {
      const d = new Drive();
      d.on(input('a'), input('b'), { type: 'result', localCommand: null, queued: 1 });
      expect(d.sent()).toEqual(['a']);
      d.on(result);
      expect(d.sent()).toEqual(['a', 'b']);
    });

    it('passes a control line at once, even mid-turn', () => {
      const d = new Drive();
      d.on(input('a'));
      const out = d.on({ type: 'control', line: '{"type":"control_response"}' });
      expect(out).toEqual([{ type: 'send', line: '{"type":"control_response"}', what: 'control' }]);
    });

    it('ends the client input only when the input ended, nothing is queued and no turn runs', () => {
      const d = new Drive();
      d.on(input('a'), input('b'), { type: 'input-end' });
      expect(d.commands.some((c) => c.type === 'close-input')).toBe(false);
      d.on(result);
      expect(d.commands.some((c) => c.type === 'close-input')).toBe(false);
      d.on(result);
      expect(d.commands.filter((c) => c.type === 'close-input')).toHaveLength(1);
    });
  });

  describe('a reset at the hard point', () => {
    it('lets the turn finish, clears once the capsule is verified, then sends the continuation', () => {
      const d = new Drive();
      atHardPoint(d);
      expect(d.phases()).toEqual(['capsule-pending']);
      d.on(literal());
      expect(d.commands.filter((c) => c.type === 'verify')).toEqual([{ type: 'verify', id: CAP }]);
      d.on({ type: 'verified', id: CAP, ok: true, why: null });
      expect(d.sent()).toEqual(['one', 'two']); // the turn still runs
      d.on(result);
      expect(d.sent()).toEqual(['one', 'two', '/clear']);
      expect(d.phases()).toEqual(['capsule-pending', 'complete']);
      d.on({ type: 'session', id: 's2' }, clearResult);
      expect(d.sent()).toEqual(['one', 'two', '/clear', '[supervisor-resume] go on']);
      expect(d.reports('capsule')).toEqual([{ kind: 'capsule', reset: 1, id: CAP }]);
      expect(d.state.resets).toBe(1);
    });

    it('waits for the verification that ends after the turn', () => {
      const d = new Drive();
      atHardPoint(d);
      d.on(literal(), result);
      expect(d.sent()).not.toContain('/clear');
      d.on({ type: 'verified', id: CAP, ok: true, why: null });
      expect(d.sent().at(-1)).toBe('/clear');
    });

    it('neither asks nor gives up while the announced capsule is being verified', () => {
      const d = new Drive();
      atHardPoint(d, false);
      d.on(literal(), result);
      d.now += 10 * WAIT;
      d.on({ type: 'tick' });
      expect(d.sent()).toEqual(['one', 'two']);
      d.on({ type: 'verified', id: CAP, ok: true, why: null });
      expect(d.sent().at(-1)).toBe('/clear');
      expect(d.reports('asked')).toEqual([]);
    });

    it('writes the terminal phase before it sends /clear, so the resume is not deferred', () => {
      const d = new Drive();
      atHardPoint(d);
      d.on(literal(), { type: 'verified', id: CAP, ok: true, why: null }, result);
      const order = d.commands.filter((c) => c.type === 'phase' || (c.type === 'send' && c.what === 'clear')).map((c) => (c.type === 'phase' ? c.phase : 'clear'));
      expect(order).toEqual(['capsule-pending', 'complete', 'clear']);
    });

    it('ignores a literal written before the reset point', () => {
      const d = new Drive();
      d.on({ type: 'session', id: 's1' }, input('one'), literal());
      expect(d.commands.some((c) => c.type === 'verify')).toBe(false);
    });

    it('holds a message that arrives during the reset and sends it after the continuation', () => {
      const d = new Drive();
      atHardPoint(d);
      d.on(literal(), { type: 'verified', id: CAP, ok: true, why: null }, input('three'), result);
      d.on(input('four'));
      d.on(clearResult);
      expect(d.sent()).toEqual(['one', 'two', '/clear', '[supervisor-resume] go on']);
      d.on(result);
      expect(d.sent()).toEqual(['one', 'two', '/clear', '[supervisor-resume] go on', 'three']);
      d.on(result);
      expect(d.sent().at(-1)).toBe('four');
      expect(d.reports('continued')).toEqual([{ kind: 'continued', reset: 1, held: 2 }]);
    });

    it('asks for the capsule itself when no block reached the agent in that turn, once the background Stop had its grace', () => {
      const d = new Drive();
      atHardPoint(d, false);
      d.on(result);
      // The Stop hook runs in the background: its block may still come, so the supervisor waits first.
      expect(d.sent().some((l) => l.startsWith('[git-capsule supervise]'))).toBe(false);
      expect(d.commands.filter((c) => c.type === 'wake').at(-1)).toEqual({ type: 'wake', at: d.now + HOOK_BLOCK_GRACE_MS });
      d.now += HOOK_BLOCK_GRACE_MS;
      d.on({ type: 'tick' });
      expect(d.sent().at(-1)).toMatch(/^\[git-capsule supervise\] The context holds about 160k tokens: past the hard point 158\.8k/);
      expect(d.reports('asked')).toHaveLength(1);
      d.on(literal(), { type: 'verified', id: CAP, ok: true, why: null }, result);
      expect(d.sent().at(-1)).toBe('/clear');
    });

    it('leaves the ask to a block that arrives after the result (the background Stop), asking the agent once', () => {
      const d = new Drive();
      atHardPoint(d, false);
      d.on(result, { type: 'budget-block' });
      d.now += HOOK_BLOCK_GRACE_MS;
      d.on({ type: 'tick' });
      expect(d.sent().some((l) => l.startsWith('[git-capsule supervise]'))).toBe(false);
      expect(d.reports('asked')).toHaveLength(0);
    });

    it('takes a turn the client starts by itself within the grace as the background block waking the agent', () => {
      const d = new Drive();
      atHardPoint(d, false);
      d.on(result, { type: 'activity' }, result);
      d.now += HOOK_BLOCK_GRACE_MS;
      d.on({ type: 'tick' });
      expect(d.sent().some((l) => l.startsWith('[git-capsule supervise]'))).toBe(false);
    });

    it('arms from the block alone when the fill was never seen', () => {
      const d = new Drive();
      d.on({ type: 'session', id: 's1' }, input('one'), { type: 'budget-block' });
      expect(d.reports('armed')).toMatchObject([{ by: 'block' }]);
    });
  });

  describe('the bounded wait for the capsule', () => {
    it('clears without a capsule once the wait after the request has passed, saying the autosave stands', () => {
      const d = new Drive();
      atHardPoint(d);
      d.on(result);
      expect(d.sent()).not.toContain('/clear');
      expect(d.commands.filter((c) => c.type === 'wake')).toEqual([{ type: 'wake', at: d.now + WAIT }]);
      d.now += WAIT - 1;
      d.on({ type: 'tick' });
      expect(d.sent()).not.toContain('/clear');
      d.now += 1;
      d.on({ type: 'tick' });
      expect(d.sent().at(-1)).toBe('/clear');
      expect(d.reports('no-capsule')).toEqual([{ kind: 'no-capsule', reset: 1, waitedMs: WAIT }]);
    });

    it('does not count an announced capsule the memory branch does not have', () => {
      const d = new Drive();
      atHardPoint(d);
      d.on(literal(), { type: 'verified', id: CAP, ok: false, why: 'no such capsule is on the memory branch' }, result);
      expect(d.reports('capsule-refused')).toHaveLength(1);
      expect(d.sent()).not.toContain('/clear');
      d.now += WAIT;
      d.on({ type: 'tick' });
      expect(d.reports('no-capsule')).toHaveLength(1);
      expect(d.reports('capsule')).toEqual([]);
    });

    it('sends nothing while the turn runs, even when the wait is long over', () => {
      const d = new Drive();
      atHardPoint(d);
      d.now += 10 * WAIT;
      d.on({ type: 'tick' }, input('three'), { type: 'tick' });
      expect(d.sent()).toEqual(['one', 'two']);
    });
  });

  describe('how often it resets', () => {
    it('resets once per context window', () => {
      const d = new Drive();
      atHardPoint(d);
      d.on(fill(161_000), fill(162_000));
      expect(d.reports('armed')).toHaveLength(1);
    });

    it('stops resetting after --max-resets and says so once per window', () => {
      const d = new Drive({ maxResets: 1 });
      atHardPoint(d);
      d.on(literal(), { type: 'verified', id: CAP, ok: true, why: null }, result, { type: 'session', id: 's2' }, clearResult, result);
      d.on(input('three'), fill(165_000), fill(166_000), { type: 'budget-block' }, result);
      expect(d.reports('armed')).toHaveLength(1);
      expect(d.reports('max-resets')).toEqual([{ kind: 'max-resets', max: 1, fill: 165_000 }]);
      expect(d.sent().filter((t) => t === '/clear')).toHaveLength(1);
    });

    it('starts a second reset in the next window', () => {
      const d = new Drive();
      atHardPoint(d);
      d.on(literal(), { type: 'verified', id: CAP, ok: true, why: null }, result, { type: 'session', id: 's2' }, clearResult, result);
      d.on(input('three'), fill(165_000), { type: 'budget-block' });
      expect(d.reports('armed').map((r) => (r as { reset: number }).reset)).toEqual([1, 2]);
    });

    it.each([
      ['automatic compaction is off', NO_AUTO_COMPACT, /automatic compaction is off/],
      ['DISABLE_COMPACT is set', SUPPRESSED, /DISABLE_COMPACT/],
    ])('makes no automatic reset when %s, and says so once', (_name, resolution, why) => {
      const d = new Drive();
      d.on({ type: 'session', id: 's1' }, input('one'), fill(170_000, resolution), fill(171_000, resolution));
      expect(d.reports('armed')).toEqual([]);
      expect(d.reports('no-reset-point')).toEqual([{ kind: 'no-reset-point', why: expect.stringMatching(why) }]);
    });

    it('resets at a chosen token count, and takes no cue from the hook then', () => {
      const d = new Drive({ resetAt: { kind: 'tokens', tokens: 100_000 } });
      d.on({ type: 'session', id: 's1' }, input('one'), { type: 'budget-block' });
      expect(d.reports('armed')).toEqual([]);
      d.on(fill(100_000, NO_AUTO_COMPACT));
      expect(d.reports('armed')).toMatchObject([{ point: 100_000, pointName: 'reset point' }]);
    });

    it('resets at the warning point when asked to', () => {
      const d = new Drive({ resetAt: { kind: 'warning' } });
      d.on({ type: 'session', id: 's1' }, input('one'), fill(142_423));
      expect(d.reports('armed')).toEqual([]);
      d.on(fill(142_424));
      expect(d.reports('armed')).toMatchObject([{ point: 142_424, pointName: 'warning point' }]);
    });
  });

  describe('the coordination state', () => {
    it('holds the reset while another conductor owns the lifecycle, and clears once it lets go', () => {
      const d = new Drive();
      d.hold = 'draining';
      atHardPoint(d);
      d.on(literal(), { type: 'verified', id: CAP, ok: true, why: null }, result);
      expect(d.sent()).not.toContain('/clear');
      expect(d.reports('held')).toEqual([{ kind: 'held', reset: 1, phase: 'draining' }]);
      d.now += 1000;
      d.on({ type: 'tick' });
      expect(d.reports('held')).toHaveLength(1);
      d.hold = null;
      d.now += 1000;
      d.on({ type: 'tick' });
      expect(d.sent().at(-1)).toBe('/clear');
    });

    it('ends a phase it left live when the client exits mid-reset', () => {
      const d = new Drive();
      atHardPoint(d);
      d.on(input('three'), { type: 'exit', code: 3 });
      expect(d.phases()).toEqual(['capsule-pending', 'aborted']);
      expect(d.reports('undelivered')).toEqual([{ kind: 'undelivered', count: 1 }]);
      expect(d.reports('exit')).toEqual([{ kind: 'exit', code: 3, resets: 0 }]);
    });
  });

  it('does nothing after the client exited', () => {
    const d = new Drive();
    d.on({ type: 'exit', code: 0 });
    expect(d.on(input('late'), result, { type: 'tick' })).toEqual([]);
  });
});
