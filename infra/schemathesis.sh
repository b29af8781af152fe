#!/usr/bin/env bash
# schemathesis (PyPI), the API fuzzer that `./stack test` runs over both listeners' OpenAPI
# documents (gateway test fuzz/schemathesis.test.ts; docs/reliability.md). Installed with pip
# into a virtual environment in the cache, once, like SecantusDB (infra/mongo.sh).
#   infra/schemathesis.sh provision   install it (idempotent)
#   infra/schemathesis.sh bin         print the path of the `st` command (provisions first)
source "$(dirname "$0")/lib.sh"
SCHEMATHESIS_VERSION=4.32.5
VENV="$CACHE_DIR/schemathesis-$SCHEMATHESIS_VERSION"

provision() {
  [ -f "$VENV/.complete" ] && return 0
  require python3 "Install Python 3.10+ with venv, e.g. 'apt-get install -y python3 python3-venv'."
  python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
    || die "schemathesis needs Python 3.10+ (found $(python3 --version 2>&1))."
  log "installing schemathesis $SCHEMATHESIS_VERSION into $VENV (once, about a minute)"
  rm -rf "$VENV"
  python3 -m venv "$VENV" || die "python3 -m venv failed; install the venv module, e.g. 'apt-get install -y python3-venv'."
  "$VENV/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" >"$LOG_DIR/schemathesis-install.log" 2>&1 \
    || { tail -n 20 "$LOG_DIR/schemathesis-install.log" >&2; die "pip install schemathesis==$SCHEMATHESIS_VERSION failed"; }
  "$VENV/bin/st" --version >/dev/null || die "schemathesis installed but '$VENV/bin/st --version' fails"
  touch "$VENV/.complete"
}

bin() { provision; echo "$VENV/bin/st"; }
status() { [ -f "$VENV/.complete" ] && echo "schemathesis: $("$VENV/bin/st" --version)" || echo "schemathesis: not installed"; }

run_subcommand "provision bin status" "$@"
