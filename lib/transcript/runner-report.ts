/** What a test runner's output says, as far as the pairing of failures and fixes needs it. */
export interface RunnerReport {
  /** Test files reported failing (`FAIL test/a.test.js`, `FAILED tests/test_a.py::…`, `--- FAIL: TestX`). */
  failedFiles: string[];
  /** Test files reported passing (`PASS test/a.test.js`, `ok  pkg/a`, `tests/test_a.py PASSED`). */
  passedFiles: string[];
  /** The runner's summary line (`Tests: 9 passed, 9 total`), when it printed one. */
  summary?: string;
  /** How many tests the summary says failed (0 when it says none did; absent when it says nothing). */
  failed?: number;
}

// Runners print file lines first and the summary last: the head and the tail are read.
const HEAD_CHARS = 64 * 1024;
const TAIL_CHARS = 16 * 1024;
const MAX_LINE_CHARS = 300;

// One anchored test per line: jest/vitest, go, pytest, mocha, cargo, and the generic summaries.
const FAIL_FILE = /^(?:FAIL|FAILED|✗|×)\s+([\w./@-]+\.[A-Za-z]{1,6})\b|^FAILED ([\w./-]+\.py)::|^--- FAIL: (\S+)|^FAIL\s+([\w./-]+)\s/;
const PASS_FILE = /^(?:PASS|✓)\s+([\w./@-]+\.[A-Za-z]{1,6})\b|^ok\s+([\w./-]+)\s|^([\w./-]+\.py) PASSED\b/;
const SUMMARY = /^(?:Tests?:\s|Test Files\s|test result:|=+ .*\b(?:passed|failed)\b.*=+$|\d+ (?:passing|failing)\b|Ran \d+ tests?\b)/;

/**
 * Reads a runner's output line by line (bounded, linear): failing and passing test files and
 * the summary. Used to pair a failure with the later run that fixed it when the two commands
 * differ (`npm test -- auth` failed, `npm test` passed with test/auth.test.js in it).
 *
 * @example readRunnerReport('PASS test/a.test.js\nTests: 3 passed, 3 total').summary // 'Tests: 3 passed, 3 total'
 */
export function readRunnerReport(output: string): RunnerReport {
  const report: RunnerReport = { failedFiles: [], passedFiles: [] };
  const scanned = output.length <= HEAD_CHARS + TAIL_CHARS ? output : `${output.slice(0, HEAD_CHARS)}\n${output.slice(-TAIL_CHARS)}`;
  for (const raw of scanned.split('\n')) {
    const line = raw.trim();
    // Report lines are short; a long line is output, never a heading or a summary.
    if (line === '' || line.length > MAX_LINE_CHARS) continue;
    // One character decides which pattern can match at all: most output lines meet none.
    const first = line[0]!;
    const fail = first === 'F' || first === '-' || first === '✗' || first === '×' ? FAIL_FILE.exec(line) : null;
    if (fail) {
      report.failedFiles.push((fail[1] ?? fail[2] ?? fail[3] ?? fail[4])!);
      continue;
    }
    const pass = first === 'P' || first === '✓' || first === 'o' || line.includes(' PASSED') ? PASS_FILE.exec(line) : null;
    if (pass) {
      report.passedFiles.push((pass[1] ?? pass[2] ?? pass[3])!);
      continue;
    }
    if ((first === 'T' || first === 't' || first === '=' || first === 'R' || (first >= '0' && first <= '9')) && SUMMARY.test(line)) {
      const summary = line.replace(/\s+/g, ' ');
      // The last summary wins (jest prints Test Suites then Tests); a Tests line wins over a suites line.
      if (report.summary === undefined || !/^Tests?: /.test(report.summary) || /^Tests?: /.test(summary)) report.summary = summary;
      const failed = /(\d+) (?:failed|failing)\b/.exec(summary);
      if (failed) report.failed = Math.max(report.failed ?? 0, Number(failed[1]));
      else if (/\b\d+ (?:passed|passing)\b|test result: ok/.test(summary)) report.failed ??= 0;
    }
  }
  report.failedFiles = [...new Set(report.failedFiles)];
  report.passedFiles = [...new Set(report.passedFiles)];
  return report;
}
