#!/usr/bin/env node
// validate.sh DIR [--strict] [--json]: the closest thing Codex 0.169 has to `plugin validate`.
// Installs DIR through a local marketplace into a throwaway CODEX_HOME (Codex refuses a missing
// or malformed manifest), then asks app-server which hooks it discovered from the plugin, with
// Codex's warnings and errors. Exit 0: installed, at least one hook, no error (and with
// --strict no warning). --json prints the hooks/list entry (the plugin's hooks only).
// CODEX_BIN names the client. Runs in a loopback-only network namespace when it can.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolateNetwork } from '../lib/session-run.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
isolateNetwork(fileURLToPath(import.meta.url), argv, 'CAPSULE_HARNESS_NETNS');
const [target, ...flags] = argv;
if (!target || flags.some((f) => f !== '--strict' && f !== '--json')) {
  process.stderr.write('usage: validate.sh DIR [--strict] [--json]\n');
  process.exit(2);
}
const dir = resolve(target);
const codex = process.env.CODEX_BIN ? resolve(process.env.CODEX_BIN) : 'codex';
const work = mkdtempSync(join(process.env.TMPDIR || tmpdir(), 'codex-validate-'));
const verdict = (ok, lines) => {
  process.stdout.write(`${[...lines, ok ? 'OK' : 'FAIL'].join('\n')}\n`);
  rmSync(work, { recursive: true, force: true });
  process.exit(ok ? 0 : 1);
};

const home = join(work, 'home');
const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(CODEX_|OPENAI_)/.test(k))), HOME: home, CODEX_HOME: join(home, '.codex'), TMPDIR: join(work, 'tmp') };
for (const d of [env.CODEX_HOME, env.TMPDIR, join(work, 'repo'), join(work, 'market', '.agents', 'plugins')]) mkdirSync(d, { recursive: true });
writeFileSync(join(env.CODEX_HOME, 'config.toml'), 'check_for_update_on_startup = false\n[analytics]\nenabled = false\n[otel]\nexporter = "none"\nmetrics_exporter = "none"\ntrace_exporter = "none"\n');
spawnSync('git', ['init', '-q'], { cwd: join(work, 'repo') });

const manifest = ['.codex-plugin/plugin.json', '.claude-plugin/plugin.json'].find((m) => existsSync(join(dir, m)));
if (!manifest) verdict(false, [`no .codex-plugin/plugin.json (or .claude-plugin/plugin.json) in ${dir}`]);
let name;
try {
  name = JSON.parse(readFileSync(join(dir, manifest), 'utf8')).name;
  if (typeof name !== 'string' || name === '') throw new Error('no string "name"');
} catch (e) {
  verdict(false, [`${manifest}: ${e.message}`]);
}
cpSync(dir, join(work, 'market', 'plugins', name), { recursive: true });
writeFileSync(join(work, 'market', '.agents', 'plugins', 'marketplace.json'), JSON.stringify({ name: 'capsule-validate', plugins: [{ name, source: { source: 'local', path: `./plugins/${name}` }, policy: { installation: 'AVAILABLE' } }] }));
const codexRun = (...args) => spawnSync('timeout', ['60', codex, ...args], { cwd: join(work, 'repo'), env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
for (const args of [['plugin', 'marketplace', 'add', join(work, 'market')], ['plugin', 'add', `${name}@capsule-validate`]]) {
  const r = codexRun(...args);
  if (r.status !== 0) verdict(false, [`codex ${args.slice(0, 2).join(' ')} refused the plugin:`, `${r.stdout}${r.stderr}`.trim()]);
}

const listed = spawnSync('timeout', ['60', process.execPath, join(HERE, 'app-server.mjs'), codex, 'hooks'], { cwd: join(work, 'repo'), env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
if (listed.status !== 0) verdict(false, ['app-server hooks/list failed:', listed.stderr.trim()]);
const result = listed.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l).msg).find((m) => Array.isArray(m?.result?.data))?.result;
if (!result) verdict(false, ['no hooks/list result']);
const entry = result.data[0] ?? { hooks: [], warnings: [], errors: [] };
const mine = (entry.hooks ?? []).filter((h) => (h.pluginId ?? '').startsWith(`${name}@`));
const warnings = entry.warnings ?? [];
const errors = entry.errors ?? [];
const lines = [`manifest: ${manifest} (name: ${name})`];
if (flags.includes('--json')) lines.push(JSON.stringify({ ...entry, hooks: mine }, null, 2));
else {
  lines.push(`hooks discovered from the plugin: ${mine.length}`);
  for (const h of mine) lines.push(`  ${h.eventName} matcher=${h.matcher ?? '*'} timeout=${h.timeoutSec}s ${h.command}`);
  for (const w of warnings) lines.push(`WARNING: ${w}`);
  for (const e of errors) lines.push(`ERROR: ${e.path}: ${e.message}`);
}
verdict(mine.length > 0 && errors.length === 0 && !(flags.includes('--strict') && warnings.length > 0), lines);
