import type { Scenario } from '../../scenario-types';

/** The agent starts on main, then moves the work to a feature branch and commits there: the session's state follows it. */
export const branchSwitch: Scenario = {
  name: 'branch-switch',
  covers: 'a branch switch in the middle of a session (git switch -c, a commit on the branch): the session keeps its own state',
  live: true,
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Add a discount code field to the checkout form in src/ui/checkout.js. Do it on a branch of its own.',
          actions: [
            { tool: 'Read', path: 'src/ui/checkout.js' },
            { tool: 'Bash', command: 'git switch -c feature/discount-code', description: 'Create the feature branch' },
            { tool: 'Edit', path: 'src/ui/checkout.js', old: "return ['email', 'address', 'card'];", new: "return ['email', 'address', 'discountCode', 'card'];" },
            { tool: 'Bash', command: 'npm test && git commit -qam "Checkout: discount code field" && git log --oneline -1', description: 'Test and commit on the branch' },
            { text: 'The checkout form has a discountCode field, committed on feature/discount-code. Next I will validate the code against GET /api/discounts/:code before the card step.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the discount code field', in: ['objective'], pattern: 'discount' },
    { id: 'next step: validate against /api/discounts', in: ['next_valid_action'], pattern: 'api/discounts|validate' },
    { id: 'checkout.js modified', in: ['files'], pattern: 'modified: .*src/ui/checkout\\.js' },
    { id: 'the commit on the branch is done', in: ['done', 'facts'], pattern: 'discount code field|feature/discount-code|commit' },
  ],
  antiFacts: [
    { id: 'no capsule resumed (its own set aside for the branch)', in: 'anywhere', pattern: 'no-capsules|all-candidates-rejected|nothing to resume' },
    { id: 'the branch switch as the next step', in: ['next_valid_action'], pattern: 'git switch|create the (feature )?branch' },
  ],
};
