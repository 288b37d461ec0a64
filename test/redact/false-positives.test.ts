import { redactSecrets } from '../../lib/redact/redact-secrets';
import { ordinaryCorpus } from './ordinary-corpus';

// The redactor's false-positive rate on ordinary code and identifiers (test/redact/ordinary-corpus.ts):
// the share of lines it changes. The memory branch is pushed, so the detectors lean to redacting
// a look-alike; this bounds how far. Measured 2026-12-01: see docs/security.md.
const MAX_RATE = 0.001;

describe('the redactor on ordinary code, hashes, UUIDs, ULIDs and paths', () => {
  const parts = ordinaryCorpus();

  it('has a corpus of several MB', () => {
    expect(parts.reduce((n, p) => n + p.text.length, 0)).toBeGreaterThan(3_000_000);
  });

  it(`changes fewer than ${MAX_RATE * 100} % of the lines`, () => {
    let lines = 0;
    let changed = 0;
    const report: string[] = [];
    for (const part of parts) {
      const before = part.text.split('\n');
      const after = redactSecrets(part.text).text.split('\n');
      const hits = before.filter((line, i) => after[i] !== line);
      lines += before.length;
      changed += hits.length;
      report.push(`${part.name}: ${hits.length} of ${before.length} lines`);
      // Every hit is printed, so a new false positive is visible where it happens.
      for (const hit of hits.slice(0, 5)) report.push(`    ${hit.trim().slice(0, 160)}`);
    }
    report.push(`total: ${changed} of ${lines} lines (${((100 * changed) / lines).toFixed(4)} %)`);
    if (process.env.REDACT_FP_REPORT) process.stderr.write(`${report.join('\n')}\n`);
    expect({ rate: changed / lines <= MAX_RATE, report }).toMatchObject({ rate: true });
  });

  it.each(parts.filter((p) => !/sources|dependency|lib\./.test(p.name)).map((p) => [p.name, p] as const))('redacts nothing in %s', (_name, part) => {
    expect(redactSecrets(part.text).findings).toEqual([]);
  });
});

describe('the redactor on paths through temporary folders', () => {
  // mkdtemp names (`run-F0oJcH`) are random: joined without their slashes, such a path once read
  // as a random token, and an autosave listed `modified: [REDACTED:random-token].ts`.
  it.each([
    '/tmp/capsule-test-run-F0oJcH/capsule-repo-wK5DqD/repo/second.ts',
    '/var/folders/x7/k2Lq9ZbW1nX8_3mV0000gn/T/tmp-Q8zR2f/src/main.rs',
  ])('leaves %s as it is', (path) => {
    const text = JSON.stringify({ file_path: path });
    expect(redactSecrets(text).text).toBe(text);
  });

  it('still redacts a base64 secret that holds slashes', () => {
    const secret = 'Zm9vYmFyQk9PNzd4Q2xQ/dTRhbmRvbVN0dWZmOTk5/K2Y4UTFqWlM=';
    expect(redactSecrets(`data: ${secret}`).text).not.toContain(secret);
  });
});
