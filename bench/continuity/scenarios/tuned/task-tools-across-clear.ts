import type { Scenario } from '../../scenario-types';

const ORDERS = "// GET /orders and POST /orders, routes and handlers in one file.\nfunction list() { return []; }\nfunction create(body) { return { id: 1, ...body }; }\nmodule.exports = { routes: { 'GET /orders': list, 'POST /orders': create } };\n";

/**
 * The task list is kept with TaskCreate/TaskUpdate, the session is cleared (the client's list is
 * empty then, and the next ids start at 1 again), the work goes on with a new list: the state
 * follows the subjects, not the ids.
 */
export const taskToolsAcrossClear: Scenario = {
  name: 'task-tools-across-clear',
  covers: 'task tools carried over /clear with ids restarting at 1: in_progress current, completed done, by subject',
  live: true,
  repo: { 'src/api/orders.js': ORDERS, 'src/server.js': "const orders = require('./api/orders');\nmodule.exports = { routes: { ...orders.routes } };\n" },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Split src/api/orders.js into a router and its handlers. Keep a task list, it has a few steps.',
          actions: [
            { tool: 'ToolSearch', query: 'select:TaskCreate,TaskUpdate,TaskList' },
            { tool: 'TaskCreate', subject: 'Extract the order handlers' },
            { tool: 'TaskCreate', subject: 'Write the orders router' },
            { tool: 'TaskCreate', subject: 'Update the imports in src/server.js' },
            { tool: 'TaskUpdate', taskId: '1', status: 'in_progress' },
            { tool: 'Read', path: 'src/api/orders.js' },
            { tool: 'Write', path: 'src/api/orders/handlers.js', content: "function list() { return []; }\nfunction create(body) { return { id: 1, ...body }; }\nmodule.exports = { list, create };\n" },
            { tool: 'TaskUpdate', taskId: '1', status: 'completed' },
            { tool: 'TaskUpdate', taskId: '2', status: 'in_progress' },
            { text: 'The handlers live in src/api/orders/handlers.js. Working on the router now.' },
          ],
        },
        { reset: 'clear' },
        {
          prompt: 'Pick it up from there.',
          actions: [
            { tool: 'ToolSearch', query: 'select:TaskCreate,TaskUpdate,TaskList' },
            { tool: 'TaskCreate', subject: 'Write the orders router' },
            { tool: 'TaskCreate', subject: 'Update the imports in src/server.js' },
            { tool: 'TaskUpdate', taskId: '1', status: 'in_progress' },
            { tool: 'Write', path: 'src/api/orders/router.js', content: "const h = require('./handlers');\nmodule.exports = { routes: { 'GET /orders': h.list, 'POST /orders': h.create } };\n" },
            { tool: 'TaskUpdate', taskId: '1', status: 'completed' },
            { tool: 'TaskUpdate', taskId: '2', status: 'in_progress' },
            { tool: 'Read', path: 'src/server.js' },
            { text: 'The router is in src/api/orders/router.js. Updating the imports in src/server.js now.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: split the orders module', in: ['objective'], pattern: 'split|router|orders' },
    { id: 'current step: the imports in server.js', in: ['next_valid_action'], pattern: 'server\\.js|imports' },
    { id: 'the router done', in: ['done'], pattern: 'router' },
    { id: 'the handlers done (before the clear)', in: ['done'], pattern: 'handlers' },
  ],
  antiFacts: [
    { id: 'a task named by its id only', in: ['objective', 'next_valid_action', 'done', 'claimed', 'facts'], pattern: '(task|#) ?\\d+"?$|\\[(in_progress|pending|completed)\\] (task )?#?\\d' },
    { id: 'a finished task as the current step or open', in: ['next_valid_action', 'claimed'], pattern: 'handlers|orders router' },
  ],
};
