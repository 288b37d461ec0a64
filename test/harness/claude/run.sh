#!/bin/sh
# The session driver for the real Claude Code client (run.mjs beside this file; see its header).
exec node "$(dirname "$0")/run.mjs" "$@"
