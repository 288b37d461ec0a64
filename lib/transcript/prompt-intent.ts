import { splitSentences } from './assistant-statements';

/**
 * What a typed prompt asks for: a new `task` (the objective follows it), a `go-on` with the
 * current work, a `question` (it sets no objective when one exists), or `chat` (greetings,
 * thanks, goodbyes: never a task, never a plan).
 */
export type PromptIntent = 'task' | 'go-on' | 'question' | 'chat';

/** A prompt's intent and, for a task, the prompt from its first task sentence on. */
export interface ReadPrompt {
  intent: PromptIntent;
  /** The task as the objective states it: leading chat sentences and filler words dropped. */
  task?: string;
}

// Words that open a sentence without carrying its meaning, each with the `,!.:` and spaces after
// it (dropFiller; `okay` before `ok`).
const FILLER_WORDS: readonly string[] = ['okay', 'ok', 'great', 'cool', 'nice', 'perfect', 'awesome', 'thanks', 'thank you', 'alright', 'all right', 'good', 'yes', 'yeah', 'yep', 'sure', 'now', 'so', 'and', 'also', 'then', 'next', 'first', 'please', 'pls', 'hey', 'hi', 'hello'];
// The first word (its ASCII letters, lower-cased) of a text CHAT or REQUEST_LEAD can match: each
// /i pattern is compiled on its first use (0.1–0.4 ms apiece in a hook's process), so a sentence
// that opens with another word never runs it. `how's`, `what's`, `you're`, `that's` and `let's`
// open with the word before the apostrophe.
const CHAT_OPENINGS: ReadonlySet<string> = new Set('hi hello hey good how hows what whats thanks thank cheers bye goodbye see talk you youre that thats great awesome perfect nice cool'.split(' '));
const LEAD_OPENINGS: ReadonlySet<string> = new Set('can could would will i we let lets go'.split(' '));
const LEADING_LETTERS = /^[A-Za-z]*/;
// Words a problem report holds (PROBLEM's alternatives, lower-cased).
const PROBLEM_WORDS = ['fail', 'broken', 'crash', 'bug', 'doesn', 'does not work', 'rejects', 'throws', 'regress'];
// Sentences that are only social: greetings, thanks, goodbyes, how-are-yous.
const CHAT = /^(?:hi|hello|hey|good (?:morning|afternoon|evening|night)|how are you|how'?s it going|what'?s up|thanks|thank you|cheers|bye|goodbye|see you|talk (?:to you )?(?:later|soon|tomorrow)|you'?re welcome|that'?s (?:great|helpful|all|it|perfect|fine)|great|awesome|perfect|nice|cool)\b/i;
const TASK_VERBS =
  'add|fix|implement|make|create|write|update|change|remove|delete|rename|refactor|move|migrate|run|test|build|deploy|prepare|document|find|investigate|check|debug|review|convert|replace|port|upgrade|bump|set up|setup|configure|optimi[sz]e|improve|clean up|split|merge|extract|support|handle|ensure|wire|integrate|look into|figure out|draft|generate|rewrite|restructure|speed up|profile|benchmark|measure|release|publish|install|enable|disable|allow|prevent|revert|undo|reproduce|explain|describe|summari[sz]e|list|show|commit|push|rebase|bisect|diagnose|resolve|address|finish|complete|translate|design|plan|audit';
// A word list under one pattern costs V8 ~4 ms to compile per process (a hook is one); a set of
// the verbs' spellings costs nothing. `optimi[sz]e` is both spellings; two-word verbs are looked
// up by the first two words.
const TASK_VERB_SET: ReadonlySet<string> = new Set(TASK_VERBS.split('|').flatMap((v) => (v.includes('[sz]') ? [v.replace('[sz]', 's'), v.replace('[sz]', 'z')] : [v])));
// What may come before the verb ("can you", "I need to", "let's").
const REQUEST_LEAD = /^(?:(?:can|could|would|will) you |i (?:need|want|would like) you to |(?:i|we) (?:need|want) to |let'?s |go and )?/i;
const TWO_WORDS = /^(\w+)(?: (\w+))?/;
// A problem report is a task: the user wants it fixed.
const PROBLEM = /\b(?:fails?|failing|broken|crash(?:es|ing)?|bug|doesn'?t work|does not work|rejects|throws|regress(?:ed|ion))\b/i;
const GO_ON = /^(?:go ahead|go on|continue|carry on|proceed|do it|do that|yes please|sounds good|lgtm|ship it|keep going|please continue|yes|ok|okay|sure)\b/i;
// A label the user puts before the request: a ticket (`SHOP-123`), a tag (`[bug]`), a
// conventional prefix (`fix(api):`). The sentence after it is judged; the label stays in the task.
const LABEL = /^(?:(?:[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+|\[[^\]\n]{1,30}\]|[a-z]+(?:\([\w./-]{1,30}\))?:)[,:]?\s+)+/;
// What a prompt asks for is in its first lines; a paste after them is judged by its framing.
const MAX_READ_CHARS = 1200;

/**
 * Reads a typed prompt with word patterns (no model): a task when a sentence starts with an
 * imperative or reports a problem; a go-on when it only says to continue; a question when it
 * asks one; otherwise chat. A long pasted prompt is judged by its first and last lines (the
 * user's own framing), so a pasted log carrying `Run …` lines is not taken for a task.
 *
 * @example readPrompt('Great, thanks. Now add rate limiting.') // { intent: 'task', task: 'Add rate limiting.' }
 */
export function readPrompt(prompt: string): ReadPrompt {
  const text = prompt.slice(0, MAX_READ_CHARS).trim();
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const framing = lines.length > 3 ? [lines[0]!, lines[lines.length - 1]!].join('\n') : text;
  const sentences = splitSentences(framing);
  const first = sentences.findIndex((s) => isTaskSentence(dropFiller(s).replace(LABEL, '')));
  if (first !== -1) {
    // Context before the task sentence stays ("X returns epochs. Find where."); chat before it goes.
    const from = sentences.findIndex((s) => !isChat(s));
    const task = lines.length > 3 ? text : sentences.slice(Math.min(from, first)).join(' ');
    const stripped = dropFiller(task);
    // "Now add …" reads as "Add …"; what the user typed as it stands keeps its case.
    return { intent: 'task', task: stripped === task ? task : stripped.charAt(0).toUpperCase() + stripped.slice(1) };
  }
  const bare = dropFiller(framing).replace(/[.!]+$/, '').trim();
  if (framing.length <= 60 && (bare === '' ? /^(?:ok(?:ay)?|yes|sure)\b/i.test(framing) : GO_ON.test(bare))) return { intent: 'go-on' };
  if (sentences.some((s) => s.endsWith('?') && !isChat(s))) return { intent: 'question' };
  return { intent: 'chat' };
}

function firstWord(text: string): string {
  return LEADING_LETTERS.exec(text)![0].toLowerCase();
}

/**
 * The text without the filler words it opens with, read word by word (as one pattern, a
 * case-insensitive alternation of FILLER_WORDS, it was compiled in every Stop whose prompt opens
 * with `please` or `ok`, ~1 ms). Only ASCII letters fold case, as `/i` without `u` folds them.
 */
function dropFiller(text: string): string {
  let at = 0;
  for (;;) {
    const word = FILLER_WORDS.find((w) => startsWithWord(text, at, w));
    if (word === undefined) return at === 0 ? text : text.slice(at);
    at += word.length;
    while (at < text.length && ',!.:'.includes(text[at]!)) at++;
    while (text[at] === ' ') at++;
  }
}

/** True when `word` (lower-case ASCII) stands at `at` in any case and a non-word character or the end follows it. */
function startsWithWord(text: string, at: number, word: string): boolean {
  if (at + word.length > text.length) return false;
  for (let k = 0; k < word.length; k++) {
    const c = text.charCodeAt(at + k);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== word.charCodeAt(k)) return false;
  }
  return at + word.length === text.length || !/[A-Za-z0-9_]/.test(text[at + word.length]!);
}

function isChat(sentence: string): boolean {
  const bare = dropFiller(sentence).trim();
  return bare === '' || (CHAT_OPENINGS.has(firstWord(bare)) && CHAT.test(bare));
}

/** True when the sentence opens with a task verb, after an optional "can you" or "let's" (a whole word, any case). */
function opensWithTaskVerb(sentence: string): boolean {
  const words = TWO_WORDS.exec(LEAD_OPENINGS.has(firstWord(sentence)) ? sentence.slice(REQUEST_LEAD.exec(sentence)![0].length) : sentence);
  if (words === null) return false;
  const first = words[1]!.toLowerCase();
  return TASK_VERB_SET.has(first) || (words[2] !== undefined && TASK_VERB_SET.has(`${first} ${words[2].toLowerCase()}`));
}

function isTaskSentence(sentence: string): boolean {
  if (opensWithTaskVerb(sentence)) return true;
  if (sentence.endsWith('?') || sentence.split(' ').length < 4) return false;
  const lower = sentence.toLowerCase();
  return PROBLEM_WORDS.some((w) => lower.includes(w)) && PROBLEM.test(sentence);
}
