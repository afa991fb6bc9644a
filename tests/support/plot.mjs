// Shared by the plot tests of the crowd and boid pages: the panel's series read from the page
// (`app.plot.series()`), the CSV and PNG downloads read back, and the colour of the chart's pixel
// where a sample was drawn.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

/** The plot's series as the page holds them (NaN for samples not measured). */
export function plotSeries(page, app) {
  return page.evaluate((app) => window[app].app.plot.series().map((s) => ({ ...s, values: s.values.map((v) => (Number.isFinite(v) ? v : 'NaN')) })), app).then((list) =>
    list.map((s) => ({ ...s, values: s.values.map((v) => (v === 'NaN' ? NaN : v)) })),
  );
}

/** Waits until the plot (loaded when first opened) holds at least `n` samples. */
export function samplesReach(page, app, n, timeout = 20000) {
  return page.waitForFunction(([app, n]) => (window[app].app.plot?.samples.length ?? 0) >= n, [app, n], { timeout });
}

/** Clicks `testid` and returns the download it starts: its file name and bytes. */
export async function downloaded(page, testid) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-testid="${testid}"]`).click()]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

/**
 * Parses the plot's CSV: the first line starts with # and says the values are at full
 * precision; then the header and one row per sample. Returns `{ header, rows }` (numbers, NaN
 * for empty cells).
 */
export function parseCsv(text) {
  const lines = text.trimEnd().split('\n');
  assert.match(lines[0], /^# .*full precision/, 'the first line says what the values are');
  const header = lines[1].split(',');
  const rows = lines.slice(2).map((line) => line.split(',').map((c) => (c === '' ? NaN : Number(c))));
  return { header, rows };
}

/** A PNG's width and height, read from its IHDR chunk (after checking the signature). */
export function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'a PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * The chart's pixel where series `key`'s last sample was drawn, and that series' colour, both
 * as [r, g, b] (the chart is drawn afresh first).
 */
export function pixelAtLastSample(page, app, key) {
  return page.evaluate(
    ([app, key]) => {
      const plot = window[app].app.plot;
      plot.draw();
      const series = plot.series().find((s) => s.key === key);
      const at = plot.pointAt(key, series.values.length - 1);
      const ctx = plot.canvas.getContext('2d');
      const [r, g, b] = ctx.getImageData(Math.floor(at.x), Math.floor(at.y), 1, 1).data;
      const hex = series.colour;
      const colour = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      return { pixel: [r, g, b], colour };
    },
    [app, key],
  );
}

/** True when two numbers are the same, NaN counting as equal to NaN. */
export function same(a, b) {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}
