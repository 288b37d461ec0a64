import type { Scenario } from '../../scenario-types';

/** The canonical closing line "Next step: …" (a colon right after "step"). */
export const nextStepColon: Scenario = {
  name: 'next-step-colon',
  covers: 'a final message ending "Next step: …" (colon, no space before it): that is the next step',
  live: true,
  repo: { 'scripts/backup.sh': '#!/bin/sh\n# Nightly database backup.\npg_dump shop > /backups/shop-$(date +%F).sql\naws s3 cp /backups/shop-$(date +%F).sql s3://shop-backups-old/\n' },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'We are moving backups to the new bucket s3://shop-backups-2027. Update scripts/backup.sh.',
          actions: [
            { tool: 'Read', path: 'scripts/backup.sh' },
            { tool: 'Edit', path: 'scripts/backup.sh', old: 's3://shop-backups-old/', new: 's3://shop-backups-2027/' },
            { tool: 'Bash', command: 'sh -n scripts/backup.sh && echo syntax ok', description: 'Check the script parses' },
            { text: 'scripts/backup.sh uploads to s3://shop-backups-2027/ now and parses cleanly.\n\nNext step: remove the old bucket from the restore instructions in docs/ops/restore.md.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: backups to the new bucket', in: ['objective'], pattern: 'backup|bucket' },
    { id: 'next step: docs/ops/restore.md', in: ['next_valid_action'], pattern: 'restore\\.md|restore instructions' },
    { id: 'backup.sh modified', in: ['files'], pattern: 'modified: .*scripts/backup\\.sh' },
  ],
  antiFacts: [
    { id: 'no next step captured', in: ['next_valid_action'], pattern: 'no next step|confirm the objective' },
    { id: 'the done edit as next step', in: ['next_valid_action'], pattern: 'update scripts/backup\\.sh' },
  ],
};
