#!/usr/bin/env bash
# deploy/image/layout-check.sh : the image's layout, proven without a container runtime. ./stack test runs it
# (the stack must be up: the apps need its MongoDB, Kafka, S3 and Redis).
#   1. deploy/image/assemble.sh lays out /app as deploy/Dockerfile does, in .local/image-layout/app.
#   2. Every app starts from there as the chart runs it: user 1000, no privileges, every filesystem
#      read-only (a private mount namespace, the pod's readOnlyRootFilesystem) but a fresh /tmp (its
#      emptyDir), the sms-limits file read-only where the chart mounts it.
#   3. It answers as the chart's probes ask: grpc.health.v1 Check SERVING on each service (through the
#      layout's own healthcheck.mjs, as docker-compose asks too), /health and /ready 200 on the gateway;
#      the bundled feedbackctl creates an account through that gateway.
#   4. SIGTERM: each app exits within the grace the chart gives it (35 s less the 5 s preStop).
# Its apps use their own ports, databases (layout_check_*), Kafka topics and consumer groups, and bucket,
# so the stack's own apps and data are untouched.
set -euo pipefail
source "$(dirname "$0")/../../infra/lib.sh"
cd "$REPO_ROOT"
STACK="$LOCAL_DIR/stack.json"
WORK="$LOCAL_DIR/image-layout"
APP="$WORK/app"
UID_GID=1000
GRACE_SECONDS=30
declare -A PORT=([gateway]=28080 [links]=28081 [flow]=28052 [survey]=28053 [file]=28054 [shortener]=28055 [messaging]=28056 [webhooks]=28057 [dlr]=28091)
# Each app's metrics listener (METRICS_PORT): not the defaults, which a running ./stack holds.
declare -A METRICS_PORT=([gateway]=28461 [flow]=28462 [survey]=28463 [file]=28464 [shortener]=28465 [messaging]=28466 [webhooks]=28467)

[ -f "$STACK" ] || die "layout check: no $STACK; start the stack first (./stack up)"
for tool in unshare setpriv; do require "$tool" "It is in util-linux."; done
[ "$(id -u)" = 0 ] || die "layout check: needs root (a mount namespace, then it drops to user $UID_GID)"
for p in "${PORT[@]}"; do ! port_open "$p" || die "layout check: port $p is taken"; done

rm -rf "$WORK"
mkdir -p "$WORK/logs" "$WORK/sms-limits" "$WORK/rw-probe"
deploy/image/assemble.sh "$APP" >&2
# The layout and the limits file as the image and the ConfigMap give them: nothing there is writable.
cat >"$WORK/sms-limits/sms-limits.yaml" <<'EOF'
enabled: true
tiers:
  - { limit: 20, window_seconds: 5 }
EOF
chmod -R a-w "$APP" "$WORK/sms-limits"
# A directory anybody may write to on this machine: inside the namespace it must refuse writes.
chmod 1777 "$WORK/rw-probe"

# "${RO_RUN[@]}" CMD...: CMD as user 1000 without privileges, every mount read-only but a fresh tmpfs on
# /tmp. A private mount namespace: the remounts (per mount point, `bind`) never reach this machine's mounts.
# A checkout under /tmp (as CI may clone it) would vanish under that tmpfs: the layout is then bound to
# /mnt first and back to its own path, read-only, over the tmpfs.
# unshare, bash and setpriv each exec the next, so an `exec "${RO_RUN[@]}" node ...` keeps one PID, node's.
# shellcheck disable=SC2016 # expanded by the inner bash
RO_RUN=(unshare --mount --propagation private bash -c '
  work='"$WORK"'
  case "$work" in /tmp/*) mount --bind "$work" /mnt ;; esac
  awk "{ print \$2 }" /proc/self/mounts | sort -u | while read -r m; do
    case "$m" in /proc | /proc/* | /sys | /sys/* | /dev | /dev/*) continue ;; esac
    mount -o remount,bind,ro "$m" 2>/dev/null || true
  done
  mount -t tmpfs -o size=64m,mode=1777 tmpfs /tmp
  case "$work" in /tmp/*) mkdir -p "$work" && mount --bind /mnt "$work" && mount -o remount,bind,ro "$work" ;; esac
  exec setpriv --reuid='"$UID_GID"' --regid='"$UID_GID"' --clear-groups --no-new-privs "$@"' ro_run)

# The namespace works as meant: /tmp takes writes, the world-writable directory does not.
"${RO_RUN[@]}" sh -c "touch /tmp/probe && ! touch '$WORK/rw-probe/probe' 2>/dev/null" \
  || die "layout check: the read-only mount namespace does not hold (unshare/mount refused?)"

secret() { node -p "require('crypto').randomBytes($1).toString('base64')"; }
stack() { node -p "const s = require('$STACK'); $1"; }
common=(
  PATH=/usr/local/bin:/usr/bin:/bin HOME=/nonexistent NODE_ENV=production LOG_LEVEL=info
  "MONGO_URL=$(stack s.mongo_url)" "KAFKA_BROKERS=$(stack 's.kafka_brokers.join(",")')"
  "PERSONAL_DATA_KEY=$(secret 32)" DATA_ERASURE_REQUESTED_TOPIC=layout-check.data.erasure.requested
  DATA_ERASURE_PROGRESS_TOPIC=layout-check.data.erasure.progress ACCOUNT_RETENTION_TOPIC=layout-check.account.retention
)
addr() { echo "127.0.0.1:${PORT[$1]}"; }
admin_token="$(secret 32)"
declare -A ENV=(
  [flow]="GRPC_PORT=${PORT[flow]}"
  [file]="GRPC_PORT=${PORT[file]} S3_ENDPOINT=$(stack s.s3.endpoint) S3_ACCESS_KEY=$(stack s.s3.access_key)
    S3_SECRET_KEY=$(stack s.s3.secret_key) S3_BUCKET=layout-check-files FILE_UPLOADED_TOPIC=layout-check.file.uploaded
    FILE_EXPIRED_TOPIC=layout-check.file.expired FILE_PROCESSED_TOPIC=layout-check.file.processed"
  [shortener]="GRPC_PORT=${PORT[shortener]} PUBLIC_SHORTENER_URL=http://$(addr links) CLICKS_TOPIC=layout-check.link.clicked
    CLICKS_GROUP=layout-check-clicks DATA_ERASURE_GROUP=layout-check-shortener-data-erasure"
  [survey]="GRPC_PORT=${PORT[survey]} FLOW_GRPC_ADDR=$(addr flow) PUBLIC_BASE_URL=http://$(addr gateway)
    SURVEY_ANSWERED_TOPIC=layout-check.survey.answered DATA_ERASURE_GROUP=layout-check-survey-data-erasure
    DATA_ERASURE_PROGRESS_GROUP=layout-check-survey-data-erasure-progress ACCOUNT_RETENTION_GROUP=layout-check-survey-retention"
  [messaging]="GRPC_PORT=${PORT[messaging]} SURVEY_GRPC_ADDR=$(addr survey) SHORTENER_GRPC_ADDR=$(addr shortener)
    FILE_GRPC_ADDR=$(addr file) SMS_PROVIDER=outbox DLR_PORT=${PORT[dlr]} DLR_PUBLIC_URL=http://$(addr dlr)
    DLR_SECRET=$(secret 32) SMS_PROVIDER_SECRETS_KEY=$(secret 32) SMS_DISPATCH_TOPIC=layout-check.sms.dispatch
    SMS_STATUS_TOPIC=layout-check.sms.status SMS_DISPATCH_GROUP=layout-check-sms-dispatch
    SHARING_COMPLETED_TOPIC=layout-check.sharing.completed FILE_UPLOADED_TOPIC=layout-check.file.uploaded FILE_UPLOADED_GROUP=layout-check-csv
    DATA_ERASURE_GROUP=layout-check-messaging-data-erasure ACCOUNT_RETENTION_GROUP=layout-check-messaging-retention
    FLOW_GRPC_ADDR=$(addr flow) CLICKS_TOPIC=layout-check.link.clicked CLICK_FACTS_GROUP=layout-check-click-facts
    SURVEY_ANSWERED_TOPIC=layout-check.survey.answered ANSWER_FACTS_GROUP=layout-check-answer-facts"
  [webhooks]="GRPC_PORT=${PORT[webhooks]} WEBHOOKS_SECRET_KEY=$(secret 32) SURVEY_ANSWERED_TOPIC=layout-check.survey.answered
    SMS_STATUS_TOPIC=layout-check.sms.status FILE_EXPIRED_TOPIC=layout-check.file.expired FILE_PROCESSED_TOPIC=layout-check.file.processed
    SHARING_COMPLETED_TOPIC=layout-check.sharing.completed WEBHOOKS_EVENTS_GROUP=layout-check-webhooks-events
    DATA_ERASURE_GROUP=layout-check-webhooks-data-erasure ACCOUNT_RETENTION_GROUP=layout-check-webhooks-retention"
  [gateway]="API_PORT=${PORT[gateway]} LINK_PORT=${PORT[links]} PUBLIC_BASE_URL=http://$(addr gateway)
    PUBLIC_SHORTENER_URL=http://$(addr links) ADMIN_TOKEN=$admin_token REDIS_URL=$(stack s.redis_url)
    FLOW_GRPC_ADDR=$(addr flow) FILE_GRPC_ADDR=$(addr file) SHORTENER_GRPC_ADDR=$(addr shortener)
    SURVEY_GRPC_ADDR=$(addr survey) MESSAGING_GRPC_ADDR=$(addr messaging) WEBHOOKS_GRPC_ADDR=$(addr webhooks) CLICKS_TOPIC=layout-check.link.clicked
    SMS_LIMITS_FILE=$WORK/sms-limits/sms-limits.yaml"
)

declare -A PID=()
stop_all() {
  local app
  for app in "${!PID[@]}"; do kill -TERM "${PID[$app]}" 2>/dev/null || true; done
}
trap 'stop_all; wait 2>/dev/null || true' EXIT

start() { # start APP: its bundle from the layout, the working directory /app as in the image
  local app="$1" vars
  read -r -a vars <<<"$(echo "${ENV[$app]}" | tr '\n' ' ')"
  (cd "$APP" && exec 3>&- && exec "${RO_RUN[@]}" env -i "${common[@]}" "MONGO_DB=layout_check_$app" "${vars[@]}" \
    "METRICS_PORT=${METRICS_PORT[$app]}" node "$APP/apps/$app/dist/main.js") >"$WORK/logs/$app.log" 2>&1 &
  PID[$app]=$!
}

failed=0
fail() { log "layout check: $*"; failed=1; }
wait_until() { # wait_until APP SECONDS CMD...: until CMD succeeds; false if APP exits or time runs out
  local app="$1" deadline=$((SECONDS + $2)); shift 2
  until "$@" >/dev/null 2>&1; do
    kill -0 "${PID[$app]}" 2>/dev/null || return 1
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.3
  done
}

log "layout check: starting every app from $APP (user $UID_GID, read-only filesystems, /tmp writable)"
for app in flow file shortener survey messaging webhooks; do start "$app"; done
for app in flow file shortener survey messaging webhooks; do
  if wait_until "$app" 60 node "$APP/healthcheck.mjs" grpc "${PORT[$app]}"; then
    log "layout check: $app answers grpc.health.v1 Check SERVING on :${PORT[$app]}"
  else
    fail "$app does not answer SERVING on :${PORT[$app]}"; tail -n 20 "$WORK/logs/$app.log" >&2
  fi
done
start gateway
if wait_until gateway 60 curl -sf --max-time 2 "http://$(addr gateway)/health" \
  && wait_until gateway 60 curl -sf --max-time 2 "http://$(addr gateway)/ready" \
  && node "$APP/healthcheck.mjs" http "${PORT[gateway]}" /ready; then
  log "layout check: gateway answers /health and /ready on :${PORT[gateway]}"
else
  fail "the gateway does not answer /health and /ready"; curl -s "http://$(addr gateway)/ready" >&2 || true
  tail -n 20 "$WORK/logs/gateway.log" >&2
fi
# Every app's metrics listener, as Prometheus scrapes it (the chart's prometheus.io/port).
for app in flow file shortener survey messaging webhooks gateway; do
  # Read whole before grep: grep -q leaving early would fail the pipe (pipefail).
  if scrape="$(curl -sf --max-time 2 "http://127.0.0.1:${METRICS_PORT[$app]}/metrics")" \
    && grep -q "^process_resident_memory_bytes{app=\"$app\"}" <<<"$scrape"; then
    log "layout check: $app serves /metrics on :${METRICS_PORT[$app]}"
  else
    fail "$app does not serve /metrics on :${METRICS_PORT[$app]}"
  fi
done
# The CLI of the image, on its PATH, read-only as well.
if account="$("${RO_RUN[@]}" env -i PATH="$APP/bin:/usr/local/bin:/usr/bin:/bin" HOME=/nonexistent \
  FEEDBACK_BASE_URL="http://$(addr gateway)" ADMIN_TOKEN="$admin_token" feedbackctl accounts create --name layout-check 2>&1)" \
  && grep -q '"name": *"layout-check"' <<<"$account"; then
  log "layout check: feedbackctl (bin/feedbackctl) created an account through that gateway"
else
  fail "feedbackctl from the layout failed: $account"
fi

# Resident memory of each bundle at rest, started and connected (README.md "Sizing" of the chart).
rss=""
for app in gateway webhooks messaging survey shortener file flow; do
  rss+=" $app $(awk '/^VmRSS/ { printf "%d MiB", $2 / 1024 }' "/proc/${PID[$app]}/status" 2>/dev/null),"
done
log "layout check: resident memory at rest:${rss%,}"
log "layout check: SIGTERM to every app; each must exit within ${GRACE_SECONDS} s"
for app in gateway webhooks messaging survey shortener file flow; do
  pid="${PID[$app]}"
  [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$(readlink -f "$(command -v node)")" ] || fail "$app: pid $pid is not its node process"
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + GRACE_SECONDS))
  while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then
    fail "$app still runs ${GRACE_SECONDS} s after SIGTERM"; kill -KILL "$pid" 2>/dev/null || true
  fi
  rc=0; wait "$pid" 2>/dev/null || rc=$?
  [ "$rc" = 0 ] || fail "$app exited with status $rc after SIGTERM"
  unset "PID[$app]"
done
# Whatever an app tried to write outside /tmp failed with EROFS, and it would have said so.
if grep -l -E 'EROFS|read-only file system' "$WORK"/logs/*.log >&2; then fail "an app tried to write outside /tmp (logs above)"; fi

[ "$failed" = 0 ] || die "layout check failed; logs: $WORK/logs"
log "layout check: passed (logs: $WORK/logs)"
