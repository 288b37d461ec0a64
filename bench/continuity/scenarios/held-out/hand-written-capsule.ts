import type { Scenario } from '../../scenario-types';

/**
 * In a worktree of its own, the session works (an autosave follows), then writes a capsule by
 * hand with its own id and created_at through `git capsule write file.md`: after /clear the
 * hand-written state wins over the older autosave.
 */
export const handWrittenCapsule: Scenario = {
  name: 'hand-written-capsule',
  covers: 'a hand-written capsule (own id and created_at, git capsule write file.md) in its own worktree wins over the older autosave',
  setup: [{ shell: 'git worktree add -q ../repo-docs -b docs/api-reference' }],
  sessions: [
    {
      name: 'docs',
      cwd: '../repo-docs',
      steps: [
        {
          prompt: 'Document GET /products in docs/api.md: query parameters and the response shape.',
          actions: [
            { tool: 'Read', path: 'docs/api.md' },
            { tool: 'Read', path: 'src/api/products.js' },
            { tool: 'Edit', path: 'docs/api.md', old: '## GET /orders\n', new: '## GET /products\n\nLists products: `[{ id, name }]`. No query parameters yet.\n\n## GET /orders\n' },
            { text: 'GET /products is documented in docs/api.md. Next I will document GET /orders in more detail.' },
          ],
        },
        {
          prompt: 'Maria wants to review before we go on. Write a capsule by hand so I can pick this up tomorrow: next is POST /login, not the orders.',
          actions: [
            {
              tool: 'Bash',
              description: 'Write and commit a capsule by hand',
              command: `cat > "$(git rev-parse --git-dir)/capsule-draft.md" <<CAPSULE
---
id: {{ulid:draft:0}}
objective: "Document every public endpoint of the API in docs/api.md"
waiting_on: "Maria's review of the GET /products section"
next_valid_action: "Document POST /login in docs/api.md: the request body and the 200, 401 and 429 answers"
status: active
trigger: manual
created_at: $(date -u +%Y-%m-%dT%H:%M:%S+00:00)
---

<!-- capsule:done -->
## Done [REFERENCE ONLY]
- documented GET /products
CAPSULE
node "$CAPSULE_CLI" write "$(git rev-parse --git-dir)/capsule-draft.md"`,
            },
            { text: 'The capsule is written; after a /clear or tomorrow it picks up at POST /login.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?', session: 'docs' },
  facts: [
    { id: 'the hand-written next step: POST /login', in: ['next_valid_action'], pattern: 'POST /login' },
    { id: "the hand-written waiting_on: Maria's review", in: ['waiting_on'], pattern: 'Maria' },
    { id: 'the hand-written objective', in: ['objective'], pattern: 'every public endpoint|docs/api\\.md' },
  ],
  antiFacts: [
    { id: "the autosave's superseded next step", in: ['next_valid_action'], pattern: 'GET /orders' },
    { id: 'no capsule resumed', in: 'anywhere', pattern: 'no-capsules|all-candidates-rejected' },
  ],
};
