#!/usr/bin/env bash
# Puts the project's Node.js (the version in .node-version, a 24 LTS) first on PATH, installing it once from the npm
# registry (the official binary packaged as node-linux-<arch>) into a cache shared by every checkout on the machine.
# Prints the export line, so a shell takes it with:   eval "$(bash scripts/node24.sh)"
# With --bin it prints the folder of that node instead (npm install's postinstall links it: scripts/linkNode.mjs).
# Only the npm registry is needed: no nvm, no download site. The tarball is fetched first (npm pack) and installed
# only if its sha512 is the one pinned in .node-integrity for that package and version.
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
package="node-linux-$arch@$version"
cache="${GEOCODER_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/geocoder-node}/$version-$arch"
bin="$cache/node_modules/node-linux-$arch/bin"
if ! "$bin/node" --version >/dev/null 2>&1; then
  pinned="$(awk -v package="$package" '$1 == package { print $2 }' "$root/.node-integrity" 2>/dev/null || true)"
  if [ -z "$pinned" ]; then
    echo "scripts/node24.sh: .node-integrity pins no integrity for $package (the version in .node-version); add the" \
      "line \"$package <integrity>\" from \`npm view $package dist.integrity\`" >&2
    exit 1
  fi
  echo "installing Node.js $version (npm package $package) into $cache" >&2
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  # The exact tarball, checked before anything of it is installed.
  name="$(npm pack --pack-destination "$work" --loglevel=error "$package" | tail -n 1)"
  tarball="$work/$name"
  # npm runs on node, so one is on PATH (an older one, when this installs the project's).
  actual="$(node -e 'const { createHash } = require("crypto");
    process.stdout.write("sha512-" + createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"));' \
    "$tarball")"
  if [ "$actual" != "$pinned" ]; then
    echo "scripts/node24.sh: refusing to install $package: the registry's tarball has integrity $actual," \
      "but .node-integrity pins $pinned (a changed or tampered package, or a pin not updated with .node-version)" >&2
    exit 1
  fi
  mkdir -p "$cache"
  # --prefix: a private folder, so nothing of the project's own dependencies is touched. The checked file, not the
  # registry's name: npm installs exactly those bytes.
  npm install --prefix "$cache" --no-save --no-audit --no-fund --ignore-scripts --loglevel=error "$tarball" >&2
  # Written last and checked above: an interrupted install is retried, not half-used.
  "$bin/node" --version >/dev/null
fi
if [ "${1:-}" = --bin ]; then
  echo "$bin"
else
  echo "export PATH=\"$bin:\$PATH\""
fi
