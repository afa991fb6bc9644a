// Scrubbing speed in Chromium: how long `Lab.seek(k)` takes for runs of about 100,000 steps
// on the 512 x 512 MovingAI map AR0011SR, with the timeline's checkpoints (after the
// background exploration the page does) and, for comparison, by plain replay from step 0.
// Runs: Dijkstra to the preset's goal; A*, Theta* and Lazy Theta* to a goal the start cannot
// reach (so they expand every reachable cell); BFS; IDA* to its visit limit (a million
// steps). The figures are printed and saved to tests/artifacts/timeline-perf.json.
//
// The bar (any step of a 100,000-step run under 50 ms) is checked only with
// BENCH_STRICT=1 (scripts/bench.sh): on a shared or busy machine the figures say more about the
// machine.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, open, start } from '../tests/support/browser.mjs';

const STRICT = process.env.BENCH_STRICT === '1';
const BAR_MS = 50;

describe('timeline performance', () => {
  let env;
  before(async () => {
    env = await start();
  });
  after(async () => {
    await env?.close();
  });

  test('any step of a 100,000-step run is reached at once', async (t) => {
    const page = await open(env, 'map=course-5x5');
    const figures = await page.evaluate(async () => {
      // The module with every search (IDA* is not in the grid page's first module, pathlab_wasm).
      const { Lab, default: init } = await import('./pkg/pathlab_searches.js');
      const wasm = await init();
      const text = await (await fetch('maps/movingai/AR0011SR.map')).text();
      const start = [184, 164];
      const presetGoal = [460, 186];

      // A goal the start cannot reach: an open cell outside the start's component, found by a
      // flood in JavaScript that allows every diagonal (more moves than the search allows,
      // so a cell it cannot reach the search cannot reach either).
      const probe = new Lab(4, 4);
      probe.loadMovingAi(text);
      const { width: w, height: h } = probe;
      const cells = new Uint8Array(wasm.memory.buffer, probe.cellsPtr(), w * h).slice();
      probe.free();
      const seen = new Uint8Array(w * h);
      const queue = [start[1] * w + start[0]];
      seen[queue[0]] = 1;
      for (let head = 0; head < queue.length; head++) {
        const i = queue[head];
        const x = i % w;
        const y = (i - x) / w;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const nx = x + dx;
            const ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
            const j = ny * w + nx;
            if (!seen[j] && cells[j] !== 0) {
              seen[j] = 1;
              queue.push(j);
            }
          }
        }
      }
      let unreachable = null;
      for (let i = 0; i < w * h && !unreachable; i++) if (cells[i] !== 0 && !seen[i]) unreachable = [i % w, Math.floor(i / w)];

      const runs = [
        { algo: 'dijkstra', goal: presetGoal },
        { algo: 'astar', goal: unreachable },
        { algo: 'theta', goal: unreachable },
        { algo: 'lazy-theta', goal: unreachable },
        { algo: 'bfs', goal: presetGoal },
        { algo: 'ida', goal: presetGoal },
      ].filter((r) => r.goal);
      const out = { reachableCells: queue.length, unreachableGoal: unreachable, runs: [] };
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
      let seed = 12345;
      const random = () => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed / 2147483648;
      };
      for (const run of runs) {
        const lab = new Lab(4, 4);
        lab.loadMovingAi(text);
        lab.setAlgorithm(run.algo);
        lab.setStart(start[0], start[1]);
        lab.setGoal(run.goal[0], run.goal[1]);

        // Plain replay (no checkpoints yet): reset, then step k times.
        let t0 = performance.now();
        lab.run();
        const runMs = performance.now() - t0;
        const total = lab.steps;
        const status = lab.status;
        const replay = [];
        for (const k of [total - 1, Math.floor(total / 2)]) {
          t0 = performance.now();
          lab.reset();
          lab.advance(k);
          replay.push(performance.now() - t0);
        }

        // The page's background exploration: slices of about 6 ms, one per frame. (The run
        // above already told the length; the exploration lays the checkpoints.)
        lab.reset();
        let slice = 4000;
        let frames = 0;
        let worstSlice = 0;
        t0 = performance.now();
        for (;;) {
          const s0 = performance.now();
          lab.explore(slice);
          const ms = performance.now() - s0;
          worstSlice = Math.max(worstSlice, ms);
          slice = Math.min(400000, Math.max(500, Math.round((slice * 6) / Math.max(ms, 0.25))));
          frames++;
          if (!lab.exploring) break;
        }
        const exploreMs = performance.now() - t0;

        // Seeks: the far end, the first steps, and random steps in random order.
        const targets = [total - 1, 1, Math.floor(total / 2), total - 2, 0, total];
        for (let i = 0; i < 40; i++) targets.push(Math.floor(random() * total));
        const seeks = [];
        for (const k of targets) {
          t0 = performance.now();
          lab.seek(k);
          seeks.push(performance.now() - t0);
          if (lab.steps !== Math.min(k, total)) throw new Error(`${run.algo}: seek ${k} landed on ${lab.steps}`);
        }
        lab.seek(Math.floor(total / 3));
        t0 = performance.now();
        lab.run();
        const runKnownMs = performance.now() - t0;
        if (lab.status !== status || lab.steps !== total) throw new Error(`${run.algo}: run after seeks differs`);
        out.runs.push({
          algo: run.algo,
          goal: run.goal,
          total,
          checkpoints: lab.checkpoints,
          runMs: +runMs.toFixed(1),
          replayMs: +Math.max(...replay).toFixed(1),
          exploreMs: +exploreMs.toFixed(1),
          exploreFrames: frames,
          worstSliceMs: +worstSlice.toFixed(1),
          seekMedianMs: +median(seeks).toFixed(2),
          seekP95Ms: +pct(seeks, 0.95).toFixed(2),
          seekMaxMs: +Math.max(...seeks).toFixed(2),
          runFromCheckpointMs: +runKnownMs.toFixed(1),
        });
        lab.free();
      }
      return out;
    });
    figures.browser = (await env.browser.version?.()) ?? 'chromium';
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'timeline-perf.json'), `${JSON.stringify(figures, null, 2)}\n`);
    t.diagnostic(`AR0011SR: ${figures.reachableCells} cells reachable from the start; unreachable goal ${JSON.stringify(figures.unreachableGoal)}`);
    for (const r of figures.runs) {
      t.diagnostic(
        `${r.algo}: ${r.total} steps, ${r.checkpoints} checkpoints; seek median ${r.seekMedianMs} ms, p95 ${r.seekP95Ms} ms, max ${r.seekMaxMs} ms ` +
          `(plain replay ${r.replayMs} ms); exploring ${r.exploreMs} ms in ${r.exploreFrames} frames (worst slice ${r.worstSliceMs} ms); ` +
          `run to end ${r.runMs} ms, from a checkpoint ${r.runFromCheckpointMs} ms`,
      );
    }
    assert.ok(figures.runs.some((r) => r.total >= 100000), 'at least one run of 100,000 steps');
    for (const r of figures.runs) {
      assert.ok(r.checkpoints > 0, `${r.algo}: the exploration left checkpoints`);
      if (STRICT) assert.ok(r.seekMaxMs < BAR_MS, `${r.algo}: the slowest seek took ${r.seekMaxMs} ms (bar ${BAR_MS})`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
