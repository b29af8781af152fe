#!/usr/bin/env bash
# Starts and stops the services and the gateway. Filled in as services arrive.
#   infra/apps.sh up [--record FILE] | down [FILE] | status
source "$(dirname "$0")/lib.sh"
APPS=()
up() { [ "${1:-}" = "--record" ] && : >"$2"; return 0; }
down() { return 0; }
status() { [ ${#APPS[@]} -eq 0 ] && echo "apps: none yet"; return 0; }
cmd="${1:-status}"; shift || true
"$cmd" "$@"
