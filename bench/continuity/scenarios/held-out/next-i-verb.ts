import type { Scenario } from '../../scenario-types';

/** A casual closing "next I <verb> …" without "will" or a colon. */
export const nextIVerb: Scenario = {
  name: 'next-i-verb',
  covers: 'a final message ending "next I rotate …" (lower case, no will): that is the next step',
  live: true,
  repo: { 'scripts/deploy.sh': '#!/bin/sh\n# Deploys the API.\nDEPLOY_TOKEN_FILE=/etc/shop/deploy-token-2025\nscp -r dist/ deploy@api.internal:/srv/shop\n' },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'The deploy token file path in scripts/deploy.sh is hard-coded; read it from DEPLOY_TOKEN_FILE in the environment, with the current path as the default.',
          actions: [
            { tool: 'Read', path: 'scripts/deploy.sh' },
            { tool: 'Edit', path: 'scripts/deploy.sh', old: 'DEPLOY_TOKEN_FILE=/etc/shop/deploy-token-2025', new: 'DEPLOY_TOKEN_FILE=${DEPLOY_TOKEN_FILE:-/etc/shop/deploy-token-2025}' },
            { tool: 'Bash', command: 'sh -n scripts/deploy.sh && echo syntax ok', description: 'Check the script parses' },
            { text: 'deploy.sh takes DEPLOY_TOKEN_FILE from the environment now and falls back to /etc/shop/deploy-token-2025. next I rotate the 2025 token and point the default at the new file' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the token path from the environment', in: ['objective'], pattern: 'DEPLOY_TOKEN_FILE|token|deploy\\.sh' },
    { id: 'next step: rotate the token', in: ['next_valid_action'], pattern: 'rotate' },
    { id: 'deploy.sh modified', in: ['files'], pattern: 'modified: .*scripts/deploy\\.sh' },
  ],
  antiFacts: [{ id: 'no next step captured', in: ['next_valid_action'], pattern: 'no next step|confirm the objective' }],
};
