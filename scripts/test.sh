#!/usr/bin/env bash
# Sets up a fresh machine if needed, then runs every Pathlab check and test, fastest first:
# formatting, clippy (native and wasm32), the docs' links, the Rust tests (core, CLI with the
# MovingAI checks, wasm layer natively), the wasm-bindgen tests in headless Chromium, the page
# build, the type check of the pages' JavaScript, a bounded fuzz campaign of every parser, and
# the end-to-end page tests in Chromium.
# Timings are not tests: they live in ./scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

# Each step's heading says how long the run has taken so far, so the log shows where the time goes.
step() { printf '\n\033[1m== %s (at %dm%02ds) ==\033[0m\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }
WASM_CRATES=(-p pathlab-wasm -p pathlab-world -p pathlab-crowd -p pathlab-spaces -p pathlab-bind)

step "Formatting (rustfmt.toml)"
cargo fmt --all --check

# The `ci` profile throughout, so clippy, the docs and the tests share the build scripts and
# proc-macros they compile.
step "Clippy, native, every target"
cargo clippy --workspace --all-targets --profile ci -- -D warnings

step "Clippy, wasm32 (the wasm crates, as scripts/build-wasm.sh builds them)"
cargo clippy "${WASM_CRATES[@]}" --target wasm32-unknown-unknown --all-targets --profile ci -- -D warnings
# The grid page's first module: pathlab-wasm without its default feature (every search).
cargo clippy -p pathlab-wasm --target wasm32-unknown-unknown --no-default-features --profile ci -- -D warnings

step "Docs: no broken intra-doc links"
RUSTDOCFLAGS="-D rustdoc::broken_intra_doc_links -D rustdoc::private_intra_doc_links" cargo doc --workspace --no-deps --profile ci --quiet

step "Rust: core, CLI and wasm layer (optimised: the MovingAI checks run many thousands of searches)"
cargo test --workspace --profile ci --exclude pathlab-fuzz

step "wasm-bindgen tests in headless Chromium"
CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=180 \
  cargo test -p pathlab-wasm -p pathlab-world -p pathlab-crowd --target wasm32-unknown-unknown --profile ci

step "Build the page (release, link-time optimised: once)"
./scripts/build-wasm.sh

step "Type check of the pages' JavaScript (jsconfig.json, against the wasm modules' .d.ts)"
node_modules/.bin/tsc --noEmit -p jsconfig.json

# Bounded: new inputs each run, about a minute in all; fuzz/README.md says how to run longer.
step "Fuzz campaign: the file parsers (Rust), the share codec and URL readers (JavaScript), every kept case"
cargo test -p pathlab-fuzz --profile ci
node --test fuzz/js/

# Two test files at a time, each with its own Chromium and server: on the 2-core machine the
# suite takes about 5 minutes instead of 8, since much of each test is waiting on the page.
step "End-to-end tests in Chromium (two files at a time)"
node --test --test-concurrency=2 tests/
step "Done"
