import type { Scenario } from '../../scenario-types';

const SLUG = `// The URL slug of a product name.
function slugify(name) {
  return name.toLowerCase().replace(/ /g, '-');
}
module.exports = { slugify };
`;
const SLUG_FIXED = `// The URL slug of a product name: lower case, accents dropped, one dash between words.
function slugify(name) {
  return name.normalize('NFD').replace(/[\\u0300-\\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
module.exports = { slugify };
`;
const SLUG_TEST = `const { slugify } = require('../src/catalog/slug');
const { expectEqual } = require('./helpers');
module.exports = [{ name: 'slug \\u203a drops accents', fn: () => expectEqual(slugify('Crème Brûlée  Mug'), 'creme-brulee-mug') }];
`;
const EXPORT = `// Orders as CSV for the accounting export.
function toCsv(rows) {
  return rows.map((r) => [r.id, r.total, r.note].join(',')).join('\\n');
}
module.exports = { toCsv };
`;
const EXPORT_QUOTED = `// Orders as CSV for the accounting export; a field with a comma is quoted.
const field = (v) => (/[,\\n]/.test(String(v)) ? '"' + v + '"' : String(v));
function toCsv(rows) {
  return rows.map((r) => [r.id, r.total, r.note].map(field).join(',')).join('\\n');
}
module.exports = { toCsv };
`;
const EXPORT_TEST = `const { toCsv } = require('../src/reports/export');
const { expectEqual } = require('./helpers');
module.exports = [
  { name: 'csv \\u203a quotes a note with a comma', fn: () => expectEqual(toCsv([{ id: 1, total: 5, note: 'gift, wrap' }]), '1,5,"gift, wrap"') },
  { name: 'csv \\u203a doubles quotes inside a note', fn: () => expectEqual(toCsv([{ id: 2, total: 5, note: 'say "hi"' }]), '2,5,"say ""hi"""') },
];
`;

/** "New task:" after the first task was reported done: the objective switches, the first task is done. */
export const newTaskAfterDone: Scenario = {
  name: 'new-task-after-done',
  covers: 'an explicit "New task: …" after a finished task: the new one is the objective, the old one done',
  live: true,
  repo: { 'src/catalog/slug.js': SLUG, 'src/reports/export.js': EXPORT },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: "Product URLs break on names with accents: slugify in src/catalog/slug.js turns 'Crème Brûlée Mug' into 'crème-brûlée-mug'. Make slugs ASCII.",
          actions: [
            { tool: 'Read', path: 'src/catalog/slug.js' },
            { tool: 'Write', path: 'src/catalog/slug.js', content: SLUG_FIXED },
            { tool: 'Write', path: 'test/slug.test.js', content: SLUG_TEST },
            { tool: 'Bash', command: 'npm test', description: 'Run the test suite' },
            { text: "Done: slugify drops accents and collapses everything else to single dashes ('creme-brulee-mug'). All tests pass." },
          ],
        },
        {
          prompt: 'Thanks. New task: the accounting CSV export in src/reports/export.js breaks rows whose note contains a comma. Quote the fields properly.',
          actions: [
            { tool: 'Read', path: 'src/reports/export.js' },
            { tool: 'Write', path: 'src/reports/export.js', content: EXPORT_QUOTED },
            { tool: 'Write', path: 'test/export.test.js', content: EXPORT_TEST },
            { tool: 'Bash', command: 'npm test -- export', description: 'Run the export tests' },
            { text: 'Notes with a comma are quoted now, but a note that contains a double quote still breaks the row: the test expected 2,5,"say ""hi""" and received 2,5,say "hi".\n\nI will double the quotes inside a field and quote any field that has one, in src/reports/export.js.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the CSV quoting', in: ['objective'], pattern: 'csv|export|quot' },
    { id: 'next step: double the quotes', in: ['next_valid_action'], pattern: 'double|quote' },
    { id: 'the export failure is open', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→)).*(export|say|hi|quote)' },
    { id: 'the slug task is done', in: ['done'], pattern: 'slug|accent' },
    { id: 'export.js modified', in: ['files'], pattern: 'modified: .*src/reports/export\\.js' },
  ],
  antiFacts: [
    { id: 'the finished slug task as objective', in: ['objective'], pattern: 'slug|accent|ASCII' },
    { id: 'the finished slug task as next step', in: ['next_valid_action'], pattern: 'slug|accent' },
    { id: 'the thanks as objective', in: ['objective'], pattern: '^"?thanks' },
  ],
};
