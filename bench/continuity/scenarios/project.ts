/**
 * The project every scenario starts from: a small Node API with a jest-like test runner and a
 * linter of its own (no dependencies, so `npm test` runs offline), so the commands a scripted
 * session runs print what real tools print: npm's `> pkg@1.0.0 test` banner, FAIL/PASS lines,
 * `●` failure headings, Expected/Received, a Tests: summary, lint's file:line:col lines.
 */
export const PROJECT: Record<string, string> = {
  'package.json': JSON.stringify(
    { name: 'shop-api', version: '1.0.0', private: true, scripts: { test: 'node scripts/run-tests.js', lint: 'node scripts/lint.js', 'ci:trigger': 'node scripts/ci-trigger.js' } },
    null,
    2,
  ) + '\n',
  'README.md': '# shop-api\n\nThe order, cart and login API of the shop.\n\n## Install\n\n    npm instal\n\n## Test\n\n    npm test\n',
  'scripts/run-tests.js': `const { readdirSync } = require('node:fs');
const { join } = require('node:path');
const filter = process.argv[2];
const files = readdirSync('test').filter((f) => f.endsWith('.test.js') && (!filter || f.includes(filter))).sort();
(async () => {
  let passed = 0, failed = 0, suitesFailed = 0;
  for (const file of files) {
    const cases = require(join(process.cwd(), 'test', file));
    const failures = [];
    for (const c of cases) {
      try { await c.fn(); passed++; } catch (e) { failed++; failures.push([c.name, e.message]); }
    }
    if (failures.length === 0) console.log('PASS test/' + file);
    else {
      suitesFailed++;
      console.log('FAIL test/' + file);
      for (const [name, message] of failures) console.log('  \\u25cf ' + name + '\\n\\n    ' + message.split('\\n').join('\\n    ') + '\\n');
    }
  }
  console.log('');
  console.log('Test Suites: ' + (suitesFailed ? suitesFailed + ' failed, ' : '') + (files.length - suitesFailed) + ' passed, ' + files.length + ' total');
  console.log('Tests:       ' + (failed ? failed + ' failed, ' : '') + passed + ' passed, ' + (passed + failed) + ' total');
  process.exit(failed ? 1 : 0);
})();
`,
  'scripts/lint.js': `const { readFileSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const walk = (d) => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
let problems = 0;
for (const file of walk('src').filter((f) => f.endsWith('.js'))) {
  readFileSync(file, 'utf8').split('\\n').forEach((line, i) => {
    const m = /^(\\s*)let (\\w+) = .*\\/\\/ unused/.exec(line);
    if (m) { problems++; console.log(file + '\\n  ' + (i + 1) + ':' + (m[1].length + 5) + "  error  '" + m[2] + "' is assigned a value but never used  no-unused-vars\\n"); }
  });
}
if (problems) { console.log('\\u2716 ' + problems + ' problem' + (problems > 1 ? 's' : '') + ' (' + problems + ' error' + (problems > 1 ? 's' : '') + ', 0 warnings)'); process.exit(1); }
`,
  'scripts/ci-trigger.js': "console.log('Pipeline #4411 queued for branch ' + (process.argv[2] || 'main') + ': https://ci.example.invalid/shop-api/pipelines/4411');\n",
  'test/helpers.js': `exports.expectEqual = (received, expected) => {
  if (JSON.stringify(received) !== JSON.stringify(expected)) throw new Error('expect(received).toBe(expected)\\n\\nExpected: ' + JSON.stringify(expected) + '\\nReceived: ' + JSON.stringify(received));
};
`,
  'src/auth.js': `const users = { ada: 'lovelace' };
async function verify(user, password) {
  return users[user] === password;
}
// Returns the HTTP status of a login attempt.
async function login(user, password) {
  const ok = await verify(user, password);
  return ok ? 200 : 401;
}
module.exports = { login };
`,
  'test/auth.test.js': `const { login } = require('../src/auth');
const { expectEqual } = require('./helpers');
module.exports = [
  { name: 'login \\u203a accepts the right password', fn: async () => expectEqual(await login('ada', 'lovelace'), 200) },
  { name: 'login \\u203a rejects a bad password', fn: async () => expectEqual(await login('ada', 'babbage'), 401) },
];
`,
  'src/api/serializers.js': `// Shapes an order for the JSON API.
function serializeOrder(order) {
  return { id: order.id, total: order.total, createdAt: order.createdAt };
}
module.exports = { serializeOrder };
`,
  'test/serializers.test.js': `const { serializeOrder } = require('../src/api/serializers');
const { expectEqual } = require('./helpers');
module.exports = [{ name: 'serializeOrder \\u203a keeps the id', fn: () => expectEqual(serializeOrder({ id: 7, total: 3, createdAt: 0 }).id, 7) }];
`,
  'src/api/login.js': `const { login } = require('../auth');
// POST /login
async function handleLogin(req) {
  return { status: await login(req.body.user, req.body.password) };
}
module.exports = { handleLogin };
`,
  'src/api/products.js': `const products = [{ id: 1, name: 'mug' }, { id: 2, name: 'tee' }];
// GET /products
function listProducts() {
  return products;
}
module.exports = { listProducts };
`,
  'src/ui/checkout.js': `// The checkout form's fields.
function checkoutFields() {
  return ['email', 'address', 'card'];
}
module.exports = { checkoutFields };
`,
  'src/db.js': `// The connection pool.
function connect(url) {
  let conn = null; // unused
  return { url };
}
module.exports = { connect };
`,
  'src/session/store.js': `// Sessions, kept in memory.
const sessions = new Map();
module.exports = { get: (id) => sessions.get(id), set: (id, v) => sessions.set(id, v) };
`,
  'CHANGELOG.md': '# Changelog\n\n## v2.2\n\n- Carts expire after 30 days.\n',
  'docs/api.md': '# API\n\n## GET /orders\n\nLists orders.\n',
};
