import type { Action, Scenario } from '../../scenario-types';

const MODULES = ['api/orders', 'api/carts', 'api/invoices', 'api/refunds', 'models/order', 'models/cart', 'models/invoice', 'models/refund', 'services/billing', 'services/email'];

const before = (m: string) => `// ${m}\nfunction describe${cap(m)}(row) {\n  return { id: row.id, customerId: row.customerId };\n}\nmodule.exports = { describe${cap(m)} };\n`;
const after = (m: string) => before(m).replace(/customerId/g, 'accountId');

function cap(m: string): string {
  const base = m.split('/')[1]!;
  return base[0]!.toUpperCase() + base.slice(1);
}

const ORDERS_TEST = `const { describeOrders } = require('../src/api/orders');
const fixture = require('./fixtures/orders.json');
const { expectEqual } = require('./helpers');
module.exports = [{ name: 'orders \\u203a carries the account id', fn: () => expectEqual(describeOrders(fixture[0]).accountId, 'acc_1') }];
`;

const renames: Action[] = MODULES.flatMap((m): Action[] => [{ tool: 'Read', path: `src/${m}.js` }, { tool: 'Write', path: `src/${m}.js`, content: after(m) }]);

/** Thirty-odd tool calls over two turns: the state that matters must survive the 10,000-character budget. */
export const longSession: Scenario = {
  name: 'long-session',
  covers: '30+ tool calls: newest files first, the budget spent on state, an early failure resolved later',
  repo: {
    ...Object.fromEntries(MODULES.map((m) => [`src/${m}.js`, before(m)])),
    'test/orders.test.js': ORDERS_TEST,
    'test/fixtures/orders.json': '[{ "id": 1, "customerId": "acc_1" }]\n',
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Rename the customerId field to accountId everywhere in the API, models and services; keep the tests green.',
          actions: [
            { tool: 'Bash', command: 'grep -rln customerId src test', description: 'Find every file that uses customerId' },
            ...renames,
            { tool: 'Bash', command: 'npm test', description: 'Run the test suite' },
            { tool: 'Read', path: 'test/orders.test.js' },
            { tool: 'Read', path: 'test/fixtures/orders.json' },
            { text: 'I renamed customerId to accountId in all 10 modules. test/orders.test.js now fails because its fixture still says customerId.\n\nNext I will update test/fixtures/orders.json to use accountId and run the suite again.' },
          ],
        },
        {
          prompt: 'Yes, go ahead.',
          actions: [
            { tool: 'Write', path: 'test/fixtures/orders.json', content: '[{ "id": 1, "accountId": "acc_1" }]\n' },
            { tool: 'Bash', command: 'npm test', description: 'Run the test suite again' },
            { tool: 'Bash', command: 'grep -rc customerId src test | grep -v ":0$" || echo "no customerId left"', description: 'Check that no customerId is left' },
            { tool: 'Bash', command: 'npm run lint', description: 'Lint the sources' },
            { tool: 'Read', path: 'src/db.js' },
            { tool: 'Edit', path: 'src/db.js', old: '  let conn = null; // unused\n', new: '' },
            { tool: 'Bash', command: 'npm run lint', description: 'Lint again' },
            { tool: 'Bash', command: 'git add -A && git commit -qm "Rename customerId to accountId" && git log --oneline -1', description: 'Commit the rename' },
            { text: 'All tests and lint pass, and the rename is committed ("Rename customerId to accountId").\n\nNext I will update docs/api.md so the documented order fields say accountId.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the accountId rename', in: ['objective'], pattern: 'accountId' },
    { id: 'next step: docs/api.md', in: ['next_valid_action'], pattern: 'docs/api\\.md' },
    { id: 'the commit is done', in: ['done'], pattern: 'Rename customerId to accountId' },
    { id: 'the orders test failure resolved', in: ['errors'], pattern: '(orders|npm test).*resolved|resolved.*(orders|npm test)' },
    { id: 'the newest modified file listed', in: ['files'], pattern: '^"?modified: src/db\\.js' },
    { id: 'the fixture listed as modified', in: ['files'], pattern: '^"?modified: test/fixtures/orders\\.json' },
  ],
  antiFacts: [
    { id: 'the go-ahead as objective', in: ['objective'], pattern: 'go ahead' },
    { id: 'the fixed orders failure shown unresolved', in: ['errors'], pattern: '^(?!.*resolved).*orders\\.test' },
  ],
};
