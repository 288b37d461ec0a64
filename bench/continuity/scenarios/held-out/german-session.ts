import type { Scenario } from '../../scenario-types';

const AMOUNT = "// Reads an amount the user typed into cents.\nfunction parseAmount(text) {\n  return Math.round(parseFloat(text) * 100);\n}\nmodule.exports = { parseAmount };\n";
const AMOUNT_DE = "// Reads an amount the user typed into cents (German notation: 1.234,56).\nfunction parseAmount(text) {\n  const digits = text.replace(/[^0-9,]/g, '').replace(',', '.');\n  return Math.round(parseFloat(digits) * 100);\n}\nmodule.exports = { parseAmount };\n";
const TEST = "const { parseAmount } = require('../src/payments/amount');\nconst { expectEqual } = require('./helpers');\nmodule.exports = [\n  { name: 'amount \\u203a Tausenderpunkt', fn: () => expectEqual(parseAmount('1.234,56'), 123456) },\n  { name: 'amount \\u203a ohne Tausenderpunkt', fn: () => expectEqual(parseAmount('1234,56'), 123456) },\n  { name: 'amount \\u203a negativ', fn: () => expectEqual(parseAmount('-0,50'), -50) },\n];\n";

/** A session in German: prompts and the agent's messages; the work state must still be right. */
export const germanSession: Scenario = {
  name: 'german-session',
  covers: 'a session in German (prompts and answers): objective, next step, an open failure',
  live: true,
  repo: { 'src/payments/amount.js': AMOUNT },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'parseAmount in src/payments/amount.js versteht keine deutschen Beträge: aus "1.234,56" wird 1,23 €. Bitte so ändern, dass Beträge mit Tausenderpunkt und Dezimalkomma richtig gelesen werden.',
          actions: [
            { tool: 'Read', path: 'src/payments/amount.js' },
            { tool: 'Write', path: 'src/payments/amount.js', content: AMOUNT_DE },
            { text: 'parseAmount entfernt jetzt die Tausenderpunkte und liest das Komma als Dezimaltrennzeichen. Soll ich auch Tests für Beträge ohne Tausenderpunkt und für negative Beträge schreiben?' },
          ],
        },
        {
          prompt: 'Ja, bitte.',
          actions: [
            { tool: 'Write', path: 'test/amount.test.js', content: TEST },
            { tool: 'Bash', command: 'npm test -- amount', description: 'Betragstests ausführen' },
            { text: 'Zwei der drei Tests bestehen. Der Test für negative Beträge schlägt fehl: erwartet -50, erhalten 50, weil das Minuszeichen beim Entfernen der Tausenderpunkte verloren geht.\n\nAls Nächstes behalte ich in src/payments/amount.js ein führendes Minuszeichen bei und lasse die Tests erneut laufen.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Wo waren wir stehen geblieben?' },
  facts: [
    { id: 'objective: German amounts in parseAmount', in: ['objective'], pattern: 'parseAmount|Betr|1\\.234,56' },
    { id: 'next step: keep the minus sign', in: ['next_valid_action'], pattern: 'Minus|amount\\.js' },
    { id: 'the negative-amount failure is open', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→|behoben)).*(negativ|-50|amount)' },
    { id: 'amount.js modified', in: ['files'], pattern: 'modified: .*src/payments/amount\\.js' },
  ],
  antiFacts: [
    { id: 'the agreement as objective', in: ['objective'], pattern: '^"?ja' },
    { id: 'the answered question still waited on', in: ['waiting_on'], pattern: 'Soll ich' },
    { id: 'no next step captured', in: ['next_valid_action'], pattern: 'no next step|confirm the objective' },
  ],
};
