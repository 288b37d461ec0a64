import type { ExtensionState } from '../../lib/resume/declared-ack';
import { PROCEDURE_END } from '../../lib/resume/procedure';
import { ulid } from '../support/capsule-doc';
import { activeCandidate, lines, renderFor } from './render-support';

const PATH = '/repo/.capsule/lifecycle-extension.json';

function accepted(extension: Record<string, unknown>): ExtensionState {
  return { state: 'accepted', path: PATH, extension: { schema: 'LifecycleExtension/v2', ...extension } };
}

describe('declared lifecycle-extension lines in the resume text', () => {
  const ext = accepted({
    resume_preload: ['read docs/STANDING.md', 'read the ops board'],
    resume_reground: ['drain the inbox until empty', 're-read the live ledger'],
    resume_ack: 'notify the supervisor: EXAMPLE-PROTOCOL resumed {capsule_id}',
  });

  it('renders PRE-LOAD lines as 0.<n> right after STEPS, before step 1, in declared order', () => {
    const all = lines(renderFor([activeCandidate(1)], { extension: ext }).text);
    const steps = all.indexOf('STEPS (tight + terminal):');
    expect(all[steps + 1]).toBe('0.1 PRE-LOAD (declared by this install, runs BEFORE step 1): read docs/STANDING.md');
    expect(all[steps + 2]).toBe('0.2 PRE-LOAD (declared by this install, runs BEFORE step 1): read the ops board');
    expect(all[steps + 3]).toMatch(/^1\. READ /);
  });

  it('renders RE-GROUND lines as 2.<n> after core step 2 and before step 3', () => {
    const all = lines(renderFor([activeCandidate(1)], { extension: ext }).text);
    const two = all.findIndex((l) => l.startsWith('2. RE-GROUND'));
    expect(all[two + 1]).toBe('2.1 RE-GROUND (declared by this install, runs INSIDE step 2, before step 3): drain the inbox until empty');
    expect(all[two + 2]).toBe('2.2 RE-GROUND (declared by this install, runs INSIDE step 2, before step 3): re-read the live ledger');
    expect(all[two + 3]).toMatch(/^3\. ACT/);
  });

  it('renders resume_ack as step 5 after the core acknowledgement, with the id substituted', () => {
    const all = lines(renderFor([activeCandidate(1)], { extension: ext }).text);
    const four = all.findIndex((l) => l.startsWith('4. ACKNOWLEDGE'));
    expect(all[four + 1]).toBe(`5. ACK (declared by this install, runs after step 4): notify the supervisor: EXAMPLE-PROTOCOL resumed ${ulid(1)}`);
    expect(four + 1).toBeLessThan(all.indexOf(PROCEDURE_END));
  });

  it('sends declared lines verbatim through the fold, never quoted like data', () => {
    const { text } = renderFor([activeCandidate(1)], { extension: accepted({ resume_preload: ['send "PING" to \\\\ops'] }) });
    expect(text).toContain('runs BEFORE step 1): send "PING" to \\\\ops\n');
  });

  it('renders no step 5 and says so when resume_ack needs an id and no capsule was loaded', () => {
    const { text, diagnostics } = renderFor([activeCandidate(1, { waiting_on: null })], { extension: ext });
    expect(text).not.toMatch(/^5\. /m);
    expect(text).not.toContain('EXAMPLE-PROTOCOL');
    expect(text).toMatch(/^LIFECYCLE-EXTENSION: resume_ack not rendered: /m);
    expect(diagnostics).toEqual([expect.stringMatching(/^LIFECYCLE-EXTENSION: resume_ack not rendered: /)]);
  });

  it('still renders the declared procedure lines when no capsule was loaded', () => {
    const { text } = renderFor([], { extension: ext });
    expect(text).toContain('0.1 PRE-LOAD');
    expect(text).toContain('2.1 RE-GROUND');
  });

  it('refuses a declaration whole: one LIFECYCLE-EXTENSION line naming the path and reason, and no declared line', () => {
    const refused: ExtensionState = { state: 'refused', path: PATH, refusal: { rule: 'unsupported-key', field: 'resume_preload', message: 'unsupported key "resume_preload" for LifecycleExtension/v1' } };
    const { text, diagnostics } = renderFor([activeCandidate(1)], { extension: refused });
    const hits = lines(text).filter((l) => l.startsWith('LIFECYCLE-EXTENSION:'));
    expect(hits).toEqual([`LIFECYCLE-EXTENSION: declaration ignored: "${PATH}": unsupported key "resume_preload" for LifecycleExtension/v1`]);
    expect(diagnostics).toEqual(hits);
    expect(text).not.toMatch(/^(0\.\d|2\.\d|5\.) /m);
  });

  it('changes nothing when the install declares nothing', () => {
    const { text, diagnostics } = renderFor([activeCandidate(1)], { extension: { state: 'none' } });
    expect(text).not.toContain('LIFECYCLE-EXTENSION');
    expect(text).not.toContain('declared by this install');
    expect(diagnostics).toEqual([]);
  });
});
