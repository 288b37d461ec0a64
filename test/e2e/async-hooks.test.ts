import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realClientDescribe, StreamHarness } from './support/stream-session';

// What the real client (2.1.332) does with background hooks; docs/hooks.md "Async hooks" cites
// this file. Each probe hook logs `<label> start|end <ms>` to $PROBE_LOG; the timestamps say
// whether the turn's `result` waited for the hook.
const SCRIPT = { rules: [{ name: 'default-text', when: { any: true }, respond: { text: 'ok' } }] };

const PROBE = `#!/bin/sh
now() { date +%s%3N; }
echo "$1 start $(now)" >> "$PROBE_LOG"
case "$1" in
  runtime) echo '{"async":true}'; sleep 3 ;;
  rewake|headless-rewake) if [ ! -e "$PROBE_LOG.rewoken" ]; then touch "$PROBE_LOG.rewoken"; sleep 1; echo "$1 end $(now)" >> "$PROBE_LOG"; echo "PROBE-REWAKE write your capsule now" >&2; exit 2; fi ;;
  *) sleep 3 ;;
esac
echo "$1 end $(now)" >> "$PROBE_LOG"
`;

/** A plugin whose only hook is a Stop hook with `registration` fields, running probe.sh `label`. */
function probePlugin(root: string, label: string, registration: Record<string, unknown>): string {
  const dir = join(root, `plugin-${label}`);
  mkdirSync(join(dir, '.claude-plugin'), { recursive: true });
  writeFileSync(join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: `probe-${label}`, version: '0.0.0', description: 'async probe' }));
  writeFileSync(join(dir, 'probe.sh'), PROBE, { mode: 0o755 });
  const hook = { type: 'command', command: `sh "\${CLAUDE_PLUGIN_ROOT}/probe.sh" ${label}`, timeout: 30, ...registration };
  mkdirSync(join(dir, 'hooks'), { recursive: true });
  writeFileSync(join(dir, 'hooks', 'hooks.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [hook] }] } }));
  return dir;
}

function events(log: string): Array<{ label: string; what: string; at: number }> {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => {
    const [label, what, at] = l.split(' ');
    return { label: label!, what: what!, at: Number(at) };
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type ProbeEvent = ReturnType<typeof events>[number];
const ended = (log: ProbeEvent[]) => log.some((e) => e.what === 'end');

/** Waits until `settled` holds for the probe's log, for `ms` at most (a test that proves an absence passes `() => false` and waits them all). */
async function settle(log: string, settled: (events: ProbeEvent[]) => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!settled(events(log)) && Date.now() < until) await sleep(100);
}

realClientDescribe('background (async) hooks in the real client', () => {
  let h: StreamHarness;
  let root: string;
  beforeAll(async () => {
    h = await StreamHarness.start({ name: 'async-hooks', script: SCRIPT });
    root = mkdtempSync(join(tmpdir(), 'capsule-async-probe-'));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** One turn whose Stop hook runs probe.sh `label`; waits up to 20 s after the result for what the test checks (`settled`). */
  async function streamTurn(label: string, registration: Record<string, unknown>, settled: (events: ProbeEvent[]) => boolean = ended) {
    const log = join(root, `${label}.log`);
    const s = h.session({ name: label, pluginDir: probePlugin(root, label, registration), env: { PROBE_LOG: log } });
    const r = await s.send(`PROBE-${label} hello`);
    const resultAt = Date.now();
    // 20 s at most, though settle returns once the condition holds: the probe ends 3 s after it
    // starts, and a loaded machine can start it late (5 s left 2 s of margin).
    await settle(log, settled, 20_000);
    await s.close();
    return { resultAt, log: events(log), turn: r };
  }

  it('waits for a plain Stop hook before the turn ends (the baseline)', async () => {
    const { resultAt, log } = await streamTurn('sync', {});
    expect(log.find((e) => e.what === 'end')!.at).toBeLessThanOrEqual(resultAt);
  }, 120_000);

  it('ends the turn before a Stop hook registered "async": true finishes, and the hook still completes in a live session', async () => {
    const { resultAt, log } = await streamTurn('async', { async: true });
    const start = log.find((e) => e.what === 'start')!.at;
    const end = log.find((e) => e.what === 'end')!.at;
    expect(end - start).toBeGreaterThanOrEqual(2_900);
    expect(resultAt).toBeLessThan(end);
  }, 120_000);

  it('goes to the background when the hook prints {"async":true} as its first line', async () => {
    const { resultAt, log } = await streamTurn('runtime', {});
    const end = log.find((e) => e.what === 'end');
    expect(end).toBeDefined();
    expect(resultAt).toBeLessThan(end!.at);
  }, 120_000);

  it('wakes the model with the stderr of an "asyncRewake" hook that exits 2 (stream-json input)', async () => {
    const woke = () => h.requests().some((r) => r.text.includes('PROBE-REWAKE'));
    const { log } = await streamTurn('rewake', { asyncRewake: true }, (e) => ended(e) && woke());
    expect(log.some((e) => e.what === 'end')).toBe(true);
    const woken = h.requests().filter((r) => r.text.includes('PROBE-REWAKE'));
    expect(woken.length).toBeGreaterThanOrEqual(1);
  }, 120_000);

  /** One plain `claude -p PROMPT` (no stream-json input) with a Stop hook registered with `registration`. */
  async function headless(label: string, registration: Record<string, unknown>, settled: (events: ProbeEvent[]) => boolean) {
    const log = join(root, `${label}.log`);
    const [bin, ...args] = h.clientCommand({ name: label, pluginDir: probePlugin(root, label, registration) });
    const at = args.indexOf('--input-format');
    const argv = [...args.slice(0, at), ...args.slice(at + 2), `PROBE-${label} hello`];
    const child = h.spawn(bin!, argv, { cwd: h.repo, env: h.clientEnv({ env: { PROBE_LOG: log } }), stdio: ['ignore', 'ignore', 'ignore'] });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    const exitedAt = Date.now();
    await settle(log, settled, 5_000);
    return { code, exitedAt, log: events(log), debug: readFileSync(join(h.out, `${label}.debug.log`), 'utf8') };
  }

  it('cancels a background Stop hook when a non-streaming `claude -p` exits', async () => {
    const { code, log, debug } = await headless('headless', { async: true }, () => false);
    expect(code).toBe(0);
    expect(debug).toMatch(/Stop \[.*probe\.sh" headless\].* moved to the background/);
    expect(debug).toMatch(/Hook Stop \(Stop\) cancelled/);
    expect(log.some((e) => e.what === 'end')).toBe(false);
  }, 120_000);

  it('runs an "asyncRewake" Stop hook synchronously in a non-streaming `claude -p`', async () => {
    const { code, exitedAt, log } = await headless('headless-rewake', { asyncRewake: true }, ended);
    expect(code).toBe(0);
    const end = log.find((e) => e.what === 'end');
    expect(end).toBeDefined();
    expect(end!.at).toBeLessThanOrEqual(exitedAt);
  }, 120_000);
});
