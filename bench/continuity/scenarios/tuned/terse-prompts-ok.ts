import type { Scenario } from '../../scenario-types';

/** Terse prompts ("ok", "go", "x", "continue"): the stated task stays the objective. */
export const tersePromptsOk: Scenario = {
  name: 'terse-prompts-ok',
  covers: 'placeholder-like prompts ("ok", "go", "x", "continue") between steps: never the objective or the next step',
  live: true,
  repo: { 'src/api/orders-list.js': "const orders = Array.from({ length: 250 }, (_, i) => ({ id: i + 1 }));\n// GET /orders\nfunction listOrders() {\n  return orders;\n}\nmodule.exports = { listOrders };\n" },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'GET /orders (src/api/orders-list.js) returns all 250 orders at once. Add cursor pagination, 50 per page. Plan first.',
          actions: [
            { tool: 'Read', path: 'src/api/orders-list.js' },
            { text: 'Plan: listOrders takes an optional cursor (the last id seen) and returns { items, nextCursor }, 50 items per page; nextCursor is null on the last page. OK?' },
          ],
        },
        {
          prompt: 'ok',
          actions: [
            { tool: 'Write', path: 'src/api/orders-list.js', content: "const orders = Array.from({ length: 250 }, (_, i) => ({ id: i + 1 }));\nconst PAGE = 50;\n// GET /orders?cursor=\nfunction listOrders({ cursor = 0 } = {}) {\n  const items = orders.filter((o) => o.id > cursor).slice(0, PAGE);\n  const last = items[items.length - 1];\n  return { items, nextCursor: last && last.id < orders.length ? last.id : null };\n}\nmodule.exports = { listOrders };\n" },
            { text: 'listOrders pages by cursor now.' },
          ],
        },
        { prompt: 'x', actions: [{ text: 'I only got "x". Say "go" when I should test the pagination.' }] },
        {
          prompt: 'go',
          actions: [
            { tool: 'Bash', command: "node -e \"const { listOrders } = require('./src/api/orders-list'); let c = 0, n = 0; do { const p = listOrders({ cursor: c }); n++; c = p.nextCursor; } while (c); console.log(n + ' pages')\"", description: 'Walk all pages' },
            { text: 'Walking the cursor gives 5 pages of 50, and the last page has nextCursor null.' },
          ],
        },
        {
          prompt: 'continue',
          actions: [
            { tool: 'Write', path: 'test/orders-list.test.js', content: "const { listOrders } = require('../src/api/orders-list');\nconst { expectEqual } = require('./helpers');\nmodule.exports = [{ name: 'orders \\u203a last page', fn: () => expectEqual(listOrders({ cursor: 200 }).nextCursor, null) }];\n" },
            { tool: 'Bash', command: 'npm test -- orders-list', description: 'Run the pagination test' },
            { text: 'test/orders-list.test.js passes. Next I will document the cursor parameter and nextCursor in docs/api.md.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: cursor pagination of GET /orders', in: ['objective'], pattern: 'paginat|cursor' },
    { id: 'next step: document it in docs/api.md', in: ['next_valid_action'], pattern: 'docs/api\\.md' },
    { id: 'orders-list.js modified', in: ['files'], pattern: 'modified: .*src/api/orders-list\\.js' },
  ],
  antiFacts: [
    { id: 'a placeholder prompt as objective', in: ['objective'], pattern: '^"?(ok|go|x|continue)"?$' },
    { id: 'a placeholder prompt as next step', in: ['next_valid_action'], pattern: '^"?(ok|go|x|continue)"?$' },
    { id: 'waiting on a "go" that came', in: ['waiting_on'], pattern: 'say "?go' },
  ],
};
