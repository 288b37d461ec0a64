import type { Scenario } from '../../scenario-types';

/** A session in Japanese with an open failure and a Japanese follow-up. */
export const japaneseSessionRetry: Scenario = {
  name: 'japanese-session-retry',
  covers: 'a session in Japanese with a follow-up ("テストも追加して"): the objective, an open failure, the next step',
  live: true,
  repo: { 'src/api/shipping.js': "// Shipping cost in yen by prefecture.\nconst COST = { tokyo: 500, osaka: 600 };\nfunction shippingCost(prefecture) {\n  return COST[prefecture];\n}\nmodule.exports = { shippingCost };\n" },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'src/api/shipping.js の shippingCost は、知らない都道府県だと undefined を返します。その場合は全国一律の 800 円を返すようにしてください。',
          actions: [
            { tool: 'Read', path: 'src/api/shipping.js' },
            { tool: 'Edit', path: 'src/api/shipping.js', old: '  return COST[prefecture];', new: '  return COST[prefecture] ?? 800;' },
            { text: '知らない都道府県では 800 円を返すようにしました。' },
          ],
        },
        {
          prompt: 'テストも追加して。',
          actions: [
            { tool: 'Write', path: 'test/shipping.test.js', content: "const { shippingCost } = require('../src/api/shipping');\nconst { expectEqual } = require('./helpers');\nmodule.exports = [\n  { name: 'shipping \\u203a unknown prefecture', fn: () => expectEqual(shippingCost('hokkaido'), 800) },\n  { name: 'shipping \\u203a upper case', fn: () => expectEqual(shippingCost('Tokyo'), 500) },\n];\n" },
            { tool: 'Bash', command: 'npm test -- shipping', description: '送料のテストを実行' },
            { text: '大文字の「Tokyo」のテストが失敗しました（期待値 500、実際は 800）。次は shippingCost で都道府県名を小文字にしてから検索するように src/api/shipping.js を直します。' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: '続きをお願いします。どこまで進んでいましたか？' },
  facts: [
    { id: 'objective: the 800 yen default', in: ['objective'], pattern: 'shippingCost|800|都道府県' },
    { id: 'next step: lower-case the prefecture', in: ['next_valid_action'], pattern: '小文字|shipping\\.js' },
    { id: 'the upper-case failure is open', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→)).*(Tokyo|upper case|shipping)' },
    { id: 'shipping.js modified', in: ['files'], pattern: 'modified: .*src/api/shipping\\.js' },
  ],
  antiFacts: [
    { id: 'the follow-up as objective', in: ['objective'], pattern: '^"?テストも追加して' },
    { id: 'no next step captured', in: ['next_valid_action'], pattern: 'no next step|confirm the objective' },
  ],
};
