#!/usr/bin/env bash
# Sets up a fresh machine if needed, builds the page and serves it on http://localhost:${PORT:-8080}/
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build-wasm.sh
exec node scripts/serve.mjs --port "${PORT:-8080}" --root www
