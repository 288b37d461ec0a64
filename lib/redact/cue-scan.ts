// Which detectors can match a text, decided in one pass. Every detector but the random token
// fallback needs a literal in the text (a provider prefix, a command word, a secret word), and
// checking each of ~200 literals with `includes` ran as JavaScript, mostly not yet compiled in a
// hook's short process: 2.4–3.6 ms of CPU per Stop on 3 KB of text (23 strings), 1.4 ms warm. One
// regular expression of all of them cost 1–2 ms cold (V8 compiles so large a pattern twice, to
// bytecode and then to machine code); this pass, 0.3–0.5 ms, which took Stop's first redaction
// (its records) from 2.8 to 1.2 ms and PreCompact's (its state) from 6.6 to 1.9 (process.cpuUsage
// marks, medians of 15 runs, 2026-12-01). A trigram table and an Aho–Corasick matcher before it
// did not pay.

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
 * Builds a scanner for `cues` (each at least two ASCII characters): it returns the cues a text
 * holds (every one, also where two overlap or one holds another) and the union of their
 * families, or null when it holds none. One pass over the text: a table of the cues' first two
 * characters rules out almost every position, and a position it does not rule out is checked
 * against the few cues that start with those two characters.
 *
 * @example
 * const scan = cueScanner([{ text: 'ghp_', families: 1 }, { text: 'token', families: 2 }]);
 * scan('GITHUB_TOKEN=ghp_x')?.families // 1
 */
export function cueScanner(cues: readonly Cue[]): (text: string) => CuesFound | null {
  const families = new Map<string, number>();
  for (const c of cues) {
    if (c.text.length < 2 || !/^[\x00-\x7f]+$/.test(c.text)) throw new RangeError(`a cue is two or more ASCII characters: ${JSON.stringify(c.text)}`);
    families.set(c.text, (families.get(c.text) ?? 0) | c.families);
  }
  const starts = new Uint8Array(128 * 128);
  const byStart = new Map<number, Array<{ text: string; families: number }>>();
  for (const [text, f] of families) {
    const key = text.charCodeAt(0) * 128 + text.charCodeAt(1);
    starts[key] = 1;
    const list = byStart.get(key) ?? [];
    list.push({ text, families: f });
    byStart.set(key, list);
  }
  return (text) => {
    let found: Set<string> | null = null;
    let bits = 0;
    const last = text.length - 1;
    let b = text.charCodeAt(0);
    for (let i = 0; i < last; i++) {
      const a = b;
      b = text.charCodeAt(i + 1);
      if (a >= 128 || b >= 128 || starts[a * 128 + b] === 0) continue;
      for (const cue of byStart.get(a * 128 + b)!) {
        if (!text.startsWith(cue.text, i)) continue;
        (found ??= new Set()).add(cue.text);
        bits |= cue.families;
      }
    }
    return found === null ? null : { cues: found, families: bits };
  };
}
