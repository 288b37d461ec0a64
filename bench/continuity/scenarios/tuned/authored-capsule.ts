import type { Scenario } from '../../scenario-types';

// The document the capsule skill has the agent write, without id and created_at (write fills them).
const CAPSULE = `---
objective: "Replace the hand-rolled SQL in src/db.js with prepared statements"
waiting_on: "the DBA's answer on whether statement caching is allowed in production"
next_valid_action: "Convert connect() in src/db.js to a pool of prepared statements, starting with the orders queries"
status: active
trigger: manual
---

<!-- capsule:done -->
## Done [REFERENCE ONLY]
- listed every raw SQL string in src/
`;

/**
 * The agent writes its own capsule (what the capsule skill and the budget block ask for), and a
 * little work follows: after /clear the authored state wins over the autosave of the session.
 */
export const authoredCapsule: Scenario = {
  name: 'authored-capsule',
  covers: "an authored capsule wins over the autosave of the same session",
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'We will move src/db.js to prepared statements. First write a capsule with where we are, I need to leave.',
          actions: [
            { tool: 'Read', path: 'src/db.js' },
            { tool: 'Bash', command: `node "$CAPSULE_CLI" write - <<'CAPSULE'\n${CAPSULE}CAPSULE`, description: 'Commit the capsule' },
            { text: 'The capsule is written; /clear or a new session resumes from it.' },
          ],
        },
        { prompt: 'Thanks! See you tomorrow.', actions: [{ text: 'See you tomorrow!' }] },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'Where were we?' },
  facts: [
    { id: 'the authored objective', in: ['objective'], pattern: 'prepared statements' },
    { id: 'the authored next step', in: ['next_valid_action'], pattern: 'pool of prepared statements' },
    { id: 'the authored waiting_on', in: ['waiting_on'], pattern: 'DBA' },
  ],
  antiFacts: [{ id: 'the goodbye as next step', in: ['next_valid_action'], pattern: 'see you|thanks' }],
};
