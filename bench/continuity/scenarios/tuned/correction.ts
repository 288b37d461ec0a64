import type { Scenario } from '../../scenario-types';

/**
 * Written after the extraction was (held out then, seen and tuned on since): the user corrects the approach mid-task, and the
 * agent ends with "Remaining:" and an "I'll leave …" that is not a next step.
 */
export const correction: Scenario = {
  name: 'correction',
  covers: 'a correction of the approach, a "Remaining:" step, an "I\'ll leave X for now" that is no plan',
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Move the email sending out of src/services/billing.js into its own module, src/services/mailer.js.',
          actions: [
            { tool: 'Read', path: 'src/services/billing.js' },
            { text: 'Before I split it: billing.js calls the mailer in three places. I plan to create src/services/mailer.js and re-export it from billing.js. OK?' },
          ],
        },
        {
          prompt: "No, don't split it. Keep it in billing.js, but make the sending asynchronous instead.",
          actions: [
            { tool: 'Write', path: 'src/services/billing.js', content: '// services/billing\nasync function describeBilling(row) {\n  return { id: row.id, accountId: row.accountId };\n}\nmodule.exports = { describeBilling };\n' },
            { text: "describeBilling in src/services/billing.js is async now. I'll leave the old callback helper in place for now.\n\nRemaining: update the two callers in src/api/invoices.js to await it." },
          ],
        },
      ],
    },
  ],
  repo: {
    'src/services/billing.js': '// services/billing\nfunction describeBilling(row) {\n  return { id: row.id, accountId: row.accountId };\n}\nmodule.exports = { describeBilling };\n',
    'src/api/invoices.js': "const { describeBilling } = require('../services/billing');\nmodule.exports = { show: (r) => describeBilling(r) };\n",
  },
  probe: { resets: ['clear', 'compact'], prompt: 'Where were we?' },
  facts: [
    { id: 'next step: the callers in invoices.js', in: ['next_valid_action'], pattern: 'invoices\\.js|callers' },
    { id: 'the rejected split is recorded', in: ['rejected'], pattern: "split|don't|keep it in billing" },
    { id: 'billing.js modified', in: ['files'], pattern: '^"?modified: src/services/billing\\.js' },
  ],
  antiFacts: [
    { id: 'the abandoned plan as next step', in: ['next_valid_action'], pattern: 'mailer\\.js|re-export' },
    { id: '"leave the helper" as next step', in: ['next_valid_action'], pattern: 'leave the old callback' },
    { id: 'the answered question still waited on', in: ['waiting_on'], pattern: 'OK\\?|split it' },
  ],
};
