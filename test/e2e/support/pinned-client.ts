import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A real client the end-to-end suites drive, pinned to one version and installed from the npm
 * registry into a folder of its own under the repository (ignored by git): a test-only install,
 * never a runtime dependency. `binEnv` names the variable that points at another binary instead.
 */
export interface PinnedClient {
  /** The npm package (`@openai/codex`). */
  pkg: string;
  version: string;
  /** The install prefix (`<repo>/.e2e-codex`). */
  prefix: string;
  /** The binary to run, relative to the prefix. */
  bin: string;
  binEnv: string;
  /** What the error tells the reader to point `binEnv` at (`a codex 0.169.0 launcher`). */
  binWhat: string;
  timeoutMs: number;
}

const npmArgs = (c: PinnedClient) => ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', c.prefix, `${c.pkg}@${c.version}`];

function installedVersion(c: PinnedClient): string | null {
  try {
    return JSON.parse(readFileSync(join(c.prefix, 'node_modules', ...c.pkg.split('/'), 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

const needsInstall = (c: PinnedClient) => !process.env[c.binEnv] && (!existsSync(join(c.prefix, c.bin)) || installedVersion(c) !== c.version);

function installFailed(c: PinnedClient, why: string): Error {
  return new Error(`the real client cannot run: installing ${c.pkg}@${c.version} into ${c.prefix.split('/').pop()} failed (${why}); set ${c.binEnv} to ${c.binWhat}`);
}

/** npm's reason from its stderr: its last `npm error` line that is not the pointer to its log. */
function lastLine(text: string): string | undefined {
  const lines = text.trim().split('\n').filter((l) => l.trim() !== '' && !/A complete log of this run/.test(l));
  return lines.filter((l) => l.startsWith('npm error')).pop() ?? lines.pop();
}

/** The client's binary: `binEnv` when set, else the pinned install (made now when missing or of another version). */
export function ensurePinnedClient(c: PinnedClient): string {
  const override = process.env[c.binEnv];
  if (override) {
    if (!existsSync(override)) throw new Error(`the real client cannot run: ${c.binEnv}=${override} does not exist`);
    return override;
  }
  const bin = join(c.prefix, c.bin);
  if (needsInstall(c)) {
    const r = spawnSync('npm', npmArgs(c), { encoding: 'utf8', timeout: c.timeoutMs });
    if (r.status !== 0 || !existsSync(bin)) throw installFailed(c, r.error?.message ?? lastLine(r.stderr ?? '') ?? `exit ${r.status}`);
  }
  return bin;
}

/**
 * Installs every client that needs it at once (the e2e lane's global setup): three npm installs
 * side by side took 27 s here where one after the other took 57 s, the downloads and unpacking
 * overlapping. Each is then checked as `ensurePinnedClient` checks it.
 */
export async function installPinnedClients(clients: PinnedClient[]): Promise<void> {
  await Promise.all(clients.filter(needsInstall).map((c) => new Promise<void>((resolve, reject) => {
    const child = spawn('npm', npmArgs(c), { stdio: ['ignore', 'ignore', 'pipe'], timeout: c.timeoutMs });
    let stderr = '';
    child.stderr!.on('data', (b: Buffer) => (stderr += String(b)));
    child.on('error', (err) => reject(installFailed(c, err.message)));
    child.on('close', (code, signal) => (code === 0 ? resolve() : reject(installFailed(c, lastLine(stderr) ?? (signal ? `killed by ${signal}` : `exit ${code}`)))));
  })));
  for (const c of clients) ensurePinnedClient(c);
}
