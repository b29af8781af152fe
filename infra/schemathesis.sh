#!/usr/bin/env bash
# schemathesis (PyPI), the API fuzzer that `./stack test` runs over both listeners' OpenAPI
# documents (gateway test fuzz/schemathesis.fuzz.test.ts; docs/reliability.md). Installed with pip
# into a virtual environment in the cache, once, like SecantusDB (infra/mongo.sh).
#   infra/schemathesis.sh provision   install it (idempotent)
#   infra/schemathesis.sh bin         print the path of the `st` command (provisions first)
source "$(dirname "$0")/lib.sh"
SCHEMATHESIS_VERSION=4.32.5
VENV="$CACHE_DIR/schemathesis-$SCHEMATHESIS_VERSION"

provision() {
  [ -f "$VENV/.complete" ] && return 0
  require_python310 schemathesis
  log "installing schemathesis $SCHEMATHESIS_VERSION into $VENV (once, about a minute)"
  fresh_venv "$VENV" schemathesis-install "schemathesis==$SCHEMATHESIS_VERSION"
  "$VENV/bin/st" --version >/dev/null || die "schemathesis installed but '$VENV/bin/st --version' fails"
  touch "$VENV/.complete"
}

bin() { provision; echo "$VENV/bin/st"; }
status() { [ -f "$VENV/.complete" ] && echo "schemathesis: $("$VENV/bin/st" --version)" || echo "schemathesis: not installed"; }

run_subcommand "provision bin status" "$@"
