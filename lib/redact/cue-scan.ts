// Which detectors can match a text, decided in one native pass. Every detector but the random
// token fallback needs a literal in the text (a provider prefix, a command word, a secret word),
// and checking each of ~300 literals with `includes` ran as JavaScript, mostly not yet compiled
// in a hook's short process: 2.4–3.6 ms of CPU per Stop on 3 KB of text (23 strings), 1.4 ms warm.
// One regular expression of all of them, run by V8's regexp engine, finds the same set in
// 0.4–0.7 ms cold and 0.05 ms warm (measured 2026-12-01, node 20, `--no-regexp-tier-up` as Stop
// runs it; the trigram table and an Aho–Corasick matcher in JavaScript before it did not pay).

/** The cues one text holds and the families they belong to (bit `1 << n` for family `n`). */
export interface CuesFound {
  cues: ReadonlySet<string>;
  families: number;
}

/** A cue and the bits of the detector families it opens. */
export interface Cue {
  text: string;
  families: number;
}

/**
 * Builds a scanner for `cues`: it returns the cues a text holds (every one, also where two
 * overlap or one holds another) and the union of their families, or null when it holds none.
 * The alternation is tried longest first at each position and the search goes on one character
 * after each hit, so every position where a cue starts is reported with its longest cue; the
 * shorter cues that start there are its prefixes, looked up per hit (hits are rare; a table of
 * which cue holds which, built at load, cost 5 ms of a hook's start).
 *
 * @example
 * const scan = cueScanner([{ text: 'ghp_', families: 1 }, { text: 'token', families: 2 }]);
 * scan('GITHUB_TOKEN=ghp_x')?.families // 1
 */
export function cueScanner(cues: readonly Cue[]): (text: string) => CuesFound | null {
  const families = new Map<string, number>();
  for (const c of cues) families.set(c.text, (families.get(c.text) ?? 0) | c.families);
  const literals = [...families.keys()].sort((a, b) => b.length - a.length);
  const scan = new RegExp(literals.map((l) => l.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|'), 'g');
  return (text) => {
    let found: Set<string> | null = null;
    let bits = 0;
    scan.lastIndex = 0;
    for (let m = scan.exec(text); m !== null; m = scan.exec(text)) {
      const hit = m[0];
      found ??= new Set();
      for (let k = 1; k <= hit.length; k++) {
        const f = families.get(k === hit.length ? hit : hit.slice(0, k));
        if (f === undefined) continue;
        found.add(hit.slice(0, k));
        bits |= f;
      }
      scan.lastIndex = m.index + 1;
    }
    return found === null ? null : { cues: found, families: bits };
  };
}
