import type { Scenario } from '../../scenario-types';

/** The example: the final message ends "next I rotate deploy.sh". */
export const nextIRotate: Scenario = {
  name: 'next-i-rotate',
  covers: 'a final message ending "next I rotate deploy.sh": that is the next step',
  live: true,
  repo: { 'deploy.sh': '#!/bin/sh\n# Deploy with the release key.\nKEY=keys/release-2025.pem\nrsync -e "ssh -i $KEY" -r dist/ deploy@web:/srv/shop\n', 'keys/README.md': 'Release keys live here (never committed).\n' },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'The 2025 release key expires this month. Generate the 2026 key pair under keys/ and tell me where the old one is still used.',
          actions: [
            { tool: 'Bash', command: 'grep -rn "release-2025" . --include=*.sh', description: 'Find uses of the old key' },
            { tool: 'Bash', command: 'ssh-keygen -q -t ed25519 -N "" -C release-2026 -f keys/release-2026.pem && ls keys', description: 'Generate the 2026 key pair' },
            { text: 'keys/release-2026.pem and .pub exist. The old key is only used in deploy.sh (KEY=keys/release-2025.pem); next I rotate deploy.sh' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the 2026 release key', in: ['objective'], pattern: 'key|2026|release' },
    { id: 'next step: rotate deploy.sh', in: ['next_valid_action'], pattern: 'rotate|deploy\\.sh' },
  ],
  antiFacts: [{ id: 'no next step captured', in: ['next_valid_action'], pattern: 'no next step|confirm the objective' }],
};
