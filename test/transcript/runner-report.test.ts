import { readRunnerReport } from '../../lib/transcript/runner-report';

describe('readRunnerReport', () => {
  it('reads jest-style PASS and FAIL files and keeps the Tests summary over the suites one', () => {
    const report = readRunnerReport('PASS test/a.test.js\nFAIL test/b.test.js\n  ● b fails\n\nTest Suites: 1 failed, 1 passed, 2 total\nTests:       1 failed, 4 passed, 5 total\n');
    expect(report).toEqual({ failedFiles: ['test/b.test.js'], passedFiles: ['test/a.test.js'], summary: 'Tests: 1 failed, 4 passed, 5 total', failed: 1 });
  });

  it.each([
    ['pytest', 'FAILED tests/test_auth.py::test_login - assert 500 == 401\n==== 1 failed, 3 passed in 0.12s ====', { failedFiles: ['tests/test_auth.py'], failed: 1 }],
    ['go test', '--- FAIL: TestLogin (0.00s)\nFAIL\tshop/auth\t0.01s\nok  \tshop/cart\t0.02s', { failedFiles: ['TestLogin', 'shop/auth'], passedFiles: ['shop/cart'] }],
    ['mocha', '  3 passing (12ms)\n  1 failing', { failed: 1 }],
    ['cargo', 'test result: ok. 12 passed; 0 failed; 0 ignored', { failed: 0 }],
  ])('reads %s output', (_name, output, expected) => {
    expect(readRunnerReport(output)).toEqual(expect.objectContaining(expected));
  });

  it('says a summary with only passes reports no failures', () => {
    expect(readRunnerReport('Tests:       9 passed, 9 total').failed).toBe(0);
  });

  it('says nothing about failures when there is no summary', () => {
    expect(readRunnerReport('hello').failed).toBeUndefined();
  });
});
