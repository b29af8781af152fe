# shellcheck shell=bash
# Shared helpers for the local infrastructure scripts. Sourced, not run.
# Binaries and jars are cached outside the work tree so that fresh clones reuse them;
# data, logs and pid files live under .local/ in the work tree.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_DIR="${FEEDBACK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/feedback-service}"
LOCAL_DIR="${FEEDBACK_LOCAL_DIR:-$REPO_ROOT/.local}"
RUN_DIR="$LOCAL_DIR/run"
LOG_DIR="$LOCAL_DIR/logs"
DATA_DIR="$LOCAL_DIR/data"
mkdir -p "$CACHE_DIR/bin" "$RUN_DIR" "$LOG_DIR" "$DATA_DIR"

# Node (npm, pnpm) and pip carry CA lists of their own and ignore the system's; where the network
# to the registries needs the system store (a TLS-inspecting proxy), point them at it unless the
# caller already chose (curl, Go and Maven read the system store anyway).
SYSTEM_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
if [ -r "$SYSTEM_CA_BUNDLE" ]; then
  export NODE_EXTRA_CA_CERTS="${NODE_EXTRA_CA_CERTS:-$SYSTEM_CA_BUNDLE}"
  export PIP_CERT="${PIP_CERT:-$SYSTEM_CA_BUNDLE}"
fi

# Ports of the local stack: defined once in infra/ports.json (the apps' env defaults read the
# same file); an environment variable of the same name overrides one. docker-compose.yml uses
# the same values.
while IFS= read -r line; do
  if [[ "$line" =~ \"([A-Z0-9_]+)\":[[:space:]]*([0-9]+) ]]; then
    key="${BASH_REMATCH[1]}"
    printf -v "$key" '%s' "${!key:-${BASH_REMATCH[2]}}"
    export "${key?}"
  fi
done <"$REPO_ROOT/infra/ports.json"
unset line key
S3_ACCESS_KEY="${S3_ACCESS_KEY:-feedback}"
S3_SECRET_KEY="${S3_SECRET_KEY:-feedback-local-secret}"

log() { printf '\033[1;34m[infra]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[infra] error:\033[0m %s\n' "$*" >&2; exit 1; }

# The services' gRPC ports (and their replicas', +100 each up to 9) lie in Linux's ephemeral range
# (32768-60999): a client socket the kernel gave one of them (a database pool, a Kafka connection)
# would make the app's start fail with EADDRINUSE. Reserved ports are never handed out as
# ephemeral ones and still bind when asked for by number. Needs root (a system-wide setting until
# reboot); without it the start takes its chances as before. Called before any server starts.
reserve_grpc_ports() {
  local f=/proc/sys/net/ipv4/ip_local_reserved_ports v lo=65535 hi=0 current range
  [ -w "$f" ] || return 0
  for v in $(compgen -v | grep '_GRPC_PORT$'); do
    ((${!v} < lo)) && lo=${!v}
    ((${!v} + 800 > hi)) && hi=$((${!v} + 800))
  done
  ((hi > 0)) || return 0
  range="$lo-$hi"
  current="$(cat "$f")"
  [[ ",$current," == *",$range,"* ]] && return 0
  echo "${current:+$current,}$range" >"$f" 2>/dev/null || log "could not reserve ports $range (net.ipv4.ip_local_reserved_ports); continuing"
}

require() { # require CMD "how to get it"
  command -v "$1" >/dev/null 2>&1 || die "'$1' is required but not installed. $2"
}

as_root() { # runs a command as root; never asks sudo for a password behind the user's back
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo -n "$@"; else
    die "need root to run: $* (run it yourself, then try again)"; fi
}

require_python310() { # require_python310 WHAT : python3 3.10 or newer with venv, or a message naming WHAT needs it
  require python3 "Install Python 3.10+ with venv, e.g. 'apt-get install -y python3 python3-venv'."
  python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
    || die "$1 needs Python 3.10+ (found $(python3 --version 2>&1))."
}

# go_env TMP CMD...: go with GOPATH, GOCACHE and its settings in the scratch directory TMP of the cache:
# nothing is read from or left in HOME (go keeps its telemetry under XDG_CONFIG_HOME; GOENV=off).
go_env() {
  local tmp="$1"; shift
  env GOPATH="$tmp/gopath" GOMODCACHE="$tmp/gopath/pkg/mod" GOCACHE="$tmp/gocache" GOFLAGS=-mod=mod \
    GOTOOLCHAIN=local CGO_ENABLED=0 XDG_CONFIG_HOME="$tmp/config" GOENV=off "$@"
}

fresh_venv() { # fresh_venv DIR LOG_NAME PACKAGE==VERSION... : a new virtual environment in DIR with these packages (pip's output in $LOG_DIR/LOG_NAME.log)
  local venv="$1" pip_log="$LOG_DIR/$2.log" start="$EPOCHREALTIME"
  shift 2
  rm -rf "$venv"
  python3 -m venv "$venv" || die "python3 -m venv failed; install the venv module, e.g. 'apt-get install -y python3-venv'."
  "$venv/bin/pip" install -q --disable-pip-version-check "$@" >"$pip_log" 2>&1 \
    || { tail -n 20 "$pip_log" >&2; die "pip install $* failed"; }
  record_timing "pip install ${*%%==*}" "$start"
}

ensure_apt_tool() { # ensure_apt_tool CMD PACKAGE: installs a Debian package when CMD is missing
  command -v "$1" >/dev/null 2>&1 && return 0
  command -v apt-get >/dev/null 2>&1 || die "'$1' is required: install the '$2' package with your package manager."
  require flock "It is in util-linux."
  # One install at a time (apt_lock_file): provisions that run side by side would meet dpkg's lock.
  {
    flock 8
    command -v "$1" >/dev/null 2>&1 && return 0 # installed while this waited
    log "installing $2 from Debian (once)"
    { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2"; } >"$LOG_DIR/apt-$2.log" 2>&1 \
      || { tail -n 20 "$LOG_DIR/apt-$2.log" >&2; die "could not install $2; run 'apt-get install -y $2'"; }
  } 8>"$(apt_lock_file)"
}

# The lock every apt-get install of these scripts holds (flock): ./stack test provisions side by side.
apt_lock_file() { echo "$CACHE_DIR/apt.lock"; }

# Where ./stack test's time goes: with TIMINGS_FILE set, each timed part appends
# "NAME<TAB>start<TAB>end<TAB>exit code" (epoch seconds) to it; scripts/test-summary.mjs prints the table.
# record_timing NAME START [EXIT_CODE]: the part NAME began at START ($EPOCHREALTIME) and ends now.
record_timing() {
  [ -z "${TIMINGS_FILE:-}" ] || printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$EPOCHREALTIME" "${3:-0}" >>"$TIMINGS_FILE"
}

# timed NAME CMD...: runs CMD as the part NAME; CMD's exit code. CMD runs as a condition, where errexit
# (set -e) is off: a shell function that relies on it is timed with record_timing around it instead.
timed() {
  local name="$1" start="$EPOCHREALTIME" rc=0
  shift
  "$@" || rc=$?
  record_timing "$name" "$start" "$rc"
  return "$rc"
}

# in_background NAME CMD...: starts `timed NAME CMD...` as a background job, its output in
# $LOG_DIR/bg-<name>.log; background_wait NAME collects it.
declare -gA BACKGROUND_PIDS=()
in_background() {
  local name="$1" logf
  shift
  logf="$LOG_DIR/bg-${name//[^A-Za-z0-9._-]/_}.log"
  timed "$name" "$@" >"$logf" 2>&1 </dev/null &
  BACKGROUND_PIDS[$name]=$!
}

# background_wait NAME: waits for that job; on failure prints the end of its log. Its exit code.
background_wait() {
  local name="$1" rc=0 logf
  logf="$LOG_DIR/bg-${name//[^A-Za-z0-9._-]/_}.log"
  [ -n "${BACKGROUND_PIDS[$name]:-}" ] || die "no background job named '$name'"
  wait "${BACKGROUND_PIDS[$name]}" || rc=$?
  unset "BACKGROUND_PIDS[$name]"
  if [ "$rc" -ne 0 ]; then
    tail -n 400 "$logf" >&2
    log "$name failed (exit code $rc; whole log: $logf)"
  else
    # What it said it did ("installing ... (once)"), now that it cannot interleave with other output.
    grep -F '[infra]' "$logf" >&2 || true
  fi
  return "$rc"
}

pid_file() { echo "$RUN_DIR/$1.pid"; }

# A pid file holds "PID STARTTIME": the kernel's start time of that process (field 22 of
# /proc/PID/stat) tells a live daemon from a stale PID reused by another process.
proc_start_time() { # proc_start_time PID : prints the start time, fails if no such process
  local stat; stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  stat="${stat##*) }" # the command name may hold spaces; fields after it are plain
  # shellcheck disable=SC2086
  set -- $stat
  [ "$1" != Z ] && [ "$1" != X ] || return 1 # a zombie or dead process is not running
  echo "${20}"
}

pid_of() { # pid_of NAME : the recorded PID when that very process is still alive
  local f pid start now; f="$(pid_file "$1")"
  [ -f "$f" ] || return 1
  read -r pid start <"$f" || true
  [ -n "${pid:-}" ] || return 1
  now="$(proc_start_time "$pid")" || return 1
  [ -z "${start:-}" ] || [ "$now" = "$start" ] || return 1
  echo "$pid"
}

is_running() { pid_of "$1" >/dev/null; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start_bg() { # start_bg NAME CMD... : starts a daemon with a fresh log and its pid file
  local name="$1"; shift
  local logf="$LOG_DIR/$name.log"
  # A fresh log per start, so readiness checks never read an earlier run's lines.
  [ -f "$logf" ] && mv -f "$logf" "$logf.prev"
  # Descriptors 3-9 closed: a daemon must not inherit a lock its starter holds (`flock
  # /tmp/bench.lock ./stack profile ...` restarts apps, which would keep the lock for their life).
  # A session of its own (setsid): whoever started it may end its process group (a terminal
  # closing, a tool stopping its jobs) without taking the daemon along; same PID either way.
  local detach=(); command -v setsid >/dev/null && detach=(setsid)
  "${detach[@]}" nohup "$@" >"$logf" 2>&1 </dev/null 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
  local pid=$!
  echo "$pid $(proc_start_time "$pid" || true)" >"$(pid_file "$name")"
}

wait_for() { # wait_for NAME SECONDS CHECK_CMD...
  local name="$1" secs="$2"; shift 2
  local deadline=$((SECONDS + secs))
  until "$@"; do
    if ! is_running "$name"; then
      tail -n 30 "$LOG_DIR/$name.log" >&2 || true
      die "$name exited during start-up; log: $LOG_DIR/$name.log"
    fi
    [ "$SECONDS" -lt "$deadline" ] || die "$name did not answer within ${secs}s; log: $LOG_DIR/$name.log"
    sleep 0.3
  done
}

stop_pid() { # stop_pid NAME : TERM, wait up to 30 s, then KILL; never signals a reused PID
  local f pid; f="$(pid_file "$1")"
  [ -f "$f" ] || return 0
  if pid="$(pid_of "$1")"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do proc_start_time "$pid" >/dev/null || break; sleep 0.3; done
    if proc_start_time "$pid" >/dev/null; then log "$1 did not stop in 30s; killing"; kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$f"
}

# start_each START_FN RECORD_FILE NAME...: starts each NAME not yet running with START_FN;
# RECORD_FILE (may be "") then lists exactly what this call started, for stop_each.
start_each() {
  local fn="$1" record="$2"; shift 2
  [ -n "$record" ] && : >"$record"
  local n
  for n in "$@"; do
    # A running one is still asked to start: that waits until it answers (or fails).
    if is_running "$n"; then "$fn" "$n"; continue; fi
    "$fn" "$n"
    [ -n "$record" ] && echo "$n" >>"$record"
  done
  return 0
}

# stop_each STOP_FN LIST_FILE NAME...: stops the NAMEs (or those LIST_FILE lists), last first.
stop_each() {
  local fn="$1" file="$2"; shift 2
  local list=("$@") i
  [ -n "$file" ] && mapfile -t list <"$file"
  for ((i = ${#list[@]} - 1; i >= 0; i--)); do "$fn" "${list[$i]}"; done
}

# run_subcommand "CMD..." ARGS...: runs ARGS[0] (default status) if it is one of CMD, else usage.
run_subcommand() {
  local allowed="$1"; shift
  local cmd="${1:-status}"; shift || true
  case " $allowed " in
    *" $cmd "*) "$cmd" "$@" ;;
    *) echo "usage: $(basename "$0") {${allowed// /|}}" >&2; exit 2 ;;
  esac
}

export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1

# Signs the messaging service's delivery-report callback URLs and its inbound-SMS URL (infra/kannel.sh);
# kept, so reports for messages sent before a restart are still accepted.
dlr_secret() {
  local f="$LOCAL_DIR/dlr-secret"
  [ -s "$f" ] || (umask 077 && node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))' >"$f")
  cat "$f"
}
