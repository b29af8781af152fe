#!/usr/bin/env bash
# Kannel from Debian as a real SMS gateway for the generic HTTP provider: bearerbox (the core),
# smsbox (HTTP /cgi-bin/sendsms) and fakesmsc (kannel-extras: a fake SMSC that logs every
# message it gets), three daemons sharing one kannel.conf under .local/kannel/.
#   infra/kannel.sh provision|start|stop|status|ready|settings|mo SENDER TEXT
#
# Facts checked against Debian's kannel 1.4.5 (tests rely on them):
# - fakesmsc logs every message bearerbox hands it as one line of its log:
#     "2026-11-23 14:05:56 [9653] [0] DEBUG: Got message 1: <FEEDBACK 905321234567 ucs-2 %00M%00e...>"
#   i.e. "<date> <time> [pid] [thread] DEBUG: Got message <n>: <<from> <to> <type> <data>>", where
#   type "text" is plain ASCII data, "data" is url-encoded bytes and "ucs-2" (coding=2) url-encoded
#   UTF-16BE ('+' is a space). The recipient is as given to sendsms (no "+").
# - sendsms: GET /cgi-bin/sendsms?username&password&to&from&text&charset=UTF-8&coding=2
#   &dlr-mask=N&dlr-url=URL answers 202 "0: Accepted for delivery".
# - Delivery reports need no fakesmsc flag: bearerbox's fake driver reports status 8 (delivered
#   to SMSC) once written to fakesmsc, then 1 (delivered) when dlr-mask has 1 or 2; it never
#   reports a failure. dlr-url placeholders: %d status, %p recipient, %A SMSC reply, %i smsc-id,
#   %t time; each report is one GET of the dlr-url.
# - Inbound (MO) SMS: a fakesmsc started with a message on its command line sends it to bearerbox
#   as coming from the phone ("<sender> <receiver> text <words>"); smsbox then calls the
#   sms-service's get-url once with it (%p sender, %a all its words). fakesmsc takes no input
#   once started and bearerbox's fake driver serves one fakesmsc at a time, so MO messages come
#   from a second fake SMSC ("fake-mo", KANNEL_FAKESMSC_MO_PORT, never given outgoing messages):
#   `infra/kannel.sh mo SENDER TEXT` runs a fakesmsc there for one message.
source "$(dirname "$0")/lib.sh"
# Ports: infra/ports.json (KANNEL_*).
KANNEL_ADMIN_PASSWORD="${KANNEL_ADMIN_PASSWORD:-feedback-admin}"
KANNEL_SENDSMS_USER="${KANNEL_SENDSMS_USER:-feedback}"
KANNEL_SENDSMS_PASSWORD="${KANNEL_SENDSMS_PASSWORD:-feedback-sms}"
KANNEL_DIR="$LOCAL_DIR/kannel"
CONF="$KANNEL_DIR/kannel.conf"
DAEMONS=(kannel-bearerbox kannel-smsbox kannel-fakesmsc)

provision() {
  command -v bearerbox >/dev/null 2>&1 && fakesmsc_bin >/dev/null && return 0
  local cmd="apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq kannel kannel-extras"
  command -v apt-get >/dev/null 2>&1 || die "Kannel is required: install kannel and kannel-extras (fakesmsc) with your package manager."
  [ "$(id -u)" = 0 ] || die "Kannel is not installed and this needs root; run: sudo sh -c '$cmd'"
  require flock "It is in util-linux."
  {
    flock 8
    command -v bearerbox >/dev/null 2>&1 && fakesmsc_bin >/dev/null && return 0 # installed while this waited
    log "installing kannel and kannel-extras from Debian (once): bearerbox, smsbox, fakesmsc"
    apt-get update -qq >/dev/null || die "apt-get update failed; run: $cmd"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq kannel kannel-extras >"$LOG_DIR/kannel-install.log" 2>&1 \
      || { tail -n 20 "$LOG_DIR/kannel-install.log" >&2; die "could not install Kannel; run: $cmd"; }
  } 8>"$(apt_lock_file)"
  # Debian's package enables its own init service on the default ports; ours runs from .local.
  stop_debian_service
  log "installed: $(dpkg-query -W -f '${Package} ${Version}, ' kannel kannel-extras 2>/dev/null | sed 's/, $//')"
}

fakesmsc_bin() {
  local p
  for p in /usr/lib/kannel/test/fakesmsc "$(command -v fakesmsc 2>/dev/null || true)"; do
    [ -n "$p" ] && [ -x "$p" ] && { echo "$p"; return 0; }
  done
  p="$(dpkg -L kannel-extras 2>/dev/null | grep '/fakesmsc$' | head -n 1 || true)"
  [ -n "$p" ] && [ -x "$p" ] && { echo "$p"; return 0; }
  return 1
}

stop_debian_service() {
  if command -v service >/dev/null 2>&1 && [ -x /etc/init.d/kannel ]; then
    service kannel stop >/dev/null 2>&1 || true
  fi
}

write_conf() {
  mkdir -p "$KANNEL_DIR"
  cat >"$CONF" <<EOF
# Written by infra/kannel.sh start; edits are lost on the next start.
group = core
admin-port = $KANNEL_ADMIN_PORT
admin-password = $KANNEL_ADMIN_PASSWORD
admin-interface = 127.0.0.1
smsbox-port = $KANNEL_SMSBOX_PORT
smsbox-interface = 127.0.0.1
box-allow-ip = 127.0.0.1
admin-allow-ip = 127.0.0.1
log-file = "$LOG_DIR/kannel-bearerbox-core.log"
log-level = 1
access-log = "$LOG_DIR/kannel-access.log"
store-type = spool
store-location = "$KANNEL_DIR/store"
dlr-storage = internal

group = smsc
smsc = fake
smsc-id = fake
host = 127.0.0.1
port = $KANNEL_FAKESMSC_PORT
connect-allow-ip = 127.0.0.1

# Inbound SMS only: the fakesmsc of "infra/kannel.sh mo" connects here for one message.
group = smsc
smsc = fake
smsc-id = fake-mo
allowed-smsc-id = fake-mo
host = 127.0.0.1
port = $KANNEL_FAKESMSC_MO_PORT
connect-allow-ip = 127.0.0.1

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = $KANNEL_SMSBOX_PORT
sendsms-port = $KANNEL_SENDSMS_PORT
sendsms-interface = 127.0.0.1
# A delivery-report callback that fails (messaging restarting) is tried again every 3 s for a
# minute instead of being dropped (Kannel's default is no retry).
http-request-retry = 20
http-queue-delay = 3
log-file = "$LOG_DIR/kannel-smsbox-core.log"
log-level = 1
access-log = "$LOG_DIR/kannel-smsbox-access.log"

# Every inbound SMS goes to messaging's signed MO endpoint (opt-out keywords); its answer is
# empty and max-messages 0, so Kannel texts nothing back itself.
group = sms-service
keyword = default
catch-all = true
get-url = "$(mo_url)&from=%p&to=%P&text=%a"
max-messages = 0
omit-empty = true

group = sendsms-user
username = $KANNEL_SENDSMS_USER
password = $KANNEL_SENDSMS_PASSWORD
max-messages = 10
concatenation = true
EOF
  mkdir -p "$KANNEL_DIR/store"
}

# messaging's inbound-SMS URL, signed as apps/messaging/src/providers/adapters/http/dlr-signature.ts
# inboundSmsUrl signs it (HMAC-SHA256 of "sms/mo" under DLR_SECRET, base64url, 32 characters).
mo_url() {
  # shellcheck disable=SC2016 # JavaScript, not shell
  node -e '
    const [port, secret] = process.argv.slice(1);
    const sig = require("crypto").createHmac("sha256", secret).update("sms/mo").digest("base64url").slice(0, 32);
    process.stdout.write(`http://127.0.0.1:${port}/sms/mo?sig=${sig}`);' "$MESSAGING_DLR_PORT" "$(dlr_secret)"
}

# Sends one inbound SMS from SENDER to Kannel, as a phone would: a fakesmsc on the MO fake SMSC.
mo() { # mo SENDER TEXT
  [ $# -eq 2 ] || die "usage: infra/kannel.sh mo SENDER TEXT"
  ready || die "kannel is not running (infra/kannel.sh start)"
  # fakesmsc keeps its connection open once its message is sent: it is stopped after 3 s.
  timeout 3 "$(fakesmsc_bin)" -H 127.0.0.1 -r "$KANNEL_FAKESMSC_MO_PORT" -i 0.1 -m 1 "$1 FEEDBACK text $2" \
    >>"$LOG_DIR/kannel-fakesmsc-mo.log" 2>&1 || true
}

admin_status() { curl -sf --max-time 2 "http://127.0.0.1:$KANNEL_ADMIN_PORT/status.txt?password=$KANNEL_ADMIN_PASSWORD"; }
bearerbox_ready() { port_open "$KANNEL_ADMIN_PORT" && port_open "$KANNEL_SMSBOX_PORT"; }
smsbox_ready() { port_open "$KANNEL_SENDSMS_PORT"; }
# bearerbox lists the fake SMSC "online" once fakesmsc has connected to it.
fakesmsc_ready() { admin_status 2>/dev/null | grep -E '^ *fake' | grep -q 'online'; }

start_daemon() {
  case "$1" in
    kannel-bearerbox)
      is_running "$1" || start_bg "$1" bearerbox "$CONF"
      wait_for "$1" 30 bearerbox_ready ;;
    kannel-smsbox)
      is_running "$1" || start_bg "$1" smsbox "$CONF"
      wait_for "$1" 30 smsbox_ready ;;
    kannel-fakesmsc)
      # -m 0: it generates no messages of its own, only logs what it receives. No flag makes it
      # send delivery reports: bearerbox's fake driver itself reports "delivered to SMSC" (8)
      # once it has written a message to fakesmsc, then "delivered" (1) when dlr-mask asks.
      is_running "$1" || start_bg "$1" "$(fakesmsc_bin)" -H 127.0.0.1 -r "$KANNEL_FAKESMSC_PORT" -i 1 -m 0 \
        "10000 10001 text placeholder"
      wait_for "$1" 30 fakesmsc_ready ;;
  esac
}

start() {
  provision
  if ! is_running kannel-bearerbox; then write_conf; fi
  local d
  for d in "${DAEMONS[@]}"; do start_daemon "$d"; done
  log "kannel ready: sendsms http://127.0.0.1:$KANNEL_SENDSMS_PORT/cgi-bin/sendsms (user $KANNEL_SENDSMS_USER), fakesmsc log $LOG_DIR/kannel-fakesmsc.log"
}

stop() {
  local i
  for ((i = ${#DAEMONS[@]} - 1; i >= 0; i--)); do stop_pid "${DAEMONS[$i]}"; done
}

ready() { bearerbox_ready && smsbox_ready && fakesmsc_ready; }

status() {
  if is_running kannel-bearerbox && is_running kannel-smsbox && is_running kannel-fakesmsc && ready; then
    echo "kannel: up (sendsms http://127.0.0.1:$KANNEL_SENDSMS_PORT/cgi-bin/sendsms)"
  else
    echo "kannel: down"
  fi
}

# Prints the settings tests and apps need, as KEY=VALUE lines.
settings() {
  cat <<EOF
KANNEL_SENDSMS_URL=http://127.0.0.1:$KANNEL_SENDSMS_PORT/cgi-bin/sendsms
KANNEL_SENDSMS_USER=$KANNEL_SENDSMS_USER
KANNEL_SENDSMS_PASSWORD=$KANNEL_SENDSMS_PASSWORD
KANNEL_FAKESMSC_LOG=$LOG_DIR/kannel-fakesmsc.log
KANNEL_ADMIN_URL=http://127.0.0.1:$KANNEL_ADMIN_PORT
EOF
}

"${1:-status}" "${@:2}"
