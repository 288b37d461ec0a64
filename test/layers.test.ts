import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { typeScriptFiles } from './support/lib-sources';

const LIB = join(__dirname, '..', 'lib');

const PURE = ['errors', 'capsule', 'redact', 'select', 'resume', 'transcript', 'work-state', 'history', 'budget', 'supervise', 'json-text'];

/**
 * Which lib/ layers each layer may import (STYLE.md: imports point down; CONTRIBUTING.md draws
 * the same picture). Pure cores import only cores below them; the I/O rooms import the cores and
 * the rooms below; the procedures import the rooms; the surfaces import everything but each other.
 */
const ALLOWED: Record<string, string[]> = {
  errors: [],
  capsule: ['errors'],
  redact: ['errors'],
  select: ['capsule', 'errors'],
  resume: ['select', 'capsule', 'errors'],
  transcript: ['capsule', 'redact', 'errors'],
  'work-state': ['transcript', 'capsule', 'redact', 'errors'],
  history: ['transcript', 'errors'],
  budget: ['transcript', 'capsule', 'errors'],
  'json-text': ['errors'],
  supervise: ['budget', 'errors'],
  git: ['errors'],
  'local-state': ['git', ...PURE],
  store: ['git', 'local-state', 'capsule', 'redact', 'errors'],
  sync: ['store', 'git', 'local-state', 'capsule', 'errors'],
  // The host seam (files directly under lib/hosts/): what every adapter shares, below the adapters.
  hosts: ['local-state', 'git', ...PURE],
  'hosts/claude': ['hosts', 'local-state', 'git', ...PURE],
  'hosts/codex': ['hosts', 'local-state', 'git', ...PURE],
  'hosts/copilot': ['hosts', 'local-state', 'git', ...PURE],
  'resume-runtime': ['store', 'git', 'local-state', 'hosts', ...PURE],
  'budget-runtime': ['hosts', 'hosts/claude', 'local-state', 'git', ...PURE],
  'supervise-runtime': ['budget-runtime', 'resume-runtime', 'store', 'hosts', 'hosts/claude', 'local-state', 'git', ...PURE],
  launch: [],
};
const SURFACES: Record<string, string> = { hooks: 'cli', cli: 'hooks' };

/** The only layers that may start processes: lib/git starts every git process, lib/supervise-runtime the client it supervises. */
const SPAWNING = ['git', 'supervise-runtime'];

/** A file's layer: its top folder under lib/, `hosts/<host>` for a host adapter, `hosts` for the seam beside them. */
function layerOf(path: string): string {
  const [top, sub] = relative(LIB, path).split('/');
  if (top !== 'hosts') return top!;
  const adapter = sub !== undefined && existsSync(join(LIB, 'hosts', sub)) && statSync(join(LIB, 'hosts', sub)).isDirectory();
  return adapter ? `hosts/${sub}` : 'hosts';
}


/** The lib/ files `s` imports for their values (type-only imports vanish at build: they cannot cycle). */
function valueImports(s: Source): string[] {
  const out: string[] = [];
  for (const m of s.text.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from\s+'(\.[^']+)'/gm)) {
    const base = join(dirname(s.path), m[1]!);
    out.push(existsSync(`${base}.ts`) ? `${base}.ts` : join(base, 'index.ts'));
  }
  return out;
}

/** Every import cycle in a graph of files, each as the path that closes it. */
function importCycles(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[][] = [];
  const visit = (file: string, stack: string[]): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next, stack);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file, []);
  return cycles;
}

interface Source {
  path: string;
  layer: string;
  text: string;
}

/** The layers `s` imports that its rules do not allow. */
function violations(s: Source, layerOfImport: (spec: string) => string): string[] {
  const imports = [...s.text.matchAll(/(?:from |import\(|require\()'(\.\.?\/[^']+)'/g)].map((m) => layerOfImport(m[1]!));
  const allowed = (target: string) => {
    if (target === s.layer) return true;
    if (s.layer in SURFACES) return target !== SURFACES[s.layer] && (target in ALLOWED || target.startsWith('hosts'));
    return (ALLOWED[s.layer] ?? []).includes(target);
  };
  return [...new Set(imports.filter((t) => !allowed(t)))];
}

const IMPURE = /\b(?:from ['"]node:(?:fs|child_process|fs\/promises)['"]|process\.env|Date\.now\(\)|new Date\(\)|console\.)/;
const SPAWN = /(?:from |require\()['"]node:child_process['"]/;

describe('the layers of lib/', () => {
  const sources: Source[] = typeScriptFiles(LIB).map((path) => ({ path, layer: layerOf(path), text: readFileSync(path, 'utf8') }));
  const named = (list: Source[]) => list.map((s) => [relative(LIB, s.path), s] as const);

  it('has a rule for every folder', () => {
    expect([...new Set(sources.map((s) => s.layer))].filter((l) => !(l in ALLOWED) && !(l in SURFACES))).toEqual([]);
  });

  it("is drawn in CONTRIBUTING.md's picture, every layer of it", () => {
    const picture = readFileSync(join(LIB, '..', 'CONTRIBUTING.md'), 'utf8').split('```')[1] ?? '';
    const drawn = (layer: string) => new RegExp(`lib/${layer}(?=\\s)`).test(picture) || (layer.startsWith('hosts/') && picture.includes('lib/hosts/<host>'));
    expect([...new Set(sources.map((s) => s.layer))].filter((l) => !drawn(l))).toEqual([]);
  });

  it.each(named(sources))('%s imports only layers below it', (_n, s) => {
    expect(violations(s, (spec) => layerOf(join(dirname(s.path), spec)))).toEqual([]);
  });

  it.each(named(sources.filter((s) => PURE.includes(s.layer))))('%s stays pure', (_n, s) => {
    expect(s.text).not.toMatch(IMPURE);
  });

  it.each(named(sources.filter((s) => !SPAWNING.includes(s.layer))))('%s starts no process (git goes through lib/git)', (_n, s) => {
    expect(s.text).not.toMatch(SPAWN);
  });

  // A cycle makes module order decide what is initialised when: a bundle then reads an
  // undefined export at start-up. Shared shapes go in a file of their own instead.
  it('has no import cycle between files', () => {
    const graph = new Map(sources.map((s) => [s.path, valueImports(s)]));
    expect(importCycles(graph).map((c) => c.map((f) => relative(LIB, f)).join(' -> '))).toEqual([]);
  });

  it('names a cycle: a imports b, b imports a', () => {
    expect(importCycles(new Map([['a', ['b']], ['b', ['a']], ['c', ['a']]]))).toEqual([['a', 'b', 'a']]);
  });

  it('names a violation: cli importing hooks, a pure core importing a room, store importing sync', () => {
    const at = (layer: string): Source => ({ path: join(LIB, layer, 'x.ts'), layer, text: '' });
    const check = (layer: string, target: string) => violations({ ...at(layer), text: `import { x } from '../${target}/y';` }, (spec) => spec.split('/')[1]!);
    expect(check('cli', 'hooks')).toEqual(['hooks']);
    expect(check('hooks', 'cli')).toEqual(['cli']);
    expect(check('select', 'store')).toEqual(['store']);
    expect(check('store', 'sync')).toEqual(['sync']);
    expect(check('git', 'local-state')).toEqual(['local-state']);
    expect(check('cli', 'store')).toEqual([]);
  });
});
