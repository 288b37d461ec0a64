import type { Scenario } from '../../scenario-types';

/**
 * `claude --resume <id>` of an earlier session while another session of the same repository
 * is live and newer, then `/clear`: the resume carries the resumed session's work, not the newer one's.
 */
export const resumeThenClear: Scenario = {
  name: 'resume-then-clear',
  covers: "claude --resume <id> beside a newer live session, then /clear: the resumed session's own state",
  sessions: [
    {
      name: 'etag',
      steps: [
        {
          prompt: 'Add an ETag header to GET /products (src/api/products.js) so browsers can cache the list.',
          actions: [
            { tool: 'Read', path: 'src/api/products.js' },
            { tool: 'Write', path: 'src/api/products.js', content: "const { createHash } = require('node:crypto');\nconst products = [{ id: 1, name: 'mug' }, { id: 2, name: 'tee' }];\n// GET /products, with an ETag of the body.\nfunction listProducts() {\n  const body = JSON.stringify(products);\n  return { body, headers: { ETag: '\"' + createHash('sha1').update(body).digest('hex') + '\"' } };\n}\nmodule.exports = { listProducts };\n" },
            { text: 'listProducts returns an ETag (a SHA-1 of the body). Next I will answer 304 when the If-None-Match header matches it.' },
          ],
        },
      ],
    },
    {
      name: 'release',
      steps: [
        {
          prompt: 'Bump the version to 1.1.0 in package.json and add a v1.1.0 entry to CHANGELOG.md.',
          actions: [
            { tool: 'Read', path: 'package.json' },
            { tool: 'Edit', path: 'package.json', old: '"version": "1.0.0"', new: '"version": "1.1.0"' },
            { tool: 'Edit', path: 'CHANGELOG.md', old: '# Changelog\n', new: '# Changelog\n\n## v1.1.0\n\n- Product list caching.\n' },
            { text: 'package.json says 1.1.0 and CHANGELOG.md has a v1.1.0 entry. Next I will tag the release commit v1.1.0.' },
          ],
        },
      ],
    },
    {
      name: 'etag-resumed',
      resumes: 'etag',
      steps: [
        {
          prompt: "I'm back on the ETag work. Let's do the 304.",
          actions: [
            { tool: 'Read', path: 'src/api/products.js' },
            { tool: 'Write', path: 'src/api/products.js', content: "const { createHash } = require('node:crypto');\nconst products = [{ id: 1, name: 'mug' }, { id: 2, name: 'tee' }];\n// GET /products, with an ETag of the body; 304 when If-None-Match matches.\nfunction listProducts(req = { headers: {} }) {\n  const body = JSON.stringify(products);\n  const etag = '\"' + createHash('sha1').update(body).digest('hex') + '\"';\n  if (req.headers['if-none-match'] === etag) return { status: 304, headers: { ETag: etag } };\n  return { status: 200, body, headers: { ETag: etag } };\n}\nmodule.exports = { listProducts };\n" },
            { tool: 'Bash', command: 'npm test', description: 'Run the test suite' },
            { text: 'GET /products answers 304 when If-None-Match matches the ETag. Next I will add a Cache-Control: max-age=60 header next to the ETag.' },
          ],
        },
      ],
    },
  ],
  order: ['etag', 'release', 'etag-resumed'],
  probe: { resets: ['clear'], prompt: 'Where were we?', session: 'etag-resumed' },
  facts: [
    { id: 'objective: the ETag header', in: ['objective'], pattern: 'ETag|cach' },
    { id: 'next step: Cache-Control', in: ['next_valid_action'], pattern: 'Cache-Control|max-age' },
    { id: 'products.js modified', in: ['files'], pattern: 'modified: .*src/api/products\\.js' },
    { id: 'the 304 is done', in: ['done', 'facts'], pattern: '304' },
  ],
  antiFacts: [
    { id: "the other live session's release work in this session's state", in: ['objective', 'waiting_on', 'next_valid_action', 'done', 'errors', 'files', 'facts', 'claimed', 'rejected'], pattern: '1\\.1\\.0|CHANGELOG|package\\.json|tag the release' },
    { id: 'the 304 (done) as next step', in: ['next_valid_action'], pattern: 'If-None-Match' },
  ],
};
