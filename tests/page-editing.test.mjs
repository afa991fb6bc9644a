// Live editing in real Chromium, with the mouse and with touch: dragging from an open cell
// paints walls (a wall across the only gap gives no-path; a wall across the path changes the
// cost to what an independent Dijkstra gives on the edited grid); dragging from a wall erases;
// dragging the start or goal marker moves it; a marker dragged onto a wall stays off it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cellCentre, drag, nextFrame, open, screenshot, start, text, withBrowser } from './support/browser.mjs';
import { cheapest, readPage } from './support/dijkstra.mjs';

const grid = (page, name) => page.locator('[data-testid="grid"]').getAttribute(name);
const point = async (page, name) => (await grid(page, name)).split(',').map(Number);
const cellValue = (page, x, y) => page.evaluate(([x, y]) => window.pathlab.lab.cell(x, y), [x, y]);

async function cost(page) {
  const raw = await page.locator('[data-testid="cost"]').getAttribute('data-value');
  return raw === '' || raw === null ? null : Number(raw);
}

async function reference(page) {
  return cheapest(await readPage(page), await point(page, 'data-start'), await point(page, 'data-goal'));
}

describe('editing the grid', () => {
  const env = withBrowser();

  test('a wall dragged across the only gap leaves no path', async () => {
    // wall-gap: a wall down column 10 with its one gap at row 2.
    const page = await open(env, 'map=wall-gap');
    await page.locator('[data-testid="run"]').click();
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    assert.equal(await cellValue(page, 10, 2), 1);
    await drag(page, [[8, 2], [12, 2]]);
    for (let x = 8; x <= 12; x++) assert.equal(await cellValue(page, x, 2), 0, `(${x},2) is a wall`);
    // The search re-ran to the end at once.
    assert.equal(await text(page, 'status'), 'no-path');
    assert.equal(await text(page, 'cost'), '');
    await screenshot(page, 'edit-no-path');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a wall dragged across the path changes the cost to the edited grid\'s optimum', async () => {
    const page = await open(env, 'map=arena&start=1,45&goal=47,9');
    await page.locator('[data-testid="run"]').click();
    await nextFrame(page);
    const before = await cost(page);
    assert.ok(Math.abs(before - (await reference(page))) < 1e-9);
    // A wall from the top-left to the bottom-right blocks the straight diagonal run.
    await drag(page, [[20, 8], [24, 20], [30, 40]]);
    assert.equal(await text(page, 'status'), 'found');
    const after = await cost(page);
    assert.ok(after > before + 0.5, `the cost should grow: ${before} -> ${after}`);
    const want = await reference(page);
    assert.ok(Math.abs(after - want) < 1e-9, `page ${after}, reference on the edited grid ${want}`);
    await screenshot(page, 'edit-arena-wall');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('editing mid-search re-runs to the same step', async () => {
    const page = await open(env, 'map=wall-gap&step=15');
    await drag(page, [[13, 3], [13, 10]]);
    assert.equal(await text(page, 'expanded'), '15');
    assert.equal(await text(page, 'status'), 'searching');
    await page.close();
  });

  test('a drag that starts on a wall erases', async () => {
    const page = await open(env, 'map=wall-gap');
    await page.locator('[data-testid="run"]').click();
    await nextFrame(page);
    const before = await cost(page);
    assert.equal(await cellValue(page, 10, 7), 0);
    await drag(page, [[10, 5], [10, 9]]);
    for (let y = 5; y <= 9; y++) assert.equal(await cellValue(page, 10, y), 1, `(10,${y}) is open`);
    assert.equal(await cellValue(page, 10, 4), 0, 'cells outside the drag stay walls');
    // Start (4,7) and goal (15,7) now see each other through the opening.
    assert.equal(await cost(page), 11);
    assert.ok(before > 11);
    await page.close();
  });

  test('a drag that starts on mud with the mud brush erases it; otherwise it paints mud', async () => {
    const page = await open(env, 'map=wall-gap');
    await page.locator('[data-testid="brush"]').selectOption('3');
    await drag(page, [[2, 9], [6, 9]]);
    for (let x = 2; x <= 6; x++) assert.equal(await cellValue(page, x, 9), 3);
    await drag(page, [[3, 9], [5, 9]]);
    assert.deepEqual(
      await Promise.all([2, 3, 4, 5, 6].map((x) => cellValue(page, x, 9))),
      [3, 1, 1, 1, 3],
    );
    await page.close();
  });

  test('dragging the goal marker moves the goal, and the search follows', async () => {
    const page = await open(env, 'map=wall-gap');
    await page.locator('[data-testid="run"]').click();
    await nextFrame(page);
    assert.deepEqual(await point(page, 'data-goal'), [15, 7]);
    await drag(page, [[15, 7], [17, 10]]);
    assert.deepEqual(await point(page, 'data-goal'), [17, 10]);
    assert.equal(await cellValue(page, 17, 10), 1, 'moving a marker paints nothing');
    assert.equal(await text(page, 'status'), 'found');
    assert.ok(Math.abs((await cost(page)) - (await reference(page))) < 1e-9);
    await page.close();
  });

  test('dragging the start marker moves the start', async () => {
    const page = await open(env, 'map=wall-gap');
    await drag(page, [[4, 7], [2, 2]]);
    assert.deepEqual(await point(page, 'data-start'), [2, 2]);
    await page.close();
  });

  test('a marker dragged onto a wall stops beside it, with a message', async () => {
    const page = await open(env, 'map=wall-gap');
    await drag(page, [[15, 7], [10, 7]]);
    const goal = await point(page, 'data-goal');
    assert.deepEqual(goal, [11, 7]);
    assert.match(await text(page, 'message'), /goal cannot go on a wall/);
    await page.close();
  });

  test('touch: a finger drag paints walls too', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1000, height: 800 }, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${env.base}index.html?map=wall-gap`);
    await page.waitForFunction(() => window.pathlab && document.querySelector('[data-testid="status"]').textContent);
    const cdp = await context.newCDPSession(page);
    const points = [];
    for (let y = 3; y <= 9; y++) points.push(await cellCentre(page, 6, y));
    const touch = (type, p) => cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: p ? [{ x: p.x, y: p.y, id: 1 }] : [],
    });
    await touch('touchStart', points[0]);
    for (const p of points.slice(1)) await touch('touchMove', p);
    await touch('touchEnd', null);
    await nextFrame(page);
    for (let y = 3; y <= 9; y++) assert.equal(await cellValue(page, 6, y), 0, `(6,${y}) is a wall`);
    await context.close();
  });
});
