#!/usr/bin/env bash
# bench/bundle.sh BENCH [--profile] [--tree DIR] [--connections=N] [--repeat=N] : one benchmark against the container bundles (dist/main.js from
# scripts/build-app.mjs, as the images run them) of the gateway and the service behind it, started
# by hand next to the running stack: each bundle gets the environment of its running tsx twin
# (/proc/PID/environ) with its own ports (gateway 18080/18081, service 50152), so it uses the same
# database, Kafka, Redis and other services. The benchmark reads a copy of the stack file that
# points at the bundles (FEEDBACK_STACK_FILE) and measures their CPU (BENCH_PIDS). --profile adds
# node --cpu-prof and prints the top frames as ./stack profile does. --tree DIR builds and runs the
# bundles of another copy of the repository (an A/B of two versions against the same stack; DIR
# needs node_modules, e.g. a symlink to this one's). --connections and --repeat go to the benchmark as
# with ./stack bench. The gateway is waited for on /health, not
# /health/dependencies, so a peer the benchmark does not use may be away. Run it under the bench lock:
#   flock /tmp/bench.lock bench/bundle.sh flow-details
set -euo pipefail
cd "$(dirname "$0")/.."
source infra/lib.sh
bench="${1:-}"; shift || true
profile="" tree="$PWD" pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile=--profile ;;
    --tree) tree="$(cd "$2" && pwd)"; shift ;;
    --connections=* | --repeat=*) pass+=("$1") ;;
    *) die "unknown option $1" ;;
  esac
  shift
done
case "$bench" in
  flow-details) svc=flow addr_var=FLOW_GRPC_ADDR ;;
  redirects | shorten) svc=shortener addr_var=SHORTENER_GRPC_ADDR ;;
  active-surveys) svc=survey addr_var=SURVEY_GRPC_ADDR ;;
  *) die "usage: bench/bundle.sh flow-details|redirects|shorten|active-surveys [--profile]" ;;
esac
API=18080 LINK=18081 SVC=50152 API_METRICS=18461 SVC_METRICS=18462
for p in $API $LINK $SVC; do ! port_open "$p" || die "port $p is taken"; done
for a in gateway "$svc"; do is_running "$a" || die "$a is not running: ./stack up first"; done
for a in gateway "$svc"; do (cd "$tree/apps/$a" && node ../../scripts/build-app.mjs >/dev/null); done

dir="$LOCAL_DIR/bundle/$bench-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$dir"
flags=()
[ "$profile" = "--profile" ] && flags=(--cpu-prof "--cpu-prof-dir=$dir")
pids=()
cleanup() { for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
start_bundle() { # start_bundle APP VAR=VALUE... : dist/main.js with the environment of the running APP, overridden
  local app="$1"; shift
  local envs=()
  readarray -d '' envs <"/proc/$(pid_of "$app")/environ"
  # The image installs the bundle's external packages next to it; here pnpm's hoisted store
  # (node_modules/.pnpm/node_modules) stands in for that, beside a copy of the bundle.
  mkdir -p "$dir/$app"
  cp "$tree/apps/$app/dist/"*.js "$tree/apps/$app/dist/"*.js.map "$dir/$app/"
  ln -sfn "$tree/node_modules/.pnpm/node_modules" "$dir/$app/node_modules"
  (cd "$tree/apps/$app" && exec env -i "${envs[@]}" "$@" node "${flags[@]}" "$dir/$app/main.js") >"$dir/$app.log" 2>&1 3>&- &
  pids+=("$!")
  echo "$! $app" >>"$dir/pids.txt"
}
# Metrics ports of their own too: the running apps hold the defaults.
start_bundle "$svc" GRPC_PORT=$SVC METRICS_PORT=$SVC_METRICS
for _ in $(seq 1 100); do port_open $SVC && break; sleep 0.3; done
start_bundle gateway API_PORT=$API LINK_PORT=$LINK METRICS_PORT=$API_METRICS "$addr_var=127.0.0.1:$SVC" \
  PUBLIC_BASE_URL=http://127.0.0.1:$API PUBLIC_SHORTENER_URL=http://127.0.0.1:$LINK
for _ in $(seq 1 100); do curl -sf -o /dev/null --max-time 2 "http://127.0.0.1:$API/health" && break; sleep 0.3; done
curl -sf -o /dev/null "http://127.0.0.1:$API/health" || { tail -n 20 "$dir"/*.log >&2; die "the bundled gateway did not get ready"; }
node -e '
  const [from, to, api, link] = process.argv.slice(1);
  const s = JSON.parse(require("fs").readFileSync(from, "utf8"));
  require("fs").writeFileSync(to, JSON.stringify({ ...s, base_url: api, shortener_url: link }, null, 2));
' "$LOCAL_DIR/stack.json" "$dir/stack.json" "http://127.0.0.1:$API" "http://127.0.0.1:$LINK"
now_us() { node -p 'String(process.hrtime.bigint() / 1000n)'; }
start_us="$(now_us)"
(cd bench && FEEDBACK_STACK_FILE="$dir/stack.json" BENCH_PIDS="gateway=${pids[1]},$svc=${pids[0]}" node --import tsx src/main.ts "$bench" "${pass[@]}")
echo "$start_us $(now_us)" >"$dir/window.txt"
cleanup; pids=()
[ "$profile" = "--profile" ] && node bench/src/profile-top.mjs "$dir"
echo "(bundles of $tree; logs and profiles: $dir)"
