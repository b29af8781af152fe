#!/usr/bin/env bash
# Brings the local infrastructure up or down as one unit and writes .local/stack.json.
#   infra/infra.sh up [--record FILE]   start what is not running; FILE lists what this call started
#   infra/infra.sh down [FILE]          stop everything, or only what FILE lists
#   infra/infra.sh status
source "$(dirname "$0")/lib.sh"
SERVERS=(redis mongo s3 kafka)
HERE="$(dirname "$0")"

write_stack_json() {
  local f="$LOCAL_DIR/stack.json" tmp
  tmp="$(mktemp "$LOCAL_DIR/stack.json.XXXX")"
  # Keys added by the apps (base_url, ...) live in stack.apps.json and are merged in.
  node -e '
    const fs = require("fs");
    const [file, appsFile, mongo, kafka, s3, ak, sk, redis, ...grpc] = process.argv.slice(1);
    let apps = {};
    try { apps = JSON.parse(fs.readFileSync(appsFile, "utf8")); } catch {}
    const stack = { ...apps, mongo_url: mongo, kafka_brokers: [kafka],
      s3: { endpoint: s3, access_key: ak, secret_key: sk, region: "us-east-1" }, redis_url: redis,
      grpc: apps.grpc ?? Object.fromEntries(grpc.map((kv) => kv.split("="))) };
    fs.writeFileSync(file, JSON.stringify(stack, null, 2) + "\n");
  ' "$tmp" "$LOCAL_DIR/stack.apps.json" "mongodb://127.0.0.1:$MONGO_PORT" "127.0.0.1:$KAFKA_PORT" \
    "http://127.0.0.1:$S3_PORT" "$S3_ACCESS_KEY" "$S3_SECRET_KEY" "redis://127.0.0.1:$REDIS_PORT" \
    "flow=127.0.0.1:$FLOW_GRPC_PORT" "file=127.0.0.1:$FILE_GRPC_PORT" "shortener=127.0.0.1:$SHORTENER_GRPC_PORT" \
    "survey=127.0.0.1:$SURVEY_GRPC_PORT" "messaging=127.0.0.1:$MESSAGING_GRPC_PORT"
  mv "$tmp" "$f"
}

start_server() { "$HERE/$1.sh" start; }
stop_server() { "$HERE/$1.sh" stop; }

up() {
  local record=""
  [ "${1:-}" = "--record" ] && record="$2"
  # Provision first (slow, once: downloads and a Go build, side by side), then start (seconds).
  local s failed=0
  for s in "${SERVERS[@]}"; do in_background "provision $s" "$HERE/$s.sh" provision; done
  for s in "${SERVERS[@]}"; do background_wait "provision $s" || failed=1; done
  [ "$failed" = 0 ] || die "could not provision the infrastructure (above)"
  reserve_grpc_ports
  local start="$EPOCHREALTIME"
  start_each start_server "$record" "${SERVERS[@]}"
  record_timing "start infrastructure" "$start"
  write_stack_json
}

down() { stop_each stop_server "${1:-}" "${SERVERS[@]}"; }

status() { for s in "${SERVERS[@]}"; do "$HERE/$s.sh" status; done; }

run_subcommand "up down status write_stack_json" "$@"
