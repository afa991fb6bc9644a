#!/usr/bin/env bash
# Builds the pages' WebAssembly modules into www/pkg (pathlab_wasm: path-finding, for
# index.html's first paint and requests.html; pathlab_searches: the same crate with every
# search, loaded by index.html only when an algorithm that pathlab_wasm does not hold is
# chosen or compared; pathlab_world: the boid world, for boids.html; pathlab_crowd: the crowd
# scenes, for crowd.html; pathlab_spaces: graphs and hex grids, loaded by index.html only when
# space=graph or hex) and copies the preset maps to www/maps and the lessons to www/lessons.
set -euo pipefail
cd "$(dirname "$0")/.."
# .cargo/config.toml turns on WebAssembly SIMD (simd128) for this target. The build goes to
# $CARGO_TARGET_DIR when it is set, as cargo's does.
echo "[build] compiling the five wasm modules (release, link-time optimised: minutes the first time)" >&2
cargo build --release --target wasm32-unknown-unknown -p pathlab-wasm -p pathlab-world -p pathlab-crowd -p pathlab-spaces
# pathlab-wasm twice: with its default feature `every-search` (every algorithm, teleports and
# slopes) it is pathlab_searches; without it, pathlab_wasm, the grid page's first module, whose
# searches are pathlab_core::search::registry::FIRST (it is about 40% smaller gzipped). Cargo
# keeps both builds, so a second run relinks neither.
release="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release"
cp "$release/pathlab_wasm.wasm" "$release/pathlab_searches.wasm.tmp" && mv "$release/pathlab_searches.wasm.tmp" "$release/pathlab_searches.wasm"
cargo build --release --target wasm32-unknown-unknown -p pathlab-wasm --no-default-features
# The name section (function names for wasm stack traces) is a tenth of the gzipped module and
# the page does without it: a panic's message still names the Rust file and line.
# PATHLAB_WASM_NAMES=1 keeps it for profiling.
strip=(--remove-name-section --remove-producers-section)
if [ "${PATHLAB_WASM_NAMES:-0}" = 1 ]; then strip=(); fi
# Bindings and wasm-opt take about 20 s a module. When cargo's output, this script and the tools
# are what made the module in www/pkg last time, and the module there is the one they made (a
# stamp beside it records all their hashes), it is kept as it is: a second run with nothing
# changed takes seconds.
tools="$(wasm-bindgen --version 2>/dev/null) $(node_modules/.bin/wasm-opt --version 2>/dev/null || wasm-opt --version 2>/dev/null || true)"
for module in pathlab_wasm pathlab_searches pathlab_world pathlab_crowd pathlab_spaces; do
  input="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/$module.wasm"
  stamp="www/pkg/.$module.stamp"
  want_stamp="$({ sha256sum "$input" "$0" 2>/dev/null || true; } | awk '{print $1}' | tr '\n' ' ')$tools ${PATHLAB_WASM_NAMES:-0}"
  output_hash() { sha256sum "www/pkg/${module}_bg.wasm" "www/pkg/$module.js" 2>/dev/null | awk '{print $1}' | tr '\n' ' '; }
  if [ -f "www/pkg/${module}_bg.wasm" ] && [ -f "www/pkg/$module.js" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want_stamp $(output_hash)" ]; then
    echo "[build] $module: unchanged since the last build, kept" >&2
    continue
  fi
  rm -f "$stamp"
  echo "[build] $module: bindings (wasm-bindgen) and optimisation (wasm-opt)" >&2
  wasm-bindgen --target web "${strip[@]}" --out-dir www/pkg "$input"
  # wasm-opt: binaryen from npm (a pinned devDependency, installed by `npm ci`), else a system
  # one. Debian 12's wasm-opt (binaryen 108) exports the wrong table as wasm-bindgen's externref
  # table, and the module then fails at start ("WebAssembly.Table.set(): Argument 1 is invalid
  # for table"), so only binaryen 116 or later is trusted; otherwise the output is kept as is.
  # (It makes the module about a fifth smaller; the boid step runs no faster.) -O3 rather than
  # -Os or -Oz: on pathlab_wasm they gave 217.2 and 218.2 KB gzipped against -O3's 217.3, no
  # gain, and A* was no faster (scripts/astar-ab.mjs).
  wasm_opt=node_modules/.bin/wasm-opt
  [ -x "$wasm_opt" ] || wasm_opt=wasm-opt
  opt_version=$("$wasm_opt" --version 2>/dev/null | awk '{print $3}' | cut -d. -f1 || true)
  if [ -n "${opt_version:-}" ] && [ "$opt_version" -ge 116 ] 2>/dev/null; then
    # Name the features rustc's output uses.
    "$wasm_opt" -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-multivalue --enable-reference-types --enable-simd \
      www/pkg/${module}_bg.wasm -o www/pkg/${module}_bg.wasm.opt \
      && mv www/pkg/${module}_bg.wasm.opt www/pkg/${module}_bg.wasm \
      && printf '%s' "$want_stamp $(output_hash)" > "$stamp" \
      || echo "[build] wasm-opt failed; keeping the unoptimised module" >&2
  else
    echo "[build] no wasm-opt of binaryen 116 or later (run npm ci); keeping the unoptimised module" >&2
  fi
done
rm -rf www/maps && mkdir -p www/maps && cp -r maps/. www/maps/
# The lessons (lessons/NAME.json or .md, played by index.html?lesson=NAME) go beside the maps.
rm -rf www/lessons && mkdir -p www/lessons && cp -r lessons/. www/lessons/
echo "[build] www/ is ready" >&2
