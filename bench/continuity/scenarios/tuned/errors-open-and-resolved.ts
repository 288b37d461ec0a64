import type { Scenario } from '../../scenario-types';

/**
 * A failure fixed by a different command than the one that failed (`npm test -- auth` fails,
 * `npm test` passes), and a lint error never fixed.
 */
export const errorsOpenAndResolved: Scenario = {
  name: 'errors-open-and-resolved',
  covers: 'an error resolved by a different command, an error never fixed, the line that matters',
  // The refactor's bug: verify() is async and no longer awaited, so every login answers 500.
  repo: {
    'src/auth.js': `const users = { ada: 'lovelace' };
async function verify(user, password) {
  return users[user] === password;
}
// Returns the HTTP status of a login attempt.
async function login(user, password) {
  const ok = verify(user, password);
  if (ok === false) return 401;
  return ok === true ? 200 : 500;
}
module.exports = { login };
`,
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: "The auth tests fail since yesterday's refactor. Please fix them.",
          actions: [
            { tool: 'Bash', command: 'npm test -- auth', description: 'Run the auth tests' },
            { tool: 'Read', path: 'src/auth.js' },
            { tool: 'Edit', path: 'src/auth.js', old: '  const ok = verify(user, password);', new: '  const ok = await verify(user, password);' },
            { tool: 'Bash', command: 'npm test', description: 'Run the whole test suite' },
            { tool: 'Bash', command: 'npm run lint', description: 'Lint the sources' },
            { text: 'The auth tests pass now: login() did not await verify(), so every attempt returned 500. The whole suite passes.\n\nLint still fails on an unused variable in src/db.js (line 3); I have not touched that file.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'Where were we?' },
  facts: [
    { id: 'the auth failure, by its failing test', in: ['errors'], pattern: 'rejects a bad password|Expected: 401|auth\\.test' },
    { id: 'the auth failure marked resolved', in: ['errors'], pattern: '(auth|npm test).*resolved|resolved.*(auth|npm test)' },
    { id: 'the lint error, marked open', in: ['errors'], pattern: '(open|unresolved).*(db\\.js|conn|lint)|(db\\.js|conn|lint).*(open|unresolved)' },
    { id: 'done: the suite passes', in: ['done'], pattern: 'pass' },
    { id: 'src/auth.js modified', in: ['files'], pattern: '^"?modified: src/auth\\.js' },
  ],
  antiFacts: [
    // A failure the session fixed, listed without its resolution, tells the next session it is still broken.
    { id: 'the fixed auth failure shown unresolved', in: ['errors'], pattern: '^(?!.*resolved).*(npm test -- auth|auth\\.test|rejects a bad password)' },
  ],
};
