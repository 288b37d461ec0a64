/**
 * The known word closest to a mistyped one, for a "did you mean" hint: the smallest edit
 * distance (insert, delete, substitute, swap two neighbours), within a third of the word's
 * length, or a known word that starts with it. Null when nothing is that close.
 */
export function closest(word: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(word, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  if (best !== null && bestDistance <= Math.max(1, Math.floor(word.length / 3))) return best;
  const prefixed = known.filter((k) => word.length >= 2 && k.startsWith(word));
  return prefixed.length === 1 ? prefixed[0]! : null;
}

/** Optimal string alignment distance: Levenshtein plus the swap of two neighbouring characters. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
