#!/usr/bin/env bash
# Redis 7 from Debian's redis-server package.
source "$(dirname "$0")/lib.sh"
NAME=redis

provision() {
  command -v redis-server >/dev/null 2>&1 && return 0
  command -v apt-get >/dev/null 2>&1 || die "redis-server is required: install Redis 7 with your package manager."
  log "installing redis-server from Debian (once)"
  as_root apt-get update -qq >/dev/null && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null \
    || die "could not install redis-server; run 'apt-get install -y redis-server'"
}

start() {
  is_running "$NAME" && return 0
  provision
  start_bg "$NAME" redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no \
    --dir "$DATA_DIR" --daemonize no
  wait_for "$NAME" 30 ready
  log "redis ready on 127.0.0.1:$REDIS_PORT"
}

ready() { [ "$(redis-cli -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; }
stop() { stop_pid "$NAME"; }
status() { is_running "$NAME" && ready && echo "redis: up (redis://127.0.0.1:$REDIS_PORT)" || echo "redis: down"; }

"${1:-status}"
