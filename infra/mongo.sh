#!/usr/bin/env bash
# A MongoDB-wire-compatible server: FerretDB v1.24.2 on SQLite, embedded in infra/ferretdb.
# Production and docker-compose use real MongoDB.
source "$(dirname "$0")/lib.sh"
NAME=mongo
BIN="$CACHE_DIR/bin/ferretdb-embedded-v1.24.2"
SRC="$REPO_ROOT/infra/ferretdb"

provision() {
  [ -x "$BIN" ] && return 0
  require go "Install Go 1.24+ (https://go.dev/dl or 'apt-get install -y golang')."
  log "building FerretDB v1.24.2 (once, a minute or two)"
  (cd "$SRC" && CGO_ENABLED=0 GOTOOLCHAIN=local go build -trimpath -o "$BIN.tmp" .) || die "FerretDB build failed"
  mv "$BIN.tmp" "$BIN"
}

start() {
  is_running "$NAME" && return 0
  provision
  start_bg "$NAME" "$BIN" -listen "127.0.0.1:$MONGO_PORT" -dir "$DATA_DIR/mongo"
  wait_for "$NAME" 60 ready
  log "mongo (FerretDB) ready on 127.0.0.1:$MONGO_PORT"
}

ready() { port_open "$MONGO_PORT"; }
stop() { stop_pid "$NAME"; }
status() { is_running "$NAME" && ready && echo "mongo: up (mongodb://127.0.0.1:$MONGO_PORT)" || echo "mongo: down"; }

"${1:-status}"
