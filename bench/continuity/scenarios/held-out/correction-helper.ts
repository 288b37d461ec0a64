import type { Scenario } from '../../scenario-types';

const TAGS = `// The tags the storefront shows under a product.
function productTags(product) {
  return product.tags.map((t) => t.trim());
}
module.exports = { productTags };
`;
const UNIQUE = `// Keeps the first of each value whose key repeats, in order.
function uniqueBy(values, key) {
  const seen = new Set();
  return values.filter((v) => (seen.has(key(v)) ? false : (seen.add(key(v)), true)));
}
module.exports = { uniqueBy };
`;
const TAGS_FIXED = `const { uniqueBy } = require('./unique');
// The tags the storefront shows under a product, each once (case-insensitive).
function productTags(product) {
  return uniqueBy(product.tags.map((t) => t.trim()), (t) => t.toLowerCase());
}
module.exports = { productTags };
`;
const TEST = `const { productTags } = require('../src/catalog/tags');
const { expectEqual } = require('./helpers');
module.exports = [{ name: 'tags \\u203a each tag once', fn: () => expectEqual(productTags({ tags: ['Sale', 'new', 'sale '] }), ['Sale', 'new']) }];
`;

/** A correction of the approach: a rejected approach and the constraint it sets; the task does not change. */
export const correctionHelper: Scenario = {
  name: 'correction-helper',
  covers: 'a correction ("No, don\'t add lodash … write a small helper"): rejected approach + constraint, the task unchanged',
  live: true,
  repo: { 'src/catalog/tags.js': TAGS },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: "The storefront shows the tag 'sale' twice on some products. Deduplicate the tags in src/catalog/tags.js, ignoring case.",
          actions: [
            { tool: 'Read', path: 'src/catalog/tags.js' },
            { tool: 'Bash', command: 'cat package.json', description: 'Check the dependencies' },
            { text: "The tags come straight from the product record, so 'Sale' and 'sale ' both show. I'd add lodash and use _.uniqBy on the lowercased, trimmed tag. OK to add the dependency?" },
          ],
        },
        {
          prompt: "No, don't add lodash. We keep zero runtime dependencies; write a small helper instead.",
          actions: [
            { tool: 'Write', path: 'src/catalog/unique.js', content: UNIQUE },
            { tool: 'Write', path: 'src/catalog/tags.js', content: TAGS_FIXED },
            { tool: 'Write', path: 'test/tags.test.js', content: TEST },
            { tool: 'Bash', command: 'npm test -- tags', description: 'Run the tag tests' },
            { text: 'productTags now keeps each tag once, ignoring case, through a ten-line uniqueBy helper in src/catalog/unique.js; no dependency was added and test/tags.test.js passes.\n\nNext I will run npm run lint and then check the product page template for other duplicated lists.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: deduplicate the storefront tags', in: ['objective'], pattern: 'dedup|tags|twice' },
    { id: 'the rejected approach: lodash', in: ['rejected'], pattern: 'lodash' },
    { id: 'the constraint: no runtime dependencies', in: ['rejected', 'facts', 'objective'], pattern: 'dependenc' },
    { id: 'next step: lint', in: ['next_valid_action'], pattern: 'lint' },
    { id: 'the helper file modified', in: ['files'], pattern: 'modified: .*src/catalog/unique\\.js' },
    { id: 'tags.js modified', in: ['files'], pattern: 'modified: .*src/catalog/tags\\.js' },
  ],
  antiFacts: [
    { id: 'the correction as objective', in: ['objective'], pattern: "^\"?no, don'?t" },
    { id: 'lodash as the next step', in: ['next_valid_action'], pattern: 'lodash|uniqBy' },
    { id: 'the answered question waited on', in: ['waiting_on'], pattern: 'lodash|dependency' },
  ],
};
