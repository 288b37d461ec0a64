import type { FindingTally } from './finding-tally';
import { isPlaceholderValue, redactionMarker } from './redaction-marker';

// A file that holds one secret, printed: `cat ~/.ansible/vault_pass.txt` then the passphrase on
// the next line, `cat token.txt`, `Get-Content .\secret.txt`. The value is whatever the file
// holds (words, a short password), so no rule of its shape could tell; its file's name does.
// Only the first line after the command goes (a key block has its own rule).

/** The commands that print a file: a text holding none of them has no such output. */
export const FILE_PRINT_CUES: readonly string[] = ['cat ', 'bat ', 'head ', 'tail ', 'less ', 'more ', 'type ', 'Get-Content '];

// The file: a secret word in its name, a key's usual name, a wallet keypair (`solana/id.json`).
// Its output: the next line, or, on a line a shell prompt follows (`cat f X $ next`), the next word.
const FILE_PRINT = /(?<![\w-])(?:cat|bat|head|tail|less|more|type|Get-Content)[ \t]+(?:-\S+[ \t]+)*\S*?(?:pass(?:word|wd|phrase)?|secret|token|credential|apikey|api_key|keypair|\.pgpass|\.netrc|id_rsa|id_ed25519|id_ecdsa|solana\/id\.json)[^\s/\\]*(?:[ \t]*(?:\r?\n|\\n)(?<s>(?:(?!\\n)[^\n]){1,300}?)(?=[ \t]*(?:\r?\n|\\n|$))|[ \t]+(?<w>[^\s/]{3,300})(?=[ \t]+[$#>][ \t]|[ \t]*$))/g;

/** Replaces the line a secret-named file printed, counting each as `secret-file-output`. */
export function redactSecretFileOutput(text: string, tally: FindingTally): string {
  return text.replace(FILE_PRINT, (match: string, ...rest: unknown[]) => {
    const groups = rest[rest.length - 1] as { s?: string; w?: string };
    const s = groups.s ?? groups.w!;
    // On one line, a word that names a file is a second file (`cat token.txt notes.txt`), not output.
    if (groups.s === undefined && /\.[A-Za-z0-9]{1,5}$/.test(s)) return match;
    const value = s.trim();
    // An error line (`cat: x: No such file or directory`), a shell prompt, or a value already gone.
    if (value === '' || /^(?:cat|bat|head|tail|type|Get-Content):|^[$#>] |No such file|Permission denied/.test(value) || isPlaceholderValue(value) || value.startsWith('[REDACTED:')) return match;
    tally.add('secret-file-output');
    return `${match.slice(0, match.length - s.length)}${redactionMarker('secret-file-output')}`;
  });
}
