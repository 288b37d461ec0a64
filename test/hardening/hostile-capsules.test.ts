import { parseCapsule } from '../../lib/capsule/parse';
import { validateCapsuleText } from '../../lib/capsule/validate';
import { PROCEDURE_BEGIN, PROCEDURE_END, RESUME_END } from '../../lib/resume/procedure';
import { renderResume, RESUME_TEXT_MAX } from '../../lib/resume/render-resume';
import { resolveSessionAuthority } from '../../lib/resume/session-authority';
import { selectCapsule } from '../../lib/select/select-capsule';
import type { Candidate } from '../../lib/select/types';
import { dice } from '../support/seeded-random';
import { FORGERIES, fuzzId, hostileCapsule } from './hostile-capsule-corpus';

// Thousands by default; HOSTILE_CAPSULES raises it for a long local run (the seed is fixed, so a
// failure names the capsule that caused it and reproduces).
const COUNT = Number(process.env.HOSTILE_CAPSULES ?? 2000);
const SEED = Number(process.env.HOSTILE_SEED ?? 20261129);
const NOW = new Date('2026-11-29T22:00:00Z');

// A line that starts like the procedure: its markers, the fences, a step (`1. `, `0.1 `, `2.1 `),
// a Markdown fence or heading. Below the procedure's end line no line may start like this.
const PROCEDURE_LIKE = /^(?:===|FENCES|STEPS|- Only this procedure|\d+(?:\.\d+)?[.)]? |\d+\.\d+|```|~~~|#{1,6} |<!--)/;

function render(candidates: Candidate[], d: ReturnType<typeof dice>): string {
  const selection = selectCapsule(candidates, { now: NOW });
  return renderResume({
    now: NOW,
    selection,
    session: resolveSessionAuthority(d.pick(['session-B', undefined, 42, FORGERIES[0]]), null),
    headDrift: d.pick([
      { state: 'no-repo-head' as const },
      { state: 'measured' as const, head: 'a'.repeat(40), branch: d.pick([null, 'main', FORGERIES[6] as string]), ahead: d.int(5), behind: d.int(2) },
      { state: 'unknown-commit' as const },
      { state: 'unavailable' as const, why: d.pick(FORGERIES) },
    ]),
    extension: { state: 'none' },
    consumption: { state: 'consumed', writer: 'session-B' },
  }).text;
}

/** The lines after the procedure's end line that start like the procedure (empty when the text is sound). */
function forgedDataLines(text: string): string[] {
  const lines = text.split('\n');
  const end = lines.indexOf(PROCEDURE_END);
  return lines.slice(end + 1).filter((l) => l !== RESUME_END && PROCEDURE_LIKE.test(l));
}

describe('hostile capsules through parse, validate, select and render', () => {
  const d = dice(SEED);
  const texts = Array.from({ length: COUNT }, (_, n) => hostileCapsule(d, n));

  jest.setTimeout(300_000);

  it(`parses and validates ${COUNT} hostile capsules without throwing`, () => {
    for (const [n, text] of texts.entries()) {
      try {
        const parsed = parseCapsule(text);
        const validation = validateCapsuleText(text);
        expect(Array.isArray(parsed.problems) && Array.isArray(validation.problems)).toBe(true);
      } catch (err) {
        throw new Error(`capsule ${n} (seed ${SEED}) threw: ${String(err)}\n${JSON.stringify(text.slice(0, 400))}`);
      }
    }
  });

  it('selects and renders them within the budget, with the procedure once and on top, and no data line shaped like it', () => {
    const problems: string[] = [];
    let selected = 0;
    let forgeriesShown = 0;
    for (let start = 0; start < texts.length; start += 8) {
      const batch = texts.slice(start, start + 8);
      const candidates: Candidate[] = batch.map((text, i) => {
        const id = fuzzId(start + i);
        return { id, path: `capsules/2026/11/${id}/capsule.md`, status: d.pick(['active', 'active', 'active', 'resumed', null, FORGERIES[0] as string]), text: d.chance(0.05) ? null : text };
      });
      let text: string;
      try {
        text = render(candidates, d);
      } catch (err) {
        problems.push(`batch at ${start} threw: ${String(err)}`);
        continue;
      }
      const lines = text.split('\n');
      if (text.includes('CAPSULE DATA (')) selected++;
      if (FORGERIES.some((f) => text.slice(text.indexOf(PROCEDURE_END) + PROCEDURE_END.length).includes(f.slice(0, 12)))) forgeriesShown++;
      if (text.length > RESUME_TEXT_MAX) problems.push(`batch at ${start}: ${text.length} chars`);
      if (lines[0] !== PROCEDURE_BEGIN || lines.filter((l) => l === PROCEDURE_BEGIN).length !== 1) problems.push(`batch at ${start}: procedure begin line not once and first`);
      if (lines.filter((l) => l === PROCEDURE_END).length !== 1) problems.push(`batch at ${start}: procedure end line not exactly once`);
      for (const l of forgedDataLines(text)) problems.push(`batch at ${start}: data line ${JSON.stringify(l.slice(0, 120))}`);
    }
    expect(problems.slice(0, 10)).toEqual([]);
    // Not vacuous: many batches select a hostile capsule and show planted forgeries (quoted) below the procedure.
    const batches = Math.ceil(texts.length / 8);
    expect(selected).toBeGreaterThan(batches / 4);
    expect(forgeriesShown).toBeGreaterThan(batches / 4);
  });

  it('keeps the forgeries it planted: every one reaches the output only quoted (the check is not vacuous)', () => {
    const planted = `---\nid: ${fuzzId(1)}\nobjective: "ok\\n${FORGERIES[6]}\\n${FORGERIES[0]}"\nwaiting_on: nothing\nnext_valid_action: run npm test\nstatus: active\ncreated_at: 2026-11-20T10:00:00Z\n---\n`;
    const text = render([{ id: fuzzId(1), path: 'capsules/2026/11/x/capsule.md', status: 'active', text: planted }], dice(1));
    expect(text).toContain('1. READ nothing');
    expect(forgedDataLines(text)).toEqual([]);
    expect(forgedDataLines(text.replace('"ok', `\n${FORGERIES[6]}`))).not.toEqual([]);
  });
});
