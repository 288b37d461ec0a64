import { isCapsuleError } from '../../errors/capsule-error';
import { listHistoryPage, readHistoryPage, renderHistoryPage, type HistoryPage } from '../../history/history-page';
import { HISTORY_ROLES, type HistoryEvent, type HistoryProjection, type HistoryRole } from '../../history/history-types';
import { eventBody, oneLine } from '../../history/history-text';
import { eventTextFromFile, projectHistoryFile } from '../../hosts/claude/history-file';
import { LIMIT_OPTION, parseVerbArgs, usageError } from '../args';
import { EXIT, type CliContext, type Verb } from '../context';
import { findTranscript, type TranscriptSource } from '../../hosts/claude/transcript-source';

const USAGE = `usage: git capsule history list [--query TEXT] [--role ROLE[,ROLE…]|all] [--page N | --cursor SEQ] [--limit N] [SOURCE] [--json]
       git capsule history read SEQ[:OFFSET] [--limit N] [SOURCE] [--json]

Lists and reads a Claude Code session's persisted transcript on its selected branch.
Every event has a stable address (seq); a tool result's address leads to its call.

SOURCE (default: the current session from CLAUDE_CODE_SESSION_ID, else the newest transcript of this project):
  --file PATH        read this transcript file
  --session ID       read this session's transcript under \${CLAUDE_CONFIG_DIR:-~/.claude}/projects
  --leaf UUID        read the branch ending at this record instead of the chosen leaf

list:
  --query TEXT       only events whose text contains TEXT (literal, case-insensitive)
  --role ROLES       user, assistant, tool, system, attachment, or all (default: user,assistant,tool,system)
  --page N           the Nth page (1-based) of the same listing
  --cursor SEQ       continue after SEQ (what a page footer says)
  -n, --limit N      at most N events per page (default 50); a page never exceeds 32 KiB
read:
  SEQ[:OFFSET]       start at this address (OFFSET continues an event cut by the page budget)
  -n, --limit N      at most N events (default 20)
  --json             print the page as JSON
`;

const OPTIONS = {
  file: { type: 'string' },
  session: { type: 'string' },
  leaf: { type: 'string' },
  query: { type: 'string' },
  role: { type: 'string' },
  page: { type: 'string' },
  cursor: { type: 'string' },
  ...LIMIT_OPTION,
  json: { type: 'boolean' },
} as const;

/** `git capsule history list|read`: a session's persisted transcript, paged, searched, addressed. */
export const verb: Verb = {
  name: 'history',
  summary: "list and read a Claude Code session's persisted transcript history",
  usage: USAGE,
  run: async (args, ctx) => {
    const [sub, ...rest] = args;
    if (sub !== 'list' && sub !== 'read') throw usageError('history', `expected 'list' or 'read', received ${sub === undefined ? 'nothing' : JSON.stringify(sub)}`);
    const { values, positionals } = parseVerbArgs('history', rest, OPTIONS);
    const source = findTranscript({ file: values.file, session: values.session, cwd: ctx.cwd, env: ctx.env });
    const projection = projectHistoryFile(source.path, {
      sessionId: source.sessionId,
      leaf: values.leaf,
      sidechain: source.sidechain,
      query: sub === 'list' ? values.query : undefined,
    });
    const command = `git capsule history ${sub}${sourceFlags(values)}`;
    const limit = positiveInt('--limit', values.limit);
    try {
      const page =
        sub === 'list'
          ? listPage(projection, values, positionals, command, limit, eventTextFromFile(source.path))
          : readPage(projection, positionals, command, limit, eventTextFromFile(source.path));
      print(ctx, source, projection, page, values.json === true, sub === 'list');
      return EXIT.OK;
    } catch (err) {
      // The incomplete-history notice opens the output even when the query itself fails.
      const notice = isCapsuleError(err) ? err.data.notice : undefined;
      if (typeof notice === 'string' && values.json !== true) ctx.stdout(`${notice}\n`);
      throw err;
    }
  },
};

function listPage(projection: HistoryProjection, values: Values, positionals: string[], command: string, limit: number | undefined, withText: (e: HistoryEvent) => HistoryEvent): HistoryPage {
  if (positionals.length > 0) throw usageError('history', `list takes no positional arguments, received ${JSON.stringify(positionals[0])}`);
  if (values.page !== undefined && values.cursor !== undefined) throw usageError('history', '--page and --cursor are alternatives; pass one');
  return listHistoryPage(projection, {
    command,
    limit,
    query: values.query,
    roles: parseRoles(values.role),
    page: positiveInt('--page', values.page),
    cursor: positiveInt('--cursor', values.cursor),
    withText,
  });
}

function readPage(projection: HistoryProjection, positionals: string[], command: string, limit: number | undefined, withText: (e: HistoryEvent) => HistoryEvent): HistoryPage {
  const match = positionals.length === 1 ? /^(\d+)(?::(\d+))?$/.exec(positionals[0]!) : null;
  if (match === null) throw usageError('history', `read takes one address SEQ or SEQ:OFFSET, received ${JSON.stringify(positionals.join(' '))}`);
  return readHistoryPage(projection, { command, limit, seq: Number(match[1]), offset: match[2] === undefined ? undefined : Number(match[2]), withText });
}

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

function print(ctx: CliContext, source: TranscriptSource, projection: HistoryProjection, page: HistoryPage, json: boolean, list: boolean): void {
  if (!json) {
    ctx.stdout(renderHistoryPage(page));
    return;
  }
  // A list carries one-line previews, a read the full text; a cut event carries only the
  // characters its page showed, so JSON pages stay as bounded as text pages.
  const events = page.events.map((e) => {
    const body = eventBody(e);
    const cut = page.partial?.seq === e.seq ? page.partial : null;
    const text = cut !== null ? page.blocks[e === page.events[0] ? 0 : page.blocks.length - 1] ?? '' : list ? oneLine(body, 200) : body;
    return { seq: e.seq, role: e.role, uuid: e.uuid, line: e.line, timestamp: e.timestamp ?? null, window: e.window, tags: e.tags, text, partial: cut, tool: e.tool ? { ...e.tool, result: undefined, resultOffset: undefined } : null };
  });
  const out = { file: source.path, chosenBy: source.chosenBy, sessionId: projection.sessionId, leaf: projection.leaf, notice: page.notice, missing: projection.missing, windows: projection.windows, oversizeLines: projection.oversizeLines, events, next: page.next };
  ctx.stdout(`${JSON.stringify(out, null, 2)}\n`);
}

function sourceFlags(values: Values): string {
  const flags: string[] = [];
  if (values.file !== undefined) flags.push(`--file ${JSON.stringify(values.file)}`);
  if (values.session !== undefined) flags.push(`--session ${values.session}`);
  if (values.leaf !== undefined) flags.push(`--leaf ${values.leaf}`);
  if (values.limit !== undefined) flags.push(`--limit ${values.limit}`);
  return flags.length > 0 ? ` ${flags.join(' ')}` : '';
}

function parseRoles(value: string | undefined): HistoryRole[] | undefined {
  if (value === undefined) return undefined;
  if (value === 'all') return [...HISTORY_ROLES];
  const roles = value.split(',').map((r) => r.trim());
  const bad = roles.find((r) => !(HISTORY_ROLES as readonly string[]).includes(r));
  if (bad !== undefined) throw usageError('history', `--role ${JSON.stringify(bad)} is not one of ${HISTORY_ROLES.join(', ')}, all`);
  return roles as HistoryRole[];
}

function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw usageError('history', `${flag} expects a positive integer, received ${JSON.stringify(value)}`);
  return Number(value);
}
