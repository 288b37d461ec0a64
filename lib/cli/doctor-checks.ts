import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCapsuleError } from '../errors/capsule-error';
import { createGitRunner } from '../git/git-runner';
import { runGitSync } from '../git/git-sync';
import { openStore } from '../store/open-store';
import { remoteMemoryStates } from '../sync/remote-memory';
import { isStaleLock, STALE_REF_LOCK_MS } from '../git/stale-ref-lock';
import { locateRuntime } from '../local-state/runtime-dir';
import { projectRoot } from '../hosts/claude/settings-file';
import { checkHookRoutes } from './doctor-routes';
import { checkCopilotRoute } from './doctor-copilot';
import { checkGitHooks } from './doctor-git-hooks';

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
  const gitCheck = checks.find((c) => c.name === 'git');
  const projectDir = projectRoot(cwd);
  const routes = checkHookRoutes({ projectDir, env, runtimeDir: location.runtimeDir, now });
  checks.push(...routes);
  const copilot = checkCopilotRoute({ projectDir, env });
  if (copilot !== null) checks.push(copilot);
  const hooksRun = routes[0]?.status === 'ok' || copilot?.status === 'ok';
  if (gitCheck?.status === 'fail') {
    checks.push({ name: 'memory ref', status: 'fail', detail: 'not checked: git is missing', fix: gitCheck.fix });
  } else {
    const memory = await checkMemoryRef(cwd, env, hooksRun);
    const git = createGitRunner({ cwd: projectDir, env });
    checks.push(memory.check, ...(memory.ref === null ? [] : await checkRemoteMemory(git, memory.ref)), await checkIndexCoverage(cwd, env), await safely('git hooks', () => checkGitHooks(git, projectDir)));
  }
  checks.push(checkRefLocks(location.commonDir, now), checkErrors(location.runtimeDir, now));
  return checks;
}

/** Each remote's memory ref that this clone has not fetched: capsules a teammate pushed. */
async function checkRemoteMemory(git: ReturnType<typeof createGitRunner>, ref: string): Promise<DoctorCheck[]> {
  let states;
  try {
    states = await remoteMemoryStates(git, ref, 5000);
  } catch (err) {
    return [{ name: 'remotes', status: 'warn', detail: `could not list the remotes: ${err instanceof Error ? err.message : String(err)}` }];
  }
  if (states.length === 0) return [{ name: 'remotes', status: 'ok', detail: 'no remote: capsules stay on this machine' }];
  return states.map((s): DoctorCheck => {
    const name = `remote ${s.remote}`;
    if (s.state === 'unfetched') return { name, status: 'warn', detail: `${s.remote} has ${s.ref} at ${s.tip!.slice(0, 12)}, which this clone has not fetched: capsules written elsewhere are not here`, fix: `git capsule sync ${s.remote}` };
    if (s.state === 'fetched') return { name, status: 'ok', detail: `${s.remote}'s ${s.ref} (${s.tip!.slice(0, 12)}) is fetched here` };
    if (s.state === 'absent') return { name, status: 'ok', detail: `${s.remote} holds no memory ref yet (git capsule sync ${s.remote} publishes it)` };
    return { name, status: 'warn', detail: `could not ask ${s.remote} for the memory ref: ${s.reason}`, fix: 'check the network and credentials (does git ls-remote work?); this check only reads' };
  });
}

async function safely(name: string, check: () => Promise<DoctorCheck>): Promise<DoctorCheck> {
  try {
    return await check();
  } catch (err) {
    return { name, status: 'warn', detail: `not checked: ${err instanceof Error ? err.message : String(err)}` };
  }
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

/** The memory ref as the store resolves it (the one resolver: `capsule.ref` or the default), and its tip. */
async function checkMemoryRef(cwd: string, env: NodeJS.ProcessEnv, hooksRun: boolean): Promise<{ check: DoctorCheck; ref: string | null; tip: string | null }> {
  let store;
  try {
    store = await openStore({ cwd, env });
  } catch (err) {
    const code = isCapsuleError(err) ? err.code : 'INTERNAL';
    const message = err instanceof Error ? err.message : String(err);
    const fix = code === 'MEMORY_ROOT' ? 'fix or unset `git config capsule.ref` (it must name a ref under refs/)' : 'see the message';
    return { check: { name: 'memory ref', status: 'fail', detail: `[${code}] ${message}`, fix }, ref: null, tip: null };
  }
  try {
    const tip = await store.tip();
    const check: DoctorCheck = tip
      ? { name: 'memory ref', status: 'ok', detail: `${store.ref} at ${tip.slice(0, 12)}` }
      : hooksRun
        ? { name: 'memory ref', status: 'warn', detail: `${store.ref} does not exist yet`, fix: 'nothing to do: the first autosave creates it (or run `git capsule init`; `git capsule sync` fetches a remote one)' }
        : { name: 'memory ref', status: 'warn', detail: `${store.ref} does not exist yet, and no hook runs to create it (see hooks)`, fix: 'wire the hooks first (the hooks fix); `git capsule init` creates it now, `git capsule sync` fetches a remote one' };
    return { check, ref: store.ref, tip };
  } catch (err) {
    const code = isCapsuleError(err) ? err.code : 'INTERNAL';
    return { check: { name: 'memory ref', status: 'fail', detail: `[${code}] ${err instanceof Error ? err.message : String(err)}`, fix: 'inspect it with `git log <ref>`; `git capsule reindex` rebuilds the index' }, ref: store.ref, tip: null };
  } finally {
    await store.close();
  }
}

/**
 * Every capsule in the tree is in the derived index: one the index misses (an older version, a
 * hand-made commit, a plain `git merge` of the branch) is invisible to selection.
 */
async function checkIndexCoverage(cwd: string, env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  let store;
  try {
    store = await openStore({ cwd, env });
  } catch {
    return { name: 'index', status: 'warn', detail: 'not checked: the memory branch could not be opened (see memory ref)' };
  }
  try {
    if ((await store.tip()) === null) return { name: 'index', status: 'ok', detail: 'no memory branch yet' };
    const { inTree, indexed } = await store.indexCoverage();
    if (inTree <= indexed) return { name: 'index', status: 'ok', detail: `the index lists all ${inTree} capsules` };
    return { name: 'index', status: 'warn', detail: `${inTree - indexed} of ${inTree} capsules are in the tree but not in the index, so no resume sees them`, fix: 'run `git capsule reindex`' };
  } catch (err) {
    const code = isCapsuleError(err) ? err.code : 'INTERNAL';
    return { name: 'index', status: 'fail', detail: `[${code}] ${err instanceof Error ? err.message : String(err)}`, fix: '`git capsule reindex` rebuilds the index' };
  } finally {
    await store.close();
  }
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

function safeLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}
