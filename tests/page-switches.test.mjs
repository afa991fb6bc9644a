// The search's switches on the grid page, in real Chromium: "build your own search"
// (algo=template) set by its "Classic settings" menu expands as many cells as the named
// algorithm; the heuristic check colours and counts the cells of the course's 5x5 example with
// the tutorial's settings (Manhattan, diagonal moves, 10/14 costs); re-opening, IDA*'s threshold
// rule and the neighbour order come from the URL; bad values give a message naming the key and
// fall back.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, open, screenshot, text, withBrowser } from './support/browser.mjs';

const value = (page, id) => page.locator(`[data-testid="${id}"]`).inputValue();

/** Runs the search from step 0 to the end and reads the expanded count. */
async function expandedAtEnd(page) {
  // A change of settings re-runs to the same step, which may be the end: start over.
  if (await page.locator('[data-testid="reset"]').isEnabled()) await page.locator('[data-testid="reset"]').click();
  await page.locator('[data-testid="run"]').click();
  await page.waitForFunction(() => ['found', 'no-path'].includes(document.querySelector('[data-testid="status"]')?.textContent ?? ''));
  await nextFrame(page);
  return Number(await text(page, 'expanded'));
}

describe('search switches', () => {
  const env = withBrowser();

  test('each classic setting of the skeleton expands as many cells as the named algorithm', async () => {
    const page = await open(env, 'map=maze-small&algo=template&heuristic=octile');
    await page.locator('[data-testid="skeleton"]').waitFor();
    // The named algorithm, then the skeleton with that classic setting, on the same map.
    for (const [classic, algo, weight] of [
      ['bfs', 'bfs', '1'], ['dfs', 'dfs', '1'], ['dijkstra', 'dijkstra', '1'], ['greedy', 'greedy', '1'],
      ['astar', 'astar', '1'], ['weighted-astar', 'astar', '1.5'],
    ]) {
      await page.selectOption('[data-testid="algo"]', algo);
      if (algo === 'astar') {
        await page.fill('[data-testid="weight"]', weight);
        await page.locator('[data-testid="weight"]').dispatchEvent('change');
      }
      const named = await expandedAtEnd(page);
      const cost = await text(page, 'cost');
      await page.selectOption('[data-testid="algo"]', 'template');
      await page.selectOption('[data-testid="classic"]', classic);
      const ours = await expandedAtEnd(page);
      assert.equal(ours, named, `${classic}: the skeleton expanded ${ours}, ${algo} ${named}`);
      assert.equal(await text(page, 'cost'), cost, classic);
      assert.ok(named > 0);
    }
    // b = 1.5 > a = 1: no promise of the cheapest path, and the page says so.
    assert.match(await text(page, 'warnings'), /do not promise the cheapest path/);
    assert.equal(await value(page, 'list'), 'priority');
    assert.equal(await value(page, 'hb'), '1.5');
    await screenshot(page, 'switches-template-1366');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the plug-ins come from the URL: a queue runs as BFS', async () => {
    const bfs = await open(env, 'map=maze-small&algo=bfs');
    const want = await expandedAtEnd(bfs);
    await bfs.close();
    const page = await open(env, 'map=maze-small&algo=template&list=queue&ga=2&hb=0.5&gcount=edges');
    assert.equal(await value(page, 'list'), 'queue');
    assert.equal(await value(page, 'gcount'), 'edges');
    assert.equal(await value(page, 'ga'), '2');
    assert.equal(await expandedAtEnd(page), want);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the heuristic check colours and counts the 5x5 with Manhattan and diagonal moves', async () => {
    const page = await open(env, 'map=course-5x5&algo=astar&heuristic=manhattan&diagonal=always&costs=integer&hcheck=1', { width: 1366, height: 768 });
    const readout = page.locator('[data-testid="hcheck-readout"]');
    await readout.waitFor();
    assert.equal(await page.locator('[data-testid="hcheck"]').isChecked(), true);
    // A* with Manhattan returns 58 here; the cheapest path costs 52 (the start's h, 50, is
    // admissible, but cells on the cheaper route look too far).
    assert.equal(await expandedAtEnd(page) > 0, true);
    assert.equal(await text(page, 'cost'), '58');
    const said = await readout.textContent();
    assert.match(said, /^\d+ cells? inadmissible, \d+ inconsistent \(manhattan, always, integer costs\)\. Worst: \(\d,\d\), h \d+ where the cheapest way to the goal costs \d+\./);
    // By hand: (2,0) is two diagonals and a straight move from the goal (0,3), 14 + 14 + 10 =
    // 38, but Manhattan says 50: 12 too high. (3,0) and (4,0) are 12 too high as well (60
    // against 48, 70 against 58); the first in row order is named.
    assert.ok(said.includes('Worst: (2,0), h 50 where the cheapest way to the goal costs 38.'), said);
    // The colour shows on the canvas: the inadmissible frame's magenta at (1,4), one diagonal
    // from the goal (h 20, true cost 14).
    const magenta = await page.evaluate(() => {
      const c = /** @type {HTMLCanvasElement} */ (document.querySelector('[data-testid="grid"]'));
      const ctx = c.getContext('2d');
      const cs = c.width / 5;
      const px = ctx.getImageData(Math.floor(1 * cs + 2), Math.floor(4 * cs + cs / 2), 1, 1).data;
      return [px[0], px[1], px[2]];
    });
    assert.ok(magenta[0] > 150 && magenta[1] < 80 && magenta[2] > 70, `expected the magenta frame, got ${magenta}`);
    await screenshot(page, 'switches-hcheck-1366');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await nextFrame(page);
    await screenshot(page, 'switches-hcheck-1920');
    // Octile is exact here: nothing flagged.
    await page.selectOption('[data-testid="heuristic"]', 'octile');
    await nextFrame(page);
    assert.match(await readout.textContent(), /^0 cells inadmissible, 0 inconsistent/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('re-opening, the threshold rule and the order come from the URL', async () => {
    const page = await open(env, 'map=course-5x5&algo=astar&reopen=1&order=wsen&threshold=plus-one');
    assert.equal(await page.locator('[data-testid="reopen"]').isChecked(), true);
    assert.equal(await value(page, 'order'), 'wsen');
    assert.equal(await value(page, 'threshold'), 'plus-one');
    assert.equal(await page.locator('[data-testid="message"]').isVisible(), false);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('bad values name their key and fall back', async () => {
    const page = await open(env, 'map=course-5x5&algo=template&list=heap&ga=-1&hb=abc&gcount=steps&reopen=2&threshold=two&order=nnes&hcheck=yes');
    const message = await text(page, 'message');
    for (const key of ['list', 'ga', 'hb', 'gcount', 'reopen', 'threshold', 'order', 'hcheck']) {
      assert.ok(message.includes(`"${key}"`), `the message should name ${key}: ${message}`);
    }
    assert.equal(await value(page, 'list'), 'priority');
    assert.equal(await value(page, 'ga'), '1');
    assert.equal(await value(page, 'order'), 'nesw');
    assert.equal(await value(page, 'threshold'), 'next');
    assert.equal(await page.locator('[data-testid="reopen"]').isChecked(), false);
    assert.equal(await expandedAtEnd(page) > 0, true);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
