import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const LIB = join(__dirname, '..', 'lib');

/** Which lib/ folders each layer may import (STYLE.md: imports point down). */
const ALLOWED: Record<string, string[]> = {
  errors: [],
  capsule: ['errors'],
  redact: ['errors'],
  select: ['capsule', 'errors'],
  resume: ['select', 'capsule', 'errors'],
  transcript: ['capsule', 'errors', 'redact'],
  'work-state': ['capsule', 'errors'],
  history: ['transcript', 'errors'],
  budget: ['transcript', 'capsule', 'errors'],
  git: ['errors'],
  'local-state': ['git', 'budget', 'resume', 'capsule', 'redact', 'errors'],
  store: ['git', 'capsule', 'redact', 'errors'],
  sync: ['store', 'git', 'capsule', 'errors'],
  'hosts/claude': ['local-state', 'history', 'transcript', 'budget', 'redact', 'errors'],
  'resume-runtime': ['resume', 'select', 'store', 'git', 'local-state', 'capsule', 'errors'],
  'budget-runtime': ['budget', 'hosts/claude', 'local-state', 'errors'],
};
const PURE = ['capsule', 'select', 'resume', 'transcript', 'work-state', 'history', 'budget', 'redact'];
const IMPURE = /\b(?:from ['"]node:(?:fs|child_process|fs\/promises)['"]|process\.env|Date\.now\(\)|new Date\(\)|console\.)/;

/** A file's layer: its top folder under lib/, or `hosts/<host>` for a host adapter. */
function layerOf(path: string): string {
  const [top, sub] = relative(LIB, path).split('/');
  return top === 'hosts' ? `hosts/${sub}` : top!;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the layers of lib/', () => {
  const sources = files(LIB).map((path) => ({ path, layer: layerOf(path), text: readFileSync(path, 'utf8') }));

  it.each(sources.filter((s) => ALLOWED[s.layer]).map((s) => [relative(LIB, s.path), s] as const))('%s imports only layers below it', (_n, s) => {
    const imports = [...s.text.matchAll(/(?:from |import\()'(\.\.?\/[^']+)'/g)].map((m) => layerOf(join(dirname(s.path), m[1]!)));
    for (const target of imports) if (target !== s.layer) expect(ALLOWED[s.layer]).toContain(target);
  });

  it.each(sources.filter((s) => PURE.includes(s.layer)).map((s) => [relative(LIB, s.path), s] as const))('%s stays pure', (_n, s) => {
    expect(s.text).not.toMatch(IMPURE);
  });
});
