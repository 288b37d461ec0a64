import type { Scenario } from '../../scenario-types';

const CART = "// Cart totals in cents.\nfunction cartTotal(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price * i.qty;\n  return sum;\n}\nmodule.exports = { cartTotal };\n";
const CART_DISCOUNT = "// Cart totals in cents, with an optional percent discount.\nfunction cartTotal(items, discountPercent = 0) {\n  let sum = 0;\n  let count = 0; // unused\n  for (const i of items) sum += i.price * i.qty;\n  return Math.round(sum * (100 - discountPercent) / 100);\n}\nmodule.exports = { cartTotal };\n";
const TEST = "const { cartTotal } = require('../src/cart/total');\nconst { expectEqual } = require('./helpers');\nmodule.exports = [{ name: 'cart \\u203a 10% off', fn: () => expectEqual(cartTotal([{ price: 1000, qty: 2 }], 10), 1800) }];\n";

/** A short follow-up ("Run the linter too.") attaches to the task; the lint failure it finds is open. */
export const followUpLint: Scenario = {
  name: 'follow-up-lint',
  covers: 'a short follow-up ("Run the linter too.") after the tests pass: the task stays the objective, the lint error is open',
  live: true,
  repo: { 'src/cart/total.js': CART, 'src/db.js': '// The connection pool.\nfunction connect(url) {\n  return { url };\n}\nmodule.exports = { connect };\n' },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Add an optional percent discount to cartTotal in src/cart/total.js, rounded to the cent.',
          actions: [
            { tool: 'Read', path: 'src/cart/total.js' },
            { tool: 'Write', path: 'src/cart/total.js', content: CART_DISCOUNT },
            { tool: 'Write', path: 'test/cart.test.js', content: TEST },
            { tool: 'Bash', command: 'npm test -- cart', description: 'Run the cart tests' },
            { text: 'cartTotal takes a discountPercent now (default 0) and test/cart.test.js passes.' },
          ],
        },
        {
          prompt: 'Run the linter too.',
          actions: [
            { tool: 'Bash', command: 'npm run lint', description: 'Lint the sources' },
            { text: "The linter fails: src/cart/total.js 4:7 'count' is assigned a value but never used (no-unused-vars), a leftover of my change.\n\nI will delete the unused count variable in src/cart/total.js and lint again." },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the percent discount', in: ['objective'], pattern: 'discount|cartTotal' },
    { id: 'next step: delete the unused variable', in: ['next_valid_action'], pattern: 'count|unused|lint' },
    { id: 'the lint error is open', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→)).*(count|no-unused-vars|lint)' },
    { id: 'total.js modified', in: ['files'], pattern: 'modified: .*src/cart/total\\.js' },
  ],
  antiFacts: [
    { id: 'the follow-up as objective', in: ['objective'], pattern: '^"?run the linter' },
    { id: 'the lint error shown resolved', in: ['errors'], pattern: '(count|no-unused-vars).*(resolved|fixed|→)' },
  ],
};
