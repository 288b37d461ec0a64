// An ordinary-text corpus for the redactor's false-positive check: real code of this repository
// and of its dependencies, and generated lines of the identifiers a session prints all day (git
// ids, UUIDs, ULIDs, hashes, integrity strings, paths, image digests). None holds a secret, so
// every redaction in it is a false positive. Seeded and read from fixed files: the same every run.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../support/seeded-random';

const ROOT = join(__dirname, '..', '..');

function files(dir: string, ext: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, ext) : ext.test(name) ? [path] : [];
  });
}

/** One part of the corpus: a name and its text. */
export interface CorpusPart {
  name: string;
  text: string;
}

/** The ordinary-code corpus (several MB), part by part. */
export function ordinaryCorpus(): CorpusPart[] {
  const rand = seededRandom(1600);
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
  const crock = (n: number) => Array.from({ length: n }, () => '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[Math.floor(rand() * 32)]).join('');
  const words = ['widget', 'parser', 'store', 'capsule', 'index', 'render', 'session', 'budget', 'history', 'sync', 'merge', 'token', 'secret'];
  const word = () => words[Math.floor(rand() * words.length)]!;
  const lines = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join('\n');
  const code = (dir: string, ext: RegExp, name: string): CorpusPart => ({ name, text: files(join(ROOT, dir), ext).map((f) => readFileSync(f, 'utf8')).join('\n') });
  return [
    // This repository's lib/ (its redactor excluded: it spells the very prefixes it looks for).
    { name: 'lib/ sources', text: files(join(ROOT, 'lib'), /\.ts$/).filter((f) => !f.includes(`${join('lib', 'redact')}`) && !f.includes('generated')).map((f) => readFileSync(f, 'utf8')).join('\n') },
    code('node_modules/yaml/dist', /\.js$/, 'yaml (dependency)'),
    code('node_modules/ajv/lib', /\.ts$/, 'ajv (dependency)'),
    code('node_modules/typescript/lib', /^lib\.(es5|dom)\.d\.ts$/, 'TypeScript lib.es5/lib.dom.d.ts'),
    { name: 'git log --stat', text: lines(3000, (i) => (i % 3 === 0 ? `commit ${hex(40)}\nAuthor: Jane Doe <jane@example.com>\nDate:   Sun Nov 29 21:${String(i % 60).padStart(2, '0')}:00 2026 +0100\n\n    fix ${word()} ${word()} (#${i})` : ` lib/${word()}/${word()}-${word()}.ts | ${i % 40} ${'+'.repeat(i % 7)}${'-'.repeat(i % 3)}`)) },
    { name: 'UUIDs v4 and v7', text: lines(3000, (i) => `"sessionId": "${hex(8)}-${hex(4)}-${i % 2 ? '4' : '7'}${hex(3)}-${'89ab'[i % 4]}${hex(3)}-${hex(12)}",`) },
    { name: 'ULIDs', text: lines(3000, () => `id: 01${crock(24)}`) },
    { name: 'sha256, sha1, md5', text: lines(3000, (i) => `${createHash(['sha256', 'sha1', 'md5'][i % 3]!).update(String(i)).digest('hex')}  dist/${word()}-${i}.tar.gz`) },
    { name: 'npm integrity (sha512, base64)', text: lines(3000, (i) => `"integrity": "sha512-${createHash('sha512').update(String(i)).digest('base64')}",`) },
    { name: 'container image digests', text: lines(2000, (i) => `ghcr.io/acme/${word()}@sha256:${createHash('sha256').update(`i${i}`).digest('hex')}`) },
    { name: 'paths', text: lines(4000, (i) => `/home/dev/src/${word()}-${word()}/packages/${word()}/src/components/${word()[0]!.toUpperCase()}${word()}View${i % 10}/index.test.tsx:${i % 300}:${i % 80}`) },
    { name: 'tool ids and request ids', text: lines(3000, () => `"tool_use_id": "toolu_01${crock(22)}", "requestId": "req_011CV${crock(19)}"`) },
  ].filter((p) => p.text.length > 0);
}
