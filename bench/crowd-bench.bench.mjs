// Crowd benchmarks in Chromium, on the crowd page's wasm module: a flow field over the
// 512 x 512 MovingAI map AR0011SR with three goals (bar: under 20 ms), and the ORCA crowd step
// at 500, 2,000 and 8,000 agents in the crossing scenario (bar: 2,000 agents under 8 ms). The
// figures are printed and saved to tests/artifacts/crowd-bench.json; the bars are checked only
// with BENCH_STRICT=1 (scripts/bench.sh), since on a shared machine the timings say more about the machine.
// What is always checked: the field reaches exactly the cells an independent Dijkstra reaches,
// and its largest distance is that Dijkstra's.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../tests/support/browser.mjs';
import { benchSuite } from './support.mjs';
import { distances, readMovingAi } from '../tests/support/dijkstra.mjs';

const STRICT = process.env.BENCH_STRICT === '1';
const MAP = join(ROOT, 'maps', 'movingai', 'AR0011SR.map');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe('crowd benchmarks', () => {
  const env = benchSuite('crowd-bench');
  const { figures, save } = env;
  let page;
  before(async () => {
    page = await env.browser.newPage();
    await page.goto(`${env.base}crowd.html?embed=1&agents=2`);
    await page.waitForFunction(() => window.crowdlab);
  });

  test('a 512 x 512 flow field: the cells and distances of a reference Dijkstra, and its build time', async (t) => {
    const text = readFileSync(MAP, 'utf8');
    const map = readMovingAi(text);
    // Three goals: the first open cell at or after (128,128), (256,256) and (384,384).
    const goals = [128, 256, 384].map((c) => {
      let i = c * map.width + c;
      while (!map.open[i]) i += 1;
      return [i % map.width, Math.floor(i / map.width)];
    });
    const reference = distances(map, goals);
    const finite = [...reference].filter(Number.isFinite);
    const result = await page.evaluate(async ({ text, goals }) => {
      const { FlowBench } = await import('./pkg/pathlab_crowd.js');
      const bench = new FlowBench(text, new Uint32Array(goals.flat()));
      bench.build(); // warm up
      const times = [];
      let summary;
      for (let k = 0; k < 9; k++) {
        const t0 = performance.now();
        summary = bench.build();
        times.push(performance.now() - t0);
      }
      bench.free();
      return { summary, times };
    }, { text, goals });
    assert.equal(result.summary.reached, finite.length, 'the field reaches the cells the reference reaches');
    assert.ok(Math.abs(result.summary.farthest - Math.max(...finite)) < 1e-6, `farthest ${result.summary.farthest}`);
    const ms = median(result.times);
    figures.flowField512 = { goals, medianMs: Number(ms.toFixed(2)), times: result.times.map((x) => Number(x.toFixed(2))), reached: finite.length };
    save();
    t.diagnostic(`flow field, AR0011SR 512 x 512, 3 goals, ${finite.length} cells reached: median ${ms.toFixed(2)} ms per build`);
    if (STRICT) assert.ok(ms < 20, `under 20 ms: ${ms}`);
  });

  test('the ORCA step at 500, 2,000 and 8,000 agents', async (t) => {
    const rows = await page.evaluate(async () => {
      const { OrcaBench } = await import('./pkg/pathlab_crowd.js');
      const out = [];
      for (const n of [500, 2000, 8000]) {
        const crowd = new OrcaBench(n, 50);
        const rounds = [];
        for (let r = 0; r < 5; r++) {
          const t0 = performance.now();
          crowd.step(10);
          rounds.push((performance.now() - t0) / 10);
        }
        out.push({ agents: crowd.count, rounds, collisions: crowd.collisions });
        crowd.free();
      }
      return out;
    });
    figures.orca = rows.map((r) => ({ ...r, medianMs: Number(median(r.rounds).toFixed(3)) }));
    save();
    for (const r of figures.orca) {
      t.diagnostic(`ORCA crossing, ${r.agents} agents: ${r.medianMs} ms per step (median of 5 blocks of 10), ${(r.medianMs * 1e6 / r.agents).toFixed(0)} ns per agent, ${r.collisions} overlapping pair-steps`);
    }
    assert.deepEqual(rows.map((r) => r.agents), [500, 2000, 8000]);
    if (STRICT) assert.ok(figures.orca[1].medianMs < 8, `2,000 agents under 8 ms: ${figures.orca[1].medianMs}`);
  });
});
