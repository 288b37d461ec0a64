import type { Problem } from './types';

// The YAML library parses synchronously, and its cost grows faster than the input on some
// shapes: ~200 KB of `[[[[…` keeps it busy for seconds, and a hook's fail-open timer cannot fire
// while it runs (the host kills the hook at 10 s, and a resume that timed out consumed nothing, so
// every later /clear meets the same document). A capsule's frontmatter is a shallow mapping of a
// few dozen short lines; anything far outside that is refused here, in one linear pass, before the
// library sees it.
/** Deepest nesting of flow collections (`[`, `{`) and block sequences (`- - -`) accepted. */
export const MAX_YAML_DEPTH = 16;
/** Longest line accepted (an objective of 4,000 characters fits with every character escaped). */
export const MAX_YAML_LINE = 32 * 1024;
/** Most lines accepted. */
export const MAX_YAML_LINES = 2000;
/** Most flow-collection items and block entries accepted. */
export const MAX_YAML_NODES = 10_000;

/** A problem when the frontmatter is too deep, too long, or holds too many nodes to parse; null when it may be parsed. */
export function prescreenYaml(yaml: string): Problem | null {
  let depth = 0;
  let deepest = 0;
  let nodes = 0;
  let lines = 1;
  let lineStart = 0;
  let quote = 0; // the open quote character, 0 outside quotes (a line break ends one outside a flow collection)
  let atLineStart = true;
  let blockDepth = 0;
  for (let i = 0; i < yaml.length; i++) {
    const c = yaml.charCodeAt(i);
    if (c === 10) {
      if (i - lineStart > MAX_YAML_LINE) return refuse(`a line of ${i - lineStart} characters (at most ${MAX_YAML_LINE})`);
      if (++lines > MAX_YAML_LINES) return refuse(`more than ${MAX_YAML_LINES} lines`);
      lineStart = i + 1;
      atLineStart = true;
      blockDepth = 0;
      if (depth === 0) quote = 0;
      continue;
    }
    if (quote !== 0) {
      if (c === quote) quote = 0;
      else if (c === 92 && quote === 34) i++; // an escape inside "…"
      continue;
    }
    if (atLineStart) {
      if (c === 32 || c === 9) continue;
      // `- - - x` opens one block sequence per dash.
      if (c === 45 && (yaml.charCodeAt(i + 1) === 32 || yaml.charCodeAt(i + 1) === 10)) {
        blockDepth++;
        nodes++;
        if (blockDepth > MAX_YAML_DEPTH) return refuse(`block sequences nested more than ${MAX_YAML_DEPTH} deep`);
        continue;
      }
      atLineStart = false;
    }
    if (c === 91 || c === 123) {
      if (++depth > deepest) deepest = depth;
      if (deepest > MAX_YAML_DEPTH) return refuse(`flow collections nested more than ${MAX_YAML_DEPTH} deep`);
      nodes++;
    } else if (c === 93 || c === 125) {
      if (depth > 0) depth--;
    } else if (c === 44 && depth > 0) {
      nodes++;
    } else if (c === 34 || c === 39) {
      quote = c;
    }
    if (nodes > MAX_YAML_NODES) return refuse(`more than ${MAX_YAML_NODES} collection items`);
  }
  if (yaml.length - lineStart > MAX_YAML_LINE) return refuse(`a line of ${yaml.length - lineStart} characters (at most ${MAX_YAML_LINE})`);
  return null;
}

function refuse(what: string): Problem {
  return { code: 'YAML_TOO_COMPLEX', message: `frontmatter has ${what}; a capsule's frontmatter is a shallow mapping of short fields` };
}
