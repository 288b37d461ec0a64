import type { Scenario } from '../../scenario-types';

/** A hand-written capsule with its own id and created_at, in a linked worktree, wins over the session's older autosave. */
export const handWrittenCapsuleWorktree: Scenario = {
  name: 'hand-written-capsule-worktree',
  covers: 'git capsule write file.md (own id and created_at) in a linked worktree: it wins over the older autosave after /clear',
  setup: [{ shell: 'git worktree add -q ../repo-perf -b perf/products-query' }],
  sessions: [
    {
      name: 'perf',
      cwd: '../repo-perf',
      steps: [
        {
          prompt: 'GET /products is slow with many products. Profile listProducts in src/api/products.js.',
          actions: [
            { tool: 'Read', path: 'src/api/products.js' },
            { tool: 'Bash', command: "node -e \"const t = Date.now(); for (let i = 0; i < 1e5; i++) require('./src/api/products').listProducts(); console.log(Date.now() - t + ' ms')\"", description: 'Time listProducts' },
            { text: 'listProducts itself is fast (the loop takes a few ms); the time must go into serialising. Next I will profile serializeOrder.' },
          ],
        },
        {
          prompt: "Stop there. Write the capsule yourself with git capsule write, with the real next step: measure JSON.stringify of the full list, and say we wait for the production product count from Lena.",
          actions: [
            {
              tool: 'Bash',
              description: 'Write the capsule and commit it',
              command: 'now=$(date -u +%Y-%m-%dT%H:%M:%S+00:00)\nprintf \'%s\\n\' "---" "id: {{ulid:perf:0}}" \'objective: "Find why GET /products is slow with many products"\' \'waiting_on: "Lena: the product count in production"\' \'next_valid_action: "Measure JSON.stringify of the full product list with 50,000 generated products"\' "status: active" "trigger: manual" "created_at: $now" "---" "" "<!-- capsule:done -->" "## Done [REFERENCE ONLY]" "- timed listProducts: fast on its own" > /tmp/perf-capsule-$$.md\nnode "$CAPSULE_CLI" write /tmp/perf-capsule-$$.md && rm /tmp/perf-capsule-$$.md',
            },
            { text: 'The capsule is committed; the next session starts with the JSON.stringify measurement.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?', session: 'perf' },
  facts: [
    { id: 'the hand-written next step', in: ['next_valid_action'], pattern: 'JSON\\.stringify' },
    { id: 'the hand-written waiting_on', in: ['waiting_on'], pattern: 'Lena' },
    { id: 'the hand-written objective', in: ['objective'], pattern: 'slow' },
  ],
  antiFacts: [
    { id: "the autosave's superseded next step", in: ['next_valid_action'], pattern: 'serializeOrder' },
    { id: 'no capsule resumed', in: 'anywhere', pattern: 'no-capsules|all-candidates-rejected' },
  ],
};
