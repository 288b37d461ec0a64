import type { Scenario } from '../../scenario-types';

const WINDOW_UTC = `// Formats a delivery window for the order page.
function formatDeliveryWindow(startIso, hours) {
  const start = new Date(startIso);
  const end = new Date(start.getTime() + hours * 3600000);
  const hhmm = (d) => d.toISOString().slice(11, 16);
  return hhmm(start) + '-' + hhmm(end);
}
module.exports = { formatDeliveryWindow };
`;
const WINDOW_BERLIN = `// Formats a delivery window for the order page, in the store's time zone (Europe/Berlin).
const STORE_OFFSET_MIN = 60;
function formatDeliveryWindow(startIso, hours) {
  const start = new Date(startIso);
  const end = new Date(start.getTime() + hours * 3600000);
  const hhmm = (d) => new Date(d.getTime() + STORE_OFFSET_MIN * 60000).toISOString().slice(11, 16);
  return hhmm(start) + '-' + hhmm(end);
}
module.exports = { formatDeliveryWindow };
`;
const TEST = `const { formatDeliveryWindow } = require('../src/delivery/window');
const { expectEqual } = require('./helpers');
module.exports = [
  { name: 'delivery window \\u203a winter morning in Berlin', fn: () => expectEqual(formatDeliveryWindow('2026-01-15T08:00:00Z', 2), '09:00-11:00') },
];
`;
const TEST_DST = TEST.replace('];\n', "  { name: 'delivery window \\u203a the Monday after the switch to summer time', fn: () => expectEqual(formatDeliveryWindow('2026-03-30T08:00:00Z', 2), '10:00-12:00') },\n];\n");

/** A short follow-up ("Add that DST test.") the agent itself suggested: it attaches to the task, which is still failing. */
export const followUpDst: Scenario = {
  name: 'follow-up-dst',
  covers: 'a short follow-up ("Add that DST test.") after a suggestion: the task stays the objective, the new failure is open',
  live: true,
  repo: { 'src/delivery/window.js': WINDOW_UTC, 'test/window.test.js': TEST.replace("'09:00-11:00'", "'08:00-10:00'") },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Delivery windows on the order page are shown in UTC. Make formatDeliveryWindow in src/delivery/window.js use the store time zone, Europe/Berlin.',
          actions: [
            { tool: 'Read', path: 'src/delivery/window.js' },
            { tool: 'Write', path: 'src/delivery/window.js', content: WINDOW_BERLIN },
            { tool: 'Write', path: 'test/window.test.js', content: TEST },
            { tool: 'Bash', command: 'npm test -- window', description: 'Run the delivery window tests' },
            { text: 'formatDeliveryWindow now shows Berlin time, and the winter test passes. I did not cover a day after the switch to summer time; a test for 30 March 2026 would show whether the offset is right then.' },
          ],
        },
        {
          prompt: 'Add that DST test.',
          actions: [
            { tool: 'Write', path: 'test/window.test.js', content: TEST_DST },
            { tool: 'Bash', command: 'npm test -- window', description: 'Run the delivery window tests' },
            { text: 'The new test fails: for 2026-03-30 it expected "10:00-12:00" and received "09:00-11:00", because STORE_OFFSET_MIN is fixed at 60 minutes.\n\nI will compute the offset for each date (summer time is +120 minutes) in src/delivery/window.js instead of using one constant.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: delivery windows in the Berlin time zone', in: ['objective'], pattern: 'Berlin|time zone|formatDeliveryWindow|delivery window' },
    { id: 'next step: an offset per date in window.js', in: ['next_valid_action'], pattern: 'offset|summer time|window\\.js' },
    { id: 'the DST test failure is open', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→)).*(10:00-12:00|09:00-11:00|summer time|window)' },
    { id: 'window.js modified', in: ['files'], pattern: 'modified: .*src/delivery/window\\.js' },
    { id: 'the test file modified', in: ['files'], pattern: 'modified: .*test/window\\.test\\.js' },
  ],
  antiFacts: [
    { id: 'the follow-up as objective', in: ['objective'], pattern: '^"?add that DST test' },
    { id: 'the failing DST test shown resolved', in: ['errors'], pattern: '(10:00-12:00|09:00-11:00|summer time).*(resolved|fixed|→)' },
    { id: 'the time-zone task shown done', in: ['done'], pattern: 'Berlin.*(done|complete)|time zone.*(done|complete)' },
  ],
};
