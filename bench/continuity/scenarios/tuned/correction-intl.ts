import type { Scenario } from '../../scenario-types';

const DATES = "// Order dates for the receipt.\nfunction receiptDate(iso) {\n  return iso.slice(0, 10);\n}\nmodule.exports = { receiptDate };\n";
const INTL = "// Order dates for the receipt, in the customer's locale.\nfunction receiptDate(iso, locale = 'en-GB') {\n  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(iso));\n}\nmodule.exports = { receiptDate };\n";

/** The user rejects the proposed library and sets a constraint; the task is unchanged. */
export const correctionIntl: Scenario = {
  name: 'correction-intl',
  covers: 'a correction ("No, don\'t pull in moment; Intl is enough"): a rejected approach and its constraint, the task unchanged',
  live: true,
  repo: { 'src/receipts/date.js': DATES },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Receipts show dates as 2026-12-06. Show them in the customer locale, like "6 December 2026" for en-GB.',
          actions: [
            { tool: 'Read', path: 'src/receipts/date.js' },
            { text: "I'd add moment with its locale files and format with moment(iso).locale(locale).format('LL'). Fine to add it?" },
          ],
        },
        {
          prompt: "No, don't pull in moment, it's huge. Intl.DateTimeFormat is enough.",
          actions: [
            { tool: 'Write', path: 'src/receipts/date.js', content: INTL },
            { tool: 'Bash', command: "node -e \"console.log(require('./src/receipts/date').receiptDate('2026-12-06T10:00:00Z'))\"", description: 'Try the formatter' },
            { text: 'receiptDate formats with Intl.DateTimeFormat (6 December 2026 for en-GB), no new dependency. Next I will pass the customer locale from src/receipts/render.js.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: locale dates on receipts', in: ['objective'], pattern: 'date|locale|receipt' },
    { id: 'the rejected approach: moment', in: ['rejected'], pattern: 'moment' },
    { id: 'the constraint: Intl only', in: ['rejected', 'facts', 'objective'], pattern: 'Intl|dependenc|huge' },
    { id: 'next step: pass the locale from render.js', in: ['next_valid_action'], pattern: 'render\\.js|locale' },
  ],
  antiFacts: [
    { id: 'the correction as objective', in: ['objective'], pattern: "^\"?no, don'?t" },
    { id: 'moment as next step', in: ['next_valid_action'], pattern: 'moment' },
  ],
};
