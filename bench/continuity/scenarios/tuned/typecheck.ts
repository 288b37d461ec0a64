import type { Scenario } from '../../scenario-types';

/**
 * Written after the extraction was (held out then, seen and tuned on since): a build step whose error is a compiler line, fixed
 * and re-run with other flags; chat and a question afterwards that must not move the objective.
 */
export const typecheck: Scenario = {
  name: 'typecheck',
  covers: 'a compiler error line, a re-run with other flags, a side question that is not a new task',
  repo: {
    'scripts/typecheck.js': "const src = require('node:fs').readFileSync('src/total.js', 'utf8');\nif (src.includes('toFixed()')) { console.log('src/total.js(3,10): error TS2345: Argument of type \\'string\\' is not assignable to parameter of type \\'number\\'.'); console.log('Found 1 error in src/total.js:3'); process.exit(2); }\nconsole.log('Found 0 errors.');\n",
    'src/total.js': "// Order totals.\nfunction total(items) {\n  return Number(items.reduce((a, b) => a + b, 0).toFixed());\n}\nmodule.exports = { total };\n",
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'The typecheck fails on src/total.js; please make it pass. Run it with `node scripts/typecheck.js`.',
          actions: [
            { tool: 'Bash', command: 'node scripts/typecheck.js', description: 'Typecheck the sources' },
            { tool: 'Read', path: 'src/total.js' },
            { tool: 'Edit', path: 'src/total.js', old: '.toFixed());', new: '.toFixed(2));' },
            { tool: 'Bash', command: 'node scripts/typecheck.js --pretty', description: 'Typecheck the sources again' },
            { text: 'The typecheck passes now: toFixed() needed its digits argument.' },
          ],
        },
        { prompt: 'Nice. By the way, how does the cart expire?', actions: [{ text: 'Carts expire after 30 days (see CHANGELOG.md, v2.2).' }] },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the typecheck', in: ['objective'], pattern: 'typecheck' },
    { id: 'the compiler line as the error', in: ['errors'], pattern: 'TS2345|src/total\\.js\\(3,10\\)' },
    { id: 'resolved by the re-run', in: ['errors'], pattern: 'resolved' },
    { id: 'done: the typecheck passes', in: ['done'], pattern: 'typecheck' },
  ],
  antiFacts: [
    { id: 'the side question as objective', in: ['objective'], pattern: 'cart expire' },
    { id: 'the side question as next step', in: ['next_valid_action'], pattern: 'cart expire|how does' },
  ],
};
