// What the benchmark suites share: the pages' server and Chromium for the suite's tests, and
// the suite's figures, saved to tests/artifacts/NAME.json for the README and the notes.
import { after, before } from 'node:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, start } from '../tests/support/browser.mjs';

/**
 * Called inside a describe(): starts the server and the browser before its tests and stops them
 * after. Returns the suite: `browser` and `base` (as tests/support/browser.mjs's start() gives
 * them, once the tests run), `figures` (starting as `initial`) and `save()`, which writes the
 * figures to tests/artifacts/NAME.json.
 * @param {string} name
 * @param {Record<string, unknown>} [initial]
 */
export function benchSuite(name, initial = {}) {
  /** @type {Awaited<ReturnType<typeof start>> | null} */
  let env = null;
  before(async () => {
    env = await start();
  });
  after(async () => {
    await env?.close();
  });
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
