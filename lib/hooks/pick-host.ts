import { claudeHost } from '../hosts/claude/claude-host';
import { codexHost } from '../hosts/codex/codex-host';
import { copilotHost } from '../hosts/copilot/copilot-host';
import type { HostAdapter, HostName } from '../hosts/host';

const ADAPTERS: { readonly [H in HostName]: HostAdapter } = { claude: claudeHost, codex: codexHost, copilot: copilotHost };

/** The host a hook runs under, and what said so. */
export interface HostEvidence {
  host: HostName;
  /**
   * `argument`: the registration declares it (`--host codex`, written by every Codex
   * registration git-capsule ships or installs); `transcript`: the payload's own transcript
   * file is named the way only that host names it; `session-env`: Claude Code's session
   * variable equals the payload's session id; `payload`: a camelCase `sessionId` and no
   * `session_id` (Copilot, whose registration through `git-capsule-hook` loses `--host`);
   * `default`: none of these, so the registration is Claude Code's own (hooks/hooks.json and
   * settings written before hosts were declared).
   */
  by: 'argument' | 'transcript' | 'payload' | 'session-env' | 'default';
}

const HOSTS = Object.keys(ADAPTERS) as readonly HostName[];

/**
 * The host named on the hook's command line (`--host codex` or `--host=codex`); null when none
 * is named. Throws nothing: an unknown name is returned as `invalid` for the caller to report.
 */
export function hostFromArgv(argv: readonly string[]): HostName | null | { invalid: string } {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = arg === '--host' ? argv[i + 1] : arg.startsWith('--host=') ? arg.slice('--host='.length) : undefined;
    if (value === undefined) continue;
    return (HOSTS as readonly string[]).includes(value) ? (value as HostName) : { invalid: value };
  }
  return null;
}

/**
 * Which host sent a payload, from evidence that cannot point at the wrong one: a declared
 * `--host` first; else the payload's transcript file name, checked against its own session id
 * (Codex: `rollout-<time>-<session id>.jsonl`; Claude Code: `<session id>.jsonl`; Copilot:
 * `session-state/<sessionId>/events.jsonl`, camelCase); else
 * Claude Code's session variable matching that id. A payload with none of these comes from a
 * registration without `--host`, which only Claude Code's own registrations are.
 */
export function hostEvidence(opts: { declared: HostName | null; payload: unknown; env: NodeJS.ProcessEnv }): HostEvidence {
  if (opts.declared !== null) return { host: opts.declared, by: 'argument' };
  const p = typeof opts.payload === 'object' && opts.payload !== null ? (opts.payload as Record<string, unknown>) : {};
  const sessionId = typeof p.session_id === 'string' && p.session_id !== '' ? p.session_id : null;
  const transcript = typeof p.transcript_path === 'string' ? p.transcript_path : null;
  // Copilot's payloads are camelCase: `…/session-state/<sessionId>/events.jsonl`, and where
  // none is named (sessionStart, userPromptSubmitted, sessionEnd), a `sessionId` without the
  // `session_id` both other hosts always send.
  if (typeof p.sessionId === 'string' && p.sessionId !== '') {
    const parts = typeof p.transcriptPath === 'string' ? p.transcriptPath.split(/[\\/]/) : [];
    if (parts.length >= 3 && parts[parts.length - 1] === 'events.jsonl' && parts[parts.length - 2] === p.sessionId && parts[parts.length - 3] === 'session-state') return { host: 'copilot', by: 'transcript' };
    if (p.session_id === undefined) return { host: 'copilot', by: 'payload' };
  }
  if (sessionId !== null && transcript !== null) {
    const name = transcript.slice(Math.max(transcript.lastIndexOf('/'), transcript.lastIndexOf('\\')) + 1);
    if (name.startsWith('rollout-') && name.endsWith(`-${sessionId}.jsonl`)) return { host: 'codex', by: 'transcript' };
    if (name === `${sessionId}.jsonl`) return { host: 'claude', by: 'transcript' };
  }
  if (sessionId !== null && opts.env.CLAUDE_CODE_SESSION_ID === sessionId) return { host: 'claude', by: 'session-env' };
  return { host: 'claude', by: 'default' };
}

/** The host adapter a hook run uses, and the evidence it was chosen by. */
export interface PickedHost {
  host: HostAdapter;
  by: HostEvidence['by'];
}

/**
 * The adapter named on the command line, before stdin is read (for the time budget and a
 * failure before the payload); Claude Code's when none is named. `invalid` carries an unknown
 * `--host` value for the runner to report.
 */
export function declaredHost(argv: readonly string[]): { host: HostAdapter; declared: HostName | null; invalid?: string } {
  const named = hostFromArgv(argv);
  if (named === null) return { host: claudeHost, declared: null };
  if (typeof named === 'object') return { host: claudeHost, declared: null, invalid: named.invalid };
  return { host: ADAPTERS[named], declared: named };
}

/** The adapter for one payload: the declared host, else what the payload itself shows (hostEvidence). */
export function pickHost(opts: { declared: HostName | null; payload: unknown; env: NodeJS.ProcessEnv }): PickedHost {
  const evidence = hostEvidence(opts);
  return { host: ADAPTERS[evidence.host], by: evidence.by };
}
