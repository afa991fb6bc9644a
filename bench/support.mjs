// What the benchmark suites share: the pages' server and Chromium for the suite's tests, and
// the suite's figures, saved to tests/artifacts/NAME.json for the README and the notes, and the
// crowd page's step time and frame rate as it plays.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, text, withBrowser } from '../tests/support/browser.mjs';

/**
 * Called inside a describe(): the server and the browser for its tests (withBrowser). Returns
 * the suite: `browser` and `base` (as tests/support/browser.mjs's start() gives
 * them, once the tests run), `figures` (starting as `initial`) and `save()`, which writes the
 * figures to tests/artifacts/NAME.json.
 * @param {string} name
 * @param {Record<string, unknown>} [initial]
 */
export function benchSuite(name, initial = {}) {
  const env = withBrowser();
  const figures = initial;
  return {
    figures,
    get browser() {
      return env.browser;
    },
    get base() {
      return env.base;
    },
    save() {
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(join(ARTIFACTS, `${name}.json`), `${JSON.stringify(figures, null, 2)}\n`);
    },
  };
}

/** The middle value of `xs` (the upper one of an even count). */
export function median(xs) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/**
 * Opens crowd.html with `query` (in `page` when given, else in a new page of `width` x
 * `height`), waits until its fps read-out shows a rate, lets it play `warmMs`, then reads
 * `step-ms` and `fps` six times, 500 ms apart. Returns the page and the two medians.
 */
export async function crowdPageRates(env, query, { page = null, width = 1400, height = 1000, warmMs = 2000 } = {}) {
  page ??= await env.browser.newPage({ viewport: { width, height } });
  await page.goto(`${env.base}crowd.html?${query}`);
  await page.waitForFunction(() => window.crowdlab && Number(document.querySelector('[data-testid="fps"]')?.textContent) > 0, null, {
    timeout: 30000,
  });
  await page.waitForTimeout(warmMs);
  const samples = [];
  for (let k = 0; k < 6; k++) {
    await page.waitForTimeout(500);
    samples.push({ stepMs: Number(await text(page, 'step-ms')), fps: Number(await text(page, 'fps')) });
  }
  return { page, stepMs: median(samples.map((s) => s.stepMs)), fps: median(samples.map((s) => s.fps)) };
}
