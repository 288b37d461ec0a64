import { decodeOpenChecks, encodeOpenChecks, unionFailures } from '../../lib/transcript/failure-pairing';
import { normalizeDescription, resolutionBy, type OpenFailure, type SuccessEvidence } from '../../lib/transcript/failure-pairing';

const failure: OpenFailure = {
  text: '`npm test -- auth`: FAIL test/auth.test.js',
  signature: 'Bash:npm test -- auth',
  family: 'npm test',
  args: ['auth'],
  kind: 'test',
  files: ['test/auth.test.js'],
  description: 'run auth tests',
};
const success = (over: Partial<SuccessEvidence>): SuccessEvidence => ({ signature: 'Bash:x', label: '`x`', ...over });

describe('resolutionBy', () => {
  it('pairs the same call', () => {
    expect(resolutionBy(success({ signature: failure.signature, label: '`npm test -- auth`', kind: 'test' }), failure)).toBe('`npm test -- auth` passed');
  });

  it('pairs a broader run of the same check, with its summary', () => {
    const by = resolutionBy(success({ label: '`npm test`', family: 'npm test', args: [], kind: 'test', report: { failedFiles: [], passedFiles: [], summary: 'Tests: 9 passed, 9 total', failed: 0 } }), failure);
    expect(by).toBe('`npm test` passed (Tests: 9 passed, 9 total)');
  });

  it('pairs a run whose passing files cover every file that failed', () => {
    expect(resolutionBy(success({ label: '`npx jest`', family: 'jest', kind: 'test', report: { failedFiles: [], passedFiles: ['test/auth.test.js'] } }), failure)).toBe('`npx jest` passed');
  });

  it('pairs the same Bash description', () => {
    expect(resolutionBy(success({ label: '`./t.sh`', description: 'run auth tests' }), failure)).toBe('`./t.sh` succeeded');
  });

  it('does not pair a narrower run, another check, or a run that still reports failures', () => {
    expect(resolutionBy(success({ family: 'npm test', args: ['cart'], kind: 'test' }), failure)).toBeNull();
    expect(resolutionBy(success({ family: 'npm run lint', args: [], kind: 'lint' }), failure)).toBeNull();
    expect(resolutionBy(success({ signature: failure.signature, report: { failedFiles: ['test/b.test.js'], passedFiles: [], failed: 1 } }), failure)).toBeNull();
  });

  it('does not pair a run of another kind of command with the same family', () => {
    const other: OpenFailure = { text: 'x', signature: 'Bash:node a.js --x', family: 'node a.js', args: ['--x'], kind: 'other' };
    expect(resolutionBy(success({ family: 'node a.js', args: [], kind: 'other' }), other)).toBeNull();
  });
});

describe('normalizeDescription', () => {
  it('drops the words that only say a run is repeated', () => {
    expect(normalizeDescription('Run the session store test again')).toBe(normalizeDescription('Run the session store test'));
  });

  it('is undefined when too little is left to compare', () => {
    expect(normalizeDescription('Run again')).toBeUndefined();
    expect(normalizeDescription(42)).toBeUndefined();
  });
});

describe('encodeOpenChecks / decodeOpenChecks', () => {
  const failure = { text: '`npm test -- auth` (exit 1): crypto is not defined', signature: 'Bash:npm test -- auth', family: 'npm test', args: ['auth'], kind: 'test' as const, files: ['test/auth.test.js'], description: 'run auth tests' };

  it('round-trips the pairing data a later session needs', () => {
    expect(decodeOpenChecks(encodeOpenChecks([failure]))).toEqual([failure]);
  });

  it('skips entries of another shape instead of trusting them', () => {
    expect(decodeOpenChecks(['not json', JSON.stringify({ text: 1, signature: 's' }), JSON.stringify({ text: 't', signature: 's', kind: 'rm -rf' }), 42])).toEqual([{ text: 't', signature: 's' }]);
    expect(decodeOpenChecks('x')).toEqual([]);
  });

  it('keeps one failure per signature in a union, the later copy winning', () => {
    expect(unionFailures([{ text: 'old', signature: 's' }], [{ text: 'new', signature: 's' }])).toEqual([{ text: 'new', signature: 's' }]);
  });
});
