import type { Scenario } from '../../scenario-types';

/** A session in German: prompts and the agent's messages, a follow-up in German. */
export const germanSessionExport: Scenario = {
  name: 'german-session-export',
  covers: 'a session in German with a short German follow-up: the objective, the next step, files',
  live: true,
  repo: { 'src/reports/invoice-pdf.js': "// Rechnungs-PDF: Kopfzeile.\nfunction header(order) {\n  return 'Invoice ' + order.id;\n}\nmodule.exports = { header };\n" },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Die Rechnungen (src/reports/invoice-pdf.js) sollen für deutsche Kunden auf Deutsch sein: Kopfzeile "Rechnung" statt "Invoice", Datum als TT.MM.JJJJ.',
          actions: [
            { tool: 'Read', path: 'src/reports/invoice-pdf.js' },
            { tool: 'Write', path: 'src/reports/invoice-pdf.js', content: "// Rechnungs-PDF: Kopfzeile, auf Deutsch für locale 'de'.\nconst TITLE = { de: 'Rechnung', en: 'Invoice' };\nfunction header(order, locale = 'en') {\n  return (TITLE[locale] || TITLE.en) + ' ' + order.id;\n}\nmodule.exports = { header };\n" },
            { text: 'Die Kopfzeile heißt für locale "de" jetzt "Rechnung". Das Datum fehlt noch.' },
          ],
        },
        {
          prompt: 'Und das Datum bitte auch.',
          actions: [
            { tool: 'Edit', path: 'src/reports/invoice-pdf.js', old: "  return (TITLE[locale] || TITLE.en) + ' ' + order.id;", new: "  const date = locale === 'de' ? new Date(order.date).toLocaleDateString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric' }) : order.date;\n  return (TITLE[locale] || TITLE.en) + ' ' + order.id + ' ' + date;" },
            { tool: 'Bash', command: "node -e \"console.log(require('./src/reports/invoice-pdf').header({ id: 7, date: '2026-12-06' }, 'de'))\"", description: 'Kopfzeile ausprobieren' },
            { text: 'Die Kopfzeile lautet jetzt "Rechnung 7 06.12.2026". Als Nächstes übersetze ich die Spaltenüberschriften der Positionstabelle in src/reports/invoice-pdf.js.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Wo waren wir?' },
  facts: [
    { id: 'objective: German invoices', in: ['objective'], pattern: 'Rechnung|Deutsch|invoice' },
    { id: 'next step: the column headings', in: ['next_valid_action'], pattern: 'Spalten|Positionstabelle|invoice-pdf' },
    { id: 'invoice-pdf.js modified', in: ['files'], pattern: 'modified: .*src/reports/invoice-pdf\\.js' },
  ],
  antiFacts: [
    { id: 'the follow-up as objective', in: ['objective'], pattern: '^"?und das datum' },
    { id: 'no next step captured', in: ['next_valid_action'], pattern: 'no next step|confirm the objective' },
  ],
};
