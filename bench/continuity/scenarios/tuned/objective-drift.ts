import type { Scenario } from '../../scenario-types';

/** A greeting, a task finished, then a new task: the objective follows the new one, the old one is Done. */
export const objectiveDrift: Scenario = {
  name: 'objective-drift',
  covers: 'objective follows a new task; the finished task moves to Done; a greeting is never the objective',
  sessions: [
    {
      name: 'main',
      steps: [
        { prompt: 'Hi! How are you today?', actions: [{ text: 'Hi! Doing well. What shall we work on?' }] },
        {
          prompt: 'Add a discount code field to the checkout form in src/ui/checkout.js and make sure its test passes.',
          actions: [
            { tool: 'Read', path: 'src/ui/checkout.js' },
            { tool: 'Write', path: 'src/ui/checkout.js', content: "// The checkout form's fields.\nfunction checkoutFields() {\n  return ['email', 'address', 'card', 'discountCode'];\n}\nmodule.exports = { checkoutFields };\n" },
            { tool: 'Write', path: 'test/checkout.test.js', content: "const { checkoutFields } = require('../src/ui/checkout');\nconst { expectEqual } = require('./helpers');\nmodule.exports = [{ name: 'checkout \\u203a offers a discount code', fn: () => expectEqual(checkoutFields().includes('discountCode'), true) }];\n" },
            { tool: 'Bash', command: 'npm test -- checkout', description: 'Run the checkout tests' },
            { text: 'The discount code field is in the checkout form and test/checkout.test.js passes.' },
          ],
        },
        {
          prompt: 'Great, thanks. Now add rate limiting to the login endpoint: at most 5 attempts per minute per IP.',
          actions: [
            { tool: 'Read', path: 'src/api/login.js' },
            { tool: 'Write', path: 'src/api/limiter.js', content: "// Sliding-window limiter: at most `max` hits per `windowMs` per key.\nfunction makeLimiter({ max = 5, windowMs = 60000 } = {}) {\n  const hits = new Map();\n  return (key, now = Date.now()) => {\n    const recent = (hits.get(key) || []).filter((t) => now - t < windowMs);\n    recent.push(now);\n    hits.set(key, recent);\n    return recent.length <= max;\n  };\n}\nmodule.exports = { makeLimiter };\n" },
            { text: 'I added src/api/limiter.js, a sliding window of 5 attempts per minute per key. Next I will wire the limiter into handleLogin in src/api/login.js and add a test for the sixth attempt.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective is the rate limiting', in: ['objective'], pattern: 'rate limit' },
    { id: 'the discount field is done', in: ['done'], pattern: 'discount' },
    { id: 'next step: wire the limiter into login.js', in: ['next_valid_action'], pattern: 'limiter.*src/api/login\\.js|src/api/login\\.js.*limiter' },
    { id: 'limiter.js modified, repo-relative', in: ['files'], pattern: '^"?modified: src/api/limiter\\.js' },
  ],
  antiFacts: [
    { id: 'the greeting as objective', in: ['objective'], pattern: 'how are you' },
    { id: 'the finished task as objective', in: ['objective'], pattern: 'discount' },
    { id: 'the greeting as next step', in: ['next_valid_action'], pattern: 'how are you|great, thanks' },
  ],
};
