import { commandShape } from '../../lib/transcript/command-shape';

describe('commandShape', () => {
  it.each([
    ['npm test -- auth', { family: 'npm test', args: ['auth'], kind: 'test' }],
    ['npm test', { family: 'npm test', args: [], kind: 'test' }],
    ['cd api && npm t 2>&1 | tail -20', { family: 'npm test', args: [], kind: 'test' }],
    ['npm run lint -- --fix', { family: 'npm run lint', args: ['--fix'], kind: 'lint' }],
    ['CI=1 npx jest test/auth.test.js', { family: 'jest', args: ['test/auth.test.js'], kind: 'test' }],
    ['python -m pytest tests/test_auth.py -q', { family: 'pytest', args: ['tests/test_auth.py', '-q'], kind: 'test' }],
    ['go test ./...', { family: 'go test', args: ['./...'], kind: 'test' }],
    ['timeout 60 cargo clippy', { family: 'cargo clippy', args: [], kind: 'lint' }],
    ['npx tsc --noEmit', { family: 'tsc', args: ['--noEmit'], kind: 'typecheck' }],
    ['node scripts/verify-webhook.js', { family: 'node scripts/verify-webhook.js', args: [], kind: 'other' }],
    ['git commit -m "x"', { family: 'git commit', args: ['-m', 'x'], kind: 'other' }],
  ])('reads %j', (command, shape) => {
    expect(commandShape(command)).toEqual(shape);
  });

  it('is null for a command line of set-up alone', () => {
    expect(commandShape('cd src && export A=1')).toBeNull();
  });
});
