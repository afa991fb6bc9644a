#!/usr/bin/env bash
# Builds the page's WebAssembly module into www/pkg and copies the preset maps to www/maps.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --target wasm32-unknown-unknown -p pathlab-wasm
wasm-bindgen --target web --no-typescript --out-dir www/pkg \
  target/wasm32-unknown-unknown/release/pathlab_wasm.wasm
if command -v wasm-opt >/dev/null; then
  # Debian's binaryen is old: name the features rustc's output uses.
  wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-multivalue --enable-reference-types \
    www/pkg/pathlab_wasm_bg.wasm -o www/pkg/pathlab_wasm_bg.wasm.opt \
    && mv www/pkg/pathlab_wasm_bg.wasm.opt www/pkg/pathlab_wasm_bg.wasm \
    || echo "[build] wasm-opt failed; keeping the unoptimised module" >&2
fi
rm -rf www/maps && mkdir -p www/maps && cp -r maps/. www/maps/
