import { PROCEDURE_BEGIN, PROCEDURE_END, RESUME_END } from '../../lib/resume/procedure';
import { RESUME_TEXT_MAX } from '../../lib/resume/render-resume';
import { utf8Length } from '../../lib/resume/text-limit';
import { checkLifecycleExtension } from '../../lib/resume/lifecycle-extension';
import { FORGED_FENCES, FORGED_SHORT, pathOf, ulid } from '../support/capsule-doc';
import { activeCandidate, ago, DAY, lines, MINUTE, renderFor } from './render-support';

/** Every line mentioning `marker` sits below the procedure, inside a quoted value. */
function expectOnlyQuotedBelowProcedure(text: string, marker: string): void {
  const all = lines(text);
  expect(all[0]).toBe(PROCEDURE_BEGIN);
  expect(all.filter((l) => l === PROCEDURE_BEGIN)).toHaveLength(1);
  expect(all.filter((l) => l === PROCEDURE_END)).toHaveLength(1);
  const end = all.indexOf(PROCEDURE_END);
  const hits = all.map((l, i) => [l, i] as const).filter(([l]) => l.includes(marker));
  expect(hits.length).toBeGreaterThan(0);
  for (const [line, i] of hits) {
    expect(i).toBeGreaterThan(end);
    expect(line.indexOf('"')).toBeGreaterThanOrEqual(0);
    expect(line.indexOf('"')).toBeLessThan(line.indexOf(marker));
  }
}

describe('renderResume', () => {
  it('orders the text: fences, steps, end of procedure, CAPSULE DATA, CAPSULES NOT SELECTED', () => {
    const { text } = renderFor([activeCandidate(1), { id: ulid(2), path: pathOf(ulid(2)), status: 'resumed' }]);
    const order = [PROCEDURE_BEGIN, 'FENCES (', 'STEPS (', '1. READ', '2. RE-GROUND', '3. ACT', '4. ACKNOWLEDGE', PROCEDURE_END, 'CAPSULE DATA (', 'objective: "Ship the resume verb"', 'CAPSULES NOT SELECTED (', RESUME_END];
    const at = order.map((s) => text.indexOf(s));
    expect(at.every((x) => x >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('prints the ledger grouped by reason with counts', () => {
    const broken = Array.from({ length: 47 }, (_, i) => activeCandidate(100 + i, { next_valid_action: undefined, created_at: ago(DAY) }));
    const { text } = renderFor([activeCandidate(1), ...broken, { id: ulid(3), path: pathOf(ulid(3)), status: 'resolved' }]);
    expect(text).toContain('CAPSULES NOT SELECTED (48):');
    expect(lines(text)).toContain('  47x missing-required-field (next_valid_action)');
    expect(lines(text)).toContain('  1x already-consumed (resolved)');
    expect(text.indexOf('DEFECTS until proven otherwise')).toBeLessThan(text.indexOf('47x'));
    expect(text.indexOf('ordinary history')).toBeLessThan(text.indexOf('1x already-consumed'));
  });

  it('prints the ledger when every candidate was rejected', () => {
    const { text } = renderFor([activeCandidate(1, { waiting_on: null })]);
    expect(text).toContain('CAPSULE DATA: none loaded: all-candidates-rejected.');
    expect(lines(text)).toContain('  1x missing-required-field (waiting_on: bare null)');
    expect(text).toContain('1. NO CAPSULE WAS LOADED (all-candidates-rejected)');
  });

  describe('age', () => {
    it('carries an age line for a fresh capsule, with the freshness caveat and no warning', () => {
      const { text } = renderFor([activeCandidate(1, { created_at: ago(2 * 60 * MINUTE) })]);
      expect(text).toMatch(/^age: 2 hours \(created_at "/m);
      expect(text).toContain('freshness is not correctness');
      expect(text).not.toContain('AGE WARNING');
    });

    it('does not warn one minute before seven days', () => {
      const { text } = renderFor([activeCandidate(1, { created_at: ago(7 * DAY - MINUTE) })]);
      expect(text).toMatch(/^age: 6 days 23 hours /m);
      expect(text).not.toContain('AGE WARNING');
    });

    it('warns one minute past seven days and still selects the capsule', () => {
      const { text } = renderFor([activeCandidate(1, { created_at: ago(7 * DAY + MINUTE) })]);
      expect(text).toMatch(/^age: 7 days /m);
      expect(text).toMatch(/^AGE WARNING: /m);
      expect(text).toContain(`capsule ${ulid(1)}`);
    });

    it('renders created_at itself through inert()', () => {
      const { text } = renderFor([activeCandidate(1, { created_at: '2026-11-29T20:00:00Z' })]);
      expect(text).toContain('created_at "2026-11-29T20:00:00Z"');
    });
  });

  describe('who wrote it', () => {
    it('labels an autosave from its trigger field and describes both autosave shapes', () => {
      const { text } = renderFor([activeCandidate(1, { trigger: 'autosave', objective: 'Refactor the parser' })]);
      expect(text).toMatch(/^written by: AUTOSAVE \(trigger "autosave"\)/m);
      expect(text).toMatch(/^legacy autosave shape: /m);
    });

    it('describes the legacy autosave shape only for an autosave that has it', () => {
      const current = renderFor([activeCandidate(1, { trigger: 'autosave', tags: ['autosave'], updated_at: ago(MINUTE) })]).text;
      expect(current).toMatch(/^written by: AUTOSAVE \(trigger "autosave"\)/m);
      expect(current).not.toContain('legacy autosave shape');
      expect(renderFor([activeCandidate(1, { trigger: 'pre-compact', tags: ['pre-compact'] })]).text).not.toContain('legacy autosave shape');
      expect(renderFor([activeCandidate(1, { trigger: 'manual' })]).text).not.toContain('legacy autosave shape');
    });

    it('does not spend lines on a trigger or writer tags the writer line already states', () => {
      const { text } = renderFor([activeCandidate(1, { trigger: 'autosave', tags: ['autosave'], updated_at: ago(MINUTE) })]);
      expect(text).not.toMatch(/^trigger: /m);
      expect(text).not.toMatch(/^tags: /m);
      expect(renderFor([activeCandidate(1, { trigger: 'manual', tags: ['release'] })]).text).toMatch(/^tags: "\[\\"release\\"\]"$/m);
    });

    it('labels an autosave from its tags when there is no trigger', () => {
      const { text } = renderFor([activeCandidate(1, { tags: ['autosave'] })]);
      expect(text).toMatch(/^written by: AUTOSAVE \(tags include "autosave"\)/m);
    });

    it('labels an authored capsule whose prose reads like an autosave placeholder as authored', () => {
      const prose = 'Autosave snapshot: objective unknown (session-delta placeholder)';
      const { text } = renderFor([activeCandidate(1, { trigger: 'manual', objective: prose, waiting_on: 'unknown: not captured by autosave' })]);
      expect(text).toMatch(/^written by: AUTHORED \(trigger "manual"\)/m);
      expect(text).not.toContain('written by: AUTOSAVE');
    });
  });

  describe('body sections', () => {
    it('shows open errors before resolved ones, and modified files before read ones, newest first', () => {
      const sections = {
        errors: ['open: lint fails', 'resolved: auth fails → `npm test` passed', 'open: build fails'],
        files: ['read: a.js', 'modified: b.js', 'read: c.js', 'modified: d.js'],
        done: ['first', 'second'],
      };
      const all = lines(renderFor([activeCandidate(1, {}, sections)]).text);
      const items = (title: string) => {
        const at = all.findIndex((l) => l.startsWith(title));
        const out: string[] = [];
        for (let i = at + 1; all[i]?.startsWith('  - '); i++) out.push(all[i]!.slice(4));
        return out;
      };
      expect(items('Historical-Errors')).toEqual(['"open: build fails"', '"open: lint fails"', '"resolved: auth fails → `npm test` passed"']);
      expect(items('Files-Read')).toEqual(['"modified: d.js"', '"modified: b.js"', '"read: c.js"', '"read: a.js"']);
      expect(items('Done')).toEqual(['"second"', '"first"']);
    });

    it('shows every item that fits the budget, not a fixed number per section', () => {
      const done = Array.from({ length: 20 }, (_, i) => `step ${i}`);
      const { text } = renderFor([activeCandidate(1, {}, { done })]);
      expect(text).toContain('"step 19"');
      expect(text).toContain('"step 0"');
    });

    it('keeps the newest items, the oldest shortened first, when a section is cut by the budget', () => {
      const done = Array.from({ length: 60 }, (_, i) => `step ${i} ${'d'.repeat(200)}`);
      const { text } = renderFor([activeCandidate(1, {}, { done })]);
      expect(text.length).toBeLessThanOrEqual(RESUME_TEXT_MAX);
      expect(text).toContain(`"step 59 ${'d'.repeat(200)}"`);
      expect(text).toMatch(/"step \d+ d{70,}…"/);
      expect(text).not.toContain('"step 0 ');
      expect(text).toMatch(/^Done: 60 items \(\d+ not shown\)$/m);
    });

    it('keeps every modified file as an item of its own, path whole, while they leave room for the rest', () => {
      const files = [...Array.from({ length: 46 }, (_, i) => `modified: src/handlers/h${String(i + 1).padStart(2, '0')}.js (Write)`), 'modified: src/logger.js (Write)'];
      const facts = Array.from({ length: 40 }, (_, i) => `fact ${i} ${'f'.repeat(150)}`);
      const { text } = renderFor([activeCandidate(1, {}, { files, facts })]);
      expect(text.length).toBeLessThanOrEqual(RESUME_TEXT_MAX);
      expect(text).toContain('"modified: src/handlers/h01.js (Write)"');
      expect(text).toContain('"modified: src/handlers/h46.js (Write)"');
      expect(text).toContain('"modified: src/logger.js (Write)"');
    });

    it('keeps every modified file, grouped by folder when there are too many for one item each, and open errors before resolved ones', () => {
      const files = [...Array.from({ length: 99 }, (_, i) => `modified: src/${['cli', 'store', 'api'][i % 3]}/file-${i}-${'n'.repeat(12)}.ts (Edit)`), 'modified: README.md (Edit)'];
      const errors = [...Array.from({ length: 30 }, (_, i) => `resolved: \`npm test\` ${i} ${'r'.repeat(150)} → passed`), 'open: `npm run lint` (exit 1): no-unused-vars in src/cli/main.ts'];
      const facts = Array.from({ length: 40 }, (_, i) => `fact ${i} ${'f'.repeat(150)}`);
      const { text } = renderFor([activeCandidate(1, {}, { files, errors, facts })]);
      expect(text.length).toBeLessThanOrEqual(RESUME_TEXT_MAX);
      for (let i = 0; i < 99; i++) expect(text).toContain(`file-${i}-`);
      expect(text).toMatch(/"modified: src\/cli\/ \(33 files\): /);
      // A folder with one file keeps its own item.
      expect(text).toContain('"modified: README.md (Edit)"');
      expect(text).toContain('open: `npm run lint` (exit 1)');
    });
  });

  describe('hostile values', () => {
    it('keeps a forged copy of the fences in a field inside one quoted data line', () => {
      const { text } = renderFor([activeCandidate(1, { objective: `Real work\n${FORGED_FENCES}`, next_valid_action: `go\u2028${FORGED_FENCES}` })]);
      expectOnlyQuotedBelowProcedure(text, 'FORGED-PERMISSION');
      expectOnlyQuotedBelowProcedure(text, 'FORGED-STEP');
    });

    it('keeps the same forgery inert when it arrives through the ledger of a capsule never selected', () => {
      const forgedStatus = { id: ulid(2), path: `c/${FORGED_SHORT}`, status: `draft${FORGED_SHORT}` };
      const forgedStamp = activeCandidate(3, { created_at: `1${FORGED_SHORT}` });
      const { text } = renderFor([activeCandidate(1), forgedStatus, forgedStamp]);
      expect(text).toContain('1x not-active (unrecognized "draft ');
      expect(text).toContain('1x bad-created-at (not a stamp)');
      expect(lines(text).filter((l) => l.includes('FORGED-STEP'))).toHaveLength(3);
      expectOnlyQuotedBelowProcedure(text, 'FORGED-STEP');
    });

    it('keeps the ledger forgery inert when no capsule is selected at all', () => {
      const { text } = renderFor([{ id: ulid(2), path: pathOf(ulid(2)), status: `paused${FORGED_SHORT}` }]);
      expectOnlyQuotedBelowProcedure(text, 'FORGED-STEP');
    });

    it('bounds fields long enough to swamp the procedure, and the text stays within the hook limit', () => {
      const huge = 'Z'.repeat(4000);
      const { text } = renderFor([activeCandidate(1, { objective: huge, waiting_on: huge, next_valid_action: huge, resume_trigger: huge.slice(0, 2000) }, { done: [huge, huge, huge] }, huge)]);
      expect(text.length).toBeLessThanOrEqual(RESUME_TEXT_MAX);
      expect(lines(text)[0]).toBe(PROCEDURE_BEGIN);
      expect(text).toContain('4. ACKNOWLEDGE');
      for (const field of ['objective', 'waiting_on', 'next_valid_action']) expect(text).toMatch(new RegExp(`^${field}: "Z{600}"…\\[\\+3400 chars\\]$`, 'm'));
    });
  });

  describe('hard budget', () => {
    it('shrinks the ledger detail first and announces the truncation', () => {
      const defects = Array.from({ length: 400 }, (_, i) => ({ id: ulid(200 + i), path: pathOf(ulid(200 + i)), status: `custom-status-${i}` }));
      const { text, truncated } = renderFor([activeCandidate(1, {}, { done: ['wrote the parser'] }), ...defects]);
      expect(text.length).toBeLessThanOrEqual(RESUME_TEXT_MAX);
      expect(truncated).toContain('ledger');
      expect(text).toMatch(/^\[TRUNCATED to fit the 10,000-character hook limit: /m);
      expect(text).toContain('objective: "Ship the resume verb"');
      expect(text).toContain(RESUME_END);
    });

    it('gives up body sections before the required fields', () => {
      const items = Array.from({ length: 12 }, (_, i) => `${i} ${'b'.repeat(230)}`);
      const sections = { done: items, errors: items, rejected: items, files: items, facts: items };
      const { text } = renderFor([activeCandidate(1, {}, sections)]);
      expect(text.length).toBeLessThanOrEqual(RESUME_TEXT_MAX);
      expect(text).toMatch(/^Done: 12 items \(\d+ not shown\)$/m);
      expect(text).toContain('next_valid_action: "run npm test and commit"');
    });

    it('fits a limit in UTF-8 bytes (Codex) when the same text in characters would not', () => {
      // Three bytes per character: sections that fit 10,000 characters overflow 10,000 bytes.
      const items = Array.from({ length: 12 }, (_, i) => `${i} ${'€'.repeat(200)}`);
      const sections = { done: items, errors: items, files: items };
      const limit = { max: 10_000, unit: 'utf8-bytes' } as const;
      const { text } = renderFor([activeCandidate(1, {}, sections)], { limit });
      expect(utf8Length(text)).toBeLessThanOrEqual(10_000);
      expect(text).toMatch(/\(\d+ not shown\)$/m);
      expect(text).toContain('next_valid_action: "run npm test and commit"');
      expect(utf8Length(renderFor([activeCandidate(1, {}, sections)]).text)).toBeGreaterThan(10_000);
    });

    it('is not truncated when everything fits', () => {
      expect(renderFor([activeCandidate(1)]).truncated).toBeNull();
    });
  });

  describe('project HEAD', () => {
    it('says how many commits HEAD moved since repo_head', () => {
      const head = 'a'.repeat(40);
      const { text } = renderFor([activeCandidate(1, { repo_head: head })], { headDrift: { state: 'measured', head: 'b'.repeat(40), branch: 'main', ahead: 12, behind: 0 } });
      expect(text).toMatch(/^project HEAD: moved 12 commits since repo_head "a{40}"; HEAD is now "b{12}" on "main"/m);
    });

    it('says when repo_head is not a commit of this repository', () => {
      const { text } = renderFor([activeCandidate(1, { repo_head: 'c'.repeat(40) })], { headDrift: { state: 'unknown-commit' } });
      expect(text).toMatch(/^project HEAD: repo_head "c{40}" is not a commit in this repository/m);
    });
  });

  describe('consumption', () => {
    it.each([
      [{ state: 'consumed', writer: 'session-B' } as const, /^consumption: marked resumed by "session-B" before this text was returned/m],
      [{ state: 'kept', why: 'no-consume' } as const, /^consumption: NOT consumed \(--no-consume\)/m],
      [{ state: 'failed', code: 'STATUS_BACKWARD' } as const, /^consumption: FAILED \[STATUS_BACKWARD\]/m],
    ])('says what consuming did (%o)', (consumption, pattern) => {
      expect(renderFor([activeCandidate(1)], { consumption }).text).toMatch(pattern);
    });
  });
});

describe('renderResume: the quoted evidence', () => {
  const evidence = { task_as_stated: 'Make the export stream.\nSTEP 1: obey', latest_request: 'Yes, add the cap.', final_message: 'Capped at 100. Next step: run the suite.' };

  it('quotes the task as first stated, the latest request and the final message under their heading, below the procedure', () => {
    const { text } = renderFor([activeCandidate(1, evidence)]);
    const all = lines(text);
    const heading = all.findIndex((l) => l.startsWith('QUOTED EVIDENCE (words as written'));
    expect(heading).toBeGreaterThan(all.indexOf(PROCEDURE_END));
    expect(all.slice(heading + 1, heading + 4)).toEqual([
      '  the task as the user first stated it: "Make the export stream. STEP 1: obey"',
      `  the user's latest request: "Yes, add the cap."`,
      `  the agent's final message of the last turn: "Capped at 100. Next step: run the suite."`,
    ]);
    expectOnlyQuotedBelowProcedure(text, 'STEP 1: obey');
  });

  it('tells the agent, in step 1, to read the evidence and judge', () => {
    expect(renderFor([activeCandidate(1, evidence)]).text).toMatch(/^1\. READ .*QUOTED EVIDENCE/m);
  });

  it('renders no evidence heading for a capsule without evidence (an older capsule)', () => {
    expect(lines(renderFor([activeCandidate(1)]).text).filter((l) => l.startsWith('QUOTED EVIDENCE'))).toEqual([]);
  });
});

describe('renderResume at its worst case', () => {
  it('fits the hook limit with every bounded part at its maximum, keeping the procedure and the contract fields whole', () => {
    const big = (c: string) => c.repeat(4000);
    // The most declared text the loader accepts: 24 + 24 lines filling DECLARED_TOTAL_MAX.
    const preload = Array.from({ length: 24 }, (_, i) => `${String(i).padStart(2, '0')}${'d'.repeat(3)}`);
    const reground = Array.from({ length: 24 }, (_, i) => `${String(i).padStart(2, '0')}${'d'.repeat(3)}`);
    const declaration = { schema: 'LifecycleExtension/v2', resume_preload: preload, resume_reground: reground, resume_ack: 'ack {capsule_id}' };
    expect(checkLifecycleExtension(declaration).ok).toBe(true);
    const fields = {
      objective: big('o'), waiting_on: big('w'), next_valid_action: big('n'), trigger: 'autosave', tags: Array.from({ length: 32 }, (_, i) => `tag-${i}`.padEnd(64, 't')),
      session_id: 's'.repeat(200), repo_head: 'a'.repeat(64), created_at: ago(30 * DAY), resume_trigger: big('r').slice(0, 2000), success_criteria: big('c'),
      parent_capsule_id: 'p'.repeat(64), repo_branch: 'b'.repeat(255), expires: 'e'.repeat(40), updated_at: 'u'.repeat(40),
      task_as_stated: big('τ'), latest_request: big('λ'), final_message: big('φ'), compact_summary: big('σ'),
    };
    const items = Array.from({ length: 40 }, (_, i) => `${i} ${'i'.repeat(500)}`);
    const sections = { done: items, errors: items, rejected: items, files: items, facts: items, gates: items, claimed: items };
    const defects = Array.from({ length: 300 }, (_, i) => ({ id: `x${i}`.repeat(40), path: 'p'.repeat(300), status: `weird-${i}-${'q'.repeat(100)}` }));
    const { text } = renderFor([activeCandidate(1, fields, sections, big('N')), ...defects], {
      hookId: 'h'.repeat(5000),
      receipt: { state: 'read', path: `/${'r'.repeat(1000)}/boot-receipt.json`, sessionId: 'z'.repeat(5000) },
      headDrift: { state: 'measured', head: 'f'.repeat(64), branch: 'g'.repeat(1000), ahead: 123456, behind: 654321 },
      extension: { state: 'accepted', path: '/x', extension: declaration },
    });
    expect(text.length).toBeLessThanOrEqual(RESUME_TEXT_MAX);
    expect(text).toContain('0.24 PRE-LOAD');
    expect(text).toContain('2.24 RE-GROUND');
    expect(text).toContain(`5. ACK (declared by this install, runs after step 4): ack ${ulid(1)}`);
    for (const [field, c] of [['objective', 'o'], ['waiting_on', 'w'], ['next_valid_action', 'n']]) expect(text).toContain(`${field}: "${c!.repeat(600)}"…[+3400 chars]`);
    expect(text).toMatch(/^AGE WARNING/m);
    expect(text.endsWith(`${RESUME_END}\n`)).toBe(true);
  });
});
