import type { Scenario } from '../../scenario-types';

/** The plan is only in the agent's last message; the user then only chats. */
export const finalMessageNextStep: Scenario = {
  name: 'final-message-next-step',
  covers: "the next step stated only in the final assistant message; the user's chit-chat afterwards is not a plan",
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'The /orders endpoint returns createdAt as epoch numbers, but clients need ISO-8601 strings. Find where the dates are produced.',
          actions: [
            { tool: 'Bash', command: 'grep -rn "createdAt" src', description: 'Find where createdAt is produced' },
            { tool: 'Read', path: 'src/api/serializers.js' },
            { text: 'The dates come from serializeOrder in src/api/serializers.js, which copies createdAt through as a number.\n\nNext I will change serializeOrder in src/api/serializers.js to emit new Date(createdAt).toISOString() and add a case to test/serializers.test.js.' },
          ],
        },
        { prompt: 'Sounds good, but I have to run to a meeting now. We will continue later.', actions: [{ text: 'Sure, talk to you later!' }] },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: ISO dates on /orders', in: ['objective'], pattern: 'ISO|createdAt|/orders' },
    { id: 'next step from the final message', in: ['next_valid_action'], pattern: 'serializeOrder|serializers\\.js' },
    { id: 'serializers.js read, repo-relative', in: ['files'], pattern: '^"?read: src/api/serializers\\.js' },
  ],
  antiFacts: [
    { id: 'chit-chat as next step', in: ['next_valid_action'], pattern: 'sounds good|meeting|talk to you later' },
    { id: 'chit-chat as objective', in: ['objective'], pattern: 'sounds good|meeting' },
  ],
};
