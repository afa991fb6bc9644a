#!/usr/bin/env bash
# Sets up a fresh machine if needed, then runs every Pathlab test:
# the Rust tests (core, CLI with the MovingAI checks, wasm layer natively), the wasm-bindgen
# tests in headless Chromium, and the end-to-end page tests in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

step() { printf '\n\033[1m== %s ==\033[0m\n' "$*"; }

step "Rust: core, CLI and wasm layer (optimised: the MovingAI checks run many thousands of searches)"
cargo test --workspace --profile ci

step "wasm-bindgen tests in headless Chromium"
CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=180 \
  cargo test -p pathlab-wasm -p pathlab-world -p pathlab-crowd --target wasm32-unknown-unknown --profile ci

step "Build the page"
./scripts/build-wasm.sh

step "End-to-end tests in Chromium"
node --test --test-concurrency=1 tests/
