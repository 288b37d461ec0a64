import type { Scenario } from '../../scenario-types';

/** The user switches the branch in another terminal between two turns; the session goes on there. */
export const branchSwitchByUser: Scenario = {
  name: 'branch-switch-by-user',
  covers: 'a branch switch by the user between turns (another terminal): the session keeps its own work state',
  live: true,
  repo: { 'src/api/newsletter.js': "// POST /newsletter\nfunction subscribe(email) {\n  return { status: 201, email };\n}\nmodule.exports = { subscribe };\n" },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Newsletter sign-ups (src/api/newsletter.js) accept any string. Validate the e-mail address and answer 422 when it is not one.',
          actions: [
            { tool: 'Read', path: 'src/api/newsletter.js' },
            { text: 'subscribe returns 201 for anything. I will validate with a simple pattern (something@something.tld) and answer 422 otherwise.' },
          ],
        },
        { shell: 'git switch -q -c fix/newsletter-validation' },
        {
          prompt: "I've put us on a branch, fix/newsletter-validation. Go ahead.",
          actions: [
            { tool: 'Bash', command: 'git branch --show-current', description: 'Check the branch' },
            { tool: 'Write', path: 'src/api/newsletter.js', content: "// POST /newsletter\nconst EMAIL = /^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/;\nfunction subscribe(email) {\n  if (!EMAIL.test(String(email))) return { status: 422 };\n  return { status: 201, email };\n}\nmodule.exports = { subscribe };\n" },
            { tool: 'Bash', command: 'npm test', description: 'Run the test suite' },
            { text: 'subscribe answers 422 for anything that is not an e-mail address. Next I will add tests for "a@b.co" and "not-an-email" in test/newsletter.test.js.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: validate newsletter e-mails', in: ['objective'], pattern: 'newsletter|e-?mail|422' },
    { id: 'next step: the tests', in: ['next_valid_action'], pattern: 'newsletter\\.test|not-an-email' },
    { id: 'newsletter.js modified', in: ['files'], pattern: 'modified: .*src/api/newsletter\\.js' },
  ],
  antiFacts: [
    { id: 'no capsule resumed (its own set aside for the branch)', in: 'anywhere', pattern: 'no-capsules|all-candidates-rejected' },
    { id: 'the branch notice as objective', in: ['objective'], pattern: "^\"?i'?ve put us" },
  ],
};
