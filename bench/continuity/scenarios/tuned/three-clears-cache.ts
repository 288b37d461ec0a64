import type { Scenario } from '../../scenario-types';

/** Three /clear in a row with a little work after each: the first task and its early files last. */
export const threeClearsCache: Scenario = {
  name: 'three-clears-cache',
  covers: 'three /clear in a row: the first-stated task, a file from before the first clear, the newest next step',
  live: true,
  repo: { 'src/api/rates.js': "// GET /rates: exchange rates from the bank.\nasync function getRates(fetchRates) {\n  return fetchRates();\n}\nmodule.exports = { getRates };\n" },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Cache the exchange rates in src/api/rates.js for 10 minutes; the bank API is slow.',
          actions: [
            { tool: 'Read', path: 'src/api/rates.js' },
            { tool: 'Write', path: 'src/cache/ttl-cache.js', content: "// A value kept for ttlMs.\nfunction ttlCache(ttlMs) {\n  let value, at = -Infinity;\n  return { get: (now) => (now - at < ttlMs ? value : undefined), set: (v, now) => ((value = v), (at = now)) };\n}\nmodule.exports = { ttlCache };\n" },
            { text: 'src/cache/ttl-cache.js holds a value for a given time. Next I will use it in getRates.' },
          ],
        },
        { reset: 'clear' },
        {
          prompt: 'ok, next bit',
          actions: [
            { tool: 'Write', path: 'src/api/rates.js', content: "const { ttlCache } = require('../cache/ttl-cache');\nconst cache = ttlCache(10 * 60 * 1000);\n// GET /rates: exchange rates from the bank, cached for 10 minutes.\nasync function getRates(fetchRates, now = Date.now()) {\n  const hit = cache.get(now);\n  if (hit) return hit;\n  const rates = await fetchRates();\n  cache.set(rates, now);\n  return rates;\n}\nmodule.exports = { getRates };\n" },
            { text: 'getRates serves cached rates for 10 minutes. Next I will add a test that a second call within 10 minutes does not call the bank.' },
          ],
        },
        { reset: 'clear' },
        {
          prompt: 'Go on with the test.',
          actions: [
            { tool: 'Write', path: 'test/rates.test.js', content: "const { getRates } = require('../src/api/rates');\nconst { expectEqual } = require('./helpers');\nmodule.exports = [{ name: 'rates \\u203a cached for 10 minutes', fn: async () => { let calls = 0; const f = async () => (calls++, { EUR: 1 }); await getRates(f, 0); await getRates(f, 60000); expectEqual(calls, 1); } }];\n" },
            { tool: 'Bash', command: 'npm test -- rates', description: 'Run the rates tests' },
            { text: 'The cache test passes. Next I will expose the cache age as an Age header on GET /rates.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: cache the exchange rates', in: ['objective'], pattern: 'cach|rates' },
    { id: 'next step: the Age header', in: ['next_valid_action'], pattern: 'Age header|Age' },
    { id: 'ttl-cache.js modified (before the first clear)', in: ['files'], pattern: 'modified: .*src/cache/ttl-cache\\.js' },
    { id: 'rates.js modified', in: ['files'], pattern: 'modified: .*src/api/rates\\.js' },
  ],
  antiFacts: [
    { id: 'a go-on as objective', in: ['objective'], pattern: '^"?(ok, next bit|go on)' },
    { id: 'a done step as next step', in: ['next_valid_action'], pattern: 'use it in getRates|add a test that a second call' },
  ],
};
