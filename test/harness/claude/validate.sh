#!/usr/bin/env bash
# validate.sh DIR [--json …]: the real client's `claude plugin validate DIR`, offline: a
# throwaway HOME, non-essential traffic off, and a loopback-only network namespace when
# `unshare -n` works. Exits with validate's status. CLAUDE_BIN names the client.
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: validate.sh DIR [--json]" >&2; exit 2; }
dir=$(cd "$1" && pwd); shift
home=$(mktemp -d "${TMPDIR:-/tmp}/claude-validate-XXXXXX")
trap 'rm -rf "$home"' EXIT
run=(env HOME="$home" CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 timeout 60 "${CLAUDE_BIN:-claude}" plugin validate "$dir" "$@")
if unshare -n true 2>/dev/null; then unshare -n "${run[@]}"; else "${run[@]}"; fi
