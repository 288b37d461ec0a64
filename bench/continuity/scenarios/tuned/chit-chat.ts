import type { Scenario } from '../../scenario-types';

/** Questions and thanks, no task: the next action must say plainly that none was captured. */
export const chitChat: Scenario = {
  name: 'chit-chat',
  covers: 'no task at all: an honest "none captured", never a question or a thank-you dressed up as a plan',
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'What does this repository do?',
          actions: [
            { tool: 'Read', path: 'README.md' },
            { text: 'It is shop-api: the order, cart and login API of a shop, with its own small test runner (npm test) and linter (npm run lint).' },
          ],
        },
        { prompt: "Thanks, that's helpful!", actions: [{ text: "You're welcome!" }] },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'Where were we?' },
  facts: [
    { id: 'an honest none-captured next step', in: ['next_valid_action'], pattern: 'none captured|no next (step|action)' },
    { id: 'README.md read', in: ['files'], pattern: '^"?read: README\\.md' },
  ],
  antiFacts: [
    { id: 'the thank-you as next step', in: ['next_valid_action'], pattern: 'thanks|helpful' },
    { id: 'the question as next step', in: ['next_valid_action'], pattern: 'what does this repository do' },
    { id: 'the thank-you as objective', in: ['objective'], pattern: 'thanks|helpful' },
  ],
};
