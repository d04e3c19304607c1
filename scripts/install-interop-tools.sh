#!/usr/bin/env bash
# Installs the peer tools the interop tests drive (test/interop/): Prism's validating proxy, Portman,
# Newman and Artillery, each into its own folder under the interop cache, never into node_modules
# (they are heavy, and users of clockcheck do not need them). A tool already installed at its version
# is left as it is. The tests that need a tool run only where it is installed (test/interop/tools.ts).
#   CLOCKCHECK_INTEROP_DIR  where the tools go (default: .cache/interop in the repository)
# The versions are the newest that run on Node 20: Prism 5.14 (5.15 needs 22), Artillery 2.0.21.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${CLOCKCHECK_INTEROP_DIR:-$PWD/.cache/interop}"
mkdir -p "$dir"

install_tool() { # name package@version [npm options...]
  local name="$1" spec="$2"; shift 2
  local target="$dir/$name"
  if [[ -f "$target/.installed" && "$(cat "$target/.installed")" == "$spec" ]]; then
    echo "interop: $spec already in $target"
    return
  fi
  rm -rf "$target" && mkdir -p "$target"
  echo '{"name":"clockcheck-interop-'"$name"'","private":true}' > "$target/package.json"
  echo "interop: installing $spec into $target"
  npm install --prefix "$target" --no-audit --no-fund --loglevel=error "$@" "$spec"
  echo "$spec" > "$target/.installed"
}

# The four side by side (each into a folder of its own; npm's cache takes concurrent installs): most
# of an install is waiting on the registry. Any that fails fails the script.
pids=()
install_tool prism @stoplight/prism-cli@5.14.2 & pids+=($!)
install_tool portman @apideck/portman@1.33.0 & pids+=($!)
install_tool newman newman@6.2.2 & pids+=($!)
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 install_tool artillery artillery@2.0.21 --ignore-scripts & pids+=($!)
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
exit "$failed"
