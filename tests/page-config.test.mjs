// The page's URL configuration and embed mode, in real Chromium: values given in the URL show
// in the controls; invalid or unknown values give a visible message naming the parameter and
// fall back to defaults; nothing from the URL is inserted as HTML; embed=1 keeps only the grid
// and the step controls; the module API mount(element, config) takes the same keys.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, open, screenshot, start, text, withBrowser } from './support/browser.mjs';

const value = (page, id) => page.locator(`[data-testid="${id}"]`).inputValue();
const attr = (page, name) => page.locator('[data-testid="grid"]').getAttribute(name);

describe('page configuration', () => {
  const env = withBrowser();

  test('a URL configuration shows in the controls and on the grid', async () => {
    const page = await open(
      env,
      'map=course-5x5&algo=astar&heuristic=octile&diagonal=no-corner-cutting&costs=integer&speed=3',
    );
    assert.equal(await value(page, 'map'), 'course-5x5');
    assert.equal(await value(page, 'algo'), 'astar');
    assert.equal(await value(page, 'heuristic'), 'octile');
    assert.equal(await value(page, 'diagonal'), 'no-corner-cutting');
    assert.equal(await value(page, 'costs'), 'integer');
    assert.equal(await value(page, 'weight'), '1');
    assert.equal(await value(page, 'speed'), '3');
    // The course's file: 5 x 5, A at column 3 row 1, B at column 0 row 3.
    assert.equal(await attr(page, 'data-width'), '5');
    assert.equal(await attr(page, 'data-height'), '5');
    assert.equal(await attr(page, 'data-start'), '3,1');
    assert.equal(await attr(page, 'data-goal'), '0,3');
    assert.equal(await text(page, 'status'), 'ready');
    assert.equal(await text(page, 'expanded'), '0');
    assert.equal(await page.locator('[data-testid="message"]').isVisible(), false);
    await screenshot(page, 'config-course-5x5');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('other values of every setting are taken as given', async () => {
    const page = await open(
      env,
      'map=maze-small&algo=greedy&heuristic=manhattan&diagonal=never&costs=real&weight=1.5&start=1,3&goal=19,17&step=7',
    );
    assert.equal(await value(page, 'algo'), 'greedy');
    assert.equal(await value(page, 'heuristic'), 'manhattan');
    assert.equal(await value(page, 'diagonal'), 'never');
    assert.equal(await value(page, 'costs'), 'real');
    assert.equal(await value(page, 'weight'), '1.5');
    assert.equal(await attr(page, 'data-start'), '1,3');
    assert.equal(await attr(page, 'data-goal'), '19,17');
    assert.equal(await text(page, 'expanded'), '7');
    assert.equal(await text(page, 'status'), 'searching');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('without a heuristic, a 4-way grid gets Manhattan and an 8-way grid octile', async () => {
    const four = await open(env, 'map=wall-gap&diagonal=never');
    assert.equal(await value(four, 'heuristic'), 'manhattan');
    await four.close();
    const eight = await open(env, 'map=wall-gap');
    assert.equal(await value(eight, 'heuristic'), 'octile');
    assert.equal(await value(eight, 'diagonal'), 'no-corner-cutting');
    await eight.close();
  });

  test('invalid parameters give a message naming each, and the page still works', async () => {
    const page = await open(
      env,
      'map=arena&algo=nonsense&weight=0.5&start=999,999&diagonal=sideways&speed=99&autoplay=maybe&colour=red',
    );
    const message = await text(page, 'message');
    for (const name of ['"algo"', 'nonsense', '"weight"', '0.5', '"start"', '999', '"diagonal"', 'sideways', '"speed"', '"autoplay"', '"colour"']) {
      assert.ok(message.includes(name), `the message should name ${name}: ${message}`);
    }
    assert.ok(await page.locator('[data-testid="message"]').isVisible());
    // Fallbacks: A*, weight 1, the preset's start, the default rule.
    assert.equal(await value(page, 'algo'), 'astar');
    assert.equal(await value(page, 'weight'), '1');
    assert.equal(await value(page, 'diagonal'), 'no-corner-cutting');
    assert.equal(await attr(page, 'data-start'), '1,7');
    await page.locator('[data-testid="step"]').click();
    await nextFrame(page);
    assert.equal(await text(page, 'expanded'), '1');
    assert.equal(await text(page, 'status'), 'searching');
    await screenshot(page, 'config-invalid');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a weight that is not a number, and NaN, are refused by name', async () => {
    const page = await open(env, 'weight=NaN&step=-3');
    const message = await text(page, 'message');
    assert.match(message, /"weight".*NaN/);
    assert.match(message, /"step".*-3/);
    assert.equal(await value(page, 'weight'), '1');
    assert.equal(await text(page, 'expanded'), '0');
    await page.close();
  });

  test('every algorithm named in the contract can be chosen from the URL', async () => {
    const contract = ['bfs', 'dfs', 'dijkstra', 'greedy', 'astar', 'bi-astar', 'ida', 'jps', 'jps-plus', 'jps-plus-pruned',
      'theta', 'lazy-theta', 'astar-smoothed', 'lpa', 'dstar-lite', 'lrta', 'rta', 'crash-turn', 'explorer', 'hpa', 'template'];
    const page = await open(env, 'algo=dstar-lite');
    assert.equal(await value(page, 'algo'), 'dstar-lite');
    assert.equal(await text(page, 'message'), '');
    const offered = await page.locator('[data-testid="algo"] option').evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual([...offered].sort(), [...contract].sort());
    await page.close();
  });

  test('configuration values are shown as text, never inserted as HTML', async () => {
    const evil = encodeURIComponent('<img src=x onerror="window.pwned=1">');
    const page = await open(env, `map=${evil}&algo=${evil}&start=${evil}`);
    await nextFrame(page);
    assert.equal(await page.evaluate(() => window.pwned), undefined);
    assert.equal(await page.locator('[data-testid="message"] img').count(), 0);
    const message = await text(page, 'message');
    assert.ok(message.includes('<img'), 'the value is quoted as text');
    // The default map was shown instead.
    assert.equal(await value(page, 'map'), 'wall-gap');
    await page.close();
  });

  test('embed=1 shows the grid and the step controls only', async () => {
    const page = await open(env, 'map=u-trap&embed=1&algo=greedy&step=25', { width: 720, height: 560 });
    for (const id of ['grid', 'step', 'back', 'play', 'run', 'reset', 'status', 'expanded']) {
      assert.ok(await page.locator(`[data-testid="${id}"]`).isVisible(), `${id} should be visible`);
    }
    for (const id of ['algo', 'heuristic', 'diagonal', 'costs', 'weight', 'map', 'legend', 'cell-info', 'load-file', 'brush']) {
      assert.equal(await page.locator(`[data-testid="${id}"]`).isVisible(), false, `${id} should be hidden`);
    }
    // The grid takes the frame's width, or all the height the controls below it leave: they fit
    // in the frame, nothing scrolls.
    const box = await page.locator('[data-testid="grid"]').boundingBox();
    const fit = await page.evaluate(() => ({
      scroll: document.scrollingElement.scrollHeight - document.documentElement.clientHeight,
      slack: document.documentElement.clientHeight - document.querySelector('.pathlab').getBoundingClientRect().bottom,
    }));
    assert.ok(fit.scroll <= 1, `the frame scrolls by ${fit.scroll} px`);
    assert.ok(box.width > 600 || fit.slack < 24, `grid width ${box.width}, ${fit.slack} px left below the controls`);
    await page.locator('[data-testid="step"]').click();
    await nextFrame(page);
    assert.equal(await text(page, 'expanded'), '26');
    await screenshot(page, 'embed-u-trap');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('without embed the settings and the legend are visible', async () => {
    const page = await open(env, 'embed=0');
    for (const id of ['algo', 'heuristic', 'diagonal', 'costs', 'weight', 'map', 'legend', 'speed']) {
      assert.ok(await page.locator(`[data-testid="${id}"]`).isVisible(), `${id} should be visible`);
    }
    await page.close();
  });

  test('mount(element, config) takes the same keys as an object', async () => {
    const page = await open(env, 'map=wall-gap');
    const got = await page.evaluate(async () => {
      const { mount } = await import('./pathlab.js');
      const div = document.createElement('div');
      document.body.append(div);
      const handle = await mount(div, { map: 'course-5x5', algo: 'bfs', start: [0, 0], embed: true, weight: 7 });
      await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
      const q = (id) => div.querySelector(`[data-testid="${id}"]`);
      const result = {
        algo: q('algo').value,
        start: q('grid').dataset.start,
        width: q('grid').dataset.width,
        embed: div.classList.contains('pl-embed'),
        config: handle.config(),
      };
      handle.destroy();
      result.emptied = div.childElementCount === 0;
      return result;
    });
    assert.equal(got.algo, 'bfs');
    assert.equal(got.start, '0,0');
    assert.equal(got.width, '5');
    assert.equal(got.embed, true);
    assert.equal(got.config.weight, 7);
    assert.equal(got.config.map, 'course-5x5');
    assert.equal(got.emptied, true);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('changing a setting updates the URL, so a reload shows the same', async () => {
    const page = await open(env, 'map=course-5x5');
    await page.locator('[data-testid="algo"]').selectOption('dijkstra');
    await page.locator('[data-testid="diagonal"]').selectOption('never');
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('algo'), 'dijkstra');
    assert.equal(url.searchParams.get('diagonal'), 'never');
    assert.equal(url.searchParams.get('map'), 'course-5x5');
    await page.reload();
    await page.waitForFunction(() => window.pathlab && document.querySelector('[data-testid="status"]').textContent);
    assert.equal(await value(page, 'algo'), 'dijkstra');
    assert.equal(await value(page, 'diagonal'), 'never');
    await page.close();
  });
});
