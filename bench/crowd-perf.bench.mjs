// Crowd performance in Chromium, a benchmark (no timing is asserted: on a shared machine the
// figures say more about the machine): the wasm step time of the scene with the most agents by
// default, at a quarter, half, one, two and four times its default count (scenes clamp to their own
// limits, so the count actually built is reported), straight on the module after 60 warm-up
// steps; and the page's own `step-ms` and `fps` read-outs for that scene. Every scene in the
// registry is considered, so scenes added later are measured without editing this file.
// Figures are printed as diagnostics and saved to tests/artifacts/crowd-perf.json.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { benchSuite, crowdPageRates } from './support.mjs';

describe('crowd performance', () => {
  const env = benchSuite('crowd-perf');
  const { figures, save } = env;

  test('wasm step time of the most crowded scene at a few agent counts', async (t) => {
    const page = await env.browser.newPage();
    await page.goto(`${env.base}crowd.html`);
    await page.waitForFunction(() => window.crowdlab, null, { timeout: 30000 });
    const result = await page.evaluate(async () => {
      const { CrowdScene, crowdScenes } = await import('./pkg/pathlab_crowd.js');
      let biggest = null;
      for (const { name } of crowdScenes()) {
        const s = new CrowdScene(name, undefined, 1);
        if (!biggest || s.count > biggest.count) biggest = { name, count: s.count };
        s.free();
      }
      const rows = [];
      const seen = new Set();
      for (const factor of [0.25, 0.5, 1, 2, 4]) {
        const asked = Math.max(1, Math.round(biggest.count * factor));
        const s = new CrowdScene(biggest.name, asked, 1);
        const agents = s.count;
        if (seen.has(agents)) {
          s.free();
          continue;
        }
        seen.add(agents);
        let warm = 60;
        while (warm > 0) warm -= s.step(warm);
        const rounds = [];
        for (let r = 0; r < 5; r++) {
          const t0 = performance.now();
          let done = 0;
          // At least 10 steps and 20 ms per round, so the clock's resolution does not matter.
          while (done < 10 || performance.now() - t0 < 20) done += s.step(1);
          rounds.push((performance.now() - t0) / done);
        }
        s.free();
        rounds.sort((a, b) => a - b);
        rows.push({ asked, agents, stepMs: Number(rounds[2].toFixed(4)) });
      }
      return { scene: biggest.name, defaultAgents: biggest.count, rows };
    });
    figures.wasm = result;
    save();
    t.diagnostic(`most crowded scene: ${result.scene} (${result.defaultAgents} agents by default)`);
    for (const r of result.rows) {
      const us = r.agents ? Math.round((r.stepMs * 1000) / r.agents * 100) / 100 : 0;
      t.diagnostic(`wasm ${result.scene}, ${r.agents} agents (asked ${r.asked}): ${r.stepMs} ms per step, ${us} µs per agent`);
    }
    assert.ok(result.rows.length >= 1);
    for (const r of result.rows) assert.ok(r.stepMs > 0, `${r.agents} agents: a step takes time (${r.stepMs} ms)`);
    await page.close();
  });

  test('the page runs the most crowded scene; step-ms and fps read out', async (t) => {
    const page = await env.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${env.base}crowd.html`);
    await page.waitForFunction(() => window.crowdlab, null, { timeout: 30000 });
    const name = figures.wasm?.scene ?? (await page.evaluate(() => window.crowdlab.scene.name));
    const { stepMs, fps } = await crowdPageRates(env, `scene=${name}&seed=1`, { page, warmMs: 3000 });
    const draw = await page.evaluate(() => {
      const app = window.crowdlab.app;
      app.setPlaying(false);
      const t0 = performance.now();
      for (let k = 0; k < 20; k++) app.draw();
      return (performance.now() - t0) / 20;
    });
    figures.page = { scene: name, stepMs, fps, drawMs: Number(draw.toFixed(2)) };
    save();
    t.diagnostic(`page, ${name}: step ${figures.page.stepMs} ms, ${figures.page.fps} fps, drawing ${figures.page.drawMs} ms per frame`);
    assert.ok(figures.page.fps > 0);
    await page.close();
  });
});
