import type { Scenario } from '../../scenario-types';

/**
 * Two sessions open in one repository at once, turns interleaved; the first one is cleared. Its
 * resume must carry its own work and nothing of the other session's.
 */
export const twoSessions: Scenario = {
  name: 'two-sessions',
  covers: "two concurrent sessions in one repository: a /clear gets only its own session's state",
  sessions: [
    {
      name: 'a',
      steps: [
        {
          prompt: 'Add pagination to GET /products in src/api/products.js: a page and a pageSize query parameter.',
          actions: [
            { tool: 'Read', path: 'src/api/products.js' },
            { tool: 'Write', path: 'src/api/products.js', content: "const products = [{ id: 1, name: 'mug' }, { id: 2, name: 'tee' }];\n// GET /products?page=&pageSize=\nfunction listProducts({ page = 1, pageSize = 20 } = {}) {\n  return products.slice((page - 1) * pageSize, page * pageSize);\n}\nmodule.exports = { listProducts };\n" },
            { text: 'listProducts now takes page and pageSize. Next I will add a test for page 2 in test/products.test.js.' },
          ],
        },
      ],
    },
    {
      name: 'b',
      steps: [
        {
          prompt: 'Fix the typo in the install section of README.md.',
          actions: [
            { tool: 'Read', path: 'README.md' },
            { tool: 'Edit', path: 'README.md', old: 'npm instal\n', new: 'npm install\n' },
            { text: 'Fixed: README.md now says npm install. Next I will proofread the Test section of README.md too.' },
          ],
        },
      ],
    },
  ],
  order: ['a', 'b'],
  probe: { resets: ['clear'], prompt: 'Where were we?', session: 'a' },
  facts: [
    { id: "objective: a's pagination", in: ['objective'], pattern: 'pagination' },
    { id: "next step: a's page 2 test", in: ['next_valid_action'], pattern: 'products\\.test\\.js|page 2' },
    { id: 'products.js modified', in: ['files'], pattern: '^"?modified: src/api/products\\.js' },
  ],
  antiFacts: [
    { id: "b's work in a's current state", in: ['objective', 'waiting_on', 'next_valid_action', 'done', 'errors', 'files', 'facts', 'claimed'], pattern: 'README|typo|proofread' },
  ],
};
