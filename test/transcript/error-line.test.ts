import { errorLine } from '../../lib/transcript/error-line';

const NPM_JEST = `Exit code 1

> shop-api@1.0.0 test
> node scripts/run-tests.js auth

FAIL test/auth.test.js
  ● login › rejects a bad password

    expect(received).toBe(expected)

    Expected: 401
    Received: 500

Test Suites: 1 failed, 0 passed, 1 total
Tests:       1 failed, 1 passed, 2 total
npm error Lifecycle script \`test\` failed with error:
npm error code 1`;

const LINT = `Exit code 1

> shop-api@1.0.0 lint
> node scripts/lint.js

src/db.js
  3:7  error  'conn' is assigned a value but never used  no-unused-vars

✖ 1 problem (1 error, 0 warnings)`;

describe('errorLine', () => {
  it('gives the failing test and its assertion, not npm banners', () => {
    expect(errorLine(NPM_JEST)).toBe('FAIL test/auth.test.js — ● login › rejects a bad password — Expected: 401 — Received: 500 — Tests: 1 failed, 1 passed, 2 total');
  });

  it("prefixes a linter's position line with the file it is under", () => {
    expect(errorLine(LINT)).toBe("src/db.js 3:7 error 'conn' is assigned a value but never used no-unused-vars — ✖ 1 problem (1 error, 0 warnings)");
  });

  it.each([
    ['Exit code 1\nError: No signatures found matching the expected signature for payload', 'Error: No signatures found matching the expected signature for payload'],
    ['Exit code 127\n/bin/sh: 1: pytset: not found\nbash: pytset: command not found', 'bash: pytset: command not found'],
    ['Exit code 1\nTraceback (most recent call last):\n  File "a.py", line 3, in <module>\nKeyError: \'id\'', "Traceback (most recent call last): — KeyError: 'id'"],
    ['Exit code 1\nnode:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module \'./x\'\n    at Module._resolveFilename (node:internal)', "Error: Cannot find module './x'"],
  ])('picks the line that says what failed in %j', (output, line) => {
    expect(errorLine(output)).toBe(line);
  });

  it('falls back to the first lines that are not noise when none says what failed', () => {
    expect(errorLine('Exit code 2\n> app@1.0.0 build\nsomething odd\nand more\nthird\nfourth')).toBe('something odd — and more — third');
  });

  it('stays within its bound, cutting the last line it cannot fit', () => {
    const line = errorLine(`FAIL a\n${'Expected: '.padEnd(400, 'x')}`, 60);
    expect(line).toBe('FAIL a');
    expect(errorLine(`Error: ${'y'.repeat(300)}`, 60)).toHaveLength(60);
  });

  it('reads a long minified line as plain output, never as a heading', () => {
    expect(errorLine(`${'Error'.repeat(200)}\nError: real`)).toBe('Error: real');
  });
});
