import { parseFlatFrontmatter } from './flat-frontmatter';
import { loadYaml } from './yaml-lib';
import { prescreenYaml } from './yaml-prescreen';
import { MAX_CAPSULE_BYTES, MAX_YAML_ALIASES } from './limits';
import type { Frontmatter, Problem } from './types';

export interface SplitResult {
  /** The YAML between the fences, or null when there is none. */
  yaml: string | null;
  body: string;
  problems: Problem[];
}

// NUL and the C0 controls other than tab/newline/carriage return mark binary content.
const BINARY = /[\u0000-\u0008\u000e-\u001f]/;

/**
 * Splits a capsule document into its frontmatter and body. Tolerates a UTF-8 BOM and CRLF
 * line ends; refuses (as problems, never exceptions) a document over MAX_CAPSULE_BYTES, binary
 * bytes, no opening `---`, or no closing `---`.
 */
export function splitFrontmatter(raw: string): SplitResult {
  const bytes = Buffer.byteLength(raw, 'utf8');
  if (bytes > MAX_CAPSULE_BYTES) {
    return fail('TOO_LARGE', `document is ${bytes} bytes; a capsule may be at most ${MAX_CAPSULE_BYTES} bytes`);
  }
  const text = raw.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const binaryAt = text.search(BINARY);
  if (binaryAt >= 0) {
    const code = text.charCodeAt(binaryAt).toString(16).padStart(4, '0');
    return fail('BINARY_CONTENT', `document holds a binary control character U+${code} at offset ${binaryAt}; a capsule is UTF-8 text`);
  }
  if (!text.startsWith('---\n') && text !== '---') {
    return fail('NO_FRONTMATTER', 'document does not start with a "---" line; a capsule opens with YAML frontmatter between two "---" lines');
  }
  const close = /^---[ \t]*$/m;
  const rest = text.slice(4);
  const end = rest.search(close);
  if (end < 0) {
    return fail('FRONTMATTER_UNTERMINATED', 'frontmatter has no closing "---" line; add one after the last field');
  }
  const after = rest.slice(end).replace(/^---[ \t]*(\n|$)/, '');
  return { yaml: rest.slice(0, end), body: after, problems: [] };
}

export interface YamlResult {
  frontmatter: Frontmatter | null;
  problems: Problem[];
}

/**
 * Parses frontmatter YAML (YAML 1.2 core schema, so stamps stay strings) into a mapping; a flat
 * mapping of string scalars is read without loading the YAML library (lib/capsule/flat-frontmatter.ts).
 * Syntax errors, duplicate keys, collection keys, more than MAX_YAML_ALIASES alias expansions, a
 * document too deep or too large to parse in bounded time (lib/capsule/yaml-prescreen.ts) and a
 * non-mapping root become problems; the function never throws.
 */
export function parseFrontmatterYaml(yaml: string): YamlResult {
  const flat = parseFlatFrontmatter(yaml);
  if (flat !== null) return { frontmatter: flat, problems: [] };
  const tooComplex = prescreenYaml(yaml);
  if (tooComplex !== null) return { frontmatter: null, problems: [tooComplex] };
  const lib = loadYaml();
  let doc;
  try {
    // logLevel 'error': the library's warnings go to process.emitWarning, i.e. the hook's stderr.
    doc = lib.parseDocument(yaml, { schema: 'core', uniqueKeys: true, prettyErrors: false, strict: true, logLevel: 'error' });
  } catch (err) {
    return { frontmatter: null, problems: [problem('YAML_SYNTAX', `frontmatter is not YAML: ${message(err)}`)] };
  }
  if (doc.errors.length > 0) {
    const duplicate = doc.errors.find((e) => e.code === 'DUPLICATE_KEY');
    if (duplicate) return { frontmatter: null, problems: [problem('YAML_DUPLICATE_KEY', `frontmatter repeats a key: ${firstLine(duplicate.message)}`)] };
    return { frontmatter: null, problems: [problem('YAML_SYNTAX', `frontmatter is not valid YAML: ${firstLine(doc.errors[0]!.message)}`)] };
  }
  if (hasComplexKey(lib, doc)) {
    return { frontmatter: null, problems: [problem('YAML_COMPLEX_KEY', 'frontmatter uses a list or mapping as a key; keys must be plain words like objective')] };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    const text = message(err);
    const code = /alias/i.test(text) ? 'YAML_ALIAS_LIMIT' : 'YAML_SYNTAX';
    return { frontmatter: null, problems: [problem(code, `frontmatter could not be expanded: ${firstLine(text)}`)] };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const got = value === null ? 'nothing' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
    return { frontmatter: null, problems: [problem('YAML_NOT_MAPPING', `frontmatter must be a mapping of fields, got ${got}`)] };
  }
  return { frontmatter: value as Frontmatter, problems: [] };
}

/** A key that is a collection (`? [a, b]: v`): JavaScript objects would stringify it into a made-up field name. */
function hasComplexKey(lib: ReturnType<typeof loadYaml>, doc: ReturnType<ReturnType<typeof loadYaml>['parseDocument']>): boolean {
  let found = false;
  lib.visit(doc, {
    Pair: (_key, pair) => {
      if (pair.key !== null && !lib.isScalar(pair.key) && !lib.isAlias(pair.key)) {
        found = true;
        return lib.visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

function fail(code: string, msg: string): SplitResult {
  return { yaml: null, body: '', problems: [problem(code, msg)] };
}

function problem(code: string, msg: string): Problem {
  return { code, message: msg };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 200);
}
