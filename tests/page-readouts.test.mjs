// Read-outs that say what they count, in Chromium: at the goal the closed list's heading gives
// as many expanded cells as the Expanded read-out (the goal, taken off the open list when
// found, is named apart, as the README's rule says), and a start or goal outside the grid is
// refused with the ranges of the cells the grid has (0 to w-1, 0 to h-1).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, open, start, text, withBrowser } from './support/browser.mjs';

describe('read-outs', () => {
  const env = withBrowser();

  for (const algo of ['astar', 'dijkstra', 'bfs', 'greedy', 'jps']) {
    test(`${algo} on the 5x5 example: the closed list's heading counts the expanded cells as the read-out does, then the goal`, async () => {
      const page = await open(env, `map=course-5x5&algo=${algo}`);
      await page.locator('[data-testid="run"]').click();
      await nextFrame(page);
      assert.equal(await text(page, 'status'), 'found');
      const expanded = Number(await text(page, 'expanded'));
      const heading = await page.locator('[data-testid="closed-list"] summary').textContent();
      const match = heading.match(/^Closed list: (\d+) expanded cells?, then the goal/);
      assert.ok(match, `the heading names the goal apart: ${heading}`);
      assert.equal(Number(match[1]), expanded, heading);
      // The list itself holds those cells and the goal.
      assert.equal(await page.evaluate(() => window.pathlab.lab.closedList(0).count), expanded + 1);
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }

  test('a start or goal outside a 20x12 grid is refused with the ranges 0 to 19 and 0 to 11', async () => {
    const page = await open(env, 'map=wall-gap&start=25,3&goal=1,50');
    const message = await text(page, 'message');
    assert.match(message, /\(25,3\) is outside the 20x12 grid \(x must be from 0 to 19, y from 0 to 11\)/);
    assert.match(message, /\(1,50\) is outside the 20x12 grid/);
    assert.doesNotMatch(message, /0\.\.20|0\.\.12/);
    await page.close();
  });
});
