#!/usr/bin/env bash
# Benchmarks: timings, kept out of ./scripts/test.sh because on a shared or busy machine they
# say more about the machine than about the code. Sets up, builds the page, then runs the timing
# suites in bench/ in Chromium, one at a time; each prints its figures and saves them to
# tests/artifacts/*.json:
#   page-perf      first paint, first grid, a 1024 x 1024 map playing at 60 fps
#   timeline-perf  seeking in runs of 100,000 steps and more
#   boids-perf     the boid page at 20,000 agents, the wasm step from 1,000 to 50,000
#   crowd-bench    a 512 x 512 flow field (checked against a Dijkstra) and the ORCA step
#   crowd-perf     the most crowded scene's step, on the module and on the page
#   formations-perf  a rigid block and a squad held by fields, 100 members each: the step
#   navmesh        the navmesh build (triangulated, rectangles, automatic) of 512 x 512 maps in wasm
#   pathfindingjs  wasm A* against PathFinding.js's A* in one page, one MovingAI map per family
# What is not a timing (a flow field's cells, the search advancing, a worker taking the steps)
# always fails a run; the targets (the bars named in each file) fail it only with
# BENCH_STRICT=1: run it so on a quiet machine.
#
#   ./scripts/bench.sh                      every suite
#   ./scripts/bench.sh page-perf crowd-bench   some of them
#   BENCH_STRICT=1 ./scripts/bench.sh       the targets are failures
#
# Native benchmarks (criterion and tables): cargo bench -p pathlab-core --bench NAME (search,
# boids, any_angle, bidirectional, incremental, hpa, avoid, flow, graph, navmesh), see README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build-wasm.sh
export BENCH_STRICT="${BENCH_STRICT:-0}"
# Timings in the browser people use: the full Chromium, not the headless shell the tests drive.
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
files=()
if [ $# -eq 0 ]; then
  files=(bench/*.bench.mjs)
else
  for name in "$@"; do files+=("bench/${name%.bench.mjs}.bench.mjs"); done
fi
printf '\n\033[1m== Benchmarks in Chromium (BENCH_STRICT=%s) ==\033[0m\n' "$BENCH_STRICT"
node --test --test-concurrency=1 "${files[@]}"
