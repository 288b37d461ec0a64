import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The project's HEAD commit and branch, read from the git files (HEAD, the loose ref, then
 * packed-refs) instead of spawning git, which the Stop hook would pay on every turn. Unknown
 * parts are left out: a detached HEAD has no branch, a reftable repository yields nothing.
 */
export function readRepoHead(gitDir: string, commonDir: string): { head?: string; branch?: string } {
  const text = readText(join(gitDir, 'HEAD'));
  if (text === null) return {};
  const symbolic = /^ref:\s*(\S+)/.exec(text);
  if (!symbolic) return /^[0-9a-f]{40,64}$/.test(text) ? { head: text } : {};
  const ref = symbolic[1]!;
  const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
  const loose = readText(join(commonDir, ref)) ?? readText(join(gitDir, ref));
  const head = loose !== null && /^[0-9a-f]{40,64}$/.test(loose) ? loose : packedRef(commonDir, ref);
  return { ...(head ? { head } : {}), ...(branch ? { branch } : {}) };
}

function packedRef(commonDir: string, ref: string): string | undefined {
  const packed = readText(join(commonDir, 'packed-refs'));
  if (packed === null) return undefined;
  for (const line of packed.split('\n')) {
    const [sha, name] = line.split(' ');
    if (name === ref && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
  }
  return undefined;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}
