import type { Scenario } from '../../scenario-types';

const REDIS_STORE = `// Sessions in Redis, same interface as store.js; a session lives 30 days.
const Redis = require('ioredis');

const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
const TTL_SECONDS = 30 * 24 * 3600;

module.exports = {
  get: async (id) => {
    const raw = await redis.get('session:' + id);
    return raw === null ? undefined : JSON.parse(raw);
  },
  set: (id, v) => redis.set('session:' + id, JSON.stringify(v), 'EX', TTL_SECONDS),
};
`;

const SESSION_TEST = `const store = require('../src/session/redis-store');
const { expectEqual } = require('./helpers');
module.exports = [
  { name: 'redis store \\u203a round-trips a session', fn: async () => { await store.set('s1', { user: 'ada' }); expectEqual(await store.get('s1'), { user: 'ada' }); } },
];
`;

/** The user stops one task outright (drop it, revert it) and starts an urgent other one. */
export const abandonRedisForLoginHotfix: Scenario = {
  name: 'abandon-redis-for-login-hotfix',
  covers: 'the user abandons a task (Redis sessions: drop it, remove the files) for an urgent login hotfix; the dropped task must not come back as objective, step or open error',
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Move the session store (src/session/store.js) from the in-memory Map to Redis with ioredis. Same get/set interface, sessions expire after 30 days.',
          actions: [
            { tool: 'Read', path: 'src/session/store.js' },
            { tool: 'Write', path: 'src/session/redis-store.js', content: REDIS_STORE },
            { tool: 'Write', path: 'test/session.test.js', content: SESSION_TEST },
            { tool: 'Bash', command: 'npm test 2>&1 | head -n 16', description: 'Run the tests' },
            { text: "src/session/redis-store.js has the same get/set interface with a 30-day TTL (EX 2592000), and test/session.test.js round-trips a session. The other suites pass, but the run crashes when it loads test/session.test.js: Cannot find module 'ioredis', it isn't installed yet.\n\nNext: `npm install ioredis`, start a local Redis (`docker compose up -d redis`), rerun the tests, then switch src/api/login.js over to the new store." },
          ],
        },
        {
          prompt: "Stop, drop the Redis thing completely: it's been cut from this quarter's roadmap. Take out what you added. Something urgent instead: support says login fails for people who type their username with capitals (\"Ada\" instead of \"ada\"). Fix that.",
          actions: [
            { tool: 'Bash', command: 'rm src/session/redis-store.js test/session.test.js && git status --short && echo "(clean)"', description: 'Remove the Redis store and its test' },
            { tool: 'Read', path: 'src/auth.js' },
            { tool: 'Read', path: 'test/auth.test.js' },
            {
              tool: 'Edit',
              path: 'test/auth.test.js',
              old: "  { name: 'login \\u203a rejects a bad password', fn: async () => expectEqual(await login('ada', 'babbage'), 401) },\n",
              new: "  { name: 'login \\u203a rejects a bad password', fn: async () => expectEqual(await login('ada', 'babbage'), 401) },\n  { name: 'login \\u203a ignores the case of the username', fn: async () => expectEqual(await login('Ada', 'lovelace'), 200) },\n",
            },
            { tool: 'Bash', command: 'npm test', description: 'Run the tests (expect the new one to fail)' },
            { tool: 'Edit', path: 'src/auth.js', old: '  return users[user] === password;', new: '  // Usernames are stored lower-case; people type them any way.\n  return users[String(user).trim().toLowerCase()] === password;' },
            { tool: 'Bash', command: 'npm test', description: 'Run the tests' },
            { text: "The Redis work is gone: redis-store.js and its test are deleted, the tree is clean apart from this fix.\n\nLogin fix: verify() in src/auth.js now trims and lower-cases the username before the lookup, with a new test in test/auth.test.js (login('Ada', 'lovelace') → 200). All 4 tests pass.\n\nThis should ship as a hotfix: next I'd cherry-pick it onto release/2.3 and tag v2.3.1. Shall I?" },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'where are we?' },
  facts: [
    { id: 'objective: the case-insensitive login hotfix', in: ['objective'], pattern: 'capital|upper|case|login' },
    { id: 'done: the username lower-cased in src/auth.js', in: ['done'], pattern: 'lower|case|auth\\.js' },
    { id: 'next: the hotfix onto release/2.3, v2.3.1 (waiting on the yes)', in: ['next_valid_action', 'waiting_on'], pattern: 'release/2\\.3|v2\\.3\\.1|cherry|hotfix' },
    { id: 'src/auth.js in the files', in: ['files'], pattern: 'src/auth\\.js' },
    { id: 'the Redis migration dropped', in: ['rejected', 'facts', 'done'], pattern: 'redis' },
  ],
  antiFacts: [
    { id: 'the dropped Redis task as the objective, step or claim', in: ['objective', 'next_valid_action', 'waiting_on', 'claimed'], pattern: 'redis|ioredis|docker compose' },
    { id: 'the abandoned ioredis failure shown open', in: ['errors'], pattern: "^(?!.*(resolved|fixed|→|abandon|dropped|obsolete|moot)).*(ioredis|Cannot find module)" },
    { id: 'the deleted redis-store.js as a file in play', in: ['files'], pattern: '^(?!.*(delet|remov|revert)).*redis-store' },
  ],
};
