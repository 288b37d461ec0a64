/**
 * Colour for a terminal, without letting capsule text in. Verbs mark spans with `paint()`;
 * every byte still passes `escapeForTerminal` (lib/cli/main.ts), which leaves the marks alone
 * (private-use characters, made per process with a nonce a capsule cannot know), and then
 * `renderColour` turns the marks into ANSI colours, or drops them when colour is off: not a
 * terminal, `NO_COLOR` set (https://no-color.org), `--no-color`, or TERM=dumb.
 */
export type Tone = 'ok' | 'warn' | 'fail' | 'dim' | 'id';

const SGR: Record<Tone, string> = { ok: '32', warn: '33', fail: '31', dim: '2', id: '36' };
const TONES = Object.keys(SGR) as Tone[];
const NONCE = Array.from({ length: 4 }, () => String.fromCharCode(0xe100 + Math.floor(Math.random() * 0x700))).join('');
const OPEN = '\ue000';
const CLOSE = '\ue001';
const MARK = new RegExp(`${OPEN}${NONCE}(\\d)${CLOSE}`, 'g');

/** `text` marked to show in `tone` where colour is on. */
export function paint(tone: Tone, text: string): string {
  return `${OPEN}${NONCE}${TONES.indexOf(tone)}${CLOSE}${text}${OPEN}${NONCE}9${CLOSE}`;
}

/** The marks as ANSI colours, or gone. */
export function renderColour(text: string, colour: boolean): string {
  return text.replace(MARK, (_m, digit: string) => (!colour ? '' : digit === '9' ? '\x1b[0m' : `\x1b[${SGR[TONES[Number(digit)]!]}m`));
}

/** The width a text takes on screen once its marks are gone. */
export function visibleLength(text: string): number {
  return renderColour(text, false).length;
}

/** Whether a stream gets colour: a terminal, and neither NO_COLOR (non-empty), --no-color nor TERM=dumb. */
export function colourWanted(opts: { isTTY: boolean; env: NodeJS.ProcessEnv; noColorFlag: boolean }): boolean {
  return opts.isTTY && !opts.noColorFlag && !opts.env.NO_COLOR && opts.env.TERM !== 'dumb';
}

/**
 * Rows as aligned columns: every column but the last padded to its widest cell (`right` lists
 * the columns aligned right, such as ages), cells separated by two spaces.
 */
export function formatTable(rows: string[][], opts: { right?: number[] } = {}): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell))));
  return rows
    .map((row) =>
      row
        .map((cell, i) => {
          if (i === row.length - 1) return cell;
          const pad = ' '.repeat(widths[i]! - visibleLength(cell));
          return opts.right?.includes(i) ? pad + cell : cell + pad;
        })
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}
