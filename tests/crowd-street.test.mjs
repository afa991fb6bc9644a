// The street with path-finders in real Chromium: the scene runs from its URL with each
// path-finder (`p.method=NAME`), its metrics table equals an independent replay of the scene in
// Node through the wasm module (same seed, count, path-finder and steps), nobody is hit, the
// planning time is a read-out of its own (a clock, which no replay reproduces), bad values get
// their specific messages and fall back, and the "Compare path-finders" panel draws its two
// charts and a table whose figures equal an independent comparison run in Node. Screenshots go
// to tests/artifacts/crowd-street-*.png (1440x900 and 1920x1080).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, openCrowd, screenshot, text, withBrowser } from './support/browser.mjs';
import { StreetComparison, pauseAndStep, replay, shownMetrics, stepsReach } from './support/crowd.mjs';

const PLANNERS = ['astar', 'dijkstra', 'theta', 'astar-smoothed', 'lrta'];

/** The page at the street's size. */
const openStreet = (env, query, size = { width: 1440, height: 900 }) => openCrowd(env, query, size);

describe('street with path-finders', () => {
  const env = withBrowser();

  for (const planner of PLANNERS) {
    test(`${planner}: runs from its URL and its metrics equal a replay in Node`, async () => {
      const page = await openStreet(env, `scene=street-paths&agents=30&seed=2&p.method=${planner}`);
      // `agents` counts pedestrians; the street's 6 cars come on top, and the page says so.
      assert.match(await text(page, 'message'), /^Agents: the Street with path-finders scene takes 36 agents when asked for 30 \(its own limits\); showing 36\.$/);
      assert.equal(await page.locator('[data-testid="param-method"]').inputValue(), String(PLANNERS.indexOf(planner)));
      await stepsReach(page, 60);
      await pauseAndStep(page);
      const steps = Number(await text(page, 'steps'));
      const shown = await shownMetrics(page);
      assert.deepEqual(shown, replay('street-paths', 30, 2, { method: PLANNERS.indexOf(planner) }, steps), `the table at step ${steps}`);
      assert.equal(shown.car_ped_collisions, '0');
      assert.ok(Number(shown.plans) >= 36, `every agent planned: ${shown.plans}`);
      assert.ok(Number(shown.expanded_per_agent) > 0);
      // The planning time is a read-out of its own, measured with the page's clock.
      const ms = await text(page, 'clock-planning_ms');
      assert.match(ms, /^\d+(\.\d+)?$/, `planning time ${JSON.stringify(ms)}`);
      assert.ok(Number(ms) > 0);
      assert.equal(await page.locator('[data-testid="metric-planning_ms"]').count(), 0, 'not in the replayed table');
      // The selected pedestrian's route is drawn.
      await page.evaluate(() => {
        window.crowdlab.app.selected = 0;
        window.crowdlab.app.touch();
      });
      await nextFrame(page);
      const lines = Number(await page.locator('[data-testid="overlay-counts"]').getAttribute('data-lines'));
      assert.ok(lines >= 2, `route segments drawn: ${lines}`);
      if (planner === 'theta') await screenshot(page, 'crowd-street-theta-1440');
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }

  test('bad path-finder values get their own messages and fall back', async () => {
    const page = await openStreet(env, 'scene=street-paths&p.method=jps&p.green=nan');
    const said = await text(page, 'message');
    assert.match(said, /Parameter "p.method": "jps" is not one of astar, dijkstra, theta, astar-smoothed, lrta; keeping astar/);
    assert.match(said, /Parameter "p.green": expected a number or a choice's name, got "nan"/);
    assert.equal(await page.locator('[data-testid="param-method"]').inputValue(), '0');
    const far = await openStreet(env, 'scene=street-paths&p.method=9');
    assert.match(await text(far, 'message'), /Path-finder clamped from 9 to 4/);
    assert.equal(await far.locator('[data-testid="param-method"]').inputValue(), '4');
    assert.deepEqual([...page.errors, ...far.errors], []);
    await page.close();
    await far.close();
  });

  test('the comparison panel draws time against agents and the histograms, with the figures of a replay', async () => {
    const page = await openStreet(env, 'scene=street-paths&seed=5', { width: 1920, height: 1080 });
    await pauseAndStep(page);
    await page.locator('[data-testid="street-compare-run"]').click();
    await page.waitForFunction(() => /^Done/.test(document.querySelector('[data-testid="street-compare-status"]').textContent), null, {
      timeout: 240000,
    });
    const counts = [5, 10, 25, 50, 100, 200];
    const c = new StreetComparison(Uint32Array.from(counts), 100, 5, 10);
    while (c.step());
    const mine = c.result();
    c.free();
    for (const p of PLANNERS) {
      for (const n of counts) {
        const r = mine.runs.find((q) => q.planner === p && q.pedestrians === n);
        const shown = await text(page, `street-figure-${p}-${n}`);
        const per = Math.round(r.expanded / r.plans);
        assert.match(shown, new RegExp(`^\\d+\\.\\d\\d · ${per}$`), `${p} at ${n}: ${shown}`);
      }
    }
    // Dijkstra expands more per plan than A*, as in the thesis's table.
    const per = (p) => mine.runs.filter((r) => r.planner === p).reduce((a, r) => a + r.expanded, 0) / mine.runs.filter((r) => r.planner === p).reduce((a, r) => a + r.plans, 0);
    assert.ok(per('dijkstra') > 2 * per('astar'));
    // Both charts have ink of every path-finder's colour.
    const colours = await page.evaluate(async () => {
      const { PLANNER_COLOURS } = await import('./crowd-street.js');
      const found = {};
      for (const id of ['street-chart-time', 'street-chart-hist']) {
        const canvas = document.querySelector(`[data-testid="${id}"]`);
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        found[id] = PLANNER_COLOURS.map((hex) => {
          const [r, g, b] = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
          for (let i = 0; i < data.length; i += 4) if (data[i] === r && data[i + 1] === g && data[i + 2] === b) return true;
          return false;
        });
      }
      return found;
    });
    assert.deepEqual(colours['street-chart-time'], [true, true, true, true, true]);
    assert.deepEqual(colours['street-chart-hist'], [true, true, true, true, true]);
    await page.locator('[data-testid="street-compare"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'crowd-street-compare-1920');
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
