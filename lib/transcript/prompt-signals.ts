/**
 * What a typed prompt or an assistant sentence says about the work, read from its words alone
 * (docs/work-state.md "Signals"): a correction turns the agent away from what it was doing; a decision records a
 * choice. Shared by every host's transcript reader.
 */

/** Typed prompts that turn the agent away from what it was doing. */
const CORRECTION = /^\s*(?:no\b|nope\b|don'?t\b|do not\b|stop\b|wrong\b|that'?s not\b|that is not\b|not that\b|instead\b|revert\b|undo\b)/i;
// CORRECTION's first words (ASCII letters, lower-cased) and the words every DECISION holds: each
// /i pattern is compiled on its first use (0.1–0.4 ms apiece in a hook's process), so a text
// without them never runs it.
const CORRECTION_OPENINGS: ReadonlySet<string> = new Set('no nope don dont do stop wrong that thats not instead revert undo'.split(' '));
const LEADING_WORD = /^\s*([A-Za-z]*)/;
// One of DECISION's alternatives holds each (`use … instead` its `instead`): `use` alone let most
// long texts through (because, user, used), and DECISION's first run costs ~2 ms in a fresh process.
const DECISION_WORDS = ['let', 'go with', 'decided to', "'ll use", 'will use', 'instead', 'switch'];

/** Sentences that record a choice, from the user or the agent. */
const DECISION = /\b(?:let'?s (?:go with|use|keep|switch to)|go with|decided to|we(?:'ll| will) use|i(?:'ll| will) (?:use|go with|switch to)|use .{1,60} instead\b|switch(?:ing)? to)\b/i;

/** True when a typed prompt turns the agent away from what it was doing (`no, …`, `stop`, `revert that`). */
export function isCorrection(text: string): boolean {
  return CORRECTION_OPENINGS.has(LEADING_WORD.exec(text)![1]!.toLowerCase()) && CORRECTION.test(text);
}

/** True when the text records a choice (`let's go with …`, `decided to …`, `use X instead`). */
export function isDecision(text: string): boolean {
  return mayHoldDecision(text) && DECISION.test(text);
}

function mayHoldDecision(text: string): boolean {
  const lower = text.toLowerCase();
  return DECISION_WORDS.some((w) => lower.includes(w));
}

/** The first sentence of `text` that records a decision, or null. */
export function decisionSentence(text: string): string | null {
  // Bounded: a decision is a sentence, and a pasted megabyte is read no further than its start.
  const head = text.slice(0, 8000);
  if (!mayHoldDecision(head)) return null;
  for (const sentence of head.split(/(?<=[.!?])\s+|\n+/)) if (sentence.length <= 400 && DECISION.test(sentence)) return sentence.trim();
  return null;
}
