import type { Scenario } from '../../scenario-types';

const RETRY = `// Retries a job until it succeeds.
async function withRetry(job, sleep) {
  for (let attempt = 1; ; attempt++) {
    try { return await job(); } catch (e) { await sleep(500); }
  }
}
module.exports = { withRetry };
`;
const BACKOFF = `// Retries a job until it succeeds, backing off exponentially.
function delayFor(attempt) {
  return 500 * 2 ** (attempt - 1);
}
async function withRetry(job, sleep) {
  for (let attempt = 1; ; attempt++) {
    try { return await job(); } catch (e) { await sleep(delayFor(attempt)); }
  }
}
module.exports = { withRetry, delayFor };
`;
const CAPPED = BACKOFF.replace('function delayFor(attempt) {\n  return 500 * 2 ** (attempt - 1);', 'const MAX_DELAY_MS = 30000;\nfunction delayFor(attempt) {\n  return Math.min(500 * 2 ** (attempt - 1), MAX_DELAY_MS);');
const TEST = `const { delayFor } = require('../src/jobs/retry');
const { expectEqual } = require('./helpers');
module.exports = [
  { name: 'retry \\u203a doubles the delay', fn: () => expectEqual([delayFor(1), delayFor(2), delayFor(3)], [500, 1000, 2000]) },
];
`;

/** An agreement ("Yes, add the cap.") to the agent's own question: the task goes on, the question is answered. */
export const agreementCap: Scenario = {
  name: 'agreement-cap',
  covers: 'an agreement ("Yes, add the cap.") to a question: not the objective, and no longer waited on',
  live: true,
  repo: { 'src/jobs/retry.js': RETRY },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'The payment retry in src/jobs/retry.js hammers the provider every 500 ms while it is down. Make it back off exponentially.',
          actions: [
            { tool: 'Read', path: 'src/jobs/retry.js' },
            { tool: 'Write', path: 'src/jobs/retry.js', content: BACKOFF },
            { tool: 'Write', path: 'test/retry.test.js', content: TEST },
            { tool: 'Bash', command: 'npm test -- retry', description: 'Run the retry tests' },
            { text: 'withRetry now waits 500 ms, 1 s, 2 s, … between attempts, and test/retry.test.js passes. Without a ceiling the wait passes an hour after 14 attempts. Should I cap it at 30 seconds?' },
          ],
        },
        {
          prompt: 'Yes, add the cap.',
          actions: [
            { tool: 'Write', path: 'src/jobs/retry.js', content: CAPPED },
            { tool: 'Bash', command: 'npm test -- retry', description: 'Run the retry tests' },
            { text: 'The delay is capped at 30 s (MAX_DELAY_MS in src/jobs/retry.js) and the retry tests pass.\n\nNext I will add a test to test/retry.test.js that the 20th attempt waits exactly 30000 ms.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: exponential backoff of the payment retry', in: ['objective'], pattern: 'back ?off|retry' },
    { id: 'next step: the 20th-attempt test', in: ['next_valid_action'], pattern: '20th|30000|retry\\.test' },
    { id: 'the 30 s cap is done', in: ['done', 'facts'], pattern: '30 ?s|30 seconds|30000|MAX_DELAY_MS|cap' },
    { id: 'retry.js modified', in: ['files'], pattern: 'modified: .*src/jobs/retry\\.js' },
  ],
  antiFacts: [
    { id: 'the agreement as objective', in: ['objective'], pattern: '^"?yes' },
    { id: 'the answered question still waited on', in: ['waiting_on'], pattern: 'cap it|should I|30 seconds\\?' },
    { id: 'the cap question as next step', in: ['next_valid_action'], pattern: 'should I|cap it at 30' },
  ],
};
