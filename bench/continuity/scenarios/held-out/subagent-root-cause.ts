import type { Scenario } from '../../scenario-types';

const REPORT =
  'Root cause: submitOrder in src/ui/checkout.js has no in-flight guard, so a double click on "Pay" sends two POST /charge requests, and chargeCard in src/payments/charge.js calls the provider without an idempotency key, so the provider books both.\n\nFiles: src/ui/checkout.js (the handler), src/payments/charge.js (the provider call).';

/**
 * A foreground subagent investigates; its report (root cause, file names) returns to the main
 * session, which asks before changing anything. The subagent's own failed command stays its own.
 */
export const subagentRootCause: Scenario = {
  name: 'subagent-root-cause',
  covers: "a foreground Agent: its report's root cause and files kept, its row closed, its own failed command not the session's",
  live: true,
  repo: {
    'src/ui/checkout.js': "const { chargeCard } = require('../payments/charge');\n// The checkout form.\nasync function submitOrder(form) {\n  return chargeCard(form.card, form.total);\n}\nmodule.exports = { submitOrder };\n",
    'src/payments/charge.js': "// Charges a card through the provider.\nasync function chargeCard(card, amount) {\n  return { charged: amount, card: card.last4 };\n}\nmodule.exports = { chargeCard };\n",
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Some customers are charged twice at checkout. Find out why before we change anything.',
          actions: [
            {
              tool: 'Agent',
              description: 'Investigate double charges',
              prompt: 'Investigate why a customer can be charged twice at checkout in this repository. Read the checkout UI and the payment code; report the root cause and the files involved. Do not change any file.',
              actions: [
                { tool: 'Bash', command: 'grep -rn "charge" src', description: 'Find the charge calls' },
                { tool: 'Bash', command: "node -e \"require('./src/payments/stripe-client')\"", description: 'Load the provider client' },
                { tool: 'Read', path: 'src/ui/checkout.js' },
                { tool: 'Read', path: 'src/payments/charge.js' },
                { text: REPORT },
              ],
            },
            { text: 'The investigation found it: submitOrder in src/ui/checkout.js has no in-flight guard, so a double click sends two charges, and chargeCard in src/payments/charge.js sends no idempotency key.\n\nI suggest two changes: disable the Pay button while a charge is in flight, and pass an idempotency key derived from the order id to the provider. Shall I make both?' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: why customers are charged twice', in: ['objective'], pattern: 'charged twice|double charg|twice' },
    { id: 'the root cause kept: no idempotency key / no in-flight guard', in: ['facts', 'done', 'objective', 'waiting_on'], pattern: 'idempotency|in-flight|double click' },
    { id: 'checkout.js named as involved', in: ['facts', 'done', 'files'], pattern: 'src/ui/checkout\\.js' },
    { id: 'charge.js named as involved', in: ['facts', 'done', 'files'], pattern: 'src/payments/charge\\.js' },
    { id: 'waiting on the user to approve the two changes', in: ['waiting_on'], pattern: 'approv|user|confirm|shall|both' },
  ],
  antiFacts: [
    { id: "the subagent's failed require shown as the session's error", in: ['errors'], pattern: 'stripe-client|Cannot find module' },
    { id: 'the finished subagent still claimed', in: ['claimed'], pattern: 'investigate double charges|subagent' },
    { id: 'a change made before the user agreed', in: ['files'], pattern: 'modified: ' },
  ],
};
