// The path-finding page laid out for teaching (www/pathlab.js, www/style.css, www/present.js,
// www/panels.js), checked in Chromium at the three screens a lecturer meets, 1366 x 768,
// 1440 x 900 and 1920 x 1080:
// - the grid, the step controls, the read-outs, the pseudocode, the open list, the Cell and
//   Last step panels and the legend are all inside the window at once, and the page does not
//   scroll (bounding boxes against the window);
// - Generate and Resize leave the grid where it is;
// - panels fold to their headings and stay folded for the visit (a reload), not for a new one;
// - presentation mode (present=1, or the Present button) makes the grid and the text larger and
//   keeps the panels in the window;
// - the open list's "cheaper way found" row is scrolled into sight inside the list's box at
//   every step that finds one, and a click on a cell in the list keeps the keyboard there.
// Screenshots of each size go to tests/artifacts/layout-*.png.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, open, screenshot, withBrowser } from './support/browser.mjs';

const SIZES = [[1366, 768], [1440, 900], [1920, 1080]];

/** What a class watches, by selector: each must be inside the window. */
const PANELS = {
  grid: '[data-testid="grid"]',
  'step controls': '.pl-transport',
  'read-outs': '.pl-readouts',
  pseudocode: '.pl-code-box',
  'open list': '.pl-open-box .pl-table-wrap',
  cell: '[data-testid="cell-info"]',
  'last step': '[data-testid="narration"]',
  legend: '[data-testid="legend"]',
};

/** Each panel's box, the window's size and the page's scroll size. */
function measure(page) {
  return page.evaluate((panels) => {
    const boxes = {};
    for (const [name, selector] of Object.entries(panels)) {
      const e = document.querySelector(selector);
      boxes[name] = e ? e.getBoundingClientRect().toJSON() : null;
    }
    const wrap = document.querySelector('.pl-open-box .pl-table-wrap');
    const head = wrap?.querySelector('thead')?.getBoundingClientRect().height ?? 0;
    const row = wrap?.querySelector('tbody tr')?.getBoundingClientRect().height ?? 0;
    return {
      boxes,
      openRoom: wrap ? wrap.clientHeight - head - row : 0,
      width: window.innerWidth,
      height: window.innerHeight,
      scrollWidth: document.documentElement.scrollWidth,
      scrollHeight: document.documentElement.scrollHeight,
      font: parseFloat(getComputedStyle(document.documentElement).fontSize),
    };
  }, PANELS);
}

function assertAllInside(m, when) {
  for (const [name, b] of Object.entries(m.boxes)) {
    assert.ok(b, `${when}: ${name} is on the page`);
    assert.ok(b.width > 0 && b.height >= 12, `${when}: ${name} is shown (${b.width} x ${b.height})`);
    assert.ok(b.top >= 0 && b.left >= 0, `${when}: ${name} starts inside the window (${b.left}, ${b.top})`);
    assert.ok(b.bottom <= m.height + 0.5 && b.right <= m.width + 0.5, `${when}: ${name} ends inside the ${m.width} x ${m.height} window (${b.right}, ${b.bottom})`);
  }
  assert.ok(m.scrollHeight <= m.height && m.scrollWidth <= m.width, `${when}: the page does not scroll (${m.scrollWidth} x ${m.scrollHeight})`);
  assert.ok(m.openRoom >= 0, `${when}: the open list shows its heading and a whole row`);
  assert.ok(m.boxes.pseudocode.height >= 60, `${when}: the pseudocode shows a few lines (${m.boxes.pseudocode.height} px)`);
}

describe('the page laid out for teaching', () => {
  const env = withBrowser();

  for (const [width, height] of SIZES) {
    test(`at ${width} x ${height} the grid, controls, read-outs and panels are in the window together`, async () => {
      for (const query of ['map=wall-gap&algo=astar&step=10', 'map=AR0011SR&algo=astar&step=500', 'map=course-5x5&algo=jps&step=2']) {
        const page = await open(env, query, { width, height });
        await nextFrame(page);
        // Point at a cell, as a lecturer does: the Cell panel fills in.
        const grid = await page.locator('[data-testid="grid"]').boundingBox();
        await page.mouse.move(grid.x + grid.width * 0.3, grid.y + grid.height * 0.4);
        await page.locator('[data-testid="step"]').click();
        await nextFrame(page);
        assertAllInside(await measure(page), `${query} at ${width} x ${height}`);
        if (query.startsWith('map=wall-gap')) await screenshot(page, `layout-${width}x${height}`);
        assert.deepEqual(page.errors, []);
        await page.close();
      }
    });
  }

  test('Generate and Resize leave the grid in the window', async () => {
    const page = await open(env, 'map=wall-gap', { width: 1440, height: 900 });
    await nextFrame(page);
    const press = async (id) => {
      await page.locator(`[data-testid="${id}"]`).click();
      await nextFrame(page);
      const m = await measure(page);
      assert.equal(await page.evaluate(() => window.scrollY), 0, `${id}: the page did not scroll`);
      assertAllInside(m, `after ${id}`);
    };
    await page.locator('[data-testid="generator"]').selectOption('maze');
    await press('generate');
    await page.locator('[data-testid="width"]').fill('61');
    await page.locator('[data-testid="height"]').fill('41');
    await press('resize');
    await press('generate');
    assert.equal(await page.locator('[data-testid="grid"]').getAttribute('data-width'), '61');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('panels fold to their headings, and stay folded for the visit only', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${env.base}index.html?map=wall-gap&algo=astar&step=5`);
    await page.waitForFunction(() => window.pathlab && document.querySelector('[data-testid="fold-legend"]'));
    const legendShown = () => page.locator('[data-testid="legend"]').isVisible();
    assert.equal(await legendShown(), true);
    const fold = page.locator('[data-testid="fold-legend"]');
    assert.equal(await fold.getAttribute('aria-expanded'), 'true');
    await fold.click();
    assert.equal(await legendShown(), false, 'folded');
    assert.equal(await fold.getAttribute('aria-expanded'), 'false');
    const before = await page.locator('.pl-code-box').boundingBox();
    await page.locator('[data-testid="fold-cell"]').click();
    await nextFrame(page);
    const after = await page.locator('.pl-code-box').boundingBox();
    assert.ok(after.y < before.y, 'the panels under a folded one move up');
    await page.reload();
    await page.waitForFunction(() => window.pathlab && document.querySelector('[data-testid="fold-legend"]'));
    assert.equal(await legendShown(), false, 'still folded after a reload');
    assert.equal(await page.locator('[data-testid="cell-info"]').isVisible(), false);
    await page.locator('[data-testid="fold-legend"]').click();
    assert.equal(await legendShown(), true, 'shown again');
    // A new visit (a new tab) starts with every panel open.
    const fresh = await context.newPage();
    await fresh.goto(`${env.base}index.html?map=wall-gap`);
    await fresh.waitForFunction(() => window.pathlab && document.querySelector('[data-testid="fold-cell"]'));
    assert.equal(await fresh.locator('[data-testid="cell-info"]').isVisible(), true);
    await context.close();
  });

  for (const [width, height] of [[1366, 768], [1920, 1080]]) {
    test(`presentation mode at ${width} x ${height}: a larger grid and text, the panels still in the window`, async () => {
      const plain = await open(env, 'map=wall-gap&algo=astar&step=10', { width, height });
      await nextFrame(plain);
      const usual = await measure(plain);
      await plain.close();
      const page = await open(env, 'map=wall-gap&algo=astar&step=10&present=1', { width, height });
      await nextFrame(page);
      await nextFrame(page);
      const shown = await measure(page);
      const area = (b) => b.width * b.height;
      assert.ok(area(shown.boxes.grid) > 1.1 * area(usual.boxes.grid), `the grid grows: ${usual.boxes.grid.width} -> ${shown.boxes.grid.width} px wide`);
      assert.ok(shown.font > usual.font, `the text grows: ${usual.font} -> ${shown.font} px`);
      assertAllInside(shown, `present=1 at ${width} x ${height}`);
      assert.equal(await page.locator('[data-testid="present"]').getAttribute('aria-pressed'), 'true');
      await screenshot(page, `layout-present-${width}x${height}`);
      // The button leaves it, and the address says so.
      await page.locator('[data-testid="present"]').click();
      await nextFrame(page);
      await nextFrame(page);
      assert.ok(!page.url().includes('present=1'), page.url());
      const left = await measure(page);
      assert.ok(Math.abs(area(left.boxes.grid) - area(usual.boxes.grid)) < 0.02 * area(usual.boxes.grid), 'back to the usual size');
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }

  test('the open list scrolls a cheaper way found into sight, and a click on a cell keeps the keyboard there', async () => {
    const page = await open(env, 'map=wall-gap&algo=astar', { width: 1366, height: 768 });
    await nextFrame(page);
    let farDown = 0;
    let seen = 0;
    for (let k = 0; k < 60; k++) {
      await page.locator('[data-testid="step"]').click();
      await nextFrame(page);
      const m = await page.evaluate(() => {
        const wrap = document.querySelector('.pl-open-box .pl-table-wrap');
        const rows = [...wrap.querySelectorAll('tbody tr')];
        const i = rows.findIndex((r) => r.classList.contains('pl-improved'));
        if (i < 0) return null;
        const b = wrap.getBoundingClientRect();
        const head = wrap.querySelector('thead').getBoundingClientRect().height;
        const r = rows[i].getBoundingClientRect();
        // How many rows fit the box: a row further down needs the box scrolled.
        const fit = Math.floor((b.height - head) / rows[0].getBoundingClientRect().height);
        return { index: i, fit, top: r.top - b.top - head, bottom: b.bottom - r.bottom };
      });
      if (!m) continue;
      seen++;
      if (m.index >= m.fit) farDown++;
      assert.ok(m.top >= -1 && m.bottom >= -1, `step ${k + 1}: the improved row ${m.index + 1} is in the box (${m.top}, ${m.bottom})`);
    }
    assert.ok(seen > 0 && farDown > 0, `steps with a cheaper way: ${seen}, below the box's first rows: ${farDown}`);
    // A click on a cell in the list: the keyboard stays on that cell's button, rebuilt or not.
    const button = page.locator('[data-testid="open-list"] tbody tr').nth(2).locator('button');
    const row = await page.locator('[data-testid="open-list"] tbody tr').nth(2).evaluate((r) => [r.dataset.x, r.dataset.y]);
    await button.click();
    await nextFrame(page);
    const focus = await page.evaluate(() => {
      const e = document.activeElement;
      const tr = e?.closest('tr');
      return { tag: e?.tagName, cell: tr ? [tr.dataset.x, tr.dataset.y] : null };
    });
    assert.deepEqual(focus, { tag: 'BUTTON', cell: row });
    assert.ok((await page.locator('[data-testid="cell-info"]').textContent()).startsWith(`cell(${row[0]},${row[1]})`));
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
