#!/usr/bin/env bash
# Redis 7 from Debian's redis-server package.
source "$(dirname "$0")/lib.sh"
NAME=redis

provision() { ensure_apt_tool redis-server redis-server; }

start() {
  if is_running "$NAME"; then wait_for "$NAME" 90 ready; return 0; fi
  provision
  start_bg "$NAME" redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no \
    --dir "$DATA_DIR" --daemonize no
  wait_for "$NAME" 30 ready
  log "redis ready on 127.0.0.1:$REDIS_PORT"
}

ready() { [ "$(redis-cli -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; }
stop() { stop_pid "$NAME"; }
status() { is_running "$NAME" && ready && echo "redis: up (redis://127.0.0.1:$REDIS_PORT)" || echo "redis: down"; }

run_subcommand "provision start stop status ready" "$@"
