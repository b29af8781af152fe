#!/usr/bin/env bash
# A MongoDB-wire server with MongoDB's semantics: SecantusDB (PyPI, a single-node server over
# WiredTiger that reports itself as a one-member replica set, so transactions, TTL indexes and
# change streams work). Installed with pip into a virtual environment in the cache.
# Production and docker-compose use real MongoDB (docs/decisions.md "Local MongoDB server").
source "$(dirname "$0")/lib.sh"
NAME=mongo
SECANTUS_VERSION=0.7.0b3
VENV="$CACHE_DIR/secantusdb-$SECANTUS_VERSION"
BIN="$VENV/bin/secantusd-py"

provision() {
  [ -f "$VENV/.complete" ] && return 0
  require_python310 SecantusDB
  log "installing SecantusDB $SECANTUS_VERSION into $VENV (once, about a minute)"
  fresh_venv "$VENV" secantusdb-install "SecantusDB==$SECANTUS_VERSION"
  touch "$VENV/.complete"
}

# Three fixes to SecantusDB 0.7.0b3's source (a write's _id lookup, the pruning of retryable-write
# records, an insert's index options read once per chunk): infra/secantusdb-patches.py says what
# and why; each is applied once.
patch_server() {
  local out
  out="$("$VENV/bin/python" "$REPO_ROOT/infra/secantusdb-patches.py")" || die "could not patch SecantusDB (infra/secantusdb-patches.py)"
  [ -z "$out" ] || log "SecantusDB: $out"
}

start() {
  if is_running "$NAME"; then wait_for "$NAME" 90 ready; return 0; fi
  provision
  patch_server
  mkdir -p "$DATA_DIR/mongo" "$LOCAL_DIR/mongo"
  local conf="$LOCAL_DIR/mongo/secantusd.toml"
  cat >"$conf" <<TOML
[server]
host = "127.0.0.1"
port = $MONGO_PORT
storage_path = "$DATA_DIR/mongo"
log_level = "WARNING"

[storage]
cache_size = "${MONGO_CACHE_SIZE:-512M}"
TOML
  # A checkpoint every 5 s instead of SecantusDB's 60: a dropped database leaves its index entries
  # deleted but in place until the next checkpoint, and every lookup that lands beside them walks
  # them one by one (after a test's drop, a 5,000-phone $in took 12 s instead of 50 ms).
  SECANTUS_CHECKPOINT_SECONDS="${MONGO_CHECKPOINT_SECONDS:-5}" start_bg "$NAME" "$BIN" --config "$conf"
  wait_for "$NAME" 90 ready
  log "mongo (SecantusDB $SECANTUS_VERSION) ready on 127.0.0.1:$MONGO_PORT"
}

# The port opens before the storage engine is ready: ask the server itself.
ready() { port_open "$MONGO_PORT" && "$VENV/bin/python" - "$MONGO_PORT" <<'PY' >/dev/null 2>&1
import sys, pymongo
c = pymongo.MongoClient(port=int(sys.argv[1]), serverSelectionTimeoutMS=1500, directConnection=True)
c.admin.command("ping")
PY
}
stop() { stop_pid "$NAME"; }
status() { is_running "$NAME" && ready && echo "mongo: up (mongodb://127.0.0.1:$MONGO_PORT)" || echo "mongo: down"; }

run_subcommand "provision start stop status ready" "$@"
