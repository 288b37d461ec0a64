// Which detectors can match a text, decided in one pass. Checking each detector's literal gate
// with `includes` costs about 0.5 µs/KB per gate, and there are over a hundred gates: more than
// all the detectors together on text that holds no secret. One pass marks every trigram of the
// text in a table (a hash, so a mark may be shared; a missing mark is certain), and a gate whose
// trigrams are all marked is then confirmed with one `includes`.
const BITS = 18;
const SIZE = 1 << BITS;
const marks = new Uint32Array(SIZE);
let stamp = 0;

// Collision-free for ASCII (127 × 961 + 127 × 31 + 127 < SIZE); other characters fold onto it.
// Plain arithmetic, not Math.imul: under jest's vm context imul costs 40× more.
function trigram(a: number, b: number, c: number): number {
  return (a * 961 + b * 31 + c) & (SIZE - 1);
}

/** The gates of one text: `has(gate)` is exact (the table only rules gates out before `includes`). */
export interface GateSet {
  has(gate: string): boolean;
}

/** Marks the trigrams of `text`; the returned set answers for this text until the next call. */
export function gatesOf(text: string): GateSet {
  if (text.length < 256) return { has: (g) => text.includes(g) };
  stamp = (stamp + 1) >>> 0;
  if (stamp === 0) {
    marks.fill(0);
    stamp = 1;
  }
  const mine = stamp;
  let a = text.charCodeAt(0);
  let b = text.charCodeAt(1);
  for (let i = 2; i < text.length; i++) {
    const c = text.charCodeAt(i);
    marks[trigram(a, b, c)] = mine;
    a = b;
    b = c;
  }
  const verdicts = new Map<string, boolean>();
  return {
    has(gate: string): boolean {
      const known = verdicts.get(gate);
      if (known !== undefined) return known;
      // The table answers only for the text marked last (a later call marks another).
      let possible = true;
      if (mine === stamp) {
        for (let i = 2; possible && i < gate.length; i++) {
          possible = marks[trigram(gate.charCodeAt(i - 2), gate.charCodeAt(i - 1), gate.charCodeAt(i))] === mine;
        }
      }
      const verdict = possible && text.includes(gate);
      verdicts.set(gate, verdict);
      return verdict;
    },
  };
}
