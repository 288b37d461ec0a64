/**
 * What a typed prompt or an assistant sentence says about the work, read from its words alone
 * (seed 003): a correction turns the agent away from what it was doing; a decision records a
 * choice. Shared by every host's transcript reader.
 */

/** Typed prompts that turn the agent away from what it was doing. */
export const CORRECTION = /^\s*(?:no\b|nope\b|don'?t\b|do not\b|stop\b|wrong\b|that'?s not\b|that is not\b|not that\b|instead\b|revert\b|undo\b)/i;

/** Sentences that record a choice, from the user or the agent. */
export const DECISION = /\b(?:let'?s (?:go with|use|keep|switch to)|go with|decided to|we(?:'ll| will) use|i(?:'ll| will) (?:use|go with|switch to)|use .{1,60} instead\b|switch(?:ing)? to)\b/i;

/** The first sentence of `text` that records a decision, or null. */
export function decisionSentence(text: string): string | null {
  // Bounded: a decision is a sentence, and a pasted megabyte is read no further than its start.
  for (const sentence of text.slice(0, 8000).split(/(?<=[.!?])\s+|\n+/)) if (sentence.length <= 400 && DECISION.test(sentence)) return sentence.trim();
  return null;
}
