// What the benchmark suites share: the pages' server and Chromium for the suite's tests, and
// the suite's figures, saved to tests/artifacts/NAME.json for the README and the notes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, withBrowser } from '../tests/support/browser.mjs';

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
