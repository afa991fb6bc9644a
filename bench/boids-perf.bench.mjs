// Boid world performance in Chromium: the page running 20,000 flocking agents (its `fps` and
// `step-ms` read-outs, and how many steps it takes per second: the steps are taken by a copy of
// the world in a worker thread, so `step-ms` is the worker's step, beside the drawing), and the
// wasm step time at 1,000 to 50,000 agents measured straight on the module (after 120 steps,
// so that flocks have formed). The figures are printed and saved to
// tests/artifacts/boids-perf.json.
//
// The bars (20,000 agents simulated and drawn at 60 fps; a wasm step under 8 ms) are checked
// only with BENCH_STRICT=1 (scripts/bench.sh): on a shared or busy machine the figures say more about the
// machine.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBoids, text } from '../tests/support/browser.mjs';
import { benchSuite } from './support.mjs';

const STRICT = process.env.BENCH_STRICT === '1';

describe('boid performance', () => {
  const env = benchSuite('boids-perf');
  const { figures, save } = env;

  test('the page runs 20,000 flocking agents; step-ms and fps read out', async (t) => {
    const page = await openBoids(env, 'scenario=flock&agents=20000&seed=1');
    // Let the flocks form and the averages settle.
    await page.waitForTimeout(8000);
    const clock = () => page.evaluate(() => ({ steps: window.boidlab.boids.steps, at: performance.now() }));
    const from = await clock();
    const samples = [];
    for (let k = 0; k < 8; k++) {
      await page.waitForTimeout(500);
      samples.push({ stepMs: Number(await text(page, 'step-ms')), fps: Number(await text(page, 'fps')) });
    }
    const to = await clock();
    const stepsPerSecond = Number((((to.steps - from.steps) * 1000) / (to.at - from.at)).toFixed(1));
    const worker = await page.evaluate(() => window.boidlab.app.link.active);
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const stepMs = median(samples.map((s) => s.stepMs));
    const fps = median(samples.map((s) => s.fps));
    const draw = await page.evaluate(() => {
      const app = window.boidlab.app;
      app.setPlaying(false);
      const t0 = performance.now();
      for (let k = 0; k < 20; k++) app.draw();
      return (performance.now() - t0) / 20;
    });
    figures.page20k = { stepMs, fps, stepsPerSecond, worker, drawMs: Number(draw.toFixed(2)), samples };
    save();
    t.diagnostic(
      `page, 20,000 agents: ${fps} fps, ${stepsPerSecond} steps per second, step ${stepMs} ms ` +
        `(${worker ? 'in the worker' : 'on the page'}), drawing ${draw.toFixed(2)} ms per frame`,
    );
    assert.equal(Number(await text(page, 'agents')), 20000);
    assert.ok(worker, 'a worker thread takes the steps');
    assert.ok(stepMs > 0, `the page reads out its step: ${stepMs} ms`);
    if (STRICT) assert.ok(stepMs < 250, `the page keeps running: step ${stepMs} ms`);
    if (STRICT) {
      assert.ok(fps >= 55, `drawn at about 60 fps: ${fps}`);
      assert.ok(stepsPerSecond >= 55, `simulated at about 60 steps per second: ${stepsPerSecond}`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('wasm step time grows linearly with the agent count', async (t) => {
    const page = await env.browser.newPage();
    await page.goto(`${env.base}boids.html?agents=0`);
    await page.waitForFunction(() => window.boidlab);
    const rows = await page.evaluate(async () => {
      const { Boids } = await import('./pkg/pathlab_world.js');
      const out = [];
      for (const n of [1000, 5000, 20000, 50000]) {
        const b = new Boids('flock', n, 1);
        b.step(120);
        const rounds = [];
        const steps = n >= 20000 ? 10 : 40;
        for (let r = 0; r < 5; r++) {
          const t0 = performance.now();
          b.step(steps);
          rounds.push((performance.now() - t0) / steps);
        }
        b.free();
        rounds.sort((a, c) => a - c);
        out.push({ agents: n, stepMs: Number(rounds[2].toFixed(3)) });
      }
      return out;
    });
    for (const r of rows) r.nsPerAgent = Math.round((r.stepMs * 1e6) / r.agents);
    figures.wasmScaling = rows;
    save();
    for (const r of rows) t.diagnostic(`wasm ${r.agents} agents: ${r.stepMs} ms per step, ${r.nsPerAgent} ns per agent`);
    // Linear: the cost per agent at 50,000 is within 2.5x of that at 1,000.
    const first = rows[0].nsPerAgent;
    const last = rows[rows.length - 1].nsPerAgent;
    if (STRICT) assert.ok(last < 2.5 * first, `per-agent cost ${first} ns at 1,000 but ${last} ns at 50,000`);
    if (STRICT) assert.ok(rows.find((r) => r.agents === 20000).stepMs < 8);
    await page.close();
  });
});
