#!/usr/bin/env bash
# S3-compatible blob store. The pinned MinIO release is refused by the Go module proxy
# (403 "module version not available"), so this runs versitygw v1.7.0 instead
# (see docs/decisions.md). A `minio` binary put in the cache's bin/ is preferred if present.
source "$(dirname "$0")/lib.sh"
NAME=s3
VERSITY="$CACHE_DIR/bin/versitygw-v1.7.0"
MINIO="$CACHE_DIR/bin/minio"

provision() {
  [ -x "$MINIO" ] || [ -x "$VERSITY" ] && return 0
  require go "Install Go 1.24+ (https://go.dev/dl or 'apt-get install -y golang')."
  log "building versitygw v1.7.0 (once, a few minutes)"
  local tmp; tmp="$(mktemp -d)"
  CGO_ENABLED=0 GOTOOLCHAIN=local GOBIN="$tmp" go install github.com/versity/versitygw/cmd/versitygw@v1.7.0 \
    || die "versitygw build failed"
  mv "$tmp/versitygw" "$VERSITY"; rm -rf "$tmp"
}

start() {
  if is_running "$NAME"; then wait_for "$NAME" 90 ready; return 0; fi
  provision
  local dir="$DATA_DIR/s3/objects" meta="$DATA_DIR/s3/meta"; mkdir -p "$dir" "$meta"
  if [ -x "$MINIO" ]; then
    MINIO_ROOT_USER="$S3_ACCESS_KEY" MINIO_ROOT_PASSWORD="$S3_SECRET_KEY" MINIO_UPDATE=off \
      start_bg "$NAME" "$MINIO" server "$dir" --address "127.0.0.1:$S3_PORT" --console-address 127.0.0.1:0
  else
    # --sidecar keeps object metadata in files, so filesystems without xattrs work too.
    ROOT_ACCESS_KEY="$S3_ACCESS_KEY" ROOT_SECRET_KEY="$S3_SECRET_KEY" \
      start_bg "$NAME" "$VERSITY" --port "127.0.0.1:$S3_PORT" posix --sidecar "$meta" "$dir"
  fi
  wait_for "$NAME" 60 ready
  log "s3 ready on http://127.0.0.1:$S3_PORT"
}

ready() { curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$S3_PORT/"; }
stop() { stop_pid "$NAME"; }
status() { is_running "$NAME" && ready && echo "s3: up (http://127.0.0.1:$S3_PORT)" || echo "s3: down"; }

run_subcommand "provision start stop status ready" "$@"
