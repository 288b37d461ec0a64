import type { Scenario } from '../../scenario-types';

const LIMITER = `// At most LIMIT attempts per WINDOW_MS for one key (an IP address).
const LIMIT = 5;
const WINDOW_MS = 60000;
const hits = new Map();
function allow(key, now = Date.now()) {
  const recent = (hits.get(key) || []).filter((t) => now - t < WINDOW_MS);
  recent.push(now);
  hits.set(key, recent);
  return recent.length <= LIMIT;
}
module.exports = { allow, LIMIT, WINDOW_MS };
`;
const LOGIN = `const { login } = require('../auth');
const { allow } = require('./rate-limit');
// POST /login, at most 5 attempts per minute per IP (429 after that).
async function handleLogin(req) {
  if (!allow(req.ip)) return { status: 429 };
  return { status: await login(req.body.user, req.body.password) };
}
module.exports = { handleLogin };
`;
const TEST = `const { handleLogin } = require('../src/api/login');
const { expectEqual } = require('./helpers');
module.exports = [{ name: 'login \\u203a the sixth attempt in a minute gets 429', fn: async () => {
  const req = { ip: '10.0.0.9', body: { user: 'ada', password: 'x' } };
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await handleLogin(req)).status);
  expectEqual(statuses, [401, 401, 401, 401, 401, 429]);
} }];
`;

/** Three /clear in a row, each followed by a little work: the first task and early files survive all three. */
export const threeClears: Scenario = {
  name: 'three-clears',
  covers: 'three /clear in a row with work between: the task as first stated, files from before the first clear, the newest next step',
  live: true,
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Rate-limit POST /login: at most 5 attempts per minute per IP address, then answer 429.',
          actions: [
            { tool: 'Read', path: 'src/api/login.js' },
            { tool: 'Write', path: 'src/api/rate-limit.js', content: LIMITER },
            { text: 'src/api/rate-limit.js has a sliding one-minute window per key. Next I will call it from handleLogin in src/api/login.js.' },
          ],
        },
        { reset: 'clear' },
        {
          prompt: 'Go on.',
          actions: [
            { tool: 'Read', path: 'src/api/rate-limit.js' },
            { tool: 'Write', path: 'src/api/login.js', content: LOGIN },
            { tool: 'Bash', command: 'npm test', description: 'Run the test suite' },
            { text: 'handleLogin now answers 429 from the sixth attempt in a minute, and the suite passes. Next I will add a test for the 429 in test/login.test.js.' },
          ],
        },
        { reset: 'clear' },
        {
          prompt: 'Continue with the test.',
          actions: [
            { tool: 'Write', path: 'test/login.test.js', content: TEST },
            { tool: 'Bash', command: 'npm test -- login', description: 'Run the login tests' },
            { text: 'test/login.test.js checks that the sixth attempt gets 429, and it passes. Next I will document the limit and the 429 answer under POST /login in docs/api.md.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: rate-limit POST /login', in: ['objective'], pattern: 'rate.?limit|429|attempts' },
    { id: 'next step: document it in docs/api.md', in: ['next_valid_action'], pattern: 'docs/api\\.md|document' },
    { id: 'rate-limit.js modified (before the first clear)', in: ['files'], pattern: 'modified: .*src/api/rate-limit\\.js' },
    { id: 'login.js modified (between the clears)', in: ['files'], pattern: 'modified: .*src/api/login\\.js' },
    { id: 'the 429 test written', in: ['files', 'done'], pattern: 'test/login\\.test\\.js' },
  ],
  antiFacts: [
    { id: 'a go-on as objective', in: ['objective'], pattern: '^"?(go on|continue)' },
    { id: 'a step already done as next step', in: ['next_valid_action'], pattern: 'call it from handleLogin|add a test for the 429' },
  ],
};
