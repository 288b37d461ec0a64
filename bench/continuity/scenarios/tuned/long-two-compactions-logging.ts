import type { Action, Scenario } from '../../scenario-types';

// 46 handler modules that log with console.log; the task moves every one to the structured logger.
const N = 46;
const names = Array.from({ length: N }, (_, i) => `h${String(i + 1).padStart(2, '0')}`);
const before = (n: string) => `// handlers/${n}\nfunction ${n}(req) {\n  console.log('${n}', req.path);\n  return { status: 200 };\n}\nmodule.exports = { ${n} };\n`;
const after = (n: string) => `const { log } = require('../logger');\n// handlers/${n}\nfunction ${n}(req) {\n  log.info({ handler: '${n}', path: req.path });\n  return { status: 200 };\n}\nmodule.exports = { ${n} };\n`;
const move = (n: string): Action[] => [{ tool: 'Read', path: `src/handlers/${n}.js` }, { tool: 'Write', path: `src/handlers/${n}.js`, content: after(n) }];

const FIRST = 'Replace console.log with the structured logger (src/logger.js) in all 46 handlers under src/handlers/.';
const SECOND = 'Carry on with the remaining handlers.';
const LOGGER = "// A JSON-lines logger.\nconst log = { info: (fields) => process.stdout.write(JSON.stringify({ level: 'info', ...fields }) + '\\n') };\nmodule.exports = { log };\n";

const firstHalf = names.slice(0, 23).flatMap(move);
const secondHalf = names.slice(23).flatMap(move);
firstHalf[24] = { ...firstHalf[24]!, inputTokens: 120000 };
secondHalf[26] = { ...secondHalf[26]!, inputTokens: 120000 };

const summary = (done: string, prompts: string[]) =>
  `<summary>\n1. Primary Request and Intent: replace console.log with the structured logger from src/logger.js in all 46 handlers under src/handlers/.\n2. Files and Code Sections: ${done}\n3. Errors and fixes: loading src/handlers/h01.js failed with Cannot find module '../logger' because src/logger.js did not exist; it was created and the handler loads now.\n4. All user messages:\n${prompts.map((p) => `   - "${p}"`).join('\n')}\n5. Pending Tasks: the remaining handlers, then the tests.\n6. Current Work: moving the handlers one by one.\n</summary>`;

/** 100+ tool calls, two automatic compactions in the middle of turns, 47 modified files. */
export const longTwoCompactionsLogging: Scenario = {
  name: 'long-two-compactions-logging',
  covers: '100+ tool calls with two automatic compactions and 47 modified files: the first files kept, the early failure resolved',
  repo: Object.fromEntries(names.map((n) => [`src/handlers/${n}.js`, before(n)])),
  compactSummaries: [summary('src/handlers/h01.js … h12.js moved so far; src/logger.js created.', [FIRST]), summary('src/handlers/h01.js … h36.js moved so far.', [FIRST, SECOND])],
  sessions: [
    {
      name: 'main',
      env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '10' },
      steps: [
        {
          prompt: FIRST,
          actions: [
            { tool: 'Bash', command: 'grep -rl "console.log" src/handlers | wc -l', description: 'Count the handlers' },
            ...firstHalf.slice(0, 2),
            { tool: 'Bash', command: "node -e \"require('./src/handlers/h01')\"", description: 'Load the first handler' },
            { tool: 'Write', path: 'src/logger.js', content: LOGGER },
            { tool: 'Bash', command: "node -e \"require('./src/handlers/h01')\"", description: 'Load the first handler again' },
            ...firstHalf.slice(2),
            { text: 'h01 to h23 use log.info now; src/logger.js was missing at first (Cannot find module ../logger) and exists now. 23 handlers are left.' },
          ],
        },
        {
          prompt: SECOND,
          actions: [
            ...secondHalf,
            { tool: 'Bash', command: "node -e \"for (let i = 1; i <= 46; i++) require('./src/handlers/h' + String(i).padStart(2, '0'))\" && echo all load", description: 'Load every handler' },
            { tool: 'Bash', command: 'grep -rl "console.log" src/handlers | wc -l', description: 'Check no console.log is left' },
            { tool: 'Bash', command: 'npm test', description: 'Run the test suite' },
            { text: 'All 46 handlers log through log.info, every handler loads, and no console.log is left in src/handlers/.\n\nNext step: add a request id field to log.info in src/logger.js.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the structured logger in every handler', in: ['objective'], pattern: 'logger|console\\.log' },
    { id: 'next step: a request id in log.info', in: ['next_valid_action'], pattern: 'request id' },
    { id: 'the first handler (before the first compaction) modified', in: ['files'], pattern: 'modified: .*h01\\b' },
    { id: 'logger.js modified', in: ['files'], pattern: 'modified: .*src/logger\\.js' },
    { id: 'the last handler modified', in: ['files'], pattern: 'modified: .*h46\\b' },
    { id: 'the missing-module failure resolved', in: ['errors'], pattern: '(logger|Cannot find module).*(resolved|fixed|→)' },
  ],
  antiFacts: [
    { id: 'the carry-on as objective', in: ['objective'], pattern: '^"?carry on' },
    { id: 'the fixed missing module shown open', in: ['errors'], pattern: "^(?!.*(resolved|fixed|→)).*Cannot find module" },
  ],
};
