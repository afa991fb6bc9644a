// Formations of 100 members in Chromium, a benchmark (no timing is asserted): the wasm step
// time of one squad of 10 ranks by 10 files (`scene=squads`, one squad) as a rigid block and
// as a squad held by potential fields, measured in interleaved rounds (rigid, field, rigid,
// ...) after 100 warm-up steps each, so both see the same machine; median and range per kind.
// Also the page's own `step-ms` read-out for formation-tree at 10 x 10 (two formations of 100).
// Figures are printed as diagnostics and saved to tests/artifacts/formations-perf.json.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { benchSuite, crowdPageRates } from './support.mjs';

describe('formation performance', () => {
  const env = benchSuite('formations-perf');
  const { figures, save } = env;

  test('wasm step time of a rigid block and of a squad held by fields, 100 members each', async (t) => {
    const page = await env.browser.newPage();
    await page.goto(`${env.base}crowd.html?scene=squads`);
    await page.waitForFunction(() => window.crowdlab, null, { timeout: 30000 });
    const result = await page.evaluate(async () => {
      const { CrowdScene } = await import('./pkg/pathlab_crowd.js');
      window.crowdlab.app.setPlaying(false);
      const make = (method) => {
        const s = new CrowdScene('squads', undefined, 1);
        s.setParam('squads', 1);
        s.setParam('ranks', 10);
        s.setParam('files', 10);
        s.setParam('method', method);
        let warm = 100;
        while (warm > 0) warm -= s.step(warm);
        return s;
      };
      const scenes = { rigid: make(0), field: make(1) };
      const rounds = { rigid: [], field: [] };
      for (let r = 0; r < 9; r++) {
        for (const kind of ['rigid', 'field']) {
          const s = scenes[kind];
          const t0 = performance.now();
          let done = 0;
          while (done < 20 || performance.now() - t0 < 30) done += s.step(1);
          rounds[kind].push((performance.now() - t0) / done);
        }
      }
      const out = {};
      for (const kind of ['rigid', 'field']) {
        const xs = rounds[kind].sort((a, b) => a - b);
        out[kind] = { members: scenes[kind].count, medianMs: xs[4], minMs: xs[0], maxMs: xs[8] };
        scenes[kind].free();
      }
      return out;
    });
    figures.wasm = result;
    save();
    for (const [kind, r] of Object.entries(result)) {
      t.diagnostic(`wasm ${kind}, ${r.members} members: ${r.medianMs.toFixed(4)} ms per step (${r.minMs.toFixed(4)}-${r.maxMs.toFixed(4)}), median (range) of 9 rounds`);
    }
    assert.equal(result.rigid.members, 100);
    assert.equal(result.field.members, 100);
    await page.close();
  });

  test('the page runs formation-tree at 10 x 10; step-ms reads out', async (t) => {
    const { page, stepMs, fps } = await crowdPageRates(env, 'scene=formation-tree&p.ranks=10&p.files=10');
    figures.page = { stepMs, fps };
    save();
    t.diagnostic(`page, formation-tree 2 x 100 members: step ${figures.page.stepMs} ms, ${figures.page.fps} fps`);
    assert.ok(figures.page.fps > 0);
    await page.close();
  });
});
