import { VERBS } from './verbs';

export { VERSION } from '../launch/version';

/** The top-level help: every verb with its one-line summary. */
export async function renderHelp(): Promise<string> {
  const lines = ['usage: git capsule <verb> [options]   (also: git-capsule <verb>)', '', 'verbs:'];
  for (const name of Object.keys(VERBS).sort()) {
    const verb = await VERBS[name]!();
    lines.push(`  ${name.padEnd(12)} ${verb.summary}`);
  }
  lines.push(
    '',
    "Run 'git capsule help <verb>' or 'git capsule <verb> -h' for a verb's options; 'man git-capsule' for all of them.",
    'Exit codes: 0 ok, 1 failure, 2 usage.',
  );
  return lines.join('\n') + '\n';
}
