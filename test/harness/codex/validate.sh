#!/bin/sh
# Checks a Codex plugin the way Codex installs it (validate.mjs beside this file; see its header).
exec node "$(dirname "$0")/validate.mjs" "$@"
