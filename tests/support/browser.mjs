// Shared set-up for the end-to-end tests: a static server for www/ on a free port, Debian's
// Chromium through playwright-core, a page opened on a configuration, and small helpers to
// read the page's hooks (data-testid) and to find a cell's centre on the canvas.
import { after, before } from 'node:test';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ARTIFACTS = join(ROOT, 'tests', 'artifacts');

/**
 * The MovingAI benchmark folder, by the rule the Rust tests use: `$PATHLAB_MOVINGAI`, else
 * `shared/maps/movingai` beside the repository. Throws, naming both, when it is missing.
 */
export function movingaiFolder() {
  const dir = process.env.PATHLAB_MOVINGAI ?? join(ROOT, '..', 'shared', 'maps', 'movingai');
  if (!existsSync(join(dir, 'dao', 'arena.map'))) {
    throw new Error(`the MovingAI maps are missing: ${dir} does not hold dao/arena.map. Set PATHLAB_MOVINGAI to the folder (README, "Two commands").`);
  }
  return dir;
}

/**
 * The browser the tests drive: `$CHROMIUM` when set, else Debian's Chromium headless shell
 * (`chromium-headless-shell`, the same Blink and V8 as `chromium` without the desktop browser
 * around them, as Playwright's own headless runs use), else Debian's `chromium`. On the 2-core
 * machine the shell opens a page for about a third of the processor time the full browser
 * takes (11 openings of index.html: 12 against 35 CPU-seconds), which is most of what the
 * end-to-end tests spend. scripts/bench.sh times the pages in the full browser.
 */
export const CHROMIUM =
  process.env.CHROMIUM ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ?? '/usr/bin/chromium';

/** The launch arguments for CHROMIUM (the shell is headless by nature and takes no --headless). */
export function launchArgs(more = []) {
  const headless = CHROMIUM.includes('headless-shell') ? [] : ['--headless'];
  return [...headless, '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...more];
}

/** Starts the server and the browser; `close()` stops both. */
export async function start() {
  for (const needed of ['www/pkg/pathlab_wasm.js', 'www/maps/presets.json']) {
    if (!existsSync(join(ROOT, needed))) {
      throw new Error(`${needed} is missing: run ./scripts/build-wasm.sh first`);
    }
  }
  const server = await serve(join(ROOT, 'www'), 0);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: launchArgs() });
  return {
    base,
    browser,
    async close() {
      await browser.close();
      await new Promise((ok) => server.close(ok));
    },
  };
}

/**
 * Called inside a describe(): starts the server and the browser before its tests and stops them
 * after. Returns what the tests use of start()'s result (`browser`, `base`; read once the tests
 * run), to pass to open() and the other helpers here.
 */
export function withBrowser() {
  /** @type {Awaited<ReturnType<typeof start>> | null} */
  let env = null;
  before(async () => {
    env = await start();
  });
  after(async () => {
    await env?.close();
  });
  return {
    get browser() {
      return env.browser;
    },
    get base() {
      return env.base;
    },
  };
}

/**
 * Collects the page's uncaught exceptions and console errors in `page.errors`, but for console
 * messages `expected(message)` accepts (such as the failed load of a file a test knows is not
 * there).
 */
export function watchErrors(page, expected = (_m) => false) {
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !expected(m)) page.errors.push(`console: ${m.text()}`);
  });
  return page;
}

/**
 * Opens www/FILE with `query` and waits until the page has set `window[app]` and filled the
 * read-out `readout` (a data-testid). `page.errors` collects uncaught exceptions and console
 * errors, so a test can insist there were none. `init`: a script run before the page's own (to
 * take a browser feature away, say).
 */
export async function openPage(env, file, query, { app, readout, width = 1400, height = 1000, init = null, timeout = 30000 }) {
  const page = await env.browser.newPage({ viewport: { width, height } });
  if (init) await page.addInitScript(init);
  watchErrors(page);
  await page.goto(`${env.base}${file}${query ? `?${query}` : ''}`);
  await page.waitForFunction(
    ([app, readout]) => window[app] && document.querySelector(`[data-testid="${readout}"]`)?.textContent !== '',
    [app, readout],
    { timeout },
  );
  return page;
}

/**
 * Opens index.html with `query` and waits until Pathlab has mounted. `page.errors` collects
 * uncaught exceptions and console errors, so a test can insist there were none.
 */
export function open(env, query = '', { width = 1400, height = 1000 } = {}) {
  return openPage(env, 'index.html', query, { app: 'pathlab', readout: 'status', width, height, timeout: 15000 });
}

/**
 * A fresh browser context (its own storage, as another visitor's browser) and a page in it,
 * 1400 x 1000 unless `options` say otherwise; `page.errors` collects uncaught exceptions and
 * console errors.
 */
export async function freshPage(env, options = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1400, height: 1000 }, ...options });
  const page = watchErrors(await context.newPage());
  return { context, page };
}

/** Goes to `url` (index.html with a query) and waits until Pathlab has mounted and painted. */
export async function visit(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => window.pathlab && document.querySelector('[data-testid="status"]')?.textContent !== '');
  await nextFrame(page);
}

/** The text of a data-testid element. */
export function text(page, id) {
  return page.locator(`[data-testid="${id}"]`).textContent();
}

/** The text of a data-testid element once the next frame has painted the read-outs. */
export async function settled(page, id) {
  await nextFrame(page);
  return text(page, id);
}

/** Waits two animation frames, so the read-outs show the last action. */
export function nextFrame(page) {
  return page.evaluate(
    () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok()))),
  );
}

/** Page coordinates of the centre of cell (x, y) on the grid canvas. */
export async function cellCentre(page, x, y) {
  const canvas = page.locator('[data-testid="grid"]');
  const box = await canvas.boundingBox();
  const w = Number(await canvas.getAttribute('data-width'));
  const h = Number(await canvas.getAttribute('data-height'));
  return { x: box.x + ((x + 0.5) * box.width) / w, y: box.y + ((y + 0.5) * box.height) / h };
}

/**
 * Drags the mouse through the centres of the given cells, in small steps, as a person would:
 * with the grid scrolled into view first (a click on a control lower down may have scrolled
 * it away, and the mouse cannot press what is off screen).
 */
export async function drag(page, cells) {
  await page.locator('[data-testid="grid"]').evaluate((canvas) => canvas.scrollIntoView({ block: 'center' }));
  const first = await cellCentre(page, ...cells[0]);
  await page.mouse.move(first.x, first.y);
  await page.mouse.down();
  for (const cell of cells.slice(1)) {
    const p = await cellCentre(page, ...cell);
    await page.mouse.move(p.x, p.y, { steps: 8 });
  }
  await page.mouse.up();
  await nextFrame(page);
}

/** Saves a screenshot to tests/artifacts/NAME.png (the folder is ignored by git). */
export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Opens boids.html with `query` and waits until the boid page has mounted and painted its
 * read-outs. `page.errors` collects uncaught exceptions and console errors.
 */
export function openBoids(env, query = '', { width = 1400, height = 1000, init = null } = {}) {
  return openPage(env, 'boids.html', query, { app: 'boidlab', readout: 'agents', width, height, init });
}

/**
 * Opens crowd.html with `query` and waits until it has mounted and shows its read-outs.
 * `page.errors` collects uncaught exceptions and console errors.
 */
export function openCrowd(env, query = '', { width = 1400, height = 1000 } = {}) {
  return openPage(env, 'crowd.html', query, { app: 'crowdlab', readout: 'steps', width, height });
}
