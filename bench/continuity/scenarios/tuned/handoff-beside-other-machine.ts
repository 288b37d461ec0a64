import type { Scenario } from '../../scenario-types';

const HANDOFF = `---
id: {{ulid:dave:150}}
objective: "Make the stock sync in src/stock/sync.js resumable: remember the last synced SKU and start from it after a crash"
waiting_on: "nothing"
next_valid_action: "Store the last synced SKU in .stock-sync-state.json after every batch in src/stock/sync.js"
status: active
trigger: handoff
handoff_to: harness@example.invalid
created_at: {{iso:150}}
---

<!-- capsule:done -->
## Done [REFERENCE ONLY]
- split the sync into batches of 100 SKUs
`;

/**
 * A teammate's capsule from another clone (another machine) is already on the memory branch;
 * the user takes a colleague's handoff on purpose inside the session and works on it: after
 * /clear the handoff's task goes on, and nothing of the other machine's capsule appears.
 */
export const handoffBesideOtherMachine: Scenario = {
  name: 'handoff-beside-other-machine',
  covers: "a handoff taken on purpose (resume --id in the session) beside another machine's teammate capsule, then /clear",
  repo: { 'src/stock/sync.js': "// Syncs stock levels from the warehouse, 100 SKUs per batch.\nasync function syncStock(fetchBatch, save) {\n  for (let from = 0; ; from += 100) {\n    const batch = await fetchBatch(from);\n    if (batch.length === 0) return;\n    await save(batch);\n  }\n}\nmodule.exports = { syncStock };\n" },
  setup: [
    {
      shell: 'git clone -q . ../carol-clone && cd ../carol-clone && node "$CAPSULE_CLI" write --objective "Move the search index to OpenSearch 2" --waiting-on "the ops ticket for the new cluster" --next "Rewrite src/search/indexer.js against the OpenSearch 2 bulk API"',
      env: { GIT_COMMITTER_EMAIL: 'carol@example.com', GIT_COMMITTER_NAME: 'Carol' },
    },
    { shell: 'git fetch -q ../carol-clone refs/heads/capsules:refs/heads/capsules' },
    {
      shell: `f="$(git rev-parse --git-dir)/dave-handoff.md" && cat > "$f" <<'CAPSULE'\n${HANDOFF}CAPSULE\nnode "$CAPSULE_CLI" write "$f" && rm "$f"`,
      env: { GIT_COMMITTER_EMAIL: 'dave@example.com', GIT_COMMITTER_NAME: 'Dave' },
    },
  ],
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'What does npm run lint check in this project?',
          actions: [
            { tool: 'Read', path: 'scripts/lint.js' },
            { text: 'scripts/lint.js only flags variables marked "// unused" that are assigned and never used (no-unused-vars); nothing else.' },
          ],
        },
        {
          prompt: 'OK. Dave handed me the stock sync work, his capsule is {{ulid:dave:150}}. Load it and continue where he stopped.',
          actions: [
            { tool: 'Bash', command: 'node "$CAPSULE_CLI" resume --id {{ulid:dave:150}}', description: "Load Dave's handoff" },
            { tool: 'Read', path: 'src/stock/sync.js' },
            { tool: 'Write', path: 'src/stock/sync.js', content: "const { existsSync, readFileSync, writeFileSync } = require('node:fs');\nconst STATE = '.stock-sync-state.json';\n// Syncs stock levels from the warehouse, 100 SKUs per batch, resumable after a crash.\nasync function syncStock(fetchBatch, save) {\n  let from = existsSync(STATE) ? JSON.parse(readFileSync(STATE, 'utf8')).from : 0;\n  for (; ; from += 100) {\n    const batch = await fetchBatch(from);\n    if (batch.length === 0) return;\n    await save(batch);\n    writeFileSync(STATE, JSON.stringify({ from: from + 100 }));\n  }\n}\nmodule.exports = { syncStock };\n" },
            { text: "Dave's sync now records its position in .stock-sync-state.json after each batch and starts from there. Next I will delete the state file when a sync completes, so the next run starts from zero." },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the resumable stock sync', in: ['objective'], pattern: 'stock|sync' },
    { id: 'next step: delete the state file when done', in: ['next_valid_action'], pattern: 'delete|state file|completes' },
    { id: 'sync.js modified', in: ['files'], pattern: 'modified: .*src/stock/sync\\.js' },
  ],
  antiFacts: [
    { id: "the other machine's teammate capsule in the current state", in: ['objective', 'waiting_on', 'next_valid_action', 'done', 'errors', 'files', 'facts', 'claimed', 'rejected'], pattern: 'OpenSearch|indexer\\.js|search index' },
    { id: 'the lint question as objective', in: ['objective'], pattern: 'lint' },
  ],
};
