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

# Ports and credentials: docker-compose.yml uses the same values.
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
MONGO_PORT="${MONGO_PORT:-27017}"
S3_PORT="${S3_PORT:-9000}"
S3_ACCESS_KEY="${S3_ACCESS_KEY:-feedback}"
S3_SECRET_KEY="${S3_SECRET_KEY:-feedback-local-secret}"
REDIS_PORT="${REDIS_PORT:-6379}"

log() { printf '\033[1;34m[infra]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[infra] error:\033[0m %s\n' "$*" >&2; exit 1; }

require() { # require CMD "how to get it"
  command -v "$1" >/dev/null 2>&1 || die "'$1' is required but not installed. $2"
}

as_root() { # runs a command as root, with sudo when needed
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    die "need root to run: $*"; fi
}

pid_file() { echo "$RUN_DIR/$1.pid"; }

is_running() { # is_running NAME
  local f; f="$(pid_file "$1")"
  [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start_bg() { # start_bg NAME CMD... : starts a daemon with its log and pid file
  local name="$1"; shift
  nohup "$@" >>"$LOG_DIR/$name.log" 2>&1 </dev/null &
  echo $! >"$(pid_file "$name")"
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

stop_pid() { # stop_pid NAME : TERM, wait up to 30 s, then KILL
  local f pid; f="$(pid_file "$1")"
  [ -f "$f" ] || return 0
  pid="$(cat "$f")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.3; done
    if kill -0 "$pid" 2>/dev/null; then log "$1 did not stop in 30s; killing"; kill -KILL "$pid" 2>/dev/null || true; fi
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
    is_running "$n" && continue
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

export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
