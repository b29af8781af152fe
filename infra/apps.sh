#!/usr/bin/env bash
# Starts and stops the services and the gateway (from source, with tsx), after the infrastructure.
#   infra/apps.sh up [--record FILE] | down [FILE] | status
source "$(dirname "$0")/lib.sh"
HERE="$(dirname "$0")"
API_PORT="${API_PORT:-8080}"
LINK_PORT="${LINK_PORT:-8081}"
FLOW_GRPC_PORT="${FLOW_GRPC_PORT:-50052}"
FILE_GRPC_PORT="${FILE_GRPC_PORT:-50054}"
SHORTENER_GRPC_PORT="${SHORTENER_GRPC_PORT:-50055}"
# Order matters: services first, the gateway (which checks them for /ready) last.
APPS=(flow file shortener gateway)

admin_token() {
  local f="$LOCAL_DIR/admin-token"
  [ -s "$f" ] || (umask 077 && node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))' >"$f")
  cat "$f"
}

common_env() {
  echo "MONGO_URL=mongodb://127.0.0.1:$MONGO_PORT" "LOG_LEVEL=${LOG_LEVEL:-info}" "NODE_ENV=${NODE_ENV:-development}"
}

start_app() {
  local name="$1"
  is_running "$name" && return 0
  local env_vars
  case "$name" in
    flow) env_vars="GRPC_HOST=127.0.0.1 GRPC_PORT=$FLOW_GRPC_PORT" ;;
    file)
      env_vars="GRPC_HOST=127.0.0.1 GRPC_PORT=$FILE_GRPC_PORT S3_ENDPOINT=http://127.0.0.1:$S3_PORT S3_ACCESS_KEY=$S3_ACCESS_KEY"
      env_vars+=" S3_SECRET_KEY=$S3_SECRET_KEY KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT FILE_RETENTION_SECONDS=${FILE_RETENTION_SECONDS:-604800}"
      env_vars+=" MAX_UPLOAD_BYTES=${MAX_UPLOAD_BYTES:-1073741824}" ;;
    shortener)
      env_vars="GRPC_HOST=127.0.0.1 GRPC_PORT=$SHORTENER_GRPC_PORT KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"
      env_vars+=" PUBLIC_SHORTENER_URL=http://127.0.0.1:$LINK_PORT" ;;
    gateway)
      env_vars="HOST=127.0.0.1 API_PORT=$API_PORT LINK_PORT=$LINK_PORT FLOW_GRPC_ADDR=127.0.0.1:$FLOW_GRPC_PORT"
      env_vars+=" FILE_GRPC_ADDR=127.0.0.1:$FILE_GRPC_PORT MAX_UPLOAD_BYTES=${MAX_UPLOAD_BYTES:-1073741824}"
      env_vars+=" PUBLIC_BASE_URL=http://127.0.0.1:$API_PORT PUBLIC_SHORTENER_URL=http://127.0.0.1:$LINK_PORT ADMIN_TOKEN=$(admin_token)"
      env_vars+=" SHORTENER_GRPC_ADDR=127.0.0.1:$SHORTENER_GRPC_PORT REDIS_URL=redis://127.0.0.1:$REDIS_PORT KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"
      # Local callers (tests, benchmarks, curl) are not limited on POST /shorten; the limit test
      # calls from another loopback address (docs/decisions.md "Short links").
      env_vars+=" SHORTEN_RATE_LIMIT_EXEMPT=${SHORTEN_RATE_LIMIT_EXEMPT-127.0.0.1} SHORTEN_RATE_LIMIT_POINTS=${SHORTEN_RATE_LIMIT_POINTS:-300}" ;;
  esac
  # shellcheck disable=SC2046,SC2086
  (cd "$REPO_ROOT/apps/$name" && start_bg "$name" env $(common_env) $env_vars node --import tsx src/main.ts)
  case "$name" in
    flow) wait_for "$name" 60 port_open "$FLOW_GRPC_PORT" ;;
    file) wait_for "$name" 90 port_open "$FILE_GRPC_PORT" ;;
    shortener) wait_for "$name" 90 port_open "$SHORTENER_GRPC_PORT" ;;
    gateway) wait_for "$name" 90 curl -sf -o /dev/null --max-time 2 "http://127.0.0.1:$API_PORT/ready" ;;
  esac
  log "$name ready"
}

write_apps_json() {
  node -e '
    const [file, api, link, token] = process.argv.slice(1);
    require("fs").writeFileSync(file, JSON.stringify({ base_url: api, shortener_url: link, admin_token: token }, null, 2));
  ' "$LOCAL_DIR/stack.apps.json" "http://127.0.0.1:$API_PORT" "http://127.0.0.1:$LINK_PORT" "$(admin_token)"
}

up() {
  local record=""
  [ "${1:-}" = "--record" ] && record="$2"
  start_each start_app "$record" "${APPS[@]}"
  write_apps_json
}

down() { stop_each stop_pid "${1:-}" "${APPS[@]}"; }

status() {
  for a in "${APPS[@]}"; do is_running "$a" && echo "$a: up" || echo "$a: down"; done
}

cmd="${1:-status}"; shift || true
"$cmd" "$@"
