// The street with 200 planning pedestrians (and its 6 cars) in Chromium, a benchmark (no timing
// is asserted): the wasm step time with each path-finder, in interleaved rounds after a
// 100-step warm-up (median and range of 7 rounds of at least 20 ms each); then the page itself
// with each path-finder, its `fps` and `step-ms` read-outs and the planning time it shows.
// Figures are printed as diagnostics and saved to tests/artifacts/street-perf.json.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { text } from '../tests/support/browser.mjs';
import { benchSuite, crowdPageRates } from './support.mjs';

const PLANNERS = ['astar', 'dijkstra', 'theta', 'astar-smoothed', 'lrta'];
const AGENTS = 200;

describe('street with 200 planning pedestrians', () => {
  const env = benchSuite('street-perf');
  const { figures, save } = env;

  test('wasm step time per path-finder, interleaved', async (t) => {
    const page = await env.browser.newPage();
    await page.goto(`${env.base}crowd.html?embed=1`);
    await page.waitForFunction(() => window.crowdlab, null, { timeout: 30000 });
    const rows = await page.evaluate(
      async ([planners, agents]) => {
        const { CrowdScene } = await import('./pkg/pathlab_crowd.js');
        window.crowdlab.app.setPlaying(false);
        const scenes = planners.map((_, i) => {
          const s = new CrowdScene('street-paths', agents, 1);
          s.setParam('method', i);
          let warm = 100;
          while (warm > 0) warm -= s.step(warm);
          return s;
        });
        const times = planners.map(() => []);
        for (let r = 0; r < 7; r++) {
          scenes.forEach((s, i) => {
            const t0 = performance.now();
            let done = 0;
            while (done < 10 || performance.now() - t0 < 20) done += s.step(1);
            times[i].push((performance.now() - t0) / done);
          });
        }
        return planners.map((name, i) => {
          const xs = times[i].sort((a, b) => a - b);
          const count = scenes[i].count;
          scenes[i].free();
          return { planner: name, agents: count, medianMs: xs[3], minMs: xs[0], maxMs: xs[6] };
        });
      },
      [PLANNERS, AGENTS],
    );
    figures.wasm = rows;
    save();
    for (const r of rows) {
      t.diagnostic(`${r.planner}: ${r.agents} agents, ${r.medianMs.toFixed(3)} ms per step (${r.minMs.toFixed(3)}-${r.maxMs.toFixed(3)})`);
      assert.ok(r.medianMs > 0);
    }
    await page.close();
  });

  test('the page with each path-finder: fps, step-ms and planning time', async (t) => {
    figures.page = [];
    for (const planner of PLANNERS) {
      const { page, stepMs, fps } = await crowdPageRates(env, `scene=street-paths&agents=${AGENTS}&seed=1&p.method=${planner}`, { width: 1440, height: 900 });
      const row = {
        planner,
        stepMs,
        fps,
        planningMs: Number(await text(page, 'clock-planning_ms')),
        steps: Number(await text(page, 'steps')),
      };
      figures.page.push(row);
      save();
      t.diagnostic(`page, ${planner}: ${row.fps} fps, step ${row.stepMs} ms, ${row.planningMs} ms planning over ${row.steps} steps`);
      assert.ok(row.fps > 0);
      await page.close();
    }
  });
});
