import { claudeHost } from '../hosts/claude/claude-host';
import { codexHost } from '../hosts/codex/codex-host';
import { copilotHost } from '../hosts/copilot/copilot-host';
import type { HostAdapter, HostName } from '../hosts/host';
import { hostEvidence, hostFromArgv, type HostEvidence } from '../hosts/host-evidence';

const ADAPTERS: { readonly [H in HostName]: HostAdapter } = { claude: claudeHost, codex: codexHost, copilot: copilotHost };

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

/** The adapter for one payload: the declared host, else what the payload itself shows (lib/hosts/host-evidence.ts). */
export function pickHost(opts: { declared: HostName | null; payload: unknown; env: NodeJS.ProcessEnv }): PickedHost {
  const evidence = hostEvidence(opts);
  return { host: ADAPTERS[evidence.host], by: evidence.by };
}
