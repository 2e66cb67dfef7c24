#!/usr/bin/env bash
# The runtime matrix (scripts/ci/matrix.json): every supported Node × @kubernetes/client-node line runs
# the unit suite (src/) and the ./k8s integration suite against the control plane named by
# $COCOON_SHARED_CONTROL_PLANE; each refused Node must fail `npm install` of the packed package with
# its message, and so must each refused client-node version (the peer range). The main run's cell
# is .ci/run's `npm test`, so it is skipped here. `npm pack` builds the package (prepack).
# MATRIX_ONLY='22.23.5/~2.0.0' (a glob over "<node>/<client-node spec>" and "refused/<version>") picks cells.
# Each client-node line runs in a copy of the checkout, so the checkout's node_modules stay as locked.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -n "${COCOON_SHARED_CONTROL_PLANE:-}" ] || { echo "matrix.sh: set COCOON_SHARED_CONTROL_PLANE (scripts/ci/shared-control-plane.ts)" >&2; exit 1; }
field() { node -p "JSON.stringify(require('./scripts/ci/matrix.json')$1)" | tr -d '[]"' | tr ',' ' '; }
read -r -a nodes <<<"$(field .node)"
read -r -a clients <<<"$(field .clientNode)"
read -r -a refused <<<"$(field .refusedNode)"
read -r -a refused_clients <<<"$(field .refusedClientNode)"
read -r -a integration <<<"$(field .integration)"
main_cell="$(field .mainRun.node)/$(field .mainRun.clientNode)"
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

npm pack --silent --pack-destination "$work" >/dev/null
tarball=$(echo "$work"/cocoonstack-cocoon-common-*.tgz)
main_bin=$(scripts/ci/node.sh "$(field .mainRun.node)")
for version in "${refused[@]}"; do
  pick "refused/$version" && expect_refused "Node $version" "$(scripts/ci/node.sh "$version")" "needs Node" zod
done
for spec in "${refused_clients[@]}"; do
  pick "refused/$spec" && expect_refused "client-node $spec" "$main_bin" "peerOptional @kubernetes/client-node@" zod "@kubernetes/client-node@$spec"
done

for spec in "${clients[@]}"; do
  cells=()
  for version in "${nodes[@]}"; do
    [ "$version/$spec" != "$main_cell" ] && pick "$version/$spec" && cells+=("$version")
  done
  [ "${#cells[@]}" -gt 0 ] || continue
  copy="$work/client-node-$spec"
  mkdir -p "$copy"
  git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$copy"
  cp -a node_modules "$copy/"
  (cd "$copy" && npm install --no-save --no-audit --no-fund --ignore-scripts --prefer-offline "@kubernetes/client-node@$spec" >/dev/null)
  resolved=$(cd "$copy" && node -p "require('@kubernetes/client-node/package.json').version")
  for version in "${cells[@]}"; do
    bin=$(scripts/ci/node.sh "$version")
    echo "=== matrix: Node $version × @kubernetes/client-node $resolved ==="
    for suite in unit integration; do
      files=(src)
      [ "$suite" = unit ] || files=("${integration[@]}")
      if (cd "$copy" && PATH="$bin:$PATH" node node_modules/vitest/vitest.mjs run --project "$suite" "${files[@]}"); then
        results+=("Node $version × client-node $resolved: $suite passed")
      else
        results+=("Node $version × client-node $resolved: $suite FAILED")
        failed=1
      fi
    done
  done
  rm -rf "$copy"
done

echo "=== matrix: $main_cell runs as .ci/run's npm test ==="
printf '  %s\n' "${results[@]}"
[ "$failed" -eq 0 ] || { echo "matrix.sh: a supported combination failed" >&2; exit 1; }
