import type { Scenario } from '../../scenario-types';

/** The turn ends with a question to the user: the work waits on the answer. */
export const questionWaits: Scenario = {
  name: 'question-waits',
  covers: 'waiting_on is the open question the agent asked the user',
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Prepare the release notes for v2.3 in CHANGELOG.md from the commits since v2.2.',
          actions: [
            { tool: 'Bash', command: 'git log --oneline -10', description: 'List recent commits' },
            { tool: 'Read', path: 'CHANGELOG.md' },
            { tool: 'Write', path: 'CHANGELOG.md', content: '# Changelog\n\n## v2.3\n\n- Orders list ISO-8601 dates.\n- Login is rate limited.\n- /v1/carts no longer returns expired carts.\n\n## v2.2\n\n- Carts expire after 30 days.\n' },
            { text: 'I drafted the v2.3 section of CHANGELOG.md.\n\nOne question before I finish it: should the change to /v1/carts be listed under "Breaking changes", or kept out of the notes until v3?' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'Where were we?' },
  facts: [
    { id: 'waiting on the /v1/carts question', in: ['waiting_on'], pattern: '/v1/carts|breaking' },
    { id: 'objective: v2.3 release notes', in: ['objective'], pattern: 'release notes|v2\\.3' },
    { id: 'CHANGELOG.md modified', in: ['files'], pattern: '^"?modified: CHANGELOG\\.md' },
  ],
  antiFacts: [{ id: 'nothing pending claimed', in: ['waiting_on'], pattern: '^"?(nothing|none)\\b' }],
};
