import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCapsuleError } from '../errors/capsule-error';
import { HOOK_EVENTS } from '../hosts/claude/hook-events';
import type { HookEventName } from '../hosts/host';
import { runGitSync } from '../git/git-sync';
import { openStore } from '../store/open-store';
import { isStaleLock, STALE_REF_LOCK_MS } from '../git/stale-ref-lock';
import { locateRuntime } from '../local-state/runtime-dir';
import { projectRoot, readSettings, settingsPath, wiredEvents, type ClaudeSettings } from '../hosts/claude/settings-file';

/** One doctor finding: what was checked, the verdict, what was seen, and how to fix it. */
export interface DoctorCheck {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

const MIN_GIT: [number, number] = [2, 30];
const MIN_NODE = 20;

/** Runs every check for the project at `cwd`; never throws. */
export async function runDoctorChecks(cwd: string, env: NodeJS.ProcessEnv, now: Date): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [checkNode(), checkGit(cwd, env)];
  const location = locateRuntime(cwd, env);
  if (location.commonDir === null) {
    checks.push({ name: 'repository', status: 'fail', detail: `${cwd} is not inside a git repository`, fix: 'run git capsule from inside the project (or `git init` it)' });
    return checks;
  }
  checks.push({ name: 'repository', status: 'ok', detail: `git dir ${location.commonDir}` });
  const git = checks.find((c) => c.name === 'git');
  checks.push(
    git?.status === 'fail' ? { name: 'memory ref', status: 'fail', detail: 'not checked: git is missing', fix: git.fix } : await checkMemoryRef(cwd, env),
    checkHooks(cwd, env),
    checkRefLocks(location.commonDir, now),
    checkErrors(location.runtimeDir, now),
  );
  return checks;
}

function checkNode(): DoctorCheck {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= MIN_NODE
    ? { name: 'node', status: 'ok', detail: `node ${process.versions.node}` }
    : { name: 'node', status: 'fail', detail: `node ${process.versions.node} is older than ${MIN_NODE}`, fix: `install Node ${MIN_NODE} or later` };
}

function checkGit(cwd: string, env: NodeJS.ProcessEnv): DoctorCheck {
  let r: { stdout: string };
  try {
    r = runGitSync(['--version'], { cwd, env, timeoutMs: 2000 });
  } catch {
    return { name: 'git', status: 'fail', detail: 'git is not on PATH', fix: `install git ${MIN_GIT.join('.')} or later and put it on PATH` };
  }
  const m = /(\d+)\.(\d+)/.exec(r.stdout);
  const old = m !== null && (Number(m[1]) < MIN_GIT[0] || (Number(m[1]) === MIN_GIT[0] && Number(m[2]) < MIN_GIT[1]));
  return old
    ? { name: 'git', status: 'fail', detail: r.stdout.trim(), fix: `upgrade git to ${MIN_GIT.join('.')} or later` }
    : { name: 'git', status: 'ok', detail: r.stdout.trim() };
}

/** The memory ref as the store resolves it (the one resolver: `capsule.ref` or the default). */
async function checkMemoryRef(cwd: string, env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  let store;
  try {
    store = await openStore({ cwd, env });
  } catch (err) {
    const code = isCapsuleError(err) ? err.code : 'INTERNAL';
    const message = err instanceof Error ? err.message : String(err);
    return { name: 'memory ref', status: 'fail', detail: `[${code}] ${message}`, fix: code === 'MEMORY_ROOT' ? 'fix or unset `git config capsule.ref` (it must name a ref under refs/)' : 'see the message' };
  }
  try {
    const tip = await store.tip();
    return tip
      ? { name: 'memory ref', status: 'ok', detail: `${store.ref} at ${tip.slice(0, 12)}` }
      : { name: 'memory ref', status: 'warn', detail: `${store.ref} does not exist yet`, fix: 'nothing to do: the first autosave creates it (or run `git capsule init`)' };
  } catch (err) {
    const code = isCapsuleError(err) ? err.code : 'INTERNAL';
    return { name: 'memory ref', status: 'fail', detail: `[${code}] ${err instanceof Error ? err.message : String(err)}`, fix: 'inspect it with `git log <ref>`; `git capsule reindex` rebuilds the index' };
  } finally {
    await store.close();
  }
}

function checkHooks(cwd: string, env: NodeJS.ProcessEnv): DoctorCheck {
  const sources: Array<{ label: string; settings: ClaudeSettings | null }> = [
    { label: 'project', settings: safeRead(settingsPath({ user: false, projectDir: projectRoot(cwd), home: env.HOME })) },
    { label: 'project local', settings: safeRead(join(projectRoot(cwd), '.claude', 'settings.local.json')) },
    { label: 'user', settings: env.HOME ? safeRead(settingsPath({ user: true, projectDir: cwd, home: env.HOME })) : null },
  ];
  const plugin = sources.some((s) => Object.entries((s.settings?.enabledPlugins as Record<string, unknown>) ?? {}).some(([k, v]) => k.startsWith('capsule@') && v === true));
  const wired = new Map<string, HookEventName[]>();
  for (const s of sources) if (s.settings) wired.set(s.label, wiredEvents(s.settings));
  const all = Object.keys(HOOK_EVENTS) as HookEventName[];
  const union = new Set([...wired.values()].flat());
  const where = [...wired.entries()].filter(([, e]) => e.length > 0).map(([label]) => label);
  if (plugin && union.size > 0) {
    return { name: 'hooks', status: 'warn', detail: `the capsule plugin is enabled and settings hooks are installed (${where.join(', ')}): every hook runs twice`, fix: 'run `git capsule uninstall` (and with --user) or disable the plugin' };
  }
  if (plugin) return { name: 'hooks', status: 'ok', detail: 'the capsule plugin is enabled' };
  if (union.size === 0) {
    return { name: 'hooks', status: 'warn', detail: 'no git-capsule hooks are wired for this project', fix: 'run `git capsule install` (or `--user`), or install the plugin (`git capsule install --plugin` prints how)' };
  }
  const missing = all.filter((e) => !union.has(e));
  const broken = brokenCommands(sources);
  if (broken.length > 0) return { name: 'hooks', status: 'fail', detail: `hook bundles missing: ${broken.join(', ')}`, fix: 'run `git capsule install` again from the current install' };
  return missing.length === 0
    ? { name: 'hooks', status: 'ok', detail: `all five hooks wired (${where.join(', ')} settings)` }
    : { name: 'hooks', status: 'warn', detail: `not wired: ${missing.join(', ')}`, fix: 'run `git capsule install`' };
}

function brokenCommands(sources: Array<{ settings: ClaudeSettings | null }>): string[] {
  const broken: string[] = [];
  for (const s of sources) {
    for (const groups of Object.values(s.settings?.hooks ?? {})) {
      for (const g of Array.isArray(groups) ? groups : []) {
        for (const h of g.hooks ?? []) {
          const file = typeof h.command === 'string' && h.command.endsWith('--capsule-hook') ? /^node "([^"]+)"/.exec(h.command)?.[1] : undefined;
          if (file && !existsSync(file)) broken.push(file);
        }
      }
    }
  }
  return broken;
}

/**
 * Ref locks older than STALE_REF_LOCK_MS: git holds one for milliseconds, so an old one was left
 * by a git that was killed (a hook timed out, a SIGKILL), and git refuses to move that ref until
 * it is gone. git-capsule's own writes and syncs remove the ones on their refs; others stay.
 */
function checkRefLocks(commonDir: string, now: Date): DoctorCheck {
  const candidates = [join(commonDir, 'packed-refs.lock'), ...listFiles(join(commonDir, 'refs')).filter((p) => p.endsWith('.lock'))];
  const stale = candidates.filter((path) => isStaleLock(path, now.getTime()));
  if (stale.length === 0) return { name: 'ref locks', status: 'ok', detail: 'no stale ref locks' };
  return {
    name: 'ref locks',
    status: 'warn',
    detail: `${stale.length} ref lock(s) older than ${STALE_REF_LOCK_MS / 1000} s, left by a git that was killed: ${stale.slice(0, 5).join(', ')}`,
    fix: 'git-capsule removes those on its own refs at its next write or sync; for the others, make sure no git is running in this repository, then delete the file',
  };
}

/** Every entry below `dir`, as paths; none when it cannot be read. */
function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((rel) => join(dir, rel));
  } catch {
    return [];
  }
}

function checkErrors(runtimeDir: string | null, now: Date): DoctorCheck {
  const lines = runtimeDir ? safeLines(join(runtimeDir, 'errors.log')) : [];
  const recent = lines.filter((l) => {
    const at = Date.parse(l.split(' ')[1] ?? '');
    return Number.isFinite(at) && now.getTime() - at < 24 * 3600 * 1000;
  });
  if (recent.length === 0) return { name: 'errors', status: 'ok', detail: lines.length === 0 ? 'no logged hook errors' : `no hook errors in the last 24 h (${lines.length} older)` };
  const last = recent.slice(-3).map((l) => l.slice(0, 200));
  return { name: 'errors', status: 'warn', detail: `${recent.length} hook error(s) in the last 24 h; latest: ${last.join(' | ')}`, fix: `read ${join(runtimeDir!, 'errors.log')}; each line starts with its code` };
}

function safeRead(path: string): ClaudeSettings | null {
  try {
    return existsSync(path) ? readSettings(path) : null;
  } catch {
    return null;
  }
}

function safeLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}
