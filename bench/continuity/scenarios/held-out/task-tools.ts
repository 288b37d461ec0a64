import type { Scenario } from '../../scenario-types';

const cron = (name: string) => `const cron = require('node-cron');\n// ${name}\ncron.schedule('0 3 * * *', () => require('../../src/jobs/${name}').run());\n`;
const migrated = (name: string) => `const { every } = require('../../src/scheduler');\n// ${name}\nevery('03:00', () => require('../../src/jobs/${name}').run());\n`;

/** The task tools of Claude Code 2.1.332: in progress → the current step, pending → next, completed → done. */
export const taskTools: Scenario = {
  name: 'task-tools',
  covers: 'TaskCreate/TaskUpdate/TaskList: in_progress is the current step, pending the next steps, completed done (subjects, not ids)',
  live: true,
  repo: {
    'src/scheduler.js': "// Our scheduler: every('HH:MM', fn).\nfunction every(time, fn) {\n  return { time, fn };\n}\nmodule.exports = { every };\n",
    'scripts/cron/cleanup-carts.js': cron('cleanup-carts'),
    'scripts/cron/send-digest.js': cron('send-digest'),
    'scripts/cron/rotate-logs.js': cron('rotate-logs'),
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Move the three cron scripts in scripts/cron/ off node-cron and onto our own scheduler in src/scheduler.js.',
          actions: [
            { tool: 'Bash', command: 'ls scripts/cron', description: 'List the cron scripts' },
            { tool: 'ToolSearch', query: 'select:TaskCreate,TaskUpdate,TaskList' },
            { tool: 'TaskCreate', subject: 'Migrate cleanup-carts.js' },
            { tool: 'TaskCreate', subject: 'Migrate send-digest.js' },
            { tool: 'TaskCreate', subject: 'Migrate rotate-logs.js' },
            { tool: 'TaskUpdate', taskId: '1', status: 'in_progress' },
            { tool: 'Read', path: 'scripts/cron/cleanup-carts.js' },
            { tool: 'Write', path: 'scripts/cron/cleanup-carts.js', content: migrated('cleanup-carts') },
            { tool: 'TaskUpdate', taskId: '1', status: 'completed' },
            { tool: 'TaskUpdate', taskId: '2', status: 'in_progress' },
            { tool: 'Read', path: 'scripts/cron/send-digest.js' },
            { tool: 'TaskList' },
            { text: 'cleanup-carts.js runs on our scheduler now. I am converting send-digest.js; it also reads the digest time from the environment, so it needs a little more care.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: move the cron scripts to the scheduler', in: ['objective'], pattern: 'cron|scheduler' },
    { id: 'current step: send-digest (in progress)', in: ['next_valid_action'], pattern: 'send-digest' },
    { id: 'rotate-logs pending, as a step still to do', in: ['next_valid_action', 'claimed', 'facts', 'waiting_on'], pattern: 'rotate-logs' },
    { id: 'cleanup-carts done', in: ['done'], pattern: 'cleanup-carts' },
    { id: 'cleanup-carts.js modified', in: ['files'], pattern: 'modified: .*scripts/cron/cleanup-carts\\.js' },
  ],
  antiFacts: [
    { id: 'a task named by its id only', in: ['objective', 'next_valid_action', 'done', 'claimed', 'facts'], pattern: '(task|#) ?\\d+"?$|\\[(in_progress|pending|completed)\\] (task )?#?\\d' },
    { id: 'the completed task as current or open', in: ['next_valid_action', 'claimed'], pattern: 'cleanup-carts' },
    { id: 'a pending or running task shown done', in: ['done'], pattern: 'rotate-logs|send-digest' },
  ],
};
