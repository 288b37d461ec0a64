import type { Scenario } from '../../scenario-types';

const PRODUCTS = `const products = [{ id: 1, name: 'mug' }, { id: 2, name: 'tee' }];
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

// GET /products?limit=&offset=
function listProducts(query = {}) {
  const limit = Math.min(Math.max(parseInt(query.limit, 10) || DEFAULT_LIMIT, 1), MAX_LIMIT);
  const offset = Math.max(parseInt(query.offset, 10) || 0, 0);
  return { items: products.slice(offset, offset + limit), total: products.length, limit, offset };
}
module.exports = { listProducts };
`;

const PRODUCTS_TEST = `const { listProducts } = require('../src/api/products');
const { expectEqual } = require('./helpers');
module.exports = [
  { name: 'listProducts \\u203a defaults to 20 from 0', fn: () => expectEqual([listProducts().limit, listProducts().offset], [20, 0]) },
  { name: 'listProducts \\u203a caps the limit at 100', fn: () => expectEqual(listProducts({ limit: '5000' }).limit, 100) },
  { name: 'listProducts \\u203a pages with offset', fn: () => expectEqual(listProducts({ limit: '1', offset: '1' }).items.map((p) => p.name), ['tee']) },
];
`;

/** Work handed off: waiting on a CI pipeline and on a named reviewer, with nothing else to do meanwhile. */
export const waitingCiAndReview: Scenario = {
  name: 'waiting-ci-and-review',
  covers: 'pagination done, committed, CI pipeline #4411 triggered and PR #212 with Priya: the state is waiting on both; the fixed lint error and the "anything else?" prompt are not current',
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Add limit/offset pagination to GET /products: default limit 20, max 100, and return the total.',
          actions: [
            { tool: 'Read', path: 'src/api/products.js' },
            { tool: 'Write', path: 'src/api/products.js', content: PRODUCTS },
            { tool: 'Write', path: 'test/products.test.js', content: PRODUCTS_TEST },
            { tool: 'Bash', command: 'npm test', description: 'Run the tests' },
            { tool: 'Bash', command: 'npm run lint', description: 'Run the linter' },
            { text: "listProducts(query) in src/api/products.js takes limit (default 20, capped at 100) and offset, and returns { items, total, limit, offset }; three tests in test/products.test.js, all passing.\n\n`npm run lint` fails, but not on this change: src/db.js:3 has `'conn' is assigned a value but never used` (no-unused-vars), which was already there." },
          ],
        },
        {
          prompt: 'fix that lint error too, then commit on a branch and kick off CI',
          actions: [
            { tool: 'Read', path: 'src/db.js' },
            { tool: 'Edit', path: 'src/db.js', old: '  let conn = null; // unused\n', new: '' },
            { tool: 'Bash', command: 'npm run lint && echo "lint clean"', description: 'Lint again' },
            { tool: 'Bash', command: 'git checkout -q -b feat/products-pagination && git add src/api/products.js test/products.test.js src/db.js && git commit -q -m "products: limit/offset pagination (default 20, max 100)" && git log --oneline -1', description: 'Commit on a new branch' },
            { tool: 'Bash', command: 'npm run ci:trigger -- feat/products-pagination', description: 'Trigger the CI pipeline' },
            { text: "Lint is clean (removed the unused `conn` in src/db.js). Committed on feat/products-pagination and triggered CI: pipeline #4411 is queued (https://ci.example.invalid/shop-api/pipelines/4411)." },
          ],
        },
        {
          prompt: "I opened PR #212 and asked Priya to review it. Anything to tidy up while we wait?",
          actions: [
            { tool: 'Read', path: 'docs/api.md' },
            { tool: 'Edit', path: 'docs/api.md', old: '## GET /orders\n', new: '## GET /products\n\nLists products, a page at a time: `limit` (default 20, at most 100) and `offset` (default 0). Answers `{ items, total, limit, offset }`.\n\n## GET /orders\n' },
            { tool: 'Bash', command: 'git commit -q -am "docs: GET /products pagination" && git log --oneline -3', description: 'Commit the docs' },
            { text: "One thing: docs/api.md didn't mention GET /products, so I documented limit/offset there and committed it on the branch (push it with the PR so it's in #212).\n\nNothing else is open. We're waiting on two things: CI pipeline #4411 to go green, and Priya's review of PR #212. Once both are green, squash-merge into main and delete the branch." },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'any news? what do we do now' },
  facts: [
    { id: 'waiting on the CI pipeline #4411', in: ['waiting_on'], pattern: '4411|pipeline|\\bCI\\b' },
    { id: "waiting on Priya's review of PR #212", in: ['waiting_on'], pattern: 'Priya|review|#212' },
    { id: 'objective: pagination of GET /products', in: ['objective'], pattern: 'paginat|limit|offset|products' },
    { id: 'next once green: squash-merge', in: ['next_valid_action', 'waiting_on'], pattern: 'merge' },
    { id: 'done: the lint fix or the docs', in: ['done'], pattern: 'lint|db\\.js|docs/api\\.md|document' },
  ],
  antiFacts: [
    { id: 'the fixed lint error shown open', in: ['errors'], pattern: "^(?!.*(resolved|fixed|→)).*(no-unused-vars|'conn'|never used)" },
    { id: 'a stale next step: fix lint / trigger CI again', in: ['next_valid_action'], pattern: 'lint|db\\.js|ci:trigger|kick off' },
    { id: 'the question "anything to tidy up" as the objective', in: ['objective'], pattern: 'tidy|anything' },
  ],
};
