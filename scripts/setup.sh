#!/usr/bin/env bash
# Installs everything Pathlab needs to build, serve and test, and skips what is already there.
# Safe to run again. Needs root (or sudo) only the first time, for Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root to run: $*" >&2; return 1; fi
}

# 1. Rust target for the browser build.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# 2. wasm-bindgen-cli at exactly the version in Cargo.lock (the two must match).
want=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  say "installing wasm-bindgen-cli $want (a few minutes, once)"
  cargo install wasm-bindgen-cli --version "=$want"
fi

# 3. Debian packages: Chromium, its headless shell and its driver for the browser tests, binaryen
#    for wasm-opt.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
# The end-to-end tests' browser (tests/support/browser.mjs): the same engine, a third of the
# processor time per page.
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
command -v wasm-opt >/dev/null || missing+=(binaryen)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]} from Debian"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

# 4. npm packages, pinned in package-lock.json: playwright-core (drives Debian's Chromium in the
#    end-to-end tests), axe-core, binaryen (wasm-opt) and typescript (the type check of www/).
if [ ! -d node_modules/playwright-core ] || [ ! -x node_modules/.bin/tsc ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages"
  if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
fi
say "ready"
