import type { SupervisorReport } from '../../lib/supervise/supervisor-events';
import { renderReportJson, renderReportLine } from '../../lib/supervise/supervisor-report';

const every: SupervisorReport[] = [
  { kind: 'armed', reset: 1, fill: 160_000, point: 158_808, pointName: 'hard point', session: 'be432d9d-65be', by: 'fill' },
  { kind: 'asked', reset: 1 },
  { kind: 'capsule', reset: 1, id: '01JD3Z8M2V6K6Y9Q2W4R5T7X8C' },
  { kind: 'capsule-refused', reset: 1, id: 'X', why: 'no such capsule is on the memory branch' },
  { kind: 'no-capsule', reset: 1, waitedMs: 15_000 },
  { kind: 'held', reset: 1, phase: 'draining' },
  { kind: 'cleared', reset: 1, session: null },
  { kind: 'continued', reset: 1, held: 2 },
  { kind: 'max-resets', max: 3, fill: 170_000 },
  { kind: 'no-reset-point', why: 'DISABLE_COMPACT is set' },
  { kind: 'undelivered', count: 1 },
  { kind: 'exit', code: 0, resets: 2 },
];

describe('renderReportLine', () => {
  it.each(every.map((r) => [r.kind, r] as const))('writes %s as one line that names the supervisor', (_kind, r) => {
    const line = renderReportLine(r);
    expect(line).toMatch(/^git capsule supervise: /);
    expect(line).not.toContain('\n');
  });

  it("says the lineage's autosave stands when no capsule was written", () => {
    expect(renderReportLine({ kind: 'no-capsule', reset: 2, waitedMs: 2000 })).toBe(
      "git capsule supervise: reset 2: no capsule written (waited 2 s after the request); the lineage's autosave stands as the resume; sending /clear",
    );
  });
});

describe('renderReportJson', () => {
  it('writes the kind as "supervise" and every field', () => {
    expect(JSON.parse(renderReportJson(every[0]!))).toEqual({ supervise: 'armed', reset: 1, fill: 160_000, point: 158_808, pointName: 'hard point', session: 'be432d9d-65be', by: 'fill' });
  });
});
