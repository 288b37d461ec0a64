import type { Scenario } from '../../scenario-types';

/** The issue's own example: a final message "Next step: wire the streaming writer into …". */
export const nextStepColonStreaming: Scenario = {
  name: 'next-step-colon-streaming',
  covers: 'a final message "Next step: wire the streaming writer into …" (colon right after step): the next step',
  live: true,
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Exports of large reports load everything into memory. Write a streaming CSV writer in src/cli/stream-writer.ts.',
          actions: [
            { tool: 'Write', path: 'src/cli/stream-writer.ts', content: "import { createWriteStream } from 'node:fs';\n// Writes CSV rows as they come.\nexport function streamWriter(file: string) {\n  const out = createWriteStream(file);\n  return { row: (cells: string[]) => out.write(cells.join(',') + '\\n'), end: () => new Promise((r) => out.end(r)) };\n}\n" },
            { tool: 'Bash', command: 'node -e "console.log(1)"', description: 'Sanity check node' },
            { text: 'src/cli/stream-writer.ts writes rows as they come and never holds the whole file.\n\nNext step: wire the streaming writer into src/cli/export-command.ts and remove the buffered path.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: streaming exports', in: ['objective'], pattern: 'stream|export' },
    { id: 'next step: export-command.ts', in: ['next_valid_action'], pattern: 'export-command\\.ts' },
    { id: 'stream-writer.ts modified', in: ['files'], pattern: 'modified: .*src/cli/stream-writer\\.ts' },
  ],
  antiFacts: [{ id: 'no next step captured', in: ['next_valid_action'], pattern: 'no next step|confirm the objective' }],
};
