// The crowd page's plot panel in real Chromium, for several scenes from their URLs with
// `plot=1`: the plotted series (`app.plot.series()`) equal the metrics of an independent copy of
// the scene replayed in Node at every sampled step; the CSV download parses to the same numbers;
// the PNG download is a PNG of the chart canvas's size; the chart's pixel at a series' last
// sample is that series' colour; Reset and a parameter change start a new plot. In compare mode
// the plot follows the chosen metric in every pane, each equal to a replay with that pane's
// method. Screenshots at 1366x768 and 1920x1080 go to tests/artifacts/crowd-plot-*.png.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, openCrowd, screenshot, withBrowser } from './support/browser.mjs';
import { pause, replayAt } from './support/crowd.mjs';
import { downloaded, parseCsv, pixelAtLastSample, plotSeries, pngSize, same, samplesReach } from './support/plot.mjs';

/** The live scene's set-up, to replay it: name, agents asked for, seed, parameters. */
function liveScene(page) {
  return page.evaluate(() => {
    const s = window.crowdlab.scene;
    return { name: s.name, agents: s.agentsAsked, seed: s.seed, params: Object.fromEntries(s.params().map((p) => [p.name, p.value])) };
  });
}

/** Asserts every series of `series` equals the replay's metric `metricOf(key)` at each sampled step. */
function assertEqualsReplay(series, replayed, metricOf = (key) => key) {
  assert.ok(series.length > 0, 'the plot has series');
  for (const s of series) {
    assert.equal(s.values.length, s.steps.length);
    s.steps.forEach((step, k) => {
      const want = replayed[k][metricOf(s.key)];
      assert.ok(same(s.values[k], want), `${s.key} at step ${step}: plotted ${s.values[k]}, replay ${want}`);
    });
  }
}

const SCENES = [
  ['bottleneck', 'agents=24&seed=3'],
  ['bunkers', 'seed=5'],
  ['ants', 'seed=2'],
  ['squad', 'seed=4'],
];

describe('crowd page plots', () => {
  const env = withBrowser();

  for (const [scene, query] of SCENES) {
    describe(scene, () => {
      /** @type {any} */
      let page;
      before(async () => {
        page = await openCrowd(env, `scene=${scene}&${query}&plot=1`);
      });
      after(async () => {
        await page?.close();
      });

      test(`${scene}: the plotted series equal an independent replay at every sampled step, and the CSV holds the same numbers`, async () => {
        await samplesReach(page, 'crowdlab', 30);
        assert.equal(await page.locator('[data-testid="plot"]').getAttribute('aria-expanded'), 'true', 'plot=1 opens the panel');
        await pause(page);
        const series = await plotSeries(page, 'crowdlab');
        const steps = series[0].steps;
        assert.equal(steps[0], 0, 'the plot starts at step 0');
        assert.ok(steps.every((st, k) => k === 0 || st > steps[k - 1]), 'sampled steps ascend');
        const names = await page.evaluate(() => window.crowdlab.scene.metrics().map((m) => m.name));
        assert.deepEqual(series.map((s) => s.key), names, 'one series per metric of the table');
        const live = await liveScene(page);
        assertEqualsReplay(series, replayAt(live.name, live.agents, live.seed, live.params, steps));
        const dt = await page.evaluate(() => window.crowdlab.scene.dt);
        series[0].times.forEach((t, k) => assert.ok(Math.abs(t - steps[k] * dt) < 1e-6 * Math.max(1, t), `time of step ${steps[k]}`));

        const csv = await downloaded(page, 'plot-csv');
        assert.equal(csv.name, `pathlab-crowd-${scene}-seed${live.seed}.csv`);
        const { header, rows } = parseCsv(csv.bytes.toString('utf8'));
        assert.deepEqual(header.slice(0, 2), ['step', 'time_s']);
        assert.deepEqual(header.slice(2).map((h) => h.split(' ')[0]), names);
        const now = await plotSeries(page, 'crowdlab');
        assert.equal(rows.length, now[0].steps.length, 'a row per sample');
        rows.forEach((row, k) => {
          assert.equal(row[0], now[0].steps[k]);
          now.forEach((s, i) => assert.ok(same(row[2 + i], s.values[k]), `${s.key} row ${k}: ${row[2 + i]} against ${s.values[k]}`));
        });
        assert.deepEqual(page.errors, []);
      });

      test(`${scene}: the chart is a PNG of the canvas's size and shows each drawn series in its colour`, async () => {
        const png = await downloaded(page, 'plot-png');
        assert.match(png.name, new RegExp(`^pathlab-crowd-${scene}-seed\\d+\\.png$`));
        const canvas = await page.evaluate(() => ({ w: window.crowdlab.app.plot.canvas.width, h: window.crowdlab.app.plot.canvas.height }));
        assert.deepEqual(pngSize(png.bytes), { width: canvas.w, height: canvas.h });
        const drawn = await page.evaluate(() => window.crowdlab.app.plot.drawnGroups().map(([g]) => g));
        assert.ok(drawn.length >= 1 && drawn.length <= 4, `the first few metrics are drawn (${drawn.length})`);
        const series = await plotSeries(page, 'crowdlab');
        const measured = series.filter((s) => drawn.includes(s.key) && Number.isFinite(s.values[s.values.length - 1]));
        assert.ok(measured.length > 0, 'a drawn series has a last value');
        for (const s of measured) {
          const { pixel, colour } = await pixelAtLastSample(page, 'crowdlab', s.key);
          pixel.forEach((c, i) => assert.ok(Math.abs(c - colour[i]) <= 12, `${s.key}: pixel ${pixel} is its colour ${colour}`));
        }
        const caption = await page.locator('[data-testid="plot-caption"]').textContent();
        for (const s of measured) assert.ok(caption.includes(s.label), `the caption names ${s.label}: ${caption}`);
      });

      test(`${scene}: Reset clears the plot and a parameter change starts a new one`, async () => {
        await page.locator('[data-testid="reset"]').click();
        await nextFrame(page);
        let series = await plotSeries(page, 'crowdlab');
        assert.deepEqual(series[0].steps, [0], 'after Reset only step 0 is plotted');
        for (let i = 0; i < 5; i++) await page.locator('[data-testid="step"]').click();
        series = await plotSeries(page, 'crowdlab');
        assert.deepEqual(series[0].steps, [0, 1, 2, 3, 4, 5]);
        const slider = await page.evaluate(() => window.crowdlab.scene.params().find((p) => p.choices.length === 0 && p.value + p.step <= p.max)?.name ?? null);
        if (slider) {
          await page.locator(`[data-testid="param-${slider}"]`).focus();
          await page.keyboard.press('ArrowRight');
          await nextFrame(page);
          series = await plotSeries(page, 'crowdlab');
          assert.deepEqual(series[0].steps, [5], `a change of ${slider} starts a new plot at the step the scene is at`);
        }
        assert.deepEqual(page.errors, []);
      });
    });
  }

  test('compare mode: one series per method for the chosen metric, each equal to a replay with its method', async () => {
    const page = await openCrowd(env, 'scene=bottleneck&agents=16&seed=9&plot=1');
    await samplesReach(page, 'crowdlab', 1);
    await page.locator('[data-testid="compare"]').click();
    const choices = await page.evaluate(() => window.crowdlab.app.methodParam.choices);
    // The third metric of the avoidance scenes (the smallest gap) differs between methods.
    const metric = await page.evaluate(() => window.crowdlab.scene.metrics()[2].name);
    await page.locator('[data-testid="plot-metric"]').selectOption(metric);
    await samplesReach(page, 'crowdlab', 20);
    await pause(page);
    const series = await plotSeries(page, 'crowdlab');
    assert.deepEqual(series.map((s) => s.key), choices.map((c) => `${metric}@${c}`));
    const live = await liveScene(page);
    series.forEach((s, i) => {
      const replayed = replayAt(live.name, live.agents, live.seed, { ...live.params, method: i }, s.steps);
      assertEqualsReplay([s], replayed, () => metric);
    });
    for (const [w, h] of [[1366, 768], [1920, 1080]]) {
      await page.setViewportSize({ width: w, height: h });
      await page.evaluate(() => window.crowdlab.app.plot.draw());
      await page.locator('[data-testid="plot-panel"]').scrollIntoViewIfNeeded();
      await screenshot(page, `crowd-plot-compare-${w}x${h}`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('screenshots of the panel at 1366x768 and 1920x1080', async () => {
    for (const [w, h] of [[1366, 768], [1920, 1080]]) {
      const page = await openCrowd(env, 'scene=bunkers&seed=5&plot=1', { width: w, height: h });
      await samplesReach(page, 'crowdlab', 60);
      await pause(page);
      await page.evaluate(() => window.crowdlab.app.plot.draw());
      await screenshot(page, `crowd-plot-${w}x${h}`);
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  });
});
