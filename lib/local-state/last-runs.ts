import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readRuntimeJson, writeRuntimeJson } from './runtime-files';
import { STATE_FILES } from './state-files';

/** The folder of last-run records in the runtime dir: one small file per route, so two routes never race. */
export const LAST_RUNS_DIR = STATE_FILES.lastRuns.path.replace(/\/$/, '');

/** How hooks reached this repository: the plugin (CLAUDE_PLUGIN_ROOT set) or a settings file's command. */
export interface HookRoute {
  /** The host that ran the hook (claude, codex). */
  host: string;
  route: 'plugin' | 'settings';
  /** The plugin root, or the folder of the bundle a settings command ran. */
  root: string;
  version: string;
  /** The plugin's data dir name (`capsule-inline` for --plugin-dir, `capsule-<marketplace>` when installed). */
  pluginData: string | null;
  /** When each event last ran through this route, and in which session. */
  events: Record<string, { at: string; session: string | null }>;
}

/** Rewrite a route's record at most this often per event and session: the record is for doctor, not a log. */
const REFRESH_MS = 60_000;

/**
 * Notes that `event` ran through the route this process was started by, for `doctor`. Cheap on
 * purpose (it runs in every hook): one read of a small file, and a write only when the event,
 * its session or the minute changed. Never throws: a record that cannot be written is no finding.
 */
export function recordHookRun(runtimeDir: string, run: { host: string; event: string; at: Date; session: string | null; env: NodeJS.ProcessEnv; script: string | undefined; version: string }): void {
  try {
    const pluginRoot = run.env.CLAUDE_PLUGIN_ROOT || null;
    const root = pluginRoot ?? (run.script ? dirname(run.script) : 'unknown');
    const route: HookRoute['route'] = pluginRoot ? 'plugin' : 'settings';
    const dir = join(runtimeDir, LAST_RUNS_DIR);
    const name = `${run.host}-${route}-${fnv(root)}.json`;
    const prior = asRoute(readRuntimeJson(dir, name));
    const seen = prior?.events[run.event];
    if (prior && prior.version === run.version && seen && seen.session === run.session && run.at.getTime() - Date.parse(seen.at) < REFRESH_MS) return;
    const pluginData = run.env.CLAUDE_PLUGIN_DATA ? run.env.CLAUDE_PLUGIN_DATA.split(/[\\/]/).pop() ?? null : null;
    const events = { ...(prior?.events ?? {}), [run.event]: { at: run.at.toISOString(), session: run.session } };
    writeRuntimeJson(dir, name, { host: run.host, route, root, version: run.version, pluginData, events } satisfies HookRoute);
  } catch {
    // doctor will say it saw no run; the hook itself must not fail over its own bookkeeping
  }
}

/** Every route's record, newest run first; none when there are none. */
export function readHookRoutes(runtimeDir: string): HookRoute[] {
  let names: string[];
  try {
    names = readdirSync(join(runtimeDir, LAST_RUNS_DIR)).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const routes = names.map((n) => asRoute(readRuntimeJson(join(runtimeDir, LAST_RUNS_DIR), n))).filter((r): r is HookRoute => r !== null);
  return routes.sort((a, b) => lastRun(b) - lastRun(a));
}

/** The time of a route's latest run (ms since the epoch). */
export function lastRun(route: HookRoute): number {
  return Math.max(0, ...Object.values(route.events).map((e) => Date.parse(e.at)).filter(Number.isFinite));
}

function asRoute(value: unknown): HookRoute | null {
  const v = value as Partial<HookRoute> | null;
  return v && (v.route === 'plugin' || v.route === 'settings') && typeof v.root === 'string' && v.events && typeof v.events === 'object' ? ({ ...v, host: typeof v.host === 'string' ? v.host : 'claude' } as HookRoute) : null;
}

/** FNV-1a of a string, as hex: a file name per route without loading node:crypto in a hook. */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}
