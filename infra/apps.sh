#!/usr/bin/env bash
# Starts and stops the services and the gateway (from source, with tsx), after the infrastructure.
#   infra/apps.sh up [--record FILE] | down [FILE] | status | restart APP|PROCESS...
# REPLICAS=N (1-9, default 1) runs N processes of every app: process 1 is named after the app and
# has the ports of infra/ports.json, process i is APP-i with every port + 100*(i-1); every client
# dials all processes of a service (round_robin over an ipv4: list, as the chart's headless
# Services give it). Unset, REPLICAS is what the running apps were started with. `restart APP`
# restarts its processes one at a time, each ready before the next goes (a rolling restart).
# APP_NODE_FLAGS (e.g. --cpu-prof) are given to node when an app starts (bench/profile.sh).
source "$(dirname "$0")/lib.sh"
# Order matters: services first, the gateway (whose /health/dependencies asks them) last.
APPS=(flow file shortener survey messaging webhooks gateway)
REPLICAS_FILE="$RUN_DIR/apps.replicas"

any_app_running() {
  local p
  for p in $(processes 9); do is_running "$p" && return 0; done
  return 1
}

# The replica count: REPLICAS if set, else what the running apps were started with, else 1.
resolve_replicas() {
  local recorded=""
  # Apps running without the file were started before replicas were recorded: one each.
  any_app_running && recorded="$(cat "$REPLICAS_FILE" 2>/dev/null || echo 1)"
  N="${REPLICAS:-${recorded:-1}}"
  [[ "$N" =~ ^[1-9]$ ]] || die "REPLICAS must be 1 to 9 (got '$N')"
  if [ -n "$recorded" ] && [ "$recorded" != "$N" ]; then
    # Running clients know only the old processes: start every app afresh with the new count.
    log "the apps run with $recorded replica(s); restarting them with $N"
    # shellcheck disable=SC2046 # process names have no spaces
    stop_apps "" $(processes "$recorded")
  fi
  echo "$N" >"$REPLICAS_FILE"
}

# stop_apps LIST_FILE PROCESS...: stops the PROCESSes (or those LIST_FILE lists): the gateways first
# (they call the services), then every service process at once. Most of a stop is waiting (requests
# drained, consumer groups left), so side by side it takes the time of the slowest, not the sum.
stop_apps() {
  local file="$1" p pids=()
  shift
  local list=("$@")
  [ -n "$file" ] && mapfile -t list <"$file"
  for p in "${list[@]}"; do [ "$(app_of "$p")" != gateway ] || stop_pid "$p"; done
  for p in "${list[@]}"; do
    if [ "$(app_of "$p")" != gateway ]; then stop_pid "$p" & pids+=($!); fi
  done
  for p in "${pids[@]}"; do wait "$p" || true; done
}

processes() { # processes N : every app's process names, in start order (all replicas of an app together)
  local a i
  for a in "${APPS[@]}"; do for ((i = 1; i <= $1; i++)); do proc_name "$a" "$i"; done; done
}

proc_name() { if [ "$2" = 1 ]; then echo "$1"; else echo "$1-$2"; fi; }
app_of() { echo "${1%-[0-9]}"; }
replica_of() { if [[ "$1" =~ -([0-9])$ ]]; then echo "${BASH_REMATCH[1]}"; else echo 1; fi; }

port() { # port VAR REPLICA : infra/ports.json's VAR for that replica
  local base="${!1}"
  echo $((base + 100 * ($2 - 1)))
}

target() { # target VAR : a gRPC target for every replica of the service whose port VAR is
  local i list=()
  for ((i = 1; i <= N; i++)); do list+=("127.0.0.1:$(port "$1" "$i")"); done
  if [ "$N" = 1 ]; then echo "${list[0]}"; else (IFS=,; echo "ipv4:${list[*]}"); fi
}

admin_token() {
  local f="$LOCAL_DIR/admin-token"
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

# Seals webhook endpoints' signing secrets in the webhooks database (AES-256-GCM, 32 bytes); kept,
# so secrets stored before a restart still open.
webhooks_secret_key() {
  local f="$LOCAL_DIR/webhooks-secret-key"
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
      dlr: { url_query: "status=%d&answer=%A", status_param: "status", delivered: ["1"], failed: ["2", "16"], error_param: "answer" },
    }));' "$KANNEL_SENDSMS_PORT" "$1" "$2"
}

# Hashes and seals personal data at rest (kit-core PersonalDataProtector: TCKN, erased phones; 32
# bytes); kept, so what was hashed before a restart is still found.
personal_data_key() {
  local f="$LOCAL_DIR/personal-data-key"
  [ -s "$f" ] || (umask 077 && node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))' >"$f")
  cat "$f"
}

common_env() {
  echo "MONGO_URL=mongodb://127.0.0.1:$MONGO_PORT" "LOG_LEVEL=${LOG_LEVEL:-info}" "NODE_ENV=${NODE_ENV:-development}"
  echo "PERSONAL_DATA_KEY=$(personal_data_key)"
}

start_app() { # start_app PROCESS : starts it (unless running) and waits until it answers
  local proc="$1" name i
  name="$(app_of "$1")" i="$(replica_of "$1")"
  if is_running "$proc"; then wait_for "$proc" 90 app_ready "$proc"; return 0; fi
  local env_vars grpc_port api link
  [ "$name" = gateway ] || grpc_port="$(port "${name^^}_GRPC_PORT" "$i")"
  api="$(port API_PORT 1)" link="$(port LINK_PORT 1)"
  case "$name" in
    flow) env_vars="GRPC_HOST=127.0.0.1 GRPC_PORT=$grpc_port" ;;
    file)
      env_vars="GRPC_HOST=127.0.0.1 GRPC_PORT=$grpc_port S3_ENDPOINT=http://127.0.0.1:$S3_PORT S3_ACCESS_KEY=$S3_ACCESS_KEY"
      env_vars+=" S3_SECRET_KEY=$S3_SECRET_KEY KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT FILE_RETENTION_SECONDS=${FILE_RETENTION_SECONDS:-604800}"
      env_vars+=" MAX_UPLOAD_BYTES=${MAX_UPLOAD_BYTES:-1073741824}" ;;
    shortener)
      env_vars="GRPC_HOST=127.0.0.1 GRPC_PORT=$grpc_port KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"
      env_vars+=" PUBLIC_SHORTENER_URL=http://127.0.0.1:$link"
      # A process killed with SIGKILL keeps its partitions until the group's session times out: 10 s
      # here (the fault tests kill processes on purpose), 30 s in production.
      env_vars+=" CLICKS_SESSION_TIMEOUT_MS=${CLICKS_SESSION_TIMEOUT_MS:-10000}" ;;
    survey)
      env_vars="GRPC_HOST=127.0.0.1 GRPC_PORT=$grpc_port FLOW_GRPC_ADDR=$(target FLOW_GRPC_PORT) KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"
      env_vars+=" PUBLIC_BASE_URL=http://127.0.0.1:$api DEFAULT_PHONE_REGION=${DEFAULT_PHONE_REGION:-TR} DEFAULT_LINK_TTL_DAYS=${DEFAULT_LINK_TTL_DAYS:-7}" ;;
    messaging)
      sms_provider_setup
      local dlr; dlr="$(port MESSAGING_DLR_PORT "$i")"
      env_vars="GRPC_HOST=127.0.0.1 GRPC_PORT=$grpc_port KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"
      env_vars+=" SURVEY_GRPC_ADDR=$(target SURVEY_GRPC_PORT) SHORTENER_GRPC_ADDR=$(target SHORTENER_GRPC_PORT) FILE_GRPC_ADDR=$(target FILE_GRPC_PORT)"
      env_vars+=" FLOW_GRPC_ADDR=$(target FLOW_GRPC_PORT)"
      # Each process's delivery reports come back to its own listener.
      env_vars+=" DLR_HOST=127.0.0.1 DLR_PORT=$dlr DLR_PUBLIC_URL=http://127.0.0.1:$dlr DLR_SECRET=$(dlr_secret)"
      env_vars+=" SMS_PROVIDER_SECRETS_KEY=$(sms_provider_secrets_key)"
      # As the shortener's clicks group: a killed dispatcher's partitions move on after 10 s, not 30 s.
      env_vars+=" SMS_DISPATCH_SESSION_TIMEOUT_MS=${SMS_DISPATCH_SESSION_TIMEOUT_MS:-10000}"
      env_vars+=" DEFAULT_PHONE_REGION=${DEFAULT_PHONE_REGION:-TR} SMS_MAX_PHONES_PER_SHARING=${SMS_MAX_PHONES_PER_SHARING:-10000} SMS_PROVIDER=$SMS_PROVIDER" ;;
    webhooks)
      # A developer may try a receiver on the laptop: plain http, and loopback only (the metadata
      # address stays refused whatever is allowed). Short retries, so a failing receiver is seen
      # retried within seconds (production: 5 s to 24 h, docs/api.md "Webhooks").
      env_vars="GRPC_HOST=127.0.0.1 GRPC_PORT=$grpc_port KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT WEBHOOKS_SECRET_KEY=$(webhooks_secret_key)"
      env_vars+=" WEBHOOKS_ALLOW_HTTP=${WEBHOOKS_ALLOW_HTTP:-true} WEBHOOKS_ALLOWED_CIDRS=${WEBHOOKS_ALLOWED_CIDRS:-127.0.0.0/8}"
      env_vars+=" WEBHOOKS_RETRY_SCHEDULE=${WEBHOOKS_RETRY_SCHEDULE:-1s,1s,2s,2s,5s,5s,10s,10s,30s}" ;;
    gateway)
      # Every gateway process listens on its own ports; the links they make name the first one's
      # (the one public address a load balancer would give them all).
      env_vars="HOST=127.0.0.1 API_PORT=$(port API_PORT "$i") LINK_PORT=$(port LINK_PORT "$i") FLOW_GRPC_ADDR=$(target FLOW_GRPC_PORT)"
      env_vars+=" FILE_GRPC_ADDR=$(target FILE_GRPC_PORT) MAX_UPLOAD_BYTES=${MAX_UPLOAD_BYTES:-1073741824}"
      env_vars+=" PUBLIC_BASE_URL=http://127.0.0.1:$api PUBLIC_SHORTENER_URL=http://127.0.0.1:$link ADMIN_TOKEN=$(admin_token)"
      env_vars+=" SHORTENER_GRPC_ADDR=$(target SHORTENER_GRPC_PORT) REDIS_URL=redis://127.0.0.1:$REDIS_PORT KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"
      env_vars+=" WEBHOOKS_GRPC_ADDR=$(target WEBHOOKS_GRPC_PORT)"
      env_vars+=" SURVEY_GRPC_ADDR=$(target SURVEY_GRPC_PORT) MESSAGING_GRPC_ADDR=$(target MESSAGING_GRPC_PORT) SMS_MAX_PHONES_PER_SHARING=${SMS_MAX_PHONES_PER_SHARING:-10000}"
      # SMS_LIMITS_FILE unset: the default four tiers (docs/api.md "Limits"); set it to try other tiers,
      # or change them live with `./stack ctl limits set` (stored; no restart).
      [ -n "${SMS_LIMITS_FILE:-}" ] && env_vars+=" SMS_LIMITS_FILE=$SMS_LIMITS_FILE"
      # Local callers (tests, benchmarks, curl) are not limited on POST /shorten; the limit test
      # calls from another loopback address (docs/decisions.md "Short links").
      env_vars+=" SHORTEN_RATE_LIMIT_EXEMPT=${SHORTEN_RATE_LIMIT_EXEMPT-127.0.0.1} SHORTEN_RATE_LIMIT_POINTS=${SHORTEN_RATE_LIMIT_POINTS:-300}" ;;
  esac
  # Every process's Prometheus listener (GET /metrics), its port from infra/ports.json (<APP>_METRICS_PORT).
  env_vars+=" METRICS_HOST=127.0.0.1 METRICS_PORT=$(port "${name^^}_METRICS_PORT" "$i")"
  # shellcheck disable=SC2046,SC2086
  (cd "$REPO_ROOT/apps/$name" && start_bg "$proc" env $(common_env) $env_vars node ${APP_NODE_FLAGS:-} --import tsx src/main.ts)
  wait_for "$proc" 90 app_ready "$proc"
  log "$proc ready"
}

app_ready() { # app_ready PROCESS : its port answers (the gateway: /health/dependencies, which asks every peer)
  local name i
  name="$(app_of "$1")" i="$(replica_of "$1")"
  case "$name" in
    gateway) curl -sf -o /dev/null --max-time 2 "http://127.0.0.1:$(port API_PORT "$i")/health/dependencies" ;;
    *) port_open "$(port "${name^^}_GRPC_PORT" "$i")" ;;
  esac
}

write_apps_json() {
  local a p i metrics=() procs=() grpc=()
  for a in "${APPS[@]}"; do metrics+=("$a=http://127.0.0.1:$(port "${a^^}_METRICS_PORT" 1)"); done
  for a in flow file shortener survey messaging webhooks; do grpc+=("$a=$(target "${a^^}_GRPC_PORT")"); done
  for p in $(processes "$N"); do
    a="$(app_of "$p")" i="$(replica_of "$p")"
    procs+=("$p=$a=$i=http://127.0.0.1:$(port "${a^^}_METRICS_PORT" "$i")=$(port API_PORT "$i")=$(port LINK_PORT "$i")")
  done
  # shellcheck disable=SC2016 # JavaScript, not shell
  node -e '
    const [file, api, link, token, replicas, metrics, grpc, procs] = process.argv.slice(1);
    const pairs = (s) => s.split(" ").map((kv) => kv.split(/=(.*)/s).slice(0, 2));
    const processes = procs.split(" ").map((s) => s.split("=")).map(([name, app, replica, metrics_url, apiPort, linkPort]) =>
      ({ name, app, replica: Number(replica), metrics_url,
         ...(app === "gateway" ? { base_url: `http://127.0.0.1:${apiPort}`, shortener_url: `http://127.0.0.1:${linkPort}` } : {}) }));
    require("fs").writeFileSync(file, JSON.stringify({ base_url: api, shortener_url: link, admin_token: token,
      replicas: Number(replicas), metrics: Object.fromEntries(pairs(metrics)), grpc: Object.fromEntries(pairs(grpc)),
      gateways: processes.filter((p) => p.app === "gateway").map(({ name, base_url, shortener_url }) => ({ name, base_url, shortener_url })),
      processes }, null, 2));
  ' "$LOCAL_DIR/stack.apps.json" "http://127.0.0.1:$API_PORT" "http://127.0.0.1:$LINK_PORT" "$(admin_token)" "$N" \
    "${metrics[*]}" "${grpc[*]}" "${procs[*]}"
}

up() {
  local record=""
  [ "${1:-}" = "--record" ] && record="$2"
  resolve_replicas
  reserve_grpc_ports
  # shellcheck disable=SC2046 # process names have no spaces
  start_each start_app "$record" $(processes "$N")
  write_apps_json
}

down() { # down [FILE] : every app process (of any replica count), or only those FILE lists
  # shellcheck disable=SC2046 # process names have no spaces
  stop_apps "${1:-}" $(processes 9)
  [ -n "${1:-}" ] || rm -f "$REPLICAS_FILE"
}

restart() { # restart APP|PROCESS... : one process at a time, in the stack's order, each ready before the next
  local a p todo=()
  N="$(cat "$REPLICAS_FILE" 2>/dev/null || echo 1)"
  for a in "$@"; do
    if [[ " ${APPS[*]} " != *" $(app_of "$a") "* ]] || [ "$(replica_of "$a")" -gt "$N" ]; then
      die "unknown app or process '$a' (apps: ${APPS[*]}; $N replica(s))"
    fi
  done
  for p in $(processes "$N"); do
    for a in "$@"; do if [ "$a" = "$p" ] || [ "$a" = "$(app_of "$p")" ]; then todo+=("$p"); break; fi; done
  done
  local k
  for ((k = 0; k < ${#todo[@]}; k++)); do
    stop_pid "${todo[$k]}"
    start_app "${todo[$k]}"
    # Before the next process goes, its clients must be connected to this one again: their
    # reconnect backoff is at most 2 s (kit-grpc), so a process ready for less than that may still be
    # unused, and stopping its sibling would leave a client with no connection at all (the chart's
    # minReadySeconds, for the same reason).
    if ((k + 1 < ${#todo[@]})); then sleep "${ROLLING_SETTLE_SECONDS:-3}"; fi
  done
  return 0
}

status() {
  local p a i where
  N="$(cat "$REPLICAS_FILE" 2>/dev/null || echo 1)"
  for p in $(processes "$N"); do
    a="$(app_of "$p")" i="$(replica_of "$p")"
    if [ "$a" = gateway ]; then where="api :$(port API_PORT "$i"), links :$(port LINK_PORT "$i")"; else where="grpc :$(port "${a^^}_GRPC_PORT" "$i")"; fi
    where+=", metrics :$(port "${a^^}_METRICS_PORT" "$i")"
    if ! is_running "$p"; then echo "$p: down ($where)"; elif app_ready "$p"; then echo "$p: up ($where, pid $(pid_of "$p"))"; else echo "$p: running but not answering ($where)"; fi
  done
}

run_subcommand "up down status restart" "$@"
