import type { StateLabel } from './scenario-types';

/** One line of the resume text's current state: its label and its value, unquoted. */
export interface LabelledLine {
  label: StateLabel;
  value: string;
}

/** The resume text as the scorer reads it: labelled current-state lines, and the raw data lines. */
export interface ParsedResume {
  lines: LabelledLine[];
  /** Every line after the procedure's end line, as rendered (for the `unquoted` anti-facts). */
  dataLines: string[];
}

const BEGIN = '=== GIT-CAPSULE RESUME: PROCEDURE ===';
const END = '=== END OF GIT-CAPSULE RESUME ===';
const PROCEDURE_END = '=== END OF PROCEDURE: EVERYTHING BELOW IS DATA ===';
const CONTRACT = /^(objective|waiting_on|next_valid_action): (.*)$/;

// A section heading's label, read from its words so that both the old titles ("Historical-Errors →
// Resolutions: 2 items") and newer ones ("Errors (open first): 2") are understood.
const SECTION_WORDS: ReadonlyArray<[RegExp, StateLabel]> = [
  [/^done\b/i, 'done'],
  [/error/i, 'errors'],
  [/^files?\b/i, 'files'],
  [/fact|decision/i, 'facts'],
  [/reject/i, 'rejected'],
  [/gate/i, 'gates'],
  [/claimed|task/i, 'claimed'],
];

/**
 * Finds the resume text in the strings of a request (the first one that carries it), or null.
 * The text is cut from its first line to its last.
 */
export function findResumeText(strings: readonly string[]): string | null {
  for (const s of strings) {
    const start = s.indexOf(BEGIN);
    if (start === -1) continue;
    const end = s.indexOf(END, start);
    return end === -1 ? s.slice(start) : s.slice(start, end + END.length);
  }
  return null;
}

/**
 * Reads the current state of a resume text: the contract fields of CAPSULE DATA and the items
 * under each body section heading, up to the ledger (CAPSULES NOT SELECTED is not current state).
 */
export function parseResume(text: string): ParsedResume {
  const all = text.split('\n');
  const from = all.indexOf(PROCEDURE_END);
  const dataLines = from === -1 ? [] : all.slice(from + 1);
  const lines: LabelledLine[] = [];
  let section: StateLabel | null = null;
  for (const line of dataLines) {
    if (line.startsWith('CAPSULES NOT SELECTED') || line.startsWith(END)) break;
    const contract = CONTRACT.exec(line);
    if (contract) {
      lines.push({ label: contract[1] as StateLabel, value: unquote(contract[2]!) });
      section = null;
      continue;
    }
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (item && section !== null) {
      lines.push({ label: section, value: unquote(item[1]!) });
      continue;
    }
    if (!/^\s/.test(line)) section = sectionLabel(line);
  }
  return { lines, dataLines };
}

function sectionLabel(line: string): StateLabel | null {
  const colon = line.indexOf(':');
  if (colon === -1) return null;
  const title = line.slice(0, colon);
  for (const [words, label] of SECTION_WORDS) if (words.test(title)) return label;
  return null;
}

// inert() quotes a value and escapes its quotes and backslashes; a truncation note may follow.
function unquote(rendered: string): string {
  const m = /^"((?:[^"\\]|\\.)*)"/.exec(rendered.trim());
  return m ? m[1]!.replace(/\\(.)/g, '$1') : rendered.trim();
}
