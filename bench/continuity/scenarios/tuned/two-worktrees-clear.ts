import type { Scenario } from '../../scenario-types';

/** Two worktrees, a session in each, both cleared at the same moment; the probe is the second worktree's session. */
export const twoWorktreesClear: Scenario = {
  name: 'two-worktrees-clear',
  covers: "two worktrees clearing at once (the probed one a linked worktree): each resume gets its own worktree's work",
  repo: { 'src/mail/templates.js': "// E-mail subjects.\nmodule.exports = { welcome: 'Welcome!', reset: 'Reset your password' };\n" },
  setup: [{ shell: 'git worktree add -q ../repo-mail -b feature/mail-i18n' }],
  sessions: [
    {
      name: 'main-tree',
      steps: [
        {
          prompt: 'Add a health check endpoint GET /healthz in src/api/health.js that answers 200 with the git commit.',
          actions: [
            { tool: 'Write', path: 'src/api/health.js', content: "// GET /healthz\nfunction healthz() {\n  return { status: 200, body: { commit: process.env.GIT_COMMIT || 'unknown' } };\n}\nmodule.exports = { healthz };\n" },
            { text: 'GET /healthz answers 200 with the commit. Next I will register it in src/server.js.' },
          ],
        },
      ],
    },
    {
      name: 'mail-tree',
      cwd: '../repo-mail',
      steps: [
        {
          prompt: 'Translate the e-mail subjects in src/mail/templates.js to German and French, keyed by locale.',
          actions: [
            { tool: 'Read', path: 'src/mail/templates.js' },
            { tool: 'Write', path: 'src/mail/templates.js', content: "// E-mail subjects by locale.\nmodule.exports = {\n  en: { welcome: 'Welcome!', reset: 'Reset your password' },\n  de: { welcome: 'Willkommen!', reset: 'Passwort zur\\u00fccksetzen' },\n  fr: { welcome: 'Bienvenue !', reset: 'R\\u00e9initialisez votre mot de passe' },\n};\n" },
            { text: 'The subjects exist in en, de and fr. Next I will make sendMail in src/mail/send.js pick the subject by the user locale.' },
          ],
        },
      ],
    },
  ],
  order: ['main-tree', 'mail-tree'],
  probe: { resets: ['clear'], prompt: 'Where were we?', session: 'mail-tree', alsoReset: ['main-tree'] },
  facts: [
    { id: 'objective: translated subjects', in: ['objective'], pattern: 'subject|German|French|translat' },
    { id: 'next step: sendMail picks by locale', in: ['next_valid_action'], pattern: 'send\\.js|sendMail|locale' },
    { id: 'templates.js modified', in: ['files'], pattern: 'modified: .*src/mail/templates\\.js' },
  ],
  antiFacts: [
    { id: "the other worktree's health check in this state", in: ['objective', 'waiting_on', 'next_valid_action', 'done', 'errors', 'files', 'facts', 'claimed', 'rejected'], pattern: 'healthz|health\\.js|server\\.js' },
  ],
};
