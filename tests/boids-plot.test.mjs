// The boid page's metrics table and plot panel in real Chromium, from a URL with `plot=1`: the
// plotted series (`app.plot.series()`) equal the mean speed, polarisation and spread worked out
// here, in the test, from the positions, velocities and headings of an independent copy of the
// world stepped in Node to every sampled step; the table shows the same metrics; the CSV
// download parses to the plotted numbers; the PNG download is a PNG of the chart canvas's size;
// the chart's pixel at each series' last sample is its colour. Screenshots at 1366x768 and
// 1920x1080 go to tests/artifacts/boids-plot-*.png.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import init, { Boids } from '../www/pkg/pathlab_world.js';
import { ROOT, openBoids, screenshot, withBrowser } from './support/browser.mjs';
import { downloaded, parseCsv, pixelAtLastSample, plotSeries, pngSize, samplesReach } from './support/plot.mjs';

const wasm = await init({ module_or_path: readFileSync(join(ROOT, 'www', 'pkg', 'pathlab_world_bg.wasm')) });

/** Mean speed, polarisation (length of the mean unit heading) and RMS spread from the centroid. */
function reference(b) {
  const n = b.count;
  const f = (ptr) => new Float32Array(wasm.memory.buffer, ptr, n);
  const [x, y, vx, vy, hx, hy] = [b.xPtr(), b.yPtr(), b.vxPtr(), b.vyPtr(), b.hxPtr(), b.hyPtr()].map(f);
  let speed = 0;
  let sx = 0;
  let sy = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < n; i++) {
    speed += Math.hypot(vx[i], vy[i]);
    sx += hx[i];
    sy += hy[i];
    cx += x[i];
    cy += y[i];
  }
  cx /= n;
  cy /= n;
  let sq = 0;
  for (let i = 0; i < n; i++) sq += (x[i] - cx) ** 2 + (y[i] - cy) ** 2;
  return { mean_speed: speed / n, polarisation: Math.hypot(sx, sy) / n, spread: Math.sqrt(sq / n) };
}

/** True when `a` is within a relative 1e-9 of `b`. */
const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

describe('boid page plots', () => {
  const env = withBrowser();
  /** @type {any} */
  let page;
  before(async () => {
    page = await openBoids(env, 'scenario=hawks-and-pigeons&agents=240&seed=7&plot=1');
  });
  after(async () => {
    await page?.close();
  });

  test('the plotted series equal metrics worked out here from an independent copy of the world, and the table and CSV agree', async () => {
    await samplesReach(page, 'boidlab', 25);
    assert.equal(await page.locator('[data-testid="plot"]').getAttribute('aria-expanded'), 'true', 'plot=1 opens the panel');
    await page.locator('[data-testid="play"]').click();
    await page.waitForFunction(() => !window.boidlab.app.playing);
    const series = await plotSeries(page, 'boidlab');
    assert.deepEqual(series.map((s) => s.key), ['mean_speed', 'polarisation', 'spread']);
    const steps = series[0].steps;
    assert.equal(steps[0], 0);
    const copy = new Boids('hawks-and-pigeons', 240, 7);
    steps.forEach((step, k) => {
      while (copy.steps < step) copy.step(Math.min(step - copy.steps, 240));
      const want = reference(copy);
      for (const s of series) assert.ok(close(s.values[k], want[s.key]), `${s.key} at step ${step}: plotted ${s.values[k]}, worked out ${want[s.key]}`);
      assert.ok(Math.abs(series[0].times[k] - step / 60) < 1e-9, `time of step ${step}`);
    });
    copy.free();

    // The table shows the world's metrics at the step it is at, rounded as the crowd page rounds.
    const shown = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid="metrics"] [data-testid^="metric-"]')].map((td) => [td.dataset.testid.slice(7), td.textContent])));
    assert.deepEqual(Object.keys(shown), ['mean_speed', 'polarisation', 'spread']);

    const csv = await downloaded(page, 'plot-csv');
    assert.equal(csv.name, 'pathlab-boids-hawks-and-pigeons-seed7.csv');
    const { header, rows } = parseCsv(csv.bytes.toString('utf8'));
    assert.deepEqual(header.map((h) => h.split(' ')[0]), ['step', 'time_s', 'mean_speed', 'polarisation', 'spread']);
    const now = await plotSeries(page, 'boidlab');
    assert.equal(rows.length, now[0].steps.length);
    rows.forEach((row, k) => {
      assert.equal(row[0], now[0].steps[k]);
      now.forEach((s, i) => assert.equal(row[2 + i], s.values[k], `${s.key} row ${k}`));
    });
    assert.deepEqual(page.errors, []);
  });

  test('the chart is a PNG of the canvas size, each series drawn in its colour, with a caption of the latest values', async () => {
    const png = await downloaded(page, 'plot-png');
    assert.equal(png.name, 'pathlab-boids-hawks-and-pigeons-seed7.png');
    const canvas = await page.evaluate(() => ({ w: window.boidlab.app.plot.canvas.width, h: window.boidlab.app.plot.canvas.height }));
    assert.deepEqual(pngSize(png.bytes), { width: canvas.w, height: canvas.h });
    for (const key of ['mean_speed', 'polarisation', 'spread']) {
      const { pixel, colour } = await pixelAtLastSample(page, 'boidlab', key);
      pixel.forEach((c, i) => assert.ok(Math.abs(c - colour[i]) <= 12, `${key}: pixel ${pixel} is its colour ${colour}`));
    }
    const caption = await page.locator('[data-testid="plot-caption"]').textContent();
    assert.match(caption, /Mean speed [\d.]+ units\/s/);
    // Unticking a metric takes it off the chart (keyboard: focus the box, press space).
    await page.locator('[data-testid="plot-pick-spread"]').focus();
    await page.keyboard.press('Space');
    assert.equal(await page.evaluate(() => window.boidlab.app.plot.pointAt('spread', 0)), null);
    for (const [w, h] of [[1366, 768], [1920, 1080]]) {
      await page.setViewportSize({ width: w, height: h });
      await page.evaluate(() => window.boidlab.app.plot.draw());
      await page.locator('[data-testid="plot-panel"]').scrollIntoViewIfNeeded();
      await screenshot(page, `boids-plot-${w}x${h}`);
    }
    assert.deepEqual(page.errors, []);
  });
});
