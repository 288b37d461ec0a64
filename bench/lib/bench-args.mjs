// The command line of a bench script: node's parseArgs, with `--help` printing the script's own
// header comment (its usage lives there), and a bad option said in one line above that usage
// (exit 2) instead of a stack trace.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** parseArgs(config) for the script at `scriptUrl` (its import.meta.url). */
export function benchArgs(scriptUrl, config) {
  const usage = () => headerComment(fileURLToPath(scriptUrl));
  const args = config.args ?? process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(usage());
    process.exit(0);
  }
  try {
    return parseArgs({ ...config, args });
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n\n${usage()}`);
    process.exit(2);
  }
}

/** The `//` lines a script starts with (after a shebang), without the slashes. */
function headerComment(path) {
  const lines = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith('#!')) continue;
    if (!line.startsWith('//')) break;
    lines.push(line.replace(/^\/\/ ?/, ''));
  }
  return `${lines.join('\n')}\n`;
}
