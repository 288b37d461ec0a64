import type { Scenario } from '../../scenario-types';

const AUTH = "const { createHash } = require('node:crypto');\nconst hash = (s) => createHash('sha256').update(s).digest('hex');\n// Passwords are stored hashed since the hashing change.\nconst users = { ada: hash('lovelace') };\nasync function verify(user, password) {\n  return users[user] === password;\n}\nasync function login(user, password) {\n  return (await verify(user, password)) ? 200 : 401;\n}\nmodule.exports = { login, hash };\n";

/** Placeholder-like prompts ("do it", "continue", "x"): none of them is the task. */
export const tersePrompts: Scenario = {
  name: 'terse-prompts',
  covers: 'placeholder-like terse prompts ("do it", "continue", "x"): the objective stays the stated task',
  live: true,
  repo: { 'src/auth.js': AUTH },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'The login test fails since passwords are stored hashed. Find out why and tell me the fix before changing anything.',
          actions: [
            { tool: 'Bash', command: 'npm test -- auth', description: 'Run the login tests' },
            { tool: 'Read', path: 'src/auth.js' },
            { text: 'verify() in src/auth.js compares the typed password with the stored hash, so the right password is rejected (login › accepts the right password: expected 200, received 401). The fix: compare hash(password) with the stored value. Shall I?' },
          ],
        },
        {
          prompt: 'do it',
          actions: [
            { tool: 'Edit', path: 'src/auth.js', old: 'return users[user] === password;', new: 'return users[user] === hash(password);' },
            { text: 'verify() hashes the typed password before comparing.' },
          ],
        },
        {
          prompt: 'continue',
          actions: [
            { tool: 'Bash', command: 'npm test -- auth', description: 'Run the login tests' },
            { text: 'Both login tests pass again.\n\nNext I will make verify() compare with crypto.timingSafeEqual instead of ===, so the comparison takes the same time for every input.' },
          ],
        },
        { prompt: 'x', actions: [{ text: 'I got just "x". I will wait: the timingSafeEqual change in src/auth.js is next whenever you want it.' }] },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the failing login test after the hashing change', in: ['objective'], pattern: 'login|hash' },
    { id: 'next step: timingSafeEqual', in: ['next_valid_action'], pattern: 'timingSafeEqual|constant|same time' },
    { id: 'the login failure resolved', in: ['errors'], pattern: '(login|auth|401).*(resolved|fixed|→)' },
    { id: 'auth.js modified', in: ['files'], pattern: 'modified: .*src/auth\\.js' },
  ],
  antiFacts: [
    { id: 'a placeholder prompt as objective', in: ['objective'], pattern: '^"?(do it|continue|x)"?$' },
    { id: 'a placeholder prompt as next step', in: ['next_valid_action'], pattern: '^"?(do it|continue|x)"?$' },
    { id: 'the fixed login failure shown open', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→)).*(expected 200|accepts the right password)' },
  ],
};
