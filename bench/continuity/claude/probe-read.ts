import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findResumeText } from '../resume-lines';

// What a run left behind, read the same way for one session (run.sh) and for several (stream-json).

/** The resume text of the first request that carried the probe prompt, from the fake API's log in `out`. */
export function readProbe(out: string, probePrompt: string): { resumeText: string | null; error?: string } {
  const log = join(out, 'requests.jsonl');
  if (!existsSync(log)) return { resumeText: null, error: 'the fake API logged no request' };
  const requests = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { body?: { messages?: unknown[] } });
  const first = requests.find((r) => lastUserText(r.body?.messages ?? []).includes(probePrompt));
  if (first === undefined) return { resumeText: null, error: 'no request carried the probe prompt' };
  return { resumeText: findResumeText(strings(first.body?.messages ?? [], [])) };
}

function lastUserText(messages: unknown[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: string; content?: unknown };
    if (m.role === 'user') return strings(m.content, []).join('\n');
  }
  return '';
}

export function strings(value: unknown, into: string[]): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, into);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, into);
  return into;
}

/** Every object reachable from the memory branch: documents, status events, index, commit messages. */
export function branchText(repo: string): string {
  try {
    const objects = execFileSync('git', ['rev-list', '--objects', 'refs/heads/capsules'], { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 28 });
    const ids = objects.split('\n').filter(Boolean).map((l) => l.split(' ')[0]).join('\n');
    return execFileSync('git', ['cat-file', '--batch'], { cwd: repo, input: `${ids}\n`, encoding: 'utf8', maxBuffer: 1 << 28 });
  } catch {
    return '';
  }
}
