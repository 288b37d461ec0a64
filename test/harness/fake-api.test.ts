import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp-dirs';

// The harness's fake model APIs on their own: the rule engine, the streamed replies the real
// clients parse, and the request log the suites read.

interface Fake {
  url: string;
  logPath: string;
  log: () => Array<Record<string, any>>;
  stop: () => void;
}

async function startFake(host: 'claude' | 'codex' | 'copilot', rules: unknown[], extraArgs: string[] = []): Promise<Fake> {
  const dir = tempDir(`capsule-fake-${host}-`);
  writeFileSync(join(dir, 'script.json'), JSON.stringify({ rules }));
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, host, 'fake-api.mjs'), '--port', '0', '--port-file', join(dir, 'port'), '--log', join(dir, 'requests.jsonl'), '--script', join(dir, 'script.json'), '--lifetime', '60', ...extraArgs], { stdio: 'ignore' });
  // Up to 30 s: on a loaded CI machine a node start alone can take seconds.
  let port = '';
  for (let i = 0; i < 600 && port === '' && child.exitCode === null; i++) {
    port = existsSync(join(dir, 'port')) ? readFileSync(join(dir, 'port'), 'utf8').trim() : '';
    if (port === '') await new Promise((r) => setTimeout(r, 50));
  }
  if (!/^\d+$/.test(port)) throw new Error(`the fake ${host} API did not start (port file: ${JSON.stringify(port)})`);
  return {
    url: `http://127.0.0.1:${port}`,
    logPath: join(dir, 'requests.jsonl'),
    log: () => readFileSync(join(dir, 'requests.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)),
    stop: () => child.kill('SIGKILL'),
  };
}

/** The data of each SSE event, in order. */
async function events(res: Response): Promise<Array<Record<string, any>>> {
  const text = await res.text();
  return text.split('\n\n').filter(Boolean).map((block) => JSON.parse(block.split('\n').find((l) => l.startsWith('data: '))!.slice(6)));
}

describe('the fake Anthropic Messages API', () => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await startFake('claude', [
      { name: 'compact', when: { lastUserText: 'Respond with TEXT ONLY' }, respond: { text: '<summary>S</summary>' } },
      { name: 'once', when: { prompt: '^WRITE$' }, respond: { tool_use: { name: 'Write', input: { file_path: '{{cwd}}/a.txt', content: 'x' } }, input_tokens: 1234 }, times: 1 },
      { name: 'after', when: { lastIsToolResult: true, toolResultText: 'created' }, respond: { text: 'done' } },
    ]);
  }, 45_000);
  afterAll(() => fake?.stop());

  const post = (body: Record<string, unknown>) => fetch(`${fake.url}/v1/messages?beta=true`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-secret' }, body: JSON.stringify({ stream: true, model: 'm', tools: [{ name: 'Write' }], ...body }) });
  const system = [{ type: 'text', text: 'Primary working directory: /home/dev/project' }];

  it('streams any tool call a rule names, with {{cwd}} from the request and the usage it sets, once for times: 1', async () => {
    const msg = [{ role: 'user', content: [{ type: 'text', text: '<system-reminder>hook context</system-reminder>WRITE' }] }];
    const first = await events(await post({ system, messages: msg }));
    expect(first.map((e) => e.type)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(first[0]!.message.usage.input_tokens).toBe(1234);
    expect(first[1]!.content_block).toMatchObject({ type: 'tool_use', name: 'Write' });
    expect(JSON.parse(first[2]!.delta.partial_json)).toEqual({ file_path: '/home/dev/project/a.txt', content: 'x' });
    expect(first[4]!.delta.stop_reason).toBe('tool_use');
    const second = await events(await post({ system, messages: msg }));
    expect(second[2]!.delta).toEqual({ type: 'text_delta', text: 'ok' });
  });

  it('answers a tool result and a compaction by their rules, and logs each request with its rule and no key', async () => {
    const tool = [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'File created' }] }];
    expect((await events(await post({ messages: tool })))[2]!.delta.text).toBe('done');
    const compact = [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }, { type: 'text', text: 'Respond with TEXT ONLY. Summarise.' }] }];
    expect((await events(await post({ messages: compact })))[2]!.delta.text).toBe('<summary>S</summary>');
    const log = fake.log();
    expect(log.map((r) => r.rule)).toEqual(['once', 'fallback', 'after', 'compact']);
    expect(log.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(JSON.stringify(log)).not.toContain('sk-secret');
  });
});

describe('the fake Anthropic Messages API with --delay-ms (a model latency for benches)', () => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await startFake('claude', [{ name: 'any', when: { any: true }, respond: { text: 'late' } }], ['--delay-ms', '60000']);
  }, 45_000);
  afterAll(() => fake?.stop());

  it('logs the request at once and holds the answer back: nothing has arrived once the request is logged', async () => {
    const aborter = new AbortController();
    let answered = false;
    const pending = fetch(`${fake.url}/v1/messages?beta=true`, { method: 'POST', signal: aborter.signal, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stream: true, model: 'm', messages: [{ role: 'user', content: 'hi' }] }) }).then(
      () => (answered = true),
      () => undefined,
    );
    while (!existsSync(fake.logPath) || readFileSync(fake.logPath, 'utf8') === '') await new Promise((r) => setTimeout(r, 20));
    // A request the fake answers at once, sent after the held one was logged: an undelayed answer
    // to the first would have been written before this one was even read.
    await (await fetch(`${fake.url}/v1/models`)).json();
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.log().map((r) => r.rule)).toEqual(['any', undefined]);
    expect(answered).toBe(false);
    aborter.abort();
    await pending;
  }, 45_000);
});

describe('the fake OpenAI Responses API', () => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await startFake('codex', [
      { name: 'compact', when: { compact: true }, respond: { text: 'SUMMARY' } },
      { name: 'patch', when: { prompt: '^EDIT' }, respond: { custom_tool_call: { name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' }, input_tokens: 777 } },
      { name: 'after', when: { lastIsToolOutput: true }, respond: { text: 'done in {{cwd}}' } },
    ]);
  }, 45_000);
  afterAll(() => fake?.stop());

  const post = (input: unknown[], headers: Record<string, string> = {}) =>
    fetch(`${fake.url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-secret', ...headers }, body: JSON.stringify({ stream: true, model: 'gpt-5.5', input }) });
  const env = { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context><cwd>/home/dev/project</cwd></environment_context>' }] };

  it('streams a freeform tool call for the typed prompt, past the client-added tagged messages, with the usage it sets', async () => {
    const out = await events(await post([env, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'EDIT the widget' }] }]));
    expect(out.map((e) => e.type)).toEqual(['response.created', 'response.output_item.added', 'response.output_item.done', 'response.completed']);
    expect(out[2]!.item).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch' });
    expect(out[3]!.response.usage).toMatchObject({ input_tokens: 777, total_tokens: 787 });
  });

  it('answers a tool output with {{cwd}} filled in, and a compaction by its request kind; logs the headers without the key', async () => {
    const out = await events(await post([env, { type: 'custom_tool_call_output', call_id: 'c', output: 'ok' }]));
    expect(out.find((e) => e.type === 'response.output_text.delta')!.delta).toBe('done in /home/dev/project');
    const compact = await events(await post([env], { 'x-codex-turn-metadata': JSON.stringify({ request_kind: 'compaction' }), 'session-id': 's-1' }));
    expect(compact.find((e) => e.type === 'response.output_text.delta')!.delta).toBe('SUMMARY');
    const log = fake.log();
    expect(log.map((r) => [r.rule, r.compact])).toEqual([['patch', false], ['after', false], ['compact', true]]);
    expect(log[2]!.headers['session-id']).toBe('s-1');
    expect(JSON.stringify(log)).not.toContain('sk-secret');
  });
});

describe('the fake Chat Completions API', () => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await startFake('copilot', [
      { name: 'named', when: { prompt: 'RESUME ([0-9A-Z]{26}) AND ([0-9A-Z]{26})' }, respond: { tool_call: { name: 'bash', arguments: { command: 'resume --id {{prompt2}} after {{prompt1}}' } } } },
    ]);
  });
  afterAll(() => fake.stop());

  it("repeats what the rule's prompt pattern captured from the typed prompt, past the client's tagged blocks", async () => {
    const res = await fetch(`${fake.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: '<current_datetime>now</current_datetime>RESUME 01AAAAAAAAAAAAAAAAAAAAAAAA AND 01BBBBBBBBBBBBBBBBBBBBBBBB please' }] }),
    });
    const text = await res.text();
    const call = text.split('\n\n').filter((b) => b.startsWith('data: {')).map((b) => JSON.parse(b.slice(6))).flatMap((c) => c.choices ?? []).find((c) => c.delta?.tool_calls)!;
    expect(JSON.parse(call.delta.tool_calls[0].function.arguments)).toEqual({ command: 'resume --id 01BBBBBBBBBBBBBBBBBBBBBBBB after 01AAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(fake.log().map((r) => r.rule)).toEqual(['named']);
  });
});
