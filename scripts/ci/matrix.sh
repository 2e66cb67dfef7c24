#!/usr/bin/env bash
# The runtime matrix (scripts/ci/matrix.json): every supported Node × @kubernetes/client-node line runs
# the unit suite (src/) and the ./k8s integration suite against the control plane named by
# $COCOON_SHARED_CONTROL_PLANE; under each refused Node every entry point of the packed package must
# refuse to load with its one-line message (there is no install script), and each refused client-node
# version must fail `npm install` (the peer range). The main run's cell is .ci/run's `npm test`, so it
# is skipped here. `npm pack` builds the package (prepack).
# Each Kubernetes release of the matrix other than the main run's runs the kubernetesIntegration files
# (CRDs, CEL rules and server verdicts, patches) on a control plane of its own (COCOON_KUBERNETES_VERSION),
# under the main run's Node and the locked client-node; its binaries are found, downloaded or built first
# (no kube-scheduler: none of those files starts one; the main run's scheduling test gets its own from .ci/run's setup).
# Each peer floor (peerFloors: the lowest version a peer range admits that no line above installs) runs
# the unit and ./k8s integration suites under the main run's Node, the other peer as locked; each refused
# zod must fail `npm install`. npm's list of published peer versions must equal matrix.json's
# `admitted`: a release the ranges admit is proven here before CI passes with it.
# MATRIX_ONLY='22.23.5/~2.0.0' (a glob over "<node>/<client-node spec>", "refused/<version>" and
# "k8s/<release>") picks cells.
# Each client-node line runs in a copy of the checkout, so the checkout's node_modules stay as locked.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -n "${COCOON_SHARED_CONTROL_PLANE:-}" ] || { echo "matrix.sh: set COCOON_SHARED_CONTROL_PLANE (scripts/ci/shared-control-plane.ts)" >&2; exit 1; }
field() { node -p "JSON.stringify(require('./scripts/ci/matrix.json')$1)" | tr -d '[]"' | tr ',' ' '; }
read -r -a nodes <<<"$(field .node)"
read -r -a clients <<<"$(field .clientNode)"
read -r -a refused <<<"$(field .refusedNode)"
read -r -a refused_clients <<<"$(field .refusedClientNode)"
read -r -a refused_zod <<<"$(field .refusedZod)"
read -r -a peer_floors <<<"$(field .peerFloors)"
read -r -a integration <<<"$(field .integration)"
read -r -a kubernetes <<<"$(field .kubernetes)"
read -r -a kubernetes_integration <<<"$(field .kubernetesIntegration)"
main_cell="$(field .mainRun.node)/$(field .mainRun.clientNode)"
main_kubernetes=$(field .mainRun.kubernetes)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results=()
failed=0

pick() { [[ -z "${MATRIX_ONLY:-}" || "$1" == $MATRIX_ONLY ]]; }

# Installs the packed package with <packages...> under Node <bin> into a fresh project and requires
# npm to refuse it with a message matching <pattern>.
expect_refused() {
  local label=$1 bin=$2 pattern=$3 project
  shift 3
  project=$(mktemp -d -p "$work")
  echo '{"name":"consumer","private":true,"type":"module"}' >"$project/package.json"
  set +e
  out=$(cd "$project" && PATH="$bin:$PATH" npm install --no-audit --no-fund --prefer-offline "$tarball" "$@" 2>&1)
  code=$?
  set -e
  if [ "$code" -eq 0 ] || ! grep -q -- "$pattern" <<<"$out"; then
    echo "$out" >&2
    echo "matrix.sh: $label was not refused at install (exit $code)" >&2
    exit 1
  fi
  results+=("$label: install refused (exit $code): $(grep -m1 -- "$pattern" <<<"$out" | cut -c1-110)")
}

# Installs the packed package under Node <bin> (npm only warns about engines) and requires every entry
# point to refuse to load with the one-line message of src/internal/supported-node.ts.
expect_import_refused() {
  local label=$1 bin=$2 project entry
  project=$(mktemp -d -p "$work")
  echo '{"name":"consumer","private":true,"type":"module"}' >"$project/package.json"
  (cd "$project" && PATH="$bin:$PATH" npm install --no-audit --no-fund --prefer-offline "$tarball" zod @kubernetes/client-node@1.4.0 >/dev/null 2>&1)
  for entry in "" /meta /apis/v1 /k8s /oci /snapshot /testing; do
    set +e
    out=$(cd "$project" && PATH="$bin:$PATH" node --input-type=module -e "await import('@cocoonstack/cocoon-common$entry')" 2>&1)
    code=$?
    set -e
    if [ "$code" -eq 0 ] || ! grep -qx -- "Error: @cocoonstack/cocoon-common needs Node .*; this is Node ${label#Node }\." <<<"$out"; then
      echo "$out" >&2
      echo "matrix.sh: $label loaded @cocoonstack/cocoon-common$entry (exit $code)" >&2
      exit 1
    fi
  done
  results+=("$label: every entry point refused at import: $(grep -m1 '^Error: ' <<<"$out" | cut -c1-110)")
}

npm pack --silent --pack-destination "$work" >/dev/null
tarball=$(echo "$work"/cocoonstack-cocoon-common-*.tgz)
main_bin=$(scripts/ci/node.sh "$(field .mainRun.node)")
for version in "${refused[@]}"; do
  pick "refused/$version" && expect_import_refused "Node $version" "$(scripts/ci/node.sh "$version")"
done
for spec in "${refused_clients[@]}"; do
  pick "refused/$spec" && expect_refused "client-node $spec" "$main_bin" "peerOptional @kubernetes/client-node@" zod "@kubernetes/client-node@$spec"
done

for spec in "${refused_zod[@]}"; do
  pick "refused/zod@$spec" && expect_refused "zod $spec" "$main_bin" "peer zod@" "zod@$spec" "@kubernetes/client-node@1.4.0"
done

# npm's admitted versions of each peer are exactly matrix.json's `admitted`.
for peer in zod @kubernetes/client-node; do
  pick "admitted/$peer" || continue
  range=$(node -p "require('./package.json').peerDependencies['$peer']")
  published=$(PATH="$main_bin:$PATH" npm view "$peer" versions --json)
  listed=$(node -e '
    const semver = require("semver");
    const [peer, range, published] = process.argv.slice(1);
    const admitted = JSON.parse(published).filter((v) => semver.satisfies(v, range));
    const known = require("./scripts/ci/matrix.json").admitted[peer];
    const unknown = admitted.filter((v) => !known.includes(v));
    if (unknown.length > 0) { console.error(`matrix.sh: ${peer} ${unknown.join(", ")} admitted by ${range} but not in matrix.json admitted: prove it first`); process.exit(1); }
    console.log(admitted.join(" "));
  ' "$peer" "$range" "$published")
  results+=("$peer $range: npm lists $listed, all in matrix.json")
done

# A copy of the checkout with <package@version> installed instead of the locked one, in $copy.
checkout_with() {
  copy="$work/with-${1//\//_}"
  mkdir -p "$copy"
  git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$copy"
  cp -a node_modules "$copy/"
  (cd "$copy" && npm install --no-save --no-audit --no-fund --ignore-scripts --prefer-offline "$1" >/dev/null)
}

# Runs the unit suite and the ./k8s integration files in $copy under Node <bin>, as cell <label>.
run_cell() {
  local label=$1 bin=$2 suite files
  echo "=== matrix: $label ==="
  for suite in unit integration; do
    files=(src)
    [ "$suite" = unit ] || files=("${integration[@]}")
    if (cd "$copy" && PATH="$bin:$PATH" node node_modules/vitest/vitest.mjs run --project "$suite" "${files[@]}"); then
      results+=("$label: $suite passed")
    else
      results+=("$label: $suite FAILED")
      failed=1
    fi
  done
}

for floor in "${peer_floors[@]}"; do
  pick "floor/$floor" || continue
  checkout_with "$floor"
  run_cell "$floor × Node $(field .mainRun.node)" "$main_bin"
  rm -rf "$copy"
done

for spec in "${clients[@]}"; do
  cells=()
  for version in "${nodes[@]}"; do
    [ "$version/$spec" != "$main_cell" ] && pick "$version/$spec" && cells+=("$version")
  done
  [ "${#cells[@]}" -gt 0 ] || continue
  checkout_with "@kubernetes/client-node@$spec"
  resolved=$(cd "$copy" && node -p "require('@kubernetes/client-node/package.json').version")
  for version in "${cells[@]}"; do
    run_cell "Node $version × client-node $resolved" "$(scripts/ci/node.sh "$version")"
  done
  rm -rf "$copy"
done

for release in "${kubernetes[@]}"; do
  [ "$release" != "$main_kubernetes" ] && pick "k8s/$release" || continue
  echo "=== matrix: Kubernetes $release × Node $(field .mainRun.node) × the locked client-node ==="
  started=$SECONDS
  if COCOON_KUBERNETES_VERSION=$release PATH="$main_bin:$PATH" npm run -s controlplane:setup -- --without-scheduler >/dev/null &&
    (unset COCOON_SHARED_CONTROL_PLANE && COCOON_KUBERNETES_VERSION=$release PATH="$main_bin:$PATH" \
      node node_modules/vitest/vitest.mjs run --project integration "${kubernetes_integration[@]}"); then
    results+=("Kubernetes $release: integration (CRDs, CEL, patches) passed in $((SECONDS - started)) s")
  else
    results+=("Kubernetes $release: integration (CRDs, CEL, patches) FAILED")
    failed=1
  fi
done

echo "=== matrix: $main_cell on Kubernetes $main_kubernetes runs as .ci/run's npm test ==="
printf '  %s\n' "${results[@]}"
[ "$failed" -eq 0 ] || { echo "matrix.sh: a supported combination failed" >&2; exit 1; }
