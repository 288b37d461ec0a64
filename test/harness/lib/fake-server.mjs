// What the two fake model APIs share: the command line, the script of rules, the request log,
// the {{placeholders}} of a reply, and a loopback server that ends by itself.
//
// A script is { "rules": [ { "name", "when": {...}, "respond": {...}, "times"? } ] }. A request
// is answered by the first rule whose `when` holds for it (each protocol says what the
// conditions mean) and whose `times` is not used up; no rule: the text "ok", named "fallback".
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';

/** `--port 0 --port-file F --log F --script F --lifetime S`, each also from its FAKE_API_* variable. */
export function serverOptions(argv = process.argv.slice(2), env = process.env) {
  const flags = new Map();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (!flag.startsWith('--')) throw new Error(`fake-api: unexpected argument ${flag}`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) flags.set(flag.slice(2), 'true');
    else flags.set(flag.slice(2), argv[++i]);
  }
  return {
    port: Number(flags.get('port') ?? env.FAKE_API_PORT ?? 0),
    portFile: flags.get('port-file') ?? null,
    log: flags.get('log') ?? env.FAKE_API_LOG ?? 'fake-api-requests.jsonl',
    script: flags.get('script') ?? env.FAKE_API_SCRIPT ?? null,
    lifetimeSec: Number(flags.get('lifetime') ?? env.FAKE_API_LIFETIME ?? 120),
    // A model's latency, when a bench wants one (claude/fake-api.mjs holds each model answer this long; default none).
    delayMs: Number(flags.get('delay-ms') ?? env.FAKE_API_DELAY_MS ?? 0),
  };
}

/** The rules of a script file, or `fallback` (a script object) when there is no file. */
export function loadRules(file, fallback) {
  const script = file ? JSON.parse(readFileSync(file, 'utf8')) : fallback;
  if (!Array.isArray(script?.rules)) throw new Error(`fake-api: ${file ?? 'the default script'} has no "rules" array`);
  return script.rules;
}

/**
 * A picker over `rules`: `pick(holds)` returns the first rule whose `when` (default: any) makes
 * `holds(when)` true and whose `times` is not used up, and counts the use.
 */
export function rulePicker(rules) {
  const uses = rules.map(() => 0);
  return (holds) => {
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i];
      if (rule.times !== undefined && uses[i] >= rule.times) continue;
      if (!holds(rule.when ?? { any: true })) continue;
      uses[i]++;
      return rule;
    }
    return { name: 'fallback', respond: { text: 'ok' } };
  };
}

/** A case-insensitive test of `pattern` against `text` (undefined pattern: holds). */
export function like(pattern, text) {
  return pattern === undefined || new RegExp(pattern, 'i').test(text ?? '');
}

/** `value` with every `{{name}}` in its strings replaced by `vars[name]` ('' when unknown). */
export function fillIn(value, vars) {
  if (typeof value === 'string') return value.replace(/\{\{(\w+)\}\}/g, (_, name) => (vars[name] === undefined ? '' : String(vars[name])));
  if (Array.isArray(value)) return value.map((v) => fillIn(v, vars));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillIn(v, vars)]));
  return value;
}

/**
 * The groups a rule's `prompt` pattern captured from the typed prompt, as `{{prompt1}}`,
 * `{{prompt2}}`…: how a scripted model repeats what the user named (a capsule id) in its call.
 */
export function promptGroups(pattern, prompt) {
  if (pattern === undefined) return {};
  const m = new RegExp(pattern, 'i').exec(prompt ?? '');
  return m ? Object.fromEntries(m.slice(1).map((g, k) => [`prompt${k + 1}`, g ?? ''])) : {};
}

/** A fresh id with a prefix, the way the real APIs shape theirs (`msg_…`, `toolu_…`, `resp_…`). */
export function newId(prefix) {
  let hex = '';
  for (let i = 0; i < 24; i++) hex += Math.floor(Math.random() * 16).toString(16);
  return `${prefix}_${hex}`;
}

/** The headers worth logging: everything but transport noise, with credentials hidden. */
export function loggedHeaders(headers) {
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    if (/^(host|content-length|connection|accept-encoding)$/.test(name)) continue;
    out[name] = /^(authorization|x-api-key|cookie)$/.test(name) ? '<redacted>' : value;
  }
  return out;
}

/** One Server-Sent Event: `event: <type>` and its JSON data (which repeats the type). */
export function sseEvent(type, data) {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/**
 * Starts the loopback server. `handle({ method, path, url, headers, body, seq, log })` answers
 * one request through `reply`; `log(entry)` appends `{seq, ts, ...entry}` to the request log.
 * The port goes to the port file once listening; the process ends after the lifetime, or on
 * SIGTERM/SIGINT.
 */
export function serve(options, handle) {
  let seq = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const n = ++seq;
      const raw = Buffer.concat(chunks).toString('utf8');
      let body = null;
      try {
        body = raw === '' ? null : JSON.parse(raw);
      } catch {
        body = { _raw: raw.slice(0, 2000) };
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const log = (entry) => appendFileSync(options.log, JSON.stringify({ seq: n, ts: new Date().toISOString(), method: req.method, url: req.url, headers: loggedHeaders(req.headers), ...entry }) + '\n');
      try {
        handle({ method: req.method, path: url.pathname.replace(/\/+$/, ''), headers: req.headers, body, raw, seq: n, log }, res);
      } catch (e) {
        log({ crashed: String(e?.stack ?? e) });
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'fake_api_crash', message: String(e?.message ?? e) } }));
      }
    });
  });
  server.listen(options.port, '127.0.0.1', () => {
    const { port } = server.address();
    // Written whole, then renamed: a reader polling for the file never sees it empty.
    if (options.portFile) {
      writeFileSync(`${options.portFile}.tmp`, String(port));
      renameSync(`${options.portFile}.tmp`, options.portFile);
    }
    process.stderr.write(`fake-api: http://127.0.0.1:${port}, log ${options.log}, ends in ${options.lifetimeSec}s\n`);
  });
  setTimeout(() => {
    process.stderr.write('fake-api: lifetime over\n');
    process.exit(0);
  }, options.lifetimeSec * 1000).unref();
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
}

/** A JSON reply. */
export function json(res, status, value, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}
