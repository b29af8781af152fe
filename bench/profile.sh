#!/usr/bin/env bash
# ./stack profile BENCH [--connections=N] : CPU profiles (node --cpu-prof) of the gateway and the service behind one
# benchmark while it runs (the stack must be up). Prints each process's top frames by self time
# and keeps the .cpuprofile files (open them in Chrome DevTools or speedscope) under
# .local/profiles/<bench>-<time>/. The apps are restarted without profiling afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
source infra/lib.sh
bench="${1:-}"
case "$bench" in
  flow-details) apps=(flow gateway) ;;
  redirects | shorten) apps=(shortener gateway) ;;
  active-surveys) apps=(survey gateway) ;;
  *) die "usage: ./stack profile flow-details|redirects|shorten|active-surveys" ;;
esac
dir="$LOCAL_DIR/profiles/$bench-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$dir"
trap 'infra/apps.sh restart "${apps[@]}" >/dev/null 2>&1 || true' EXIT
APP_NODE_FLAGS="--cpu-prof --cpu-prof-dir=$dir" infra/apps.sh restart "${apps[@]}"
for a in "${apps[@]}"; do echo "$(pid_of "$a") $a"; done >"$dir/pids.txt"
# The load window on the profiles' clock (CLOCK_MONOTONIC µs, as process.hrtime): profile-top.mjs
# counts only samples inside it, so start-up (module loading, tsx compiling) stays out of the table.
now_us() { node -p 'String(process.hrtime.bigint() / 1000n)'; }
start_us="$(now_us)"
(cd bench && node --import tsx src/main.ts "$bench" "${@:2}")
echo "$start_us $(now_us)" >"$dir/window.txt"
for a in "${apps[@]}"; do stop_pid "$a"; done # SIGTERM: node writes each profile as it exits
node bench/src/profile-top.mjs "$dir"
