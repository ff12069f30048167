#!/usr/bin/env bash
# Puts the project's Node.js (the version in .node-version, a 24 LTS) first on PATH, installing it once from the npm
# registry (the official binary packaged as node-linux-<arch>) into a cache shared by every checkout on the machine.
# Prints the export line, so a shell takes it with:   eval "$(bash scripts/node24.sh)"
# With --bin it prints the folder of that node instead (npm install's postinstall links it: scripts/linkNode.mjs).
# Only the npm registry is needed: no nvm, no download site.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="$(tr -d ' \n' < "$root/.node-version")"
if [ "$(uname -s)" != Linux ]; then
  echo "scripts/node24.sh: the npm registry's node-linux packages are for Linux; install Node.js $version yourself" >&2
  exit 1
fi
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "scripts/node24.sh: no node-linux package for $(uname -m); install Node.js $version yourself" >&2; exit 1 ;;
esac
cache="${GEOCODER_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/geocoder-node}/$version-$arch"
bin="$cache/node_modules/node-linux-$arch/bin"
if ! "$bin/node" --version >/dev/null 2>&1; then
  echo "installing Node.js $version (npm package node-linux-$arch) into $cache" >&2
  mkdir -p "$cache"
  # --prefix: a private folder, so nothing of the project's own dependencies is touched.
  npm install --prefix "$cache" --no-save --no-audit --no-fund --loglevel=error "node-linux-$arch@$version" >&2
  # Written last and checked above: an interrupted install is retried, not half-used.
  "$bin/node" --version >/dev/null
fi
if [ "${1:-}" = --bin ]; then
  echo "$bin"
else
  echo "export PATH=\"$bin:\$PATH\""
fi
