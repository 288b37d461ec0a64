import type { Action, Scenario } from '../../scenario-types';

// 48 catalog modules that say `price`; the task renames it to `unitPrice` in every one.
const N = 48;
const names = Array.from({ length: N }, (_, i) => `item${String(i + 1).padStart(2, '0')}`);
const before = (n: string) => `// catalog/${n}\nfunction ${n}Row(r) {\n  return { sku: r.sku, price: r.price };\n}\nmodule.exports = { ${n}Row };\n`;
const after = (n: string) => before(n).replace(/price/g, 'unitPrice');
const rename = (n: string): Action[] => [{ tool: 'Read', path: `src/catalog/${n}.js` }, { tool: 'Write', path: `src/catalog/${n}.js`, content: after(n) }];

const FIRST = 'Rename the price field to unitPrice in every module under src/catalog/ (there are 48), and keep the tests green.';
const SECOND = 'Keep going with the rest of the catalog modules.';
const TEST = "const { item01Row } = require('../src/catalog/item01');\nconst fixture = require('./fixtures/catalog.json');\nconst { expectEqual } = require('./helpers');\nmodule.exports = [{ name: 'catalog \\u203a item01 carries the unit price', fn: () => expectEqual(item01Row(fixture[0]).unitPrice, 1200) }];\n";

const firstHalf = names.slice(0, 24).flatMap(rename);
const secondHalf = names.slice(24).flatMap(rename);
// The context fills up in the middle of each turn: the client compacts automatically there.
firstHalf[30] = { ...firstHalf[30]!, inputTokens: 120000 };
secondHalf[20] = { ...secondHalf[20]!, inputTokens: 120000 };

const summary = (done: string, prompts: string[]) =>
  `<summary>\n1. Primary Request and Intent: rename the price field to unitPrice in every module under src/catalog/ (48 modules) and keep the tests green.\n2. Key Technical Concepts: CommonJS modules, the repository's own test runner (npm test).\n3. Files and Code Sections: ${done}\n4. Errors and fixes: npm test failed in test/catalog.test.js because test/fixtures/catalog.json still says price (open).\n5. Problem Solving: the fixture must be updated after the modules.\n6. All user messages:\n${prompts.map((p) => `   - "${p}"`).join('\n')}\n7. Pending Tasks: rename the remaining modules, update the fixture, run the tests.\n8. Current Work: renaming the modules one by one.\n</summary>`;

/**
 * 100+ tool calls over two turns, with an automatic compaction in the middle of each and 49
 * files modified: what the session did first (the early modules, the early failure) must still be
 * there after the second compaction and the /clear, and the failure fixed later shows resolved.
 */
export const longTwoCompactions: Scenario = {
  name: 'long-two-compactions',
  covers: '100+ tool calls, two automatic compactions mid-turn, 49 modified files: early files kept, the early failure resolved, the final next step',
  repo: {
    ...Object.fromEntries(names.map((n) => [`src/catalog/${n}.js`, before(n)])),
    'test/catalog.test.js': TEST,
    'test/fixtures/catalog.json': '[{ "sku": "MUG-1", "price": 1200 }]\n',
  },
  compactSummaries: [
    summary('src/catalog/item01.js … item15.js renamed so far.', [FIRST]),
    summary('src/catalog/item01.js … item34.js renamed so far.', [FIRST, SECOND]),
  ],
  sessions: [
    {
      name: 'main',
      env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '10' },
      steps: [
        {
          prompt: FIRST,
          actions: [
            { tool: 'Bash', command: 'grep -rl "price" src/catalog | wc -l', description: 'Count the modules to rename' },
            ...firstHalf,
            { tool: 'Bash', command: 'npm test', description: 'Run the test suite' },
            { tool: 'Read', path: 'test/catalog.test.js' },
            { text: 'item01 to item24 use unitPrice now. npm test fails in test/catalog.test.js because test/fixtures/catalog.json still says price; I will update it once every module is renamed. 24 modules are left.' },
          ],
        },
        {
          prompt: SECOND,
          actions: [
            ...secondHalf,
            { tool: 'Write', path: 'test/fixtures/catalog.json', content: '[{ "sku": "MUG-1", "unitPrice": 1200 }]\n' },
            { tool: 'Bash', command: 'npm test', description: 'Run the test suite' },
            { tool: 'Bash', command: 'grep -rlw "price" src/catalog | wc -l', description: 'Check that no price field is left' },
            { tool: 'Bash', command: 'git status --short | wc -l', description: 'Count the changed files' },
            { text: 'All 48 catalog modules and the fixture use unitPrice, npm test passes and no price field is left under src/catalog/.\n\nNext I will update the product fields in docs/api.md to say unitPrice.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the unitPrice rename', in: ['objective'], pattern: 'unitPrice' },
    { id: 'next step: docs/api.md', in: ['next_valid_action'], pattern: 'docs/api\\.md' },
    { id: 'the first module (before the first compaction) listed as modified', in: ['files'], pattern: 'modified: .*item01\\b' },
    { id: 'a module between the compactions listed as modified', in: ['files'], pattern: 'modified: .*item20\\b' },
    { id: 'the last module listed as modified', in: ['files'], pattern: 'modified: .*item48\\b' },
    { id: 'the fixture listed as modified', in: ['files'], pattern: 'modified: .*test/fixtures/catalog\\.json' },
    { id: 'the fixture failure resolved', in: ['errors'], pattern: '(catalog|fixture|npm test).*(resolved|fixed|→)' },
  ],
  antiFacts: [
    { id: 'the keep-going as objective', in: ['objective'], pattern: '^"?keep going' },
    { id: 'the fixed fixture failure shown open', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→)).*(catalog\\.test|fixtures/catalog)' },
    { id: 'no next step after the compactions', in: ['next_valid_action'], pattern: 'no next step|confirm the objective' },
  ],
};
