#!/usr/bin/env bash
# Starts and stops the services and the gateway (from source, with tsx), after the infrastructure.
#   infra/apps.sh up [--record FILE] | down [FILE] | status | restart APP...
# APP_NODE_FLAGS (e.g. --cpu-prof) are given to node when an app starts (bench/profile.sh).
source "$(dirname "$0")/lib.sh"
# Order matters: services first, the gateway (whose /health/dependencies asks them) last.
APPS=(flow file shortener survey messaging gateway)

admin_token() {
  local f="$LOCAL_DIR/admin-token"
  [ -s "$f" ] || (umask 077 && node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))' >"$f")
  cat "$f"
}

# Signs the messaging service's delivery-report callback URLs; kept, so reports for messages sent
# before a restart are still accepted.
dlr_secret() {
  local f="$LOCAL_DIR/dlr-secret"
  [ -s "$f" ] || (umask 077 && node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))' >"$f")
  cat "$f"
}

# Seals accounts' own SMS providers in the messaging database (AES-256-GCM, 32 bytes); kept, so
# providers stored before a restart can still be read.
sms_provider_secrets_key() {
  local f="$LOCAL_DIR/sms-provider-secrets-key"
  [ -s "$f" ] || (umask 077 && node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))' >"$f")
  cat "$f"
}

# SMS_PROVIDER=http ./stack up: messaging hands its SMS to a local Kannel (infra/kannel.sh), which
# is started first; the default "outbox" only records them (admin GET .../sms_messages).
# Not in a subshell: it exports SMS_HTTP_PROVIDER (JSON with spaces and quotes) for start_bg's env.
sms_provider_setup() {
  SMS_PROVIDER="${SMS_PROVIDER:-outbox}"
  case "$SMS_PROVIDER" in
    outbox) ;;
    http)
      if [ -z "${SMS_HTTP_PROVIDER:-}" ]; then
        "$REPO_ROOT/infra/kannel.sh" start
        local settings user pass
        settings="$("$REPO_ROOT/infra/kannel.sh" settings)"
        user="$(sed -n 's/^KANNEL_SENDSMS_USER=//p' <<<"$settings")"
        pass="$(sed -n 's/^KANNEL_SENDSMS_PASSWORD=//p' <<<"$settings")"
        SMS_HTTP_PROVIDER="$(kannel_provider_json "$user" "$pass")"
      fi
      export SMS_HTTP_PROVIDER ;;
    *) die "SMS_PROVIDER must be outbox or http (got '$SMS_PROVIDER')" ;;
  esac
}

kannel_provider_json() { # kannel_provider_json USER PASSWORD : apps/messaging/README.md's Kannel config
  # shellcheck disable=SC2016 # JavaScript, not shell
  node -e '
    const [port, user, password] = process.argv.slice(1);
    process.stdout.write(JSON.stringify({
      url: `http://127.0.0.1:${port}/cgi-bin/sendsms`, method: "GET",
      query: { username: user, password, from: "FEEDBACK", to: "{to}", text: "{text}", charset: "UTF-8", coding: "2", "dlr-mask": "3", "dlr-url": "{dlr_url}" },
      success: { body_regex: "^(0|3): " },
      dlr: { url_query: "status=%d", status_param: "status", delivered: ["1"], failed: ["2", "16"] },
    }));' "$KANNEL_SENDSMS_PORT" "$1" "$2"
}

common_env() {
  echo "MONGO_URL=mongodb://127.0.0.1:$MONGO_PORT" "LOG_LEVEL=${LOG_LEVEL:-info}" "NODE_ENV=${NODE_ENV:-development}"
}

start_app() {
  local name="$1"
  if is_running "$name"; then wait_for "$name" 90 app_ready "$name"; return 0; fi
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
    survey)
      env_vars="GRPC_HOST=127.0.0.1 GRPC_PORT=$SURVEY_GRPC_PORT FLOW_GRPC_ADDR=127.0.0.1:$FLOW_GRPC_PORT KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"
      env_vars+=" PUBLIC_BASE_URL=http://127.0.0.1:$API_PORT DEFAULT_PHONE_REGION=${DEFAULT_PHONE_REGION:-TR} DEFAULT_LINK_TTL_DAYS=${DEFAULT_LINK_TTL_DAYS:-7}" ;;
    messaging)
      sms_provider_setup
      env_vars="GRPC_HOST=127.0.0.1 GRPC_PORT=$MESSAGING_GRPC_PORT KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"
      env_vars+=" SURVEY_GRPC_ADDR=127.0.0.1:$SURVEY_GRPC_PORT SHORTENER_GRPC_ADDR=127.0.0.1:$SHORTENER_GRPC_PORT FILE_GRPC_ADDR=127.0.0.1:$FILE_GRPC_PORT"
      env_vars+=" DLR_HOST=127.0.0.1 DLR_PORT=$MESSAGING_DLR_PORT DLR_PUBLIC_URL=http://127.0.0.1:$MESSAGING_DLR_PORT DLR_SECRET=$(dlr_secret)"
      env_vars+=" SMS_PROVIDER_SECRETS_KEY=$(sms_provider_secrets_key)"
      env_vars+=" DEFAULT_PHONE_REGION=${DEFAULT_PHONE_REGION:-TR} MAX_PHONES_PER_SHARING=${MAX_PHONES_PER_SHARING:-10000} SMS_PROVIDER=$SMS_PROVIDER" ;;
    gateway)
      env_vars="HOST=127.0.0.1 API_PORT=$API_PORT LINK_PORT=$LINK_PORT FLOW_GRPC_ADDR=127.0.0.1:$FLOW_GRPC_PORT"
      env_vars+=" FILE_GRPC_ADDR=127.0.0.1:$FILE_GRPC_PORT MAX_UPLOAD_BYTES=${MAX_UPLOAD_BYTES:-1073741824}"
      env_vars+=" PUBLIC_BASE_URL=http://127.0.0.1:$API_PORT PUBLIC_SHORTENER_URL=http://127.0.0.1:$LINK_PORT ADMIN_TOKEN=$(admin_token)"
      env_vars+=" SHORTENER_GRPC_ADDR=127.0.0.1:$SHORTENER_GRPC_PORT REDIS_URL=redis://127.0.0.1:$REDIS_PORT KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"
      env_vars+=" SURVEY_GRPC_ADDR=127.0.0.1:$SURVEY_GRPC_PORT MESSAGING_GRPC_ADDR=127.0.0.1:$MESSAGING_GRPC_PORT SMS_MAX_PHONES_PER_SHARING=${MAX_PHONES_PER_SHARING:-10000}"
      # SMS_LIMITS_FILE unset: the default four tiers (docs/api.md "Limits"); set it to try other tiers.
      [ -n "${SMS_LIMITS_FILE:-}" ] && env_vars+=" SMS_LIMITS_FILE=$SMS_LIMITS_FILE"
      # Local callers (tests, benchmarks, curl) are not limited on POST /shorten; the limit test
      # calls from another loopback address (docs/decisions.md "Short links").
      env_vars+=" SHORTEN_RATE_LIMIT_EXEMPT=${SHORTEN_RATE_LIMIT_EXEMPT-127.0.0.1} SHORTEN_RATE_LIMIT_POINTS=${SHORTEN_RATE_LIMIT_POINTS:-300}" ;;
  esac
  # Every app's Prometheus listener (GET /metrics), its port from infra/ports.json (<APP>_METRICS_PORT).
  local metrics_port="${name^^}_METRICS_PORT"
  env_vars+=" METRICS_HOST=127.0.0.1 METRICS_PORT=${!metrics_port}"
  # shellcheck disable=SC2046,SC2086
  (cd "$REPO_ROOT/apps/$name" && start_bg "$name" env $(common_env) $env_vars node ${APP_NODE_FLAGS:-} --import tsx src/main.ts)
  wait_for "$name" 90 app_ready "$name"
  log "$name ready"
}

app_ready() { # app_ready NAME : its port answers (the gateway: /health/dependencies, which asks every peer)
  case "$1" in
    flow) port_open "$FLOW_GRPC_PORT" ;;
    file) port_open "$FILE_GRPC_PORT" ;;
    shortener) port_open "$SHORTENER_GRPC_PORT" ;;
    survey) port_open "$SURVEY_GRPC_PORT" ;;
    messaging) port_open "$MESSAGING_GRPC_PORT" ;;
    gateway) curl -sf -o /dev/null --max-time 2 "http://127.0.0.1:$API_PORT/health/dependencies" ;;
  esac
}

write_apps_json() {
  local a metrics=() port
  for a in "${APPS[@]}"; do port="${a^^}_METRICS_PORT"; metrics+=("$a=http://127.0.0.1:${!port}"); done
  node -e '
    const [file, api, link, token, ...metrics] = process.argv.slice(1);
    require("fs").writeFileSync(file, JSON.stringify({ base_url: api, shortener_url: link, admin_token: token,
      metrics: Object.fromEntries(metrics.map((kv) => kv.split(/=(.*)/s).slice(0, 2))) }, null, 2));
  ' "$LOCAL_DIR/stack.apps.json" "http://127.0.0.1:$API_PORT" "http://127.0.0.1:$LINK_PORT" "$(admin_token)" "${metrics[@]}"
}

up() {
  local record=""
  [ "${1:-}" = "--record" ] && record="$2"
  start_each start_app "$record" "${APPS[@]}"
  write_apps_json
}

down() { stop_each stop_pid "${1:-}" "${APPS[@]}"; }

restart() { # restart APP... : stops them, then starts them in the stack's order
  local a
  for a in "$@"; do [[ " ${APPS[*]} " == *" $a "* ]] || die "unknown app '$a' (apps: ${APPS[*]})"; done
  for a in "$@"; do stop_pid "$a"; done
  for a in "${APPS[@]}"; do [[ " $* " == *" $a "* ]] && start_app "$a"; done
  return 0
}

status() {
  local a
  for a in "${APPS[@]}"; do
    if ! is_running "$a"; then echo "$a: down"; elif app_ready "$a"; then echo "$a: up"; else echo "$a: running but not answering"; fi
  done
}

run_subcommand "up down status restart" "$@"
