// Measures secret redaction speed in µs per KB of input, the cost that matters in the Stop hook
// (it redacts each turn's transcript delta). Usage: node bench/redact-speed.mjs [--runs 9]
// Prints one JSON object: µs/KB as the median and the best of the runs (after one warm-up), the
// cold require() cost in ms, and the machine's load average at the start.
import { build } from 'esbuild';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { benchArgs } from './lib/bench-args.mjs';

const runs = Number(benchArgs(import.meta.url, { options: { runs: { type: 'string', default: '9' } } }).values.runs) || 9;
const dir = mkdtempSync(join(tmpdir(), 'redact-bench-'));
const entry = join(dir, 'entry.ts');
writeFileSync(
  entry,
  [
    `export { redactSecrets } from ${JSON.stringify(join(process.cwd(), 'lib/redact/redact-secrets'))};`,
    `export { redactDeep } from ${JSON.stringify(join(process.cwd(), 'lib/redact/redact-deep'))};`,
    `export { generateSecrets, generateEnvFile } from ${JSON.stringify(join(process.cwd(), 'test/redact/secret-corpus'))};`,
  ].join('\n'),
);
const out = join(dir, 'redact.cjs');
await build({ entryPoints: [entry], outfile: out, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });

// Cold require of the redactor alone, in fresh processes (what every hook start pays).
const onlyRedact = join(dir, 'only.cjs');
await build({ stdin: { contents: `export { redactSecrets } from ${JSON.stringify(join(process.cwd(), 'lib/redact/redact-secrets'))};`, resolveDir: process.cwd(), loader: 'ts' }, outfile: onlyRedact, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
const requireMs = [];
for (let i = 0; i < runs; i++) {
  const ms = execFileSync(process.execPath, ['-e', `const t=process.hrtime.bigint();require(${JSON.stringify(onlyRedact)});console.log(Number(process.hrtime.bigint()-t)/1e6)`], { encoding: 'utf8' });
  requireMs.push(Number(ms));
}

const r = createRequire(import.meta.url)(out);

function sourcesUnder(root) {
  const files = [];
  for (const name of readdirSync(root)) {
    const p = join(root, name);
    if (statSync(p).isDirectory()) files.push(...sourcesUnder(p));
    else if (/\.(ts|md|json)$/.test(name)) files.push(p);
  }
  return files;
}

const secrets = r.generateSecrets(1, 20).map((s) => s.context);
const filler = 'const total = items.reduce((sum, item) => sum + item.price * item.quantity, 0); // ordinary code\n';
const corpora = {
  'repo sources (lib, test)': sourcesUnder('lib').concat(sourcesUnder('test')).map((f) => readFileSync(f, 'utf8')).join('\n'),
  'code with a planted secret every ~2 KB': secrets.map((s) => filler.repeat(20) + s + '\n').join(''),
  'JSONL transcript with planted secrets': secrets
    .map((s, i) => JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: filler.repeat(10) + s }] }, usage: { input_tokens: 100, output_tokens: 20 } }))
    .join('\n'),
};
// Inputs shaped to make a backtracking regex slow: names with quotes that never close, key
// headers without END, URLs with many colons, escaped line breaks. Should cost like the others.
corpora['adversarial'] = [
  'token: "'.repeat(20000),
  ('password: `' + 'x'.repeat(3000) + ' ').repeat(60),
  '-----BEGIN RSA PRIVATE KEY-----' + ' ABCDEFGHIJKLMNOPQRSTUVWXYZ'.repeat(20000),
  ('http://' + 'u:'.repeat(300) + '@').repeat(300),
  ('\\n' + 'A'.repeat(40)).repeat(20000),
  'apiKey= '.repeat(30000),
].join('\n');
const sample = join(import.meta.dirname, '..', 'test', 'fixtures', 'transcript-sample.jsonl');
if (existsSync(sample)) corpora['real Claude Code transcript (sample)'] = readFileSync(sample, 'utf8');

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function usPerKb(fn, text) {
  fn(text);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    fn(text);
    times.push(Number(process.hrtime.bigint() - t) / 1e3 / (text.length / 1024));
  }
  // Median and best: on a shared, loaded machine the best run is the cost without interference.
  return { median: Number(median(times).toFixed(2)), best: Number(Math.min(...times).toFixed(2)) };
}

const result = { runs, loadAverage: (await import('node:os')).loadavg().map((x) => Number(x.toFixed(2))), requireMs: Number(median(requireMs).toFixed(1)), corpora: {} };
for (const [name, text] of Object.entries(corpora)) {
  const row = { kb: Math.round(text.length / 1024), redactSecretsUsPerKb: usPerKb((t) => r.redactSecrets(t), text) };
  if (name.startsWith('JSONL') || name.startsWith('real')) {
    const records = text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    row.redactDeepUsPerKb = usPerKb(() => r.redactDeep(records), text);
  }
  result.corpora[name] = row;
}
console.log(JSON.stringify(result, null, 2));
rmSync(dir, { recursive: true, force: true });
