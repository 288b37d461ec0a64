import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const LIB = join(__dirname, '..', 'lib');

/** Which lib/ folders each layer may import (STYLE.md: imports point down). */
const ALLOWED: Record<string, string[]> = {
  errors: [],
  capsule: ['errors'],
  store: ['capsule', 'redact', 'errors'],
  select: ['capsule', 'errors'],
  resume: ['select', 'capsule', 'errors'],
  transcript: ['capsule', 'errors', 'redact'],
  budget: ['transcript', 'capsule', 'errors'],
  redact: ['errors'],
  'resume-runtime': ['resume', 'select', 'store', 'capsule', 'errors'],
  'budget-io': ['budget', 'transcript', 'errors'],
};
const PURE = ['capsule', 'select', 'resume', 'transcript', 'budget', 'redact'];
const IMPURE = /\b(?:from ['"]node:(?:fs|child_process|fs\/promises)['"]|process\.env|Date\.now\(\)|new Date\(\)|console\.)/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the layers of lib/', () => {
  const sources = files(LIB).map((path) => ({ path, layer: relative(LIB, path).split('/')[0]!, text: readFileSync(path, 'utf8') }));

  it.each(sources.filter((s) => ALLOWED[s.layer]).map((s) => [relative(LIB, s.path), s] as const))('%s imports only layers below it', (_n, s) => {
    const imports = [...s.text.matchAll(/from '\.\.\/(?:\.\.\/)*([a-z-]+)\//g)].map((m) => m[1]!);
    for (const target of imports) if (target !== s.layer) expect(ALLOWED[s.layer]).toContain(target);
  });

  it.each(sources.filter((s) => PURE.includes(s.layer)).map((s) => [relative(LIB, s.path), s] as const))('%s stays pure', (_n, s) => {
    expect(s.text).not.toMatch(IMPURE);
  });
});
