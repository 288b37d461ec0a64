import type { Scenario } from '../../scenario-types';

/**
 * A background job that finishes during the session (done, no longer waited on), then a CI
 * pipeline the work now waits on.
 */
export const backgroundAndCi: Scenario = {
  name: 'background-and-ci',
  covers: 'waiting_on: a pending CI run; a background task that finished moves to Done instead',
  // The job outlasts the turn by far, so its notification arrives as a turn of its own (a job
  // that ends mid-turn is announced inside that turn instead), however slow the machine is.
  repo: {
    'scripts/integration.sh': '#!/bin/sh\nsleep 25\necho "Integration suite: 40 passed, 0 failed"\n',
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Run the integration suite in the background, and meanwhile document the new POST /refunds endpoint in docs/api.md.',
          actions: [
            { tool: 'Bash', command: 'sh scripts/integration.sh', description: 'Run the integration suite', background: true },
            { tool: 'Read', path: 'docs/api.md' },
            { tool: 'Write', path: 'docs/api.md', content: '# API\n\n## GET /orders\n\nLists orders.\n\n## POST /refunds\n\nRefunds an order: `{ orderId, amount }`; answers 201 with the refund.\n' },
            { text: 'docs/api.md now documents POST /refunds. The integration suite is still running in the background.' },
          ],
          notifications: [
            {
              match: 'task-notification',
              actions: [
                { tool: 'Bash', command: 'npm run ci:trigger -- refunds-docs', description: 'Start the CI pipeline' },
                { text: 'The integration suite finished: 40 passed, 0 failed. I started CI pipeline #4411 for the branch; I am waiting for that pipeline to pass before opening the pull request.' },
              ],
            },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'Where were we?' },
  facts: [
    { id: 'waiting on CI pipeline #4411', in: ['waiting_on'], pattern: '4411|pipeline|\\bCI\\b' },
    { id: 'the integration suite done', in: ['done'], pattern: 'integration' },
    { id: 'docs/api.md modified', in: ['files'], pattern: '^"?modified: docs/api\\.md' },
  ],
  antiFacts: [{ id: 'the finished background job still waited on', in: ['waiting_on'], pattern: 'integration suite.*(running|pending)|background' }],
};
