#!/usr/bin/env bash
# deploy/image/assemble.sh OUT : lays out the image's /app in OUT (a new or empty directory) from this
# checkout, after `pnpm install`. deploy/Dockerfile runs it in its build stage; deploy/image/layout-check.sh
# runs it on this machine and starts every app from OUT, so both see the very same layout:
#   apps/<app>/dist/*.js        each app's bundle and source map (scripts/build-app.mjs; our workspace
#                               packages inlined), the admin CLI's (apps/cli) too
#   node_modules/, apps/<app>/node_modules/
#                               the npm packages the bundles leave external: a production install of the
#                               apps from the lockfile (no devDependencies, no install scripts)
#   bin/feedbackctl             the admin CLI on PATH
#   healthcheck.mjs             gRPC health / HTTP check for runtimes without Kubernetes' probes
# PNPM_STORE_DIR picks pnpm's store (the Dockerfile's cache mount); pnpm is taken from PATH, else the cache.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:?usage: deploy/image/assemble.sh OUT}"
APPS=(gateway survey messaging file flow shortener webhooks cli)
PNPM_VERSION=10.34.8

[ ! -e "$out" ] || [ -z "$(ls -A "$out")" ] || { echo "assemble.sh: $out is not empty" >&2; exit 1; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
pnpm_bin="$(command -v pnpm || true)"
[ -n "$pnpm_bin" ] || pnpm_bin="${FEEDBACK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/feedback-service}/pnpm-$PNPM_VERSION/node_modules/.bin/pnpm"
[ -x "$pnpm_bin" ] || { echo "assemble.sh: pnpm $PNPM_VERSION not found (./stack up installs it into the cache)" >&2; exit 1; }

for app in "${APPS[@]}"; do
  (cd "apps/$app" && node ../../scripts/build-app.mjs >/dev/null)
  mkdir -p "$out/apps/$app/dist"
  cp "apps/$app/dist/"*.js "apps/$app/dist/"*.js.map "$out/apps/$app/dist/"
done

# The production install runs on a copy of the manifests only: the apps' sources never reach OUT, and
# pnpm installs what the lockfile says for the apps and the workspace packages they use, nothing else.
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc "$stage/"
cp -r patches "$stage/"
# infra/package.json too: kit-core depends on it (infra/ports.json, inlined in the bundles); every
# workspace's manifest, so that the frozen lockfile's importers are all there.
for manifest in apps/*/package.json packages/*/package.json bench/package.json infra/package.json infra/test/package.json; do
  mkdir -p "$stage/$(dirname "$manifest")"
  cp "$manifest" "$stage/$manifest"
done
# shamefully-hoist: a bundle imports what a workspace package depended on (pino, zod, ...), which only
# a hoisted node_modules beside the apps offers; each app's own node_modules keeps its direct versions.
if ! (cd "$stage" && "$pnpm_bin" install --prod --frozen-lockfile --ignore-scripts --prefer-offline \
  --config.shamefully-hoist=true --filter "{./apps/*}..." --reporter=append-only \
  ${PNPM_STORE_DIR:+--store-dir "$PNPM_STORE_DIR"}) >"$stage/install.log" 2>&1; then
  tail -n 30 "$stage/install.log" >&2
  echo "assemble.sh: the production install failed" >&2
  exit 1
fi
mv "$stage/node_modules" "$out/node_modules"
for app in "${APPS[@]}"; do
  [ ! -d "$stage/apps/$app/node_modules" ] || mv "$stage/apps/$app/node_modules" "$out/apps/$app/node_modules"
done
# Workspace packages are inlined in the bundles: their links would point at sources the image lacks.
# pnpm's bookkeeping and bin links are not needed to run anything.
rm -rf "$out"/node_modules/@feedback "$out"/node_modules/.pnpm/node_modules/@feedback "$out"/apps/*/node_modules/@feedback \
  "$out"/node_modules/.bin "$out"/apps/*/node_modules/.bin "$out"/node_modules/.modules.yaml "$out"/node_modules/.pnpm-workspace-state*.json "$out"/node_modules/.pnpm/lock.yaml

# No build or test tool may reach the image (types are inert and some runtime packages depend on them).
dev="$(node -e '
  const dev = Object.keys(require("./package.json").devDependencies).filter((d) => !d.startsWith("@types/"));
  const store = require("fs").readdirSync(process.argv[1] + "/node_modules/.pnpm");
  console.log(dev.filter((d) => store.some((p) => p.startsWith(d.replace("/", "+") + "@"))).join(" "));
' "$out")"
[ -z "$dev" ] || { echo "assemble.sh: devDependencies in the production install: $dev" >&2; exit 1; }

mkdir -p "$out/bin"
cp deploy/image/feedbackctl "$out/bin/feedbackctl"
cp deploy/image/healthcheck.mjs "$out/healthcheck.mjs"
chmod 0755 "$out/bin/feedbackctl"
echo "assembled $out: ${APPS[*]}; $(du -sh "$out/node_modules" | cut -f1) of production packages"
