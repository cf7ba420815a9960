#!/usr/bin/env bash
# Installs whatever dice-tower still lacks on this machine, and nothing more.
#   scripts/setup.sh          what `npm start` needs (OpenCV, compiler cache, avrdude, node modules)
#   scripts/setup.sh --test   the same plus what the test suite needs (Chromium, AVR toolchain)
# System packages come from Debian's apt, as root, and only when missing.
# Node modules are installed with `npm ci` only when package-lock.json changed
# since the last install or the OpenCV binding does not load.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
die() { printf '\033[1;31m[setup] error:\033[0m %s\n' "$*" >&2; exit 1; }

want_test=0
for arg in "$@"; do
  case "$arg" in
    --test) want_test=1 ;;
    *) die "unknown option '$arg' (known: --test)" ;;
  esac
done

# --- Node.js -----------------------------------------------------------------
# vite and vitest need 20.19 or newer (package.json "engines").
node_ok=$(node -p 'const [a, b] = process.versions.node.split(".").map(Number); a > 20 || (a === 20 && b >= 19)' 2>/dev/null || echo false)
[ "$node_ok" = true ] || die "Node.js 20.19 or newer is needed (found: $(node --version 2>/dev/null || echo none))."
say "Node.js $(node --version) found."

# --- System packages -----------------------------------------------------------
# avrdude flashes the tower's Arduino (`dice-tower flash`).
packages=(libopencv-dev pkg-config ccache g++ make python3 avrdude)
# Tests also need the browser, the AVR toolchain that builds the tower firmware, and an MQTT broker
# (the MQTT/Home Assistant tests start their own Mosquitto on a free port; the packaged service is not used).
[ "$want_test" = 1 ] && packages+=(chromium gcc-avr avr-libc arduino-core-avr arduino-mk mosquitto)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "Missing system packages: ${missing[*]}"
  if [ "$(id -u)" != 0 ]; then
    die "installing them needs root: run 'sudo apt-get install -y ${missing[*]}' and then this command again."
  fi
  say "Updating apt's package lists..."
  apt-get update -qq
  say "Installing ${missing[*]} with apt-get (OpenCV brings many libraries: a few minutes)..."
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  say "System packages installed."
else
  say "System packages present: ${packages[*]}"
fi

# --- Node modules ----------------------------------------------------------------
# Route the native build through ccache (Debian's masquerade directory) so a
# rebuild of the OpenCV binding on this machine takes seconds, not minutes.
export PATH="/usr/lib/ccache:$PATH"
# Paths relative to the project, so another clone on this machine hits the same cache.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
export OPENCV4NODEJS_DISABLE_AUTOBUILD=1
export OPENCV_INCLUDE_DIR=/usr/include/opencv4
# Debian's multiarch library directory: x86_64-linux-gnu on a PC, aarch64-linux-gnu on a Raspberry Pi 4/5.
export OPENCV_LIB_DIR="/usr/lib/$(gcc -print-multiarch)"
export OPENCV_BIN_DIR=/usr/bin
export JOBS="$(nproc)"

stamp=node_modules/.dice-tower-lock.sha256
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
binding_loads() { node -e "require('@u4/opencv4nodejs')" >/dev/null 2>&1; }
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lock_hash" ] && binding_loads; then
  say "Node modules up to date."
else
  if ccache -s 2>/dev/null | grep -qE '(Hits|Misses): +[1-9]'; then
    say "Installing node modules (npm ci). The OpenCV binding is rebuilt from the compiler cache: about a minute."
  else
    say "Installing node modules (npm ci). The OpenCV binding is compiled from source against the system OpenCV:"
    say "this takes about 15 minutes on 2 cores the first time (later rebuilds come from ccache and are quick)."
  fi
  start=$(date +%s)
  npm ci --no-audit --no-fund
  binding_loads || die "the OpenCV binding (@u4/opencv4nodejs) was built but does not load; see the npm output above."
  echo "$lock_hash" > "$stamp"
  say "Node modules installed in $(( $(date +%s) - start )) s."
fi
say "Ready."
