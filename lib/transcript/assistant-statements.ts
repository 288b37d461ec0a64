import { clipText } from './work-event-text';

/** What an agent's final message of a turn says about the work state. */
export interface Statements {
  /** The next step it says it will take, in its words (`Next I will …` → `…`). */
  nextStep?: string;
  /** The question it ends the turn with: the work waits on the user's answer. */
  question?: string;
  /** Something it says the work waits on (a CI run, a pipeline, a review). */
  waiting?: string;
  /** What it reports finished, one clause each. */
  done: string[];
}

// The end of a message is where its plan is: only that much is read, so the scan stays bounded.
const MAX_READ_CHARS = 4000;
const MAX_SENTENCE_CHARS = 400;

// Explicit next-step phrasings, strongest first; the captured group is the step itself. Each
// with the openings (lower-cased) a sentence needs for it to match: run in turn, and only on a
// sentence that opens so, until one matches (all six ran on every sentence that opened one).
const NEXT_STEP: readonly { openings: readonly string[]; pattern: RegExp }[] = [
  { openings: ['next', 'then', 'after that', 'afterwards'], pattern: /^(?:next|then|after that|afterwards)[,:]? +(?:i(?:'ll| will| am going to|'m going to| plan to| want to)|we(?:'ll| will| should)|let me) +(.+)$/i },
  // "Next I rotate deploy.sh": the plain present, as people write a plan (never a past tense: "next I ran …" is a report).
  { openings: ['next'], pattern: /^next,? i +(?!(?:have|had|was|did|ran|tried|found|saw|fixed|added|made|wrote|got|went)\b)([a-z]+ .+)$/i },
  // "Next step: …" (the canonical colon), "The next step is to …", "Next steps are …".
  { openings: ['next step', 'the next step', 'my next step', 'our next step'], pattern: /^(?:the |my |our )?next steps?\b(?: (?:is|will be|would be|are))?(?: to)? *[:–-]? *(.+)$/i },
  { openings: ['next'], pattern: /^next *[:–-] *(.+)$/i },
  { openings: ["i'll", 'i will'], pattern: /^i(?:'ll| will) (?:now|next) +(.+)$/i },
  { openings: ["i'll", 'i will', 'let me'], pattern: /^(?:i(?:'ll| will)|let me) +(.+?) next[.!]?$/i },
  { openings: ['remaining', 'still to do', 'to do', 'todo'], pattern: /^(?:remaining|still to do|to ?do) *[:–-] *(.+)$/i },
];
// A plain `I will …` counts only at the very end of the message, and never when negated.
const WILL = /^i(?:'ll| will) +(?!not\b|never\b|no longer\b)(.+)$/i;
// What a sentence must open with (lower-cased) for NEXT_STEP or WILL to match it. Each pattern
// is compiled on its first use, ~0.1–0.4 ms apiece in a hook's process (measured: one final
// message through readStatements cost 2.6–4.4 ms of CPU cold, 0.07 ms warm), so a sentence
// that cannot match one never runs it.
const STEP_OPENINGS = ['next', 'then', 'after', 'the next', 'my next', 'our next', "i'll", 'i will', 'let me', 'remaining', 'still to do', 'to do', 'todo'];
// Words WAITING's patterns each need: `wait`, `once `, and the states of a run.
const WAITING_WORDS = ['wait', 'once ', 'running', 'queued', 'pending', 'in progress'];
const WAITING: readonly RegExp[] = [
  /\b(?:waiting|wait) (?:for|on|until)\b/i,
  /\bonce (?:the )?(?:ci|pipeline|build|deploy(?:ment)?|review|checks?)\b/i,
  /\b(?:ci|pipeline|build|deploy(?:ment)?|checks?)(?: #?\d+)? (?:is |are )?(?:still )?(?:running|queued|pending|in progress)\b/i,
];
// The verbs a clause opens with when it reports work done ("Fixed the parser", "We have added …"):
// a set, since one pattern over the list costs V8 ~1 ms to compile in every hook process.
const DONE_VERBS: ReadonlySet<string> = new Set('added fixed renamed wrote implemented created updated removed deleted drafted committed documented moved converted refactored replaced migrated finished completed installed configured merged pushed released deployed'.split(' '));
const DONE_LEAD = /^(?:i |we )?(?:have |'ve )?/i;
const FIRST_WORD = /^\w+/;
const DONE_STATE = /\b(?:is|are|was|were) (?:now )?(?:done|in place|fixed|finished|complete|completed|written|implemented|added|merged|committed|green|passing|updated)\b/i;
// DONE_STATE's words, which it needs side by side: its first run in a process costs ~2.5 ms (a
// long alternation), and "is " alone is in most sentences ("this ", "whose line is empty").
const STATE_VERBS = ['is ', 'are ', 'was ', 'were '];
const STATE_WORDS = ['done', 'in place', 'fixed', 'finished', 'complete', 'written', 'implemented', 'added', 'merged', 'committed', 'green', 'passing', 'updated'];
const DONE_PASSING = /\b(?:tests?|suite|specs?|checks?|lint|build|\S+\.test\.\w+) (?:now )?(?:pass|passes|passed|succeed|succeeds)\b/i;
const DONE_OPENING = /^(?:done|fixed|finished|completed)\b/i;
const DONE_OPENINGS = ['done', 'fixed', 'finished', 'completed'];
const DONE_WORD = /\b(?:finished|completed|succeeded)\b/i;
// Each with what a clause (lower-cased) needs before its pattern runs (see STEP_OPENINGS): words
// it holds, or a test of its own.
const DONE: readonly { words?: readonly string[]; may?: (lower: string) => boolean; test(clause: string): boolean }[] = [
  { may: mayStateDone, test: (c) => DONE_STATE.test(c) },
  { words: [' pass', ' succeed'], test: (c) => DONE_PASSING.test(c) },
  { test: (clause) => DONE_VERBS.has(FIRST_WORD.exec(clause.slice(DONE_LEAD.exec(clause)![0].length))?.[0].toLowerCase() ?? '') },
  { may: (lower) => DONE_OPENINGS.some((o) => lower.startsWith(o)), test: (c) => DONE_OPENING.test(c) },
  { words: ['finished', 'completed', 'succeeded'], test: (c) => DONE_WORD.test(c) },
];
// Separators after which a sentence goes on past its report (`split(/: |; |, but |, and then /)[0]`).
const HEAD_ENDS = [': ', '; ', ', but ', ', and then '];
// A clause that reports a failure or a limit is not a completion.
const NOT_DONE = /\b(?:fail|fails|failing|failed|error|errors|not|n't|still|cannot|unable|except|however|yet)\b/i;
// Nor is one that says what is to come: "Next I will fix it so the test passes" names a step, not a result.
const NOT_YET = /\b(?:will|shall|going to|next|should|need to|needs to|plan to|want to|let me|once|until)\b|'ll\b/i;
// The words (lower-cased) NOT_DONE and NOT_YET each need (see STEP_OPENINGS).
const NOT_DONE_WORDS = ['fail', 'error', 'not', "n't", 'still', 'cannot', 'unable', 'except', 'however', 'yet'];
const NOT_YET_WORDS = ['will', 'shall', 'going to', 'next', 'should', 'need', 'plan to', 'want to', 'let me', 'once', 'until', "'ll"];

/**
 * Reads the final message of a turn, sentence by sentence from the end: the stated next step,
 * a closing question to the user, a wait on CI or a review, and what it reports finished.
 * Deterministic word patterns over bounded text; no model.
 *
 * @example readStatements('Tests pass now. Next I will update the docs.').nextStep // 'update the docs'
 */
export function readStatements(message: string): Statements {
  const sentences = splitSentences(message.slice(-MAX_READ_CHARS));
  const out: Statements = { done: [] };
  const last = sentences.length - 1;
  for (let i = last; i >= 0; i--) {
    const s = sentences[i]!;
    const lower = s.toLowerCase();
    if (out.nextStep === undefined && STEP_OPENINGS.some((o) => lower.startsWith(o))) {
      const step = statedStep(s, lower) ?? (i >= last - 1 ? WILL.exec(s)?.[1] : undefined);
      if (step !== undefined) out.nextStep = tidy(step);
    }
    // A plan stated after a report in the same sentence ("Config done; next I rotate deploy.sh").
    if (out.nextStep === undefined && i >= last - 1) {
      const step = clauseStep(s);
      if (step !== undefined) out.nextStep = tidy(step);
    }
    if (out.question === undefined && i >= last - 1 && s.endsWith('?')) out.question = tidy(s);
    if (out.waiting === undefined && WAITING_WORDS.some((w) => lower.includes(w)) && WAITING.some((re) => re.test(s))) out.waiting = tidy(s);
  }
  for (const s of sentences) {
    // "The auth tests pass now: login() did not await" — the clause before the colon is the report.
    const head = s.slice(0, headEnd(s));
    // A bare "Fixed:" says nothing by itself; the sentence it opens does.
    const clause = head.split(' ').length < 3 ? s : head;
    const lower = head.toLowerCase();
    const has = (words: readonly string[]) => words.some((w) => lower.includes(w));
    if (DONE.some((d) => (d.words === undefined || has(d.words)) && (d.may === undefined || d.may(lower)) && d.test(head)) && !(has(NOT_DONE_WORDS) && NOT_DONE.test(head)) && !(has(NOT_YET_WORDS) && NOT_YET.test(head))) out.done.push(tidy(clause));
    if (out.done.length === 3) break;
  }
  return out;
}

/** A step stated in a later clause of the sentence (after `; `, `, `, ` and ` or a dash), or undefined. */
function clauseStep(s: string): string | undefined {
  const parts = s.split(/(?<=[.!?]) |; |, (?:and )?| and | — | – /);
  for (let k = parts.length - 1; k >= 1; k--) {
    const clause = parts[k]!.trim();
    const lower = clause.toLowerCase();
    if (!STEP_OPENINGS.some((o) => lower.startsWith(o))) continue;
    const step = statedStep(clause, lower);
    if (step !== undefined) return step;
  }
  return undefined;
}

/** The step the first NEXT_STEP pattern that matches `s` captures (`lower` is `s` lower-cased). */
function statedStep(s: string, lower: string): string | undefined {
  for (const { openings, pattern } of NEXT_STEP) {
    if (!openings.some((o) => lower.startsWith(o))) continue;
    const step = pattern.exec(s)?.[1];
    if (step !== undefined) return step;
  }
  return undefined;
}

/** True when `lower` holds one of STATE_VERBS followed (maybe after `now `) by one of STATE_WORDS: what DONE_STATE needs to match. */
export function mayStateDone(lower: string): boolean {
  for (const verb of STATE_VERBS) {
    for (let at = lower.indexOf(verb); at !== -1; at = lower.indexOf(verb, at + 1)) {
      const after = at + verb.length;
      if (STATE_WORDS.some((w) => lower.startsWith(w, after) || lower.startsWith(`now ${w}`, after))) return true;
    }
  }
  return false;
}

/** Where the first of HEAD_ENDS starts in `s` (its length when none does). */
function headEnd(s: string): number {
  let end = s.length;
  for (const sep of HEAD_ENDS) {
    const at = s.indexOf(sep);
    if (at !== -1 && at < end) end = at;
  }
  return end;
}

/** Splits text into sentences and lines, each trimmed and bounded. */
export function splitSentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=["'(A-Z0-9`*])/)
    .map((s) => s.replace(/^[\s*>#-]+/, '').trim().slice(0, MAX_SENTENCE_CHARS))
    .filter((s) => s !== '');
}

// A step or question as a fresh session reads it: addressed to nobody in particular.
function tidy(text: string): string {
  const flat = text.replace(/[.!]+$/, '').replace(/\byour\b/gi, "the user's").replace(/\byou\b/gi, 'the user');
  // A sentence may open with a path or an identifier: those keep their case.
  const first = flat.split(' ', 1)[0]!;
  return clipText(/[/.()_]/.test(first) ? flat : flat.charAt(0).toUpperCase() + flat.slice(1));
}
