import type { FindingTally } from './finding-tally';
import { isPlaceholderValue, redactionMarker } from './redaction-marker';

// One `.env` line, optionally behind a line-number prefix as the host's Read tool prints it
// (`    12→KEY=value` or `    12\tKEY=value`), optionally `export`ed. The value runs to the end of
// the line; a trailing ` # comment` after an unquoted value is kept.
const ENV_LINE = /^(?<pre>(?:[ \t]*\d+(?:→|\t))?[ \t]*(?:export[ \t]+)?[A-Za-z_][A-Za-z0-9_.]*[ \t]*=[ \t]*)(?<val>(?:"[^"\n]*"|'[^'\n]*'|[^\s#](?:[^\n#]|(?<=\S)#)*?))(?<post>[ \t]*(?:[ \t]#[^\n]*)?)$/;
const BLANK_OR_COMMENT = /^(?:[ \t]*\d+(?:→|\t))?[ \t]*(?:#.*)?$/;

// Values that carry no secret and help a reader: switches, ports, small numbers.
const HARMLESS = /^(?:true|false|yes|no|on|off|\d{1,5})$/i;

/**
 * True when the text is clearly a `.env` file: at least two `KEY=VALUE` lines and every other
 * line blank or a comment (a shell script with a few assignments does not qualify).
 */
export function looksLikeEnvFile(text: string): boolean {
  if (!text.includes('=')) return false;
  let assignments = 0;
  for (const line of text.split('\n')) {
    const l = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (BLANK_OR_COMMENT.test(l)) continue;
    if (!ENV_LINE.test(l)) return false;
    assignments++;
  }
  return assignments >= 2;
}

/** Replaces every value of every `KEY=VALUE` line with `[REDACTED:env-value]`, except switches, small numbers and redactions already made. */
export function redactEnvValues(text: string, tally: FindingTally): string {
  return text
    .split('\n')
    .map((line) => {
      const cr = line.endsWith('\r') ? '\r' : '';
      const m = ENV_LINE.exec(cr ? line.slice(0, -1) : line);
      if (!m?.groups) return line;
      const raw = m.groups.val as string;
      const unquoted = /^(["']).*\1$/.test(raw) ? raw.slice(1, -1) : raw;
      if (unquoted.length === 0 || HARMLESS.test(unquoted) || isPlaceholderValue(unquoted) || /^\[REDACTED:[a-z0-9-]+\]$/.test(unquoted)) {
        return line;
      }
      tally.add('env-value');
      return `${m.groups.pre}${redactionMarker('env-value')}${m.groups.post}${cr}`;
    })
    .join('\n');
}
