#!/bin/sh
# The session driver for the real Codex CLI (run.mjs beside this file; see its header).
exec node "$(dirname "$0")/run.mjs" "$@"
