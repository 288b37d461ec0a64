import type { Scenario } from '../../scenario-types';

const ID = "// Order ids.\nfunction newOrderId() {\n  return 'o_' + Math.random().toString(36).slice(2, 10);\n}\nmodule.exports = { newOrderId };\n";
const EXPORT = "// Streams orders to a CSV file.\nconst { writeFileSync } = require('node:fs');\nfunction exportOrders(rows, file) {\n  writeFileSync(file, rows.map((r) => r.id + ',' + r.total).join('\\n'));\n}\nmodule.exports = { exportOrders };\n";

/** The first task is finished and reported done; "Good. New task: …" switches the objective. */
export const newTaskUuid: Scenario = {
  name: 'new-task-uuid',
  covers: 'a finished task, then "Good. New task: …": the new task is the objective, the first one done',
  live: true,
  repo: { 'src/orders/id.js': ID, 'src/reports/export-orders.js': EXPORT },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'The export of big order lists runs out of memory in src/reports/export-orders.js. Write the rows as a stream instead of one big string.',
          actions: [
            { tool: 'Read', path: 'src/reports/export-orders.js' },
            { tool: 'Write', path: 'src/reports/export-orders.js', content: "// Streams orders to a CSV file, row by row.\nconst { createWriteStream } = require('node:fs');\nfunction exportOrders(rows, file) {\n  const out = createWriteStream(file);\n  for (const r of rows) out.write(r.id + ',' + r.total + '\\n');\n  return new Promise((resolve) => out.end(resolve));\n}\nmodule.exports = { exportOrders };\n" },
            { tool: 'Bash', command: 'npm test', description: 'Run the test suite' },
            { text: 'Done: exportOrders writes row by row through a write stream, and the suite passes.' },
          ],
        },
        {
          prompt: 'Good. New task: order ids still come from Math.random in src/orders/id.js; switch newOrderId to crypto.randomUUID.',
          actions: [
            { tool: 'Read', path: 'src/orders/id.js' },
            { tool: 'Write', path: 'src/orders/id.js', content: "const { randomUUID } = require('node:crypto');\n// Order ids.\nfunction newOrderId() {\n  return 'o_' + randomUUID();\n}\nmodule.exports = { newOrderId };\n" },
            { tool: 'Bash', command: 'grep -rn "newOrderId" src test', description: 'Find the callers' },
            { text: 'newOrderId uses crypto.randomUUID now. The order id column in src/db/schema.sql is VARCHAR(12), too short for the new ids; next I will widen it to VARCHAR(40).' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: randomUUID order ids', in: ['objective'], pattern: 'randomUUID|order id|newOrderId' },
    { id: 'next step: widen the id column', in: ['next_valid_action'], pattern: 'VARCHAR|schema\\.sql|widen' },
    { id: 'the streaming export done', in: ['done'], pattern: 'stream|export' },
    { id: 'id.js modified', in: ['files'], pattern: 'modified: .*src/orders/id\\.js' },
  ],
  antiFacts: [
    { id: 'the finished export task as objective', in: ['objective'], pattern: 'stream|memory|export' },
    { id: 'the "Good." as objective', in: ['objective'], pattern: '^"?good' },
  ],
};
