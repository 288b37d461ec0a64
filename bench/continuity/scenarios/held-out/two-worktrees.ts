import type { Scenario } from '../../scenario-types';

const VAT = '// VAT on a net amount in cents, for a rate in percent.\nfunction vat(cents, rate) {\n  return Math.floor((cents * rate) / 100);\n}\nmodule.exports = { vat };\n';

/**
 * Two worktrees of one repository, a session in each, both cleared at the same moment: each
 * resume carries its own worktree's work, never the other's.
 */
export const twoWorktrees: Scenario = {
  name: 'two-worktrees',
  covers: "two worktrees of one repository clearing at once: each resume gets its own worktree's session",
  repo: { 'src/pricing/vat.js': VAT },
  setup: [{ shell: 'git worktree add -q ../repo-hotfix -b hotfix/vat-rounding' }],
  sessions: [
    {
      name: 'feature',
      steps: [
        {
          prompt: 'Add a sort query parameter to GET /products in src/api/products.js: sort=price and sort=name, ascending.',
          actions: [
            { tool: 'Read', path: 'src/api/products.js' },
            { tool: 'Write', path: 'src/api/products.js', content: "const products = [{ id: 1, name: 'mug', price: 900 }, { id: 2, name: 'tee', price: 1500 }];\n// GET /products?sort=price|name\nfunction listProducts({ sort } = {}) {\n  if (!sort) return products;\n  return [...products].sort((a, b) => (a[sort] < b[sort] ? -1 : a[sort] > b[sort] ? 1 : 0));\n}\nmodule.exports = { listProducts };\n" },
            { text: 'listProducts sorts by price or name now. Next I will reject any other sort value with a 400 in src/api/products.js.' },
          ],
        },
      ],
    },
    {
      name: 'hotfix',
      cwd: '../repo-hotfix',
      steps: [
        {
          prompt: 'Hotfix: VAT is always rounded down in src/pricing/vat.js. Round half up to the cent.',
          actions: [
            { tool: 'Read', path: 'src/pricing/vat.js' },
            { tool: 'Edit', path: 'src/pricing/vat.js', old: 'Math.floor((cents * rate) / 100)', new: 'Math.round((cents * rate) / 100)' },
            { tool: 'Bash', command: 'git commit -qam "Round VAT half up" && git log --oneline -1', description: 'Commit the hotfix' },
            { text: 'VAT rounds half up now, committed on hotfix/vat-rounding. Next I will add a test for 0.5 cent in test/vat.test.js.' },
          ],
        },
      ],
    },
  ],
  order: ['feature', 'hotfix'],
  probe: { resets: ['clear'], prompt: 'Where were we?', session: 'feature', alsoReset: ['hotfix'] },
  facts: [
    { id: 'objective: the sort parameter', in: ['objective'], pattern: 'sort' },
    { id: 'next step: reject other sort values', in: ['next_valid_action'], pattern: '400|reject|other sort' },
    { id: 'products.js modified', in: ['files'], pattern: 'modified: .*src/api/products\\.js' },
  ],
  antiFacts: [
    { id: "the other worktree's hotfix in this session's state", in: ['objective', 'waiting_on', 'next_valid_action', 'done', 'errors', 'files', 'facts', 'claimed', 'rejected'], pattern: 'VAT|vat\\.js|round|hotfix' },
  ],
};
