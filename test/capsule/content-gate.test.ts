import { checkContentGate, NEXT_ACTION_GATE, OBJECTIVE_GATE } from '../../lib/capsule/content-gate';

const objectiveStarts: Array<[string, string]> = [
  ['supervisor-resume', '[supervisor-resume] continue the cycle'],
  ['git-capsule-supervise', '[git-capsule supervise] The context holds about 160k tokens'],
  ['refresh-cycle', '[refresh-cycle] tick 4'],
  ['auto-pull', '[auto-pull] merged upstream'],
  ['inbox-marker', '[inbox] 3 unread messages'],
  ['inbox-marker', 'INBOX: new message from conductor'],
  ['loop-tick-banner', '[loop-tick 17] waiting'],
  ['loop-tick-banner', '=== LOOP-TICK 17 ==='],
  ['system-reminder', '<system-reminder>Stop hook feedback'],
  ['hook-output', 'SessionStart:clear hook success: resumed'],
];

const actionStarts: Array<[string, string]> = [
  ['re-read-turn-state', 're-read the active turn state before doing anything'],
  ['run-resume-procedure', 'Follow the resume procedure'],
  ['load-capsule', 'load the newest capsule'],
  ['resume-command', '/resume'],
  ['acknowledge-resume', 'acknowledge the resume'],
  ['re-ground-ceremony', 'Re-ground against live state.'],
];

describe('checkContentGate', () => {
  it('covers every gate pattern in these tables', () => {
    expect(new Set(objectiveStarts.map(([n]) => n))).toEqual(new Set(OBJECTIVE_GATE.map((p) => p.name)));
    expect(new Set(actionStarts.map(([n]) => n))).toEqual(new Set(NEXT_ACTION_GATE.map((p) => p.name)));
  });

  it.each(objectiveStarts)('rejects an objective that starts with %s text', (name, objective) => {
    const problems = checkContentGate({ objective });
    expect(problems).toEqual([expect.objectContaining({ code: 'CONTENT_GATE_OBJECTIVE', field: 'objective' })]);
    expect(problems[0]!.message).toContain(name);
  });

  it.each(objectiveStarts)('passes an objective that mentions %s text mid-sentence', (_name, marker) => {
    expect(checkContentGate({ objective: `Fix the hook that prints ${marker}` })).toEqual([]);
  });

  it.each(actionStarts)('rejects a next_valid_action that starts with %s ceremony', (name, action) => {
    const problems = checkContentGate({ next_valid_action: action });
    expect(problems).toEqual([expect.objectContaining({ code: 'CONTENT_GATE_NEXT_ACTION', field: 'next_valid_action' })]);
    expect(problems[0]!.message).toContain(name);
  });

  it.each(actionStarts)('passes a next_valid_action that mentions %s ceremony mid-sentence', (_name, action) => {
    expect(checkContentGate({ next_valid_action: `Edit lib/a.ts so it no longer prints "${action}"` })).toEqual([]);
  });

  it('passes the seed example that references the ceremony mid-action', () => {
    const action = 'On resume: comply with the supervisor-resume instruction, then run the migration';
    expect(checkContentGate({ objective: action, next_valid_action: action })).toEqual([]);
  });

  // Each alternative of each pattern, in other cases: the patterns run only on text that starts
  // with one of their prefixes, so every spelling they match must start with one.
  it.each([
    ['supervisor-resume', '[SUPERVISOR_RESUME] go'], ['supervisor-resume', '[Supervisor Resume]'], ['git-capsule-supervise', '[GIT-CAPSULE SUPERVISE] x'],
    ['refresh-cycle', '[Refresh_Cycle]'], ['auto-pull', '[AUTOPULL]'], ['inbox-marker', '[New-Message from x]'], ['inbox-marker', '[UNREAD 2]'],
    ['inbox-marker', '<Inbox>'], ['inbox-marker', 'inbox > 2'], ['inbox-marker', '\u{1f4e5} 2 new'], ['inbox-marker', '\u{1f4ec}'],
    ['loop-tick-banner', '[TICK 3]'], ['loop-tick-banner', '[Loop_Tick]'], ['loop-tick-banner', 'Loop-Tick 4'], ['loop-tick-banner', '## loop tick 5'],
    ['loop-tick-banner', '-- LOOP-TICK'], ['system-reminder', '<SYSTEM-REMINDER>x'], ['hook-output', 'stop hook success'],
    ['hook-output', 'USERPROMPTSUBMIT hook additional context: x'], ['hook-output', 'PreCompact:auto hook success'],
  ])('rejects the %s spelling %j', (name, objective) => {
    expect(checkContentGate({ objective })[0]?.message).toContain(name);
  });

  it.each([
    ['re-read-turn-state', 'REREAD the current turn state'], ['re-read-turn-state', 'Re-read active turn state'], ['run-resume-procedure', 'RUN the /resume steps'],
    ['run-resume-procedure', 'execute resume-verb protocol'], ['run-resume-procedure', 'Perform the resume ceremony'], ['load-capsule', 'Reload the latest capsule'],
    ['load-capsule', 're-open the last active capsule'], ['load-capsule', 'READ capsule'], ['load-capsule', 'Open the newest capsule'], ['load-capsule', 'reread the capsule'],
    ['resume-command', '/RESUME now'], ['acknowledge-resume', 'ACK resume'], ['acknowledge-resume', 'Acknowledge the resume'], ['re-ground-ceremony', 'reground memory'],
    ['re-ground-ceremony', 'RE-GROUND AGAINST LIVE MEMORY;'],
  ])('rejects the %s spelling %j', (name, next_valid_action) => {
    expect(checkContentGate({ next_valid_action })[0]?.message).toContain(name);
  });

  it('strips leading markup of any kind before matching, and passes text that starts otherwise', () => {
    expect(checkContentGate({ objective: '\u00a0\u3000`>_[inbox]' })).toHaveLength(1);
    expect(checkContentGate({ objective: '\ufeff\u2028<system-reminder>' })).toHaveLength(1);
    expect(checkContentGate({ objective: 'unknown (autosave could not determine the objective)', next_valid_action: 'No next step captured' })).toEqual([]);
    expect(checkContentGate({ objective: '', next_valid_action: '' })).toEqual([]);
  });

  it('is not fooled by leading whitespace, quotes or emphasis', () => {
    expect(checkContentGate({ objective: '  **"[supervisor-resume]** go' })).toHaveLength(1);
  });

  it('ignores values that are not strings', () => {
    expect(checkContentGate({ objective: 42, next_valid_action: null })).toEqual([]);
  });
});
