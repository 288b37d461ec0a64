import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactDeep } from '../../lib/redact/redact-deep';
import { redactSecrets } from '../../lib/redact/redact-secrets';
import { generateEnvFile, generateSecrets, secretCore, type PlantedSecret } from './secret-corpus';

// A real Claude Code transcript of an ordinary session (the harness's sample, vendored as a
// fixture), for the false-positive check.
const SAMPLE_TRANSCRIPT = join(__dirname, '..', 'fixtures', 'transcript-sample.jsonl');

/** Transcript records in the host's shapes, with every planted secret placed in one of four places. */
function plantedTranscript(secrets: PlantedSecret[], env: string): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  secrets.forEach((s, i) => {
    const id = `toolu_${String(i).padStart(4, '0')}`;
    switch (i % 4) {
      case 0: // a user prompt
        records.push({ type: 'user', message: { role: 'user', content: `please check this:\n${s.context}\nthanks` } });
        break;
      case 1: // a tool input
        records.push({ type: 'assistant', message: { content: [{ type: 'tool_use', id, name: 'Bash', input: { command: s.context, description: 'run it' } }] } });
        break;
      case 2: // a tool output
        records.push({
          type: 'user',
          message: { content: [{ type: 'tool_result', tool_use_id: id, content: `$ env\n${s.context}\n` }] },
          toolUseResult: { stdout: `${s.context}\n`, stderr: '', interrupted: false },
        });
        break;
      default: // file contents, as the Read tool prints them and as a Write tool input carries them
        records.push({
          type: 'user',
          message: { content: [{ type: 'tool_result', tool_use_id: id, content: `     1\t# config\n     2\t${s.context}\n     3\tend` }] },
          toolUseResult: { type: 'text', file: { filePath: '/repo/config.txt', content: `# config\n${s.context}\nend` } },
        });
        records.push({ type: 'assistant', message: { content: [{ type: 'tool_use', id: `${id}w`, name: 'Write', input: { file_path: '/repo/app.cfg', content: `[app]\n${s.context}\n` } }] } });
    }
  });
  const numbered = env.split('\n').map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n');
  records.push({
    type: 'user',
    message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_env', content: numbered }] },
    toolUseResult: { type: 'text', file: { filePath: '/repo/.env', content: env } },
  });
  return records;
}

describe('redaction corpus', () => {
  const secrets = generateSecrets(8, 5);
  const env = generateEnvFile(9);
  const records = plantedTranscript(secrets, env.text);
  const mustNotSurvive = [...secrets.map((s) => s.value), ...secrets.map((s) => secretCore(s.value)), ...env.secrets];

  it('leaves no planted token or secret-named value in raw transcript lines redacted with redactSecrets', () => {
    // A .env file escaped inside a JSONL line is no longer a .env text; only redactDeep sees it whole.
    const out = records.map((r) => redactSecrets(JSON.stringify(r)).text);
    const joined = out.join('\n');
    for (const v of mustNotSurvive.filter((x) => !env.secrets.includes(x))) expect(joined).not.toContain(v);
    for (const line of out) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('leaves no planted secret in transcript records redacted with redactDeep', () => {
    const joined = JSON.stringify(records.map((r) => redactDeep(r).value));
    for (const v of mustNotSurvive) expect(joined).not.toContain(v);
  });

  it('finds every kind the corpus planted', () => {
    const found = new Set(redactDeep(records).findings.map((f) => f.kind));
    for (const s of secrets) expect(found).toContain(s.kind);
  });

  it('finds nothing in a real transcript of an ordinary session', () => {
    const text = readFileSync(SAMPLE_TRANSCRIPT, 'utf8');
    expect(redactSecrets(text).findings).toEqual([]);
    const lines = text.split('\n').filter((l) => l.length > 0);
    expect(redactDeep(lines.map((l) => JSON.parse(l) as unknown)).findings).toEqual([]);
  });
});
