import type { Scenario } from '../../scenario-types';

/** `claude --resume <id>` of the older session while a newer one still runs, then /clear. */
export const resumeIdThenClear: Scenario = {
  name: 'resume-id-then-clear',
  covers: "claude --resume <id> of an older session beside a newer live one, then /clear: the resumed session's state only",
  sessions: [
    {
      name: 'search',
      steps: [
        {
          prompt: 'Add a name search to GET /products: ?q= matches product names case-insensitively.',
          actions: [
            { tool: 'Read', path: 'src/api/products.js' },
            { tool: 'Write', path: 'src/api/products.js', content: "const products = [{ id: 1, name: 'mug' }, { id: 2, name: 'tee' }];\n// GET /products?q=\nfunction listProducts({ q } = {}) {\n  if (!q) return products;\n  return products.filter((p) => p.name.toLowerCase().includes(q.toLowerCase()));\n}\nmodule.exports = { listProducts };\n" },
            { text: 'GET /products filters by ?q= now. Next I will trim q and ignore it when it is shorter than two characters.' },
          ],
        },
      ],
    },
    {
      name: 'ci',
      steps: [
        {
          prompt: 'Set up a GitHub Actions workflow that runs npm test on every push.',
          actions: [
            { tool: 'Write', path: '.github/workflows/test.yml', content: 'name: test\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm test\n' },
            { text: '.github/workflows/test.yml runs npm test on every push. Next I will add a Node 20 and 22 matrix.' },
          ],
        },
      ],
    },
    {
      name: 'search-resumed',
      resumes: 'search',
      steps: [
        {
          prompt: 'Back to the search. Do the trimming.',
          actions: [
            { tool: 'Edit', path: 'src/api/products.js', old: '  if (!q) return products;', new: '  q = (q || \'\').trim();\n  if (q.length < 2) return products;' },
            { tool: 'Bash', command: 'npm test', description: 'Run the test suite' },
            { text: 'q is trimmed and ignored under two characters. Next I will add tests for ?q=MU and ?q=%20 in test/products.test.js.' },
          ],
        },
      ],
    },
  ],
  order: ['search', 'ci', 'search-resumed'],
  probe: { resets: ['clear'], prompt: 'Where were we?', session: 'search-resumed' },
  facts: [
    { id: 'objective: the name search', in: ['objective'], pattern: 'search|\\?q=|name' },
    { id: 'next step: the tests in products.test.js', in: ['next_valid_action'], pattern: 'products\\.test|MU' },
    { id: 'products.js modified', in: ['files'], pattern: 'modified: .*src/api/products\\.js' },
  ],
  antiFacts: [
    { id: "the other live session's CI work in this state", in: ['objective', 'waiting_on', 'next_valid_action', 'done', 'errors', 'files', 'facts', 'claimed', 'rejected'], pattern: 'workflow|GitHub Actions|test\\.yml|matrix' },
    { id: 'the done trimming as next step', in: ['next_valid_action'], pattern: 'trim q' },
  ],
};
