// Shared by the crowd page's end-to-end tests: the crowd module loaded in Node (for replays
// independent of the page), the table's number format written out here, and helpers to read the
// page's metrics table and to pause it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import init, { CrowdScene, StreetComparison, crowdScenes } from '../../www/pkg/pathlab_crowd.js';
import { ROOT, nextFrame } from './browser.mjs';

await init({ module_or_path: readFileSync(join(ROOT, 'www', 'pkg', 'pathlab_crowd_bg.wasm')) });

export { CrowdScene, StreetComparison, crowdScenes };

/** The page's number format for the metrics table (crowd.js formatMetric), written out here. */
export function format(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  return String(Number(v.toFixed(a >= 100 ? 1 : a >= 1 ? 2 : 3)));
}

/**
 * A scene replayed in Node: `agents` (undefined: the scene's default), `seed`, `params` as name
 * to value index, `steps` steps. Its metrics, formatted as the page's table formats them.
 */
export function replay(scene, agents, seed, params, steps) {
  const s = new CrowdScene(scene, agents, seed);
  for (const [name, value] of Object.entries(params)) s.setParam(name, value);
  let left = steps;
  while (left > 0) left -= s.step(Math.min(left, 240));
  const out = {};
  for (const m of s.metrics()) out[m.name] = format(m.value);
  s.free();
  return out;
}

/** Every metric cell's text, by metric name, as the page shows it. */
export function shownMetrics(page) {
  return page.evaluate(() => {
    const out = {};
    for (const td of document.querySelectorAll('[data-testid="metrics"] [data-testid^="metric-"]')) {
      out[td.dataset.testid.slice('metric-'.length)] = td.textContent;
    }
    return out;
  });
}

/** Pauses the page if it is playing. */
export async function pause(page) {
  const play = page.locator('[data-testid="play"]');
  if ((await play.getAttribute('aria-pressed')) === 'true') await play.click();
}

/** Pauses, then takes one step with the Step button, so read-outs and metrics are current. */
export async function pauseAndStep(page) {
  await pause(page);
  await page.locator('[data-testid="step"]').click();
  await nextFrame(page);
}

/** Waits until the steps read-out shows at least `n`. */
export function stepsReach(page, n, timeout = 30000) {
  return page.waitForFunction((n) => Number(document.querySelector('[data-testid="steps"]').textContent) >= n, n, { timeout });
}

/**
 * A scene replayed in Node to each of `steps` (ascending): its metrics at full precision at
 * each, as `{ name: value }` with NaN where not measured.
 */
export function replayAt(scene, agents, seed, params, steps) {
  const s = new CrowdScene(scene, agents, seed);
  for (const [name, value] of Object.entries(params)) s.setParam(name, value);
  const out = [];
  for (const target of steps) {
    while (s.steps < target) s.step(Math.min(target - s.steps, 240));
    out.push(Object.fromEntries(s.metrics().map((m) => [m.name, m.value ?? NaN])));
  }
  s.free();
  return out;
}
