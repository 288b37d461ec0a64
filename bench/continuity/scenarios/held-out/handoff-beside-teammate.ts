import type { Scenario } from '../../scenario-types';

// Alice's handoff to this repository's user, and Bob's unrelated work, on the memory branch
// before the session starts (written by their own identities; the document carries its own id).
const HANDOFF = `---
id: {{ulid:handoff:90}}
objective: "Finish the refund webhook in src/api/refunds.js: verify the X-Signature HMAC before a refund is processed"
waiting_on: "nothing; the secret is in REFUND_WEBHOOK_SECRET"
next_valid_action: "Add the HMAC check at the top of handleRefundWebhook in src/api/refunds.js and answer 401 on a mismatch"
status: active
trigger: handoff
handoff_to: harness@example.invalid
created_at: {{iso:90}}
---

<!-- capsule:done -->
## Done [REFERENCE ONLY]
- handleRefundWebhook parses the event and looks the order up
`;

/**
 * The user takes over a teammate's handoff on purpose (`git capsule resume --id` inside the
 * session) after an unrelated small task, while another teammate's capsule sits on the branch:
 * after /clear the handed-over task is the objective; neither the earlier task nor Bob's work is.
 */
export const handoffBesideTeammate: Scenario = {
  name: 'handoff-beside-teammate',
  covers: "a handoff resumed on purpose in the session, beside an unrelated teammate's capsule: the handed-over task continues",
  repo: {
    'src/api/refunds.js': "// POST /webhooks/refunds\nasync function handleRefundWebhook(req) {\n  const event = JSON.parse(req.body);\n  return { status: 200, orderId: event.orderId };\n}\nmodule.exports = { handleRefundWebhook };\n",
  },
  setup: [
    {
      shell: 'node "$CAPSULE_CLI" write --objective "Upgrade the PDF invoice renderer to pdfkit 0.15" --waiting-on "nothing" --next "Replace renderInvoice in src/invoices/pdf.js with the pdfkit 0.15 API"',
      env: { GIT_COMMITTER_EMAIL: 'bob@example.com', GIT_COMMITTER_NAME: 'Bob' },
    },
    {
      shell: `f="$(git rev-parse --git-dir)/alice-handoff.md" && cat > "$f" <<'CAPSULE'\n${HANDOFF}CAPSULE\nnode "$CAPSULE_CLI" write "$f" && rm "$f"`,
      env: { GIT_COMMITTER_EMAIL: 'alice@example.com', GIT_COMMITTER_NAME: 'Alice' },
    },
  ],
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Quick one first: the README install section says "npm instal". Fix it.',
          actions: [
            { tool: 'Edit', path: 'README.md', old: 'npm instal\n', new: 'npm install\n' },
            { text: 'Fixed: README.md says npm install now.' },
          ],
        },
        {
          prompt: 'Alice handed me the refund webhook before her holiday, capsule {{ulid:handoff:90}}. Load it and carry on with it.',
          actions: [
            { tool: 'Bash', command: 'node "$CAPSULE_CLI" resume --id {{ulid:handoff:90}}', description: "Load Alice's handoff capsule" },
            { tool: 'Read', path: 'src/api/refunds.js' },
            { tool: 'Write', path: 'src/api/refunds.js', content: "const { createHmac, timingSafeEqual } = require('node:crypto');\n// POST /webhooks/refunds, signed with REFUND_WEBHOOK_SECRET.\nasync function handleRefundWebhook(req) {\n  const expected = createHmac('sha256', process.env.REFUND_WEBHOOK_SECRET || '').update(req.body).digest('hex');\n  const given = String(req.headers['x-signature'] || '');\n  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) return { status: 401 };\n  const event = JSON.parse(req.body);\n  return { status: 200, orderId: event.orderId };\n}\nmodule.exports = { handleRefundWebhook };\n" },
            { tool: 'Bash', command: 'npm test', description: 'Run the test suite' },
            { text: "I picked up Alice's handoff: handleRefundWebhook now checks the X-Signature HMAC and answers 401 on a mismatch. Next I will reject a replayed webhook (an event id seen before) in src/api/refunds.js." },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the refund webhook', in: ['objective'], pattern: 'refund' },
    { id: 'next step: reject replayed webhooks', in: ['next_valid_action'], pattern: 'replay|event id' },
    { id: 'refunds.js modified', in: ['files'], pattern: 'modified: .*src/api/refunds\\.js' },
    { id: 'the HMAC check done', in: ['done', 'facts'], pattern: 'HMAC|signature|401' },
  ],
  antiFacts: [
    { id: "Bob's unrelated capsule in the current state", in: ['objective', 'waiting_on', 'next_valid_action', 'done', 'errors', 'files', 'facts', 'claimed', 'rejected'], pattern: 'PDF|pdfkit|renderInvoice|invoices/pdf' },
    { id: 'the earlier, finished README task as objective', in: ['objective', 'next_valid_action'], pattern: 'README|instal' },
    { id: "the handoff's own done step as next step", in: ['next_valid_action'], pattern: 'HMAC check at the top' },
  ],
};
