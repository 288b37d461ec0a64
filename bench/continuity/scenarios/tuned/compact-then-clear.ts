import type { Scenario } from '../../scenario-types';

/**
 * Work, a /compact in the middle, more work, then /clear: what was known before the compaction
 * must still reach the session after the clear. The scripted summariser answers the way a model
 * asked for a state block would (the block is ours to parse; its wording is the model's).
 */
export const compactThenClear: Scenario = {
  name: 'compact-then-clear',
  covers: 'compaction followed by /clear: state from before the compaction survives both',
  repo: {
    'test/session.test.js': "const store = require('../src/session/redis-store');\nconst { expectEqual } = require('./helpers');\nmodule.exports = [{ name: 'redis store \\u203a round-trips a session', fn: async () => { await store.set('s1', { user: 'ada' }); expectEqual(await store.get('s1'), { user: 'ada' }); } }];\n",
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Move the session store from memory to Redis (src/session/store.js). Sessions must keep their 24 hour TTL.',
          actions: [
            { tool: 'Read', path: 'src/session/store.js' },
            { tool: 'Write', path: 'src/session/redis-store.js', content: "const net = require('node:net');\n// Sessions in Redis with a 24 h TTL.\nconst TTL_SECONDS = 86400;\nfunction connect() {\n  return new Promise((resolve, reject) => { const s = net.connect(6379, '127.0.0.1', () => resolve(s)); s.on('error', reject); });\n}\nmodule.exports = {\n  TTL_SECONDS,\n  async set(id, v) { const s = await connect(); s.end(); },\n  async get(id) { const s = await connect(); s.end(); return null; },\n};\n" },
            { tool: 'Bash', command: 'npm test -- session', description: 'Run the session store test' },
            { text: 'src/session/redis-store.js is written, but its test fails: connect ECONNREFUSED 127.0.0.1:6379, there is no Redis here. I will make the store take an injectable client so the test can use an in-memory fake instead of a live Redis.' },
          ],
        },
        { reset: 'compact' },
        {
          prompt: 'OK, continue.',
          actions: [
            { tool: 'Read', path: 'src/session/redis-store.js' },
            { tool: 'Write', path: 'src/session/redis-store.js', content: "// Sessions in Redis with a 24 h TTL; the client is injectable so tests need no live Redis.\nconst TTL_SECONDS = 86400;\nconst memory = new Map();\nlet client = { set: async (k, v) => memory.set(k, v), get: async (k) => memory.get(k) };\nmodule.exports = {\n  TTL_SECONDS,\n  useClient(c) { client = c; },\n  async set(id, v) { await client.set(id, JSON.stringify(v), TTL_SECONDS); },\n  async get(id) { const v = await client.get(id); return v === undefined ? null : JSON.parse(v); },\n};\n" },
            { tool: 'Bash', command: 'npm test -- session', description: 'Run the session store test again' },
            { text: 'The session store test passes with the injectable client. Next I will switch src/session/store.js over to the Redis store and delete the in-memory Map.' },
          ],
        },
      ],
    },
  ],
  compactSummary:
    '<summary>\n1. Primary request: move the session store from memory to Redis, keeping the 24 hour TTL.\n2. Work so far: src/session/redis-store.js was written; its test failed with ECONNREFUSED 127.0.0.1:6379 because no Redis runs here.\n3. Plan: make the Redis client injectable so the test uses an in-memory fake.\n\n<capsule-state>\nobjective: Move the session store from memory to Redis, keeping the 24 hour session TTL\nwaiting_on: nothing\nnext_valid_action: Make the Redis client in src/session/redis-store.js injectable and give the test an in-memory fake\ndone: src/session/redis-store.js written with TTL_SECONDS = 86400\nerrors: npm test -- session: connect ECONNREFUSED 127.0.0.1:6379 (open)\ndecisions: tests use an in-memory fake client instead of a live Redis\n</capsule-state>\n</summary>',
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the Redis session store', in: ['objective'], pattern: 'redis' },
    { id: 'next step: switch store.js to Redis', in: ['next_valid_action'], pattern: 'src/session/store\\.js' },
    { id: 'the 24 h TTL constraint kept', in: ['objective', 'facts', 'done'], pattern: '24 ?h|TTL' },
    { id: 'the ECONNREFUSED failure resolved', in: ['errors'], pattern: 'ECONNREFUSED.*resolved|resolved.*ECONNREFUSED|session.*resolved' },
    { id: 'redis-store.js modified (from before the compaction)', in: ['files'], pattern: '^"?modified: src/session/redis-store\\.js' },
    { id: 'store.js read (from before the compaction)', in: ['files'], pattern: '^"?read: src/session/store\\.js' },
  ],
  antiFacts: [
    { id: 'the go-on as objective', in: ['objective'], pattern: '^"?ok, continue' },
    { id: 'the fixed ECONNREFUSED shown unresolved', in: ['errors'], pattern: '^(?!.*resolved).*ECONNREFUSED' },
  ],
};
