import { splitSentences } from './assistant-statements';
import { isCorrection } from './prompt-signals';

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
  /** An explicit switch to other work: "New task: …", "next task", "now let's …" (set only when true). */
  switchTask?: true;
  /** A request that builds on the current work: an agreement with more after it, a reference back ("that", "too", "also"), a correction (set only when true). */
  followUp?: true;
  /** A stand-in, not a request: no letters, a template slot, a bare word (set only when true; never an objective). */
  placeholder?: true;
  /** A request in words the patterns do not read (another language, an unusual phrasing): quoted, never labelled from its words (set only when true). */
  unread?: true;
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
  if (isPlaceholder(text)) return { intent: 'chat', placeholder: true };
  const marked = switchMarker(text);
  if (marked !== null) return { intent: 'task', task: marked, switchTask: true };
  // A correction turns the current task, never starts another one.
  if (isCorrection(text)) return { intent: 'task', task: text, followUp: true };
  const read = readWords(text);
  if (read.intent === 'task' && (AGREEMENT.test(text) || REFERENCE_BACK.test(read.task ?? ''))) return { ...read, followUp: true };
  return read;
}

// An explicit switch to other work at the start of a sentence, in the languages users wrote to
// us in; the text after it is the new task ("Good. New task: order ids …").
const SWITCH = /(?:^|[.!?;。！？]\s*|\n\s*)(?:(?:ok(?:ay)?|good|great|thanks|so|and)[,.!]?\s+)?(?:(?:a |the )?(?:new|next|another|different|other) task\b|now,? let'?s\b|let'?s now\b|moving on\b|switching (?:over )?to\b|neue aufgabe\b|nächste aufgabe\b|andere aufgabe\b|nueva tarea\b|siguiente tarea\b|otra tarea\b|nouvelle tâche\b|tâche suivante\b|新しいタスク|次のタスク|別のタスク|新しい作業|次の作業)\s*[:：,.\-–—]?\s*/i;
// An agreement that opens a request ("Yes, add the cap."): the request builds on what was proposed.
const AGREEMENT = /^\s*(?:yes|yeah|yep|yup|sure|ok(?:ay)?|right|agreed|exactly|correct|good idea|sounds good|go ahead|please do|do it|perfect)\b[\s,.!:-]+\S/i;
// Words that point back at the current work ("Add that DST test.", "Run the linter too."); not
// "this"/"these", which point forward as often ("Fix these failures:" and a paste).
const REFERENCE_BACK = /\b(?:that|those|it|too|also|as well|again|same|instead|the (?:rest|remaining|other one|failing))\b/i;

/** The text after an explicit switch marker, or null when there is none (or nothing after it). */
function switchMarker(text: string): string | null {
  const head = text.slice(0, 300);
  const m = SWITCH.exec(head);
  if (m === null) return null;
  const rest = text.slice(m.index + m[0].length).trim();
  if (rest.length < 3) return null;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/**
 * True for a prompt that stands in for one: no letters at all, a template slot (`<task>`,
 * `{prompt}`, `$TASK`), a numbered stand-in ("prompt 3", "task 1"), or a single bare word.
 */
export function isPlaceholder(text: string): boolean {
  const t = text.trim();
  if (!/\p{L}/u.test(t)) return true;
  if (/^(?:<[^<>\n]{0,40}>|\{\{?[^{}\n]{0,40}\}?\}|\[[^[\]\n]{0,40}\]|\$[A-Z_]+)$/.test(t)) return true;
  if (/^(?:prompt|task|message|turn|step|request|test|placeholder|todo|tbd|asdf\w*|xxx+|foo|bar|lorem ipsum\b.*)\s*#?\d*\W*$/i.test(t)) return true;
  // One word (no space, short, Latin letters only): not a request a task can be read from.
  return !/\s/.test(t) && t.length <= 12 && /^[A-Za-z]+[.!]?$/.test(t) && !/^(?:continue|proceed|ok|okay|yes|sure|thanks|hi|hello|hey|bye)\b/i.test(t);
}

function readWords(text: string): ReadPrompt {
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
  // Something was asked that the words do not tell: another language, an unusual phrasing.
  if (sentences.some((s) => !isChat(s) && isSubstantial(s))) return { intent: 'chat', unread: true };
  return { intent: 'chat' };
}

/** Three words or more, or eight letters of a script written without spaces (Japanese, Chinese). */
function isSubstantial(sentence: string): boolean {
  return sentence.trim().split(/\s+/).length >= 3 || (sentence.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu)?.length ?? 0) >= 8;
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
