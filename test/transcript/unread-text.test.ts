import { isUnreadText } from '../../lib/transcript/unread-text';

describe('isUnreadText', () => {
  it.each([
    'Die Kopfzeile lautet jetzt "Rechnung 7 06.12.2026". Als Nächstes übersetze ich die Spaltenüberschriften in src/reports/invoice-pdf.js.',
    '大文字の「Tokyo」のテストが失敗しました（期待値 500、実際は 800）。次は src/api/shipping.js を直します。',
    'Ahora el exportador escribe por partes; falta la prueba con un archivo grande.',
    "Le test passe maintenant. Je vais ajouter la pagination dans src/api/orders.js.",
  ])('reads %j as another language', (text) => {
    expect(isUnreadText(text)).toBe(true);
  });

  it.each([
    'Uploads over 2 MB get 413 now. Next I will add tests for the 415 and the 413 in test/avatar.test.js.',
    'h01 to h23 use log.info now; src/logger.js was missing at first and exists now.',
    '`npm test` → PASS src/a.test.ts',
    'Done.',
    '',
  ])('reads %j as English, or as nothing to judge', (text) => {
    expect(isUnreadText(text)).toBe(false);
  });
});
