import type { Scenario } from '../../scenario-types';

const LOG = "// One log line per request.\nfunction logLine(req, message) {\n  return '[' + req.headers['x-request-id'] + '] ' + message;\n}\nmodule.exports = { logLine };\n";
const FIXED = "// One log line per request; 'no-request' when there is none.\nfunction logLine(req, message) {\n  const id = (req && req.headers && req.headers['x-request-id']) || 'no-request';\n  return '[' + id + '] ' + message;\n}\nmodule.exports = { logLine };\n";
const TEST = "const { logLine } = require('../src/log');\nconst { expectEqual } = require('./helpers');\nmodule.exports = [\n  { name: 'log \\u203a carries the request id', fn: () => expectEqual(logLine({ headers: { 'x-request-id': 'r1' } }, 'hi'), '[r1] hi') },\n  { name: 'log \\u203a works outside a request', fn: () => expectEqual(logLine(undefined, 'boot'), '[no-request] boot') },\n];\n";

/** A test fails, the session is cleared, and the next session fixes it with the same command passing: resolved, not open. */
export const errorResolvedAfterClear: Scenario = {
  name: 'error-resolved-after-clear',
  covers: 'a failure from before a /clear, fixed after it (the same npm test passes): shown resolved, never open',
  live: true,
  repo: { 'src/log.js': LOG },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Log lines must carry the request id (src/log.js). Add tests for it, including a log line written outside any request.',
          actions: [
            { tool: 'Read', path: 'src/log.js' },
            { tool: 'Write', path: 'test/log.test.js', content: TEST },
            { tool: 'Bash', command: 'npm test -- log', description: 'Run the log tests' },
            { text: "The test for a line outside a request fails: TypeError: Cannot read properties of undefined (reading 'headers'). logLine assumes a request.\n\nNext I will make the request optional in src/log.js and fall back to 'no-request'." },
          ],
        },
        { reset: 'clear' },
        {
          prompt: 'Carry on.',
          actions: [
            { tool: 'Read', path: 'src/log.js' },
            { tool: 'Write', path: 'src/log.js', content: FIXED },
            { tool: 'Bash', command: 'npm test -- log', description: 'Run the log tests' },
            { text: "Both log tests pass: a line outside a request says [no-request].\n\nNext I will use logLine in src/api/login.js so failed logins carry the request id." },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: request ids in log lines', in: ['objective'], pattern: 'request id|log' },
    { id: 'next step: use logLine in login.js', in: ['next_valid_action'], pattern: 'login\\.js' },
    { id: 'the TypeError resolved', in: ['errors'], pattern: "(TypeError|headers|log).*(resolved|fixed|→)" },
    { id: 'log.js modified', in: ['files'], pattern: 'modified: .*src/log\\.js' },
  ],
  antiFacts: [
    { id: 'the fixed TypeError shown open', in: ['errors'], pattern: "^(?!.*(resolved|fixed|→)).*(TypeError|reading 'headers')" },
    { id: 'the done fix as next step', in: ['next_valid_action'], pattern: 'make the request optional|no-request' },
    { id: 'the carry-on as objective', in: ['objective'], pattern: '^"?carry on' },
  ],
};
