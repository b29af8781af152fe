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
  require python3 "Install Python 3.10+ with venv, e.g. 'apt-get install -y python3 python3-venv'."
  python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
    || die "SecantusDB needs Python 3.10+ (found $(python3 --version 2>&1))."
  log "installing SecantusDB $SECANTUS_VERSION into $VENV (once, about a minute)"
  rm -rf "$VENV"
  python3 -m venv "$VENV" || die "python3 -m venv failed; install the venv module, e.g. 'apt-get install -y python3-venv'."
  "$VENV/bin/pip" install -q --disable-pip-version-check "SecantusDB==$SECANTUS_VERSION" >"$LOG_DIR/secantusdb-install.log" 2>&1 \
    || { tail -n 20 "$LOG_DIR/secantusdb-install.log" >&2; die "pip install SecantusDB==$SECANTUS_VERSION failed"; }
  touch "$VENV/.complete"
}

# SecantusDB 0.7.0b3 finds the documents a write touches by an index only when the filter has no
# top-level operator. findAndModify (findOneAndUpdate) writes with `{_id: <the matched id>,
# $and: [<the query>]}`, so every findOneAndUpdate that matched a document scanned the whole
# collection under the collection's lock: at 580,000 survey links one activation took seconds
# and held every other writer of the collection. The patch makes an `_id` equality a point
# lookup whatever else the filter says (the callers check the whole filter on each candidate, as
# they do for the index paths). Applied once per install, checked at every start
# (docs/decisions.md "Local MongoDB server").
patch_server() {
  local storage
  storage="$("$VENV/bin/python" -c 'import secantus.storage as s; print(s.__file__)')"
  grep -q 'feedback-service patch: _id point lookup' "$storage" && return 0
  "$VENV/bin/python" - "$storage" <<'PY' || die "could not patch SecantusDB ($storage)"
import sys
path = sys.argv[1]
src = open(path).read()
anchor = '''        and fall through to COLLSCAN.
        """
        if not filter:
            return None
'''
if src.count(anchor) != 1:
    sys.exit("storage.py is not the SecantusDB 0.7.0b3 source this patch was written for")
patch = anchor + '''        # feedback-service patch: _id point lookup whatever else the filter holds
        if "_id" in filter and not self._is_timeseries(db, coll):
            _keys = _id_point_lookup_keys(filter["_id"])
            if _keys is not None:
                _rids = [self._doc_recordid(db, coll, k) for k in _keys]
                return [r for r in _rids if r is not None]
'''
open(path, "w").write(src.replace(anchor, patch))
PY
  log "patched SecantusDB: _id point lookups in writes (infra/mongo.sh patch_server)"
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
  start_bg "$NAME" "$BIN" --config "$conf"
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
