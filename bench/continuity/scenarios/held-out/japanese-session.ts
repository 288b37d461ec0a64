import type { Scenario } from '../../scenario-types';

const FORMAT = "// Formats a price for display.\nfunction formatPrice(amount, currency) {\n  const symbol = { JPY: '\\u00a5', USD: '$' }[currency];\n  return symbol + amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });\n}\nmodule.exports = { formatPrice };\n";
const FORMAT_YEN = "// Formats a price for display; yen have no minor unit.\nconst DIGITS = { JPY: 0, USD: 2 };\nfunction formatPrice(amount, currency) {\n  const symbol = { JPY: '\\u00a5', USD: '$' }[currency];\n  const d = DIGITS[currency];\n  return symbol + amount.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });\n}\nmodule.exports = { formatPrice };\n";
const TEST = "const { formatPrice } = require('../src/i18n/format');\nconst { expectEqual } = require('./helpers');\nmodule.exports = [{ name: 'formatPrice \\u203a yen without decimals', fn: () => expectEqual(formatPrice(1200, 'JPY'), '\\u00a51,200') }];\n";

/** A session in Japanese: prompts and the agent's messages. */
export const japaneseSession: Scenario = {
  name: 'japanese-session',
  covers: 'a session in Japanese (prompts and answers): objective, done, the next step from the final message',
  live: true,
  repo: { 'src/i18n/format.js': FORMAT },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'src/i18n/format.js の formatPrice が円を「¥1,200.00」のように小数点付きで表示しています。円は小数なし（¥1,200）で表示するように直してください。',
          actions: [
            { tool: 'Read', path: 'src/i18n/format.js' },
            { tool: 'Write', path: 'src/i18n/format.js', content: FORMAT_YEN },
            { tool: 'Write', path: 'test/format.test.js', content: TEST },
            { tool: 'Bash', command: 'npm test -- format', description: '価格表示のテストを実行' },
            { text: 'formatPrice は円を小数なしで表示するようになりました（¥1,200）。テストも通っています。\n\n次は、ドル表示（$12.00）が変わっていないことを確かめるテストを test/format.test.js に追加します。' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'どこまで進みましたか？' },
  facts: [
    { id: 'objective: yen without decimals in formatPrice', in: ['objective'], pattern: 'formatPrice|円|¥' },
    { id: 'next step: the dollar test in test/format.test.js', in: ['next_valid_action'], pattern: 'ドル|\\$12\\.00|format\\.test' },
    { id: 'format.js modified', in: ['files'], pattern: 'modified: .*src/i18n/format\\.js' },
  ],
  antiFacts: [
    { id: 'no next step captured', in: ['next_valid_action'], pattern: 'no next step|confirm the objective' },
    { id: 'the passing test shown as an error', in: ['errors'], pattern: 'format' },
  ],
};
