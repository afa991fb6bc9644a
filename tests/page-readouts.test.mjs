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

  test('bidirectional A* on the 5x5 example: the goal is expanded by the backward search, so the heading counts it among the cells', async () => {
    const page = await open(env, 'map=course-5x5&algo=bi-astar');
    await page.locator('[data-testid="run"]').click();
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    const count = await page.evaluate(() => window.pathlab.lab.closedList(0).count);
    const heading = await page.locator('[data-testid="closed-list"] summary').textContent();
    assert.equal(heading, `Closed list: ${count} cells`);
    assert.doesNotMatch(heading, /then the goal/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  for (const [algo, k] of [['astar', 3], ['bfs', 7], ['dijkstra', 12]]) {
    test(`a step=${k} link on ${algo} describes step ${k} in Last step as stepping there by hand does`, async () => {
      const linked = await open(env, `map=course-5x5&algo=${algo}&step=${k}`);
      await nextFrame(linked);
      const byHand = await open(env, `map=course-5x5&algo=${algo}`);
      for (let i = 0; i < k; i++) await byHand.locator('[data-testid="step"]').click();
      await nextFrame(byHand);
      const told = await text(byHand, 'narration');
      assert.match(told, new RegExp(`^Step ${k}: expanded \\(\\d+,\\d+\\)`), told);
      assert.equal(await text(linked, 'narration'), told);
      assert.equal(await text(linked, 'expanded'), await text(byHand, 'expanded'));
      assert.deepEqual(linked.errors, []);
      await linked.close();
      await byHand.close();
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
