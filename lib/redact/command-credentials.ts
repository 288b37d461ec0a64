import type { FindingTally } from './finding-tally';
import { isPlaceholderValue, redactionMarker } from './redaction-marker';
import { isSecretName } from './secret-names';

// Credentials passed to well-known commands as flags or positional arguments, where no
// `name=value` says what they are: `curl -u user:pw`, `mysql -pPW`, `sshpass -p PW`,
// `docker login -p PW`, `twine upload -p PW`, `redis-cli -a PW`, `aws configure set
// aws_secret_access_key KEY`, `git config github.token TOKEN`, `smbclient -U user%PW`,
// `htpasswd -b file user PW`, `ldapsearch -w PW`, `snmpwalk -c COMMUNITY`, `mosquitto_pub -P PW`,
// `ipmitool -P PW`, `echo PW | docker login --password-stdin`.

/** How a flag's value holds the secret: all of it, or the part after `user:` / `user%` / `pass:`. */
type ValuePart = 'all' | 'after-colon' | 'after-percent' | 'after-pass-colon';

interface CommandRule {
  commands: readonly string[];
  /** A word the command line must hold for the flags to mean a credential (`docker run -p` is a port). */
  requires?: readonly string[];
  /** Flags whose value is a credential; `attached` also reads `-pPW` / `--flag=PW`. */
  flags?: ReadonlyArray<{ flag: string; part: ValuePart; next?: boolean; attached?: boolean }>;
  /** `… set <name> <value>` (`aws configure set`, `npm config set`, `git config <name> <value>`): the value when the name looks secret. */
  setsNamedValue?: { after: readonly string[] };
  /** `htpasswd -b file user PW`: the positional argument at this index (0-based, flags skipped) when the flag is present. */
  positional?: { index: number; whenFlagStartsWith: string };
}

const RULES: readonly CommandRule[] = [
  { commands: ['curl'], flags: [
    { flag: '-u', part: 'after-colon', next: true, attached: true },
    { flag: '--user', part: 'after-colon', next: true, attached: true },
    { flag: '--proxy-user', part: 'after-colon', next: true, attached: true },
    { flag: '-U', part: 'after-colon', next: true, attached: true },
    { flag: '-b', part: 'all', next: true },
    { flag: '--cookie', part: 'all', next: true, attached: true },
  ] },
  { commands: ['xh', 'httpie'], flags: [
    { flag: '-a', part: 'after-colon', next: true, attached: true },
    { flag: '--auth', part: 'after-colon', next: true, attached: true },
  ] },
  { commands: ['mysql', 'mysqldump', 'mysqladmin', 'mysqlimport', 'mariadb', 'mariadb-dump'], flags: [{ flag: '-p', part: 'all', attached: true }] },
  { commands: ['sshpass'], flags: [{ flag: '-p', part: 'all', next: true, attached: true }] },
  { commands: ['docker', 'podman', 'nerdctl', 'buildah', 'helm', 'oras', 'crane', 'regctl', 'az', 'cf'], requires: ['login'], flags: [{ flag: '-p', part: 'all', next: true, attached: true }] },
  { commands: ['skopeo'], flags: [
    { flag: '--creds', part: 'after-colon', next: true, attached: true },
    { flag: '--src-creds', part: 'after-colon', next: true, attached: true },
    { flag: '--dest-creds', part: 'after-colon', next: true, attached: true },
  ] },
  { commands: ['twine'], flags: [{ flag: '-p', part: 'all', next: true, attached: true }] },
  { commands: ['redis-cli', 'valkey-cli'], flags: [{ flag: '-a', part: 'all', next: true, attached: true }] },
  { commands: ['mongo', 'mongosh', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport'], flags: [{ flag: '-p', part: 'all', next: true }] },
  { commands: ['sqlcmd', 'bcp', 'isql', 'osql'], flags: [{ flag: '-P', part: 'all', next: true, attached: true }] },
  { commands: ['smbclient', 'rpcclient', 'smbmap'], flags: [{ flag: '-U', part: 'after-percent', next: true, attached: true }] },
  { commands: ['openssl'], flags: [
    { flag: '-passin', part: 'after-pass-colon', next: true },
    { flag: '-passout', part: 'after-pass-colon', next: true },
    { flag: '-pass', part: 'after-pass-colon', next: true },
    { flag: '-k', part: 'all', next: true },
  ] },
  { commands: ['ssh-keygen'], flags: [{ flag: '-N', part: 'all', next: true }, { flag: '-P', part: 'all', next: true }] },
  // OpenLDAP's clients: `-w` is the bind password (`-W` prompts for it).
  { commands: ['ldapsearch', 'ldapmodify', 'ldapadd', 'ldapdelete', 'ldapwhoami', 'ldappasswd', 'ldapcompare', 'ldapmodrdn', 'ldapexop'], flags: [{ flag: '-w', part: 'all', next: true, attached: true }] },
  // Net-SNMP: `-c` is the community string (v1/v2c), `-A` / `-X` the v3 auth and privacy passphrases.
  { commands: ['snmpwalk', 'snmpbulkwalk', 'snmpget', 'snmpgetnext', 'snmpbulkget', 'snmpset', 'snmptable', 'snmptrap', 'snmpinform', 'snmpstatus', 'snmpdf', 'snmpdelta', 'snmpnetstat', 'snmptest', 'snmpusm', 'snmpvacm'], flags: [
    { flag: '-c', part: 'all', next: true, attached: true },
    { flag: '-A', part: 'all', next: true, attached: true },
    { flag: '-X', part: 'all', next: true, attached: true },
  ] },
  // Mosquitto's clients: `-P` / `--pw` is the broker password (`-p` is the port).
  { commands: ['mosquitto_pub', 'mosquitto_sub', 'mosquitto_rr'], flags: [{ flag: '-P', part: 'all', next: true }, { flag: '--pw', part: 'all', next: true }] },
  // ipmitool: `-P` is the BMC password, `-k` / `-y` the Kg key (`-E` reads it from the environment).
  { commands: ['ipmitool'], flags: [{ flag: '-P', part: 'all', next: true, attached: true }, { flag: '-k', part: 'all', next: true }, { flag: '-y', part: 'all', next: true }] },
  { commands: ['keytool'], flags: ['-storepass', '-keypass', '-srcstorepass', '-deststorepass', '-srckeypass', '-destkeypass'].map((flag) => ({ flag, part: 'all' as const, next: true })) },
  { commands: ['zip', '7z', 'unrar', 'rar'], flags: [{ flag: '-P', part: 'all', next: true }, { flag: '-p', part: 'all', attached: true }] },
  { commands: ['aws', 'az', 'gcloud'], setsNamedValue: { after: ['set'] } },
  { commands: ['npm', 'pnpm', 'yarn', 'bun'], setsNamedValue: { after: ['set'] } },
  { commands: ['git'], setsNamedValue: { after: ['config'] } },
  { commands: ['dotnet'], setsNamedValue: { after: ['set'] } },
  { commands: ['htpasswd'], positional: { index: 2, whenFlagStartsWith: '-b' } },
  { commands: ['vault'], requires: ['login'], positional: { index: 0, whenFlagStartsWith: '' } },
  // Read for the pipe rule below (`echo PW | docker login --password-stdin`), no flags of their own.
  { commands: ['echo', 'printf'] },
];

const BY_COMMAND = new Map<string, CommandRule[]>();
/** The command words this detector reads: a text that holds none of them is passed over (cue-scan.ts). */
export const COMMAND_CUES: readonly string[] = [...new Set(RULES.flatMap((r) => r.commands))];
for (const rule of RULES) for (const c of rule.commands) BY_COMMAND.set(c, [...(BY_COMMAND.get(c) ?? []), rule]);
// A command word at the start of a word (after a space, quote, `(`, `|`, `;`, `&`, `$(`, a path's `/`).
const COMMAND = new RegExp(`(?<![\\w.-])(?:${[...BY_COMMAND.keys()].sort((a, b) => b.length - a.length).map((c) => c.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|')})(?![\\w-])`, 'g');
/** Where a command line is read to (past it a new command starts). */
const MAX_LINE = 4096;
// Commands that read a secret from a pipe: the words echoed into them are the secret.
const STDIN_SECRET = /--password-stdin|--with-token|\bchpasswd\b|--stdin\b/;

/** One shell word of a command line: where its text starts and ends (quotes excluded). */
interface Word {
  text: string;
  start: number;
  end: number;
}

/**
 * Splits a command line into words from `from`, stopping at a line break, `;`, `&`, `|` outside
 * quotes, or MAX_LINE characters; returns the words and where the line ended.
 */
function readWords(text: string, from: number): { words: Word[]; end: number } {
  const words: Word[] = [];
  const limit = Math.min(text.length, from + MAX_LINE);
  let i = from;
  while (i < limit) {
    const c = text[i]!;
    if (c === '\n' || c === '\r' || c === ';' || c === '&' || c === '|') break;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '\\' && text[i + 1] === 'n') break; // a JSON-escaped line break
    let start = i;
    let end: number;
    if (c === '"' || c === "'") {
      start = i + 1;
      let j = start;
      while (j < limit && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' && c === '"' ? 2 : 1;
      end = Math.min(j, limit);
      i = end + 1;
    } else {
      let j = i;
      while (j < limit && !/[\s;&|"']/.test(text[j]!)) j++;
      end = j;
      i = j;
    }
    words.push({ text: text.slice(start, end), start, end });
  }
  return { words, end: i };
}

/** The part of a value that is the secret, as offsets into the text; null when nothing is. */
function secretPart(word: Word, skip: number, part: ValuePart): { start: number; end: number } | null {
  const value = word.text.slice(skip).replace(/^=/, '');
  const at = word.end - value.length;
  let from = 0;
  if (part === 'after-colon' || part === 'after-percent') {
    const sep = value.indexOf(part === 'after-colon' ? ':' : '%');
    if (sep === -1) return null;
    from = sep + 1;
  } else if (part === 'after-pass-colon') {
    if (!value.startsWith('pass:')) return null;
    from = 5;
  }
  const secret = value.slice(from);
  if (secret.length === 0 || isPlaceholderValue(secret) || /^\[REDACTED:/.test(secret)) return null;
  return { start: at + from, end: word.end };
}

/** The secret ranges one rule finds in a command line's words (the command word first). */
function rangesFor(rule: CommandRule, words: readonly Word[]): Array<{ start: number; end: number }> {
  const args = words.slice(1);
  if (rule.requires && !args.some((w) => rule.requires!.includes(w.text))) return [];
  const ranges: Array<{ start: number; end: number }> = [];
  const push = (r: { start: number; end: number } | null) => r && ranges.push(r);
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    for (const f of rule.flags ?? []) {
      if (w.text === f.flag && f.next && args[i + 1]) push(secretPart(args[i + 1]!, 0, f.part));
      else if (f.attached && w.text.length > f.flag.length && w.text.startsWith(f.flag) && (f.flag.startsWith('--') ? w.text[f.flag.length] === '=' : true)) push(secretPart(w, f.flag.length, f.part));
    }
  }
  if (rule.setsNamedValue) {
    const at = args.findIndex((w) => rule.setsNamedValue!.after.includes(w.text));
    const rest = at === -1 ? [] : args.slice(at + 1).filter((w) => !w.text.startsWith('-'));
    const name = rest[0]?.text ?? '';
    const leaf = name.slice(Math.max(name.lastIndexOf('.'), name.lastIndexOf(':'), name.lastIndexOf('/')) + 1);
    if (rest[1] && (isSecretName(leaf) || isSecretName(name.replace(/[.:/]/g, '_')))) push(secretPart(rest[1], 0, 'all'));
  }
  const flagged = rule.positional && (rule.positional.whenFlagStartsWith === '' || args.some((w) => w.text.startsWith(rule.positional!.whenFlagStartsWith)));
  if (rule.positional && flagged) {
    const positionals = args.filter((w) => !w.text.startsWith('-') && !w.text.includes('=') && !(rule.requires ?? []).includes(w.text));
    const target = positionals[rule.positional.index];
    if (target) push(secretPart(target, 0, 'all'));
  }
  return ranges;
}

/** Replaces credentials given to well-known commands as flags or arguments, counting each as `command-credential`. */
export function redactCommandCredentials(text: string, tally: FindingTally): string {
  const ranges: Array<{ start: number; end: number }> = [];
  COMMAND.lastIndex = 0;
  for (let m = COMMAND.exec(text); m !== null; m = COMMAND.exec(text)) {
    const { words, end } = readWords(text, m.index);
    for (const rule of BY_COMMAND.get(m[0]) ?? []) ranges.push(...rangesFor(rule, words));
    if ((m[0] === 'echo' || m[0] === 'printf') && STDIN_SECRET.test(text.slice(end, text.indexOf('\n', end) === -1 ? Math.min(text.length, end + MAX_LINE) : Math.min(text.indexOf('\n', end), end + MAX_LINE)))) {
      for (const w of words.slice(1)) if (!w.text.startsWith('-')) ranges.push({ start: w.start, end: w.end });
    }
    COMMAND.lastIndex = Math.max(end, m.index + m[0].length);
  }
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a.start - b.start);
  let out = '';
  let copied = 0;
  for (const r of ranges) {
    if (r.start < copied || r.end <= r.start) continue;
    tally.add('command-credential');
    out += text.slice(copied, r.start) + redactionMarker('command-credential');
    copied = r.end;
  }
  return out + text.slice(copied);
}
