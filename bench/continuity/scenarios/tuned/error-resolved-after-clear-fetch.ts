import type { Scenario } from '../../scenario-types';

const CLIENT = "// Loads the warehouse stock for a SKU.\nasync function stockFor(sku, http) {\n  const body = await fetchJson(http, '/stock/' + sku);\n  return body.available;\n}\nmodule.exports = { stockFor };\n";
const FIXED = "// GETs a path and parses the JSON body.\nasync function fetchJson(http, path) {\n  return JSON.parse(await http.get(path));\n}\n// Loads the warehouse stock for a SKU.\nasync function stockFor(sku, http) {\n  const body = await fetchJson(http, '/stock/' + sku);\n  return body.available;\n}\nmodule.exports = { stockFor };\n";
const TEST = "const { stockFor } = require('../src/warehouse/client');\nconst { expectEqual } = require('./helpers');\nmodule.exports = [{ name: 'warehouse \\u203a reads the available count', fn: async () => expectEqual(await stockFor('MUG-1', { get: async () => '{\"available\":3}' }), 3) }];\n";

/** A failure before /clear (ReferenceError), fixed after it with the same command passing. */
export const errorResolvedAfterClearFetch: Scenario = {
  name: 'error-resolved-after-clear-fetch',
  covers: 'a ReferenceError from before a /clear, fixed after it by the same npm test passing: resolved, not open',
  live: true,
  repo: { 'src/warehouse/client.js': CLIENT },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Write a test for stockFor in src/warehouse/client.js with a fake http client.',
          actions: [
            { tool: 'Read', path: 'src/warehouse/client.js' },
            { tool: 'Write', path: 'test/warehouse.test.js', content: TEST },
            { tool: 'Bash', command: 'npm test -- warehouse', description: 'Run the warehouse test' },
            { text: 'The test fails: ReferenceError: fetchJson is not defined. src/warehouse/client.js calls a helper that was never written.\n\nNext I will add fetchJson to src/warehouse/client.js.' },
          ],
        },
        { reset: 'clear' },
        {
          prompt: 'Right, fix it.',
          actions: [
            { tool: 'Write', path: 'src/warehouse/client.js', content: FIXED },
            { tool: 'Bash', command: 'npm test -- warehouse', description: 'Run the warehouse test' },
            { text: 'npm test -- warehouse passes: fetchJson GETs the path and parses the body.\n\nNext I will make fetchJson throw a clear error when the warehouse answers something that is not JSON.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: a test for stockFor', in: ['objective'], pattern: 'stockFor|warehouse|test' },
    { id: 'next step: a clear error for non-JSON', in: ['next_valid_action'], pattern: 'JSON|clear error' },
    { id: 'the ReferenceError resolved', in: ['errors'], pattern: '(fetchJson|ReferenceError|warehouse).*(resolved|fixed|→)' },
  ],
  antiFacts: [
    { id: 'the fixed ReferenceError shown open', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→)).*(fetchJson is not defined|ReferenceError)' },
    { id: 'the done fix as next step', in: ['next_valid_action'], pattern: 'add fetchJson' },
  ],
};
