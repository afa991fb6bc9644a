// The bunkers' flow field under other techniques in real Chromium: the flock, the squads and
// the course's two-bunker figure run from their URLs; the metrics table equals an independent
// replay of the same scene in Node through the wasm module (same seed, count, parameters and
// steps); the figure's agent turns east under order=nesw and south under order=wsen, as worked
// by hand (from row 1, column 1 bunker 1 is 2 east and 3 south: both first moves are as short);
// bad values get their messages and fall back. Screenshots go to tests/artifacts/crowd-flow-*.png
// (1366x768 and 1920x1080).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, openCrowd, screenshot, text, withBrowser } from './support/browser.mjs';
import { pause, replay, shownMetrics } from './support/crowd.mjs';

/** Every neighbour order, sorted (the scenes' `order` choices), written out here. */
const ORDERS = ['ensw', 'enws', 'esnw', 'eswn', 'ewns', 'ewsn', 'nesw', 'news', 'nsew', 'nswe', 'nwes', 'nwse', 'senw', 'sewn', 'snew', 'snwe', 'swen', 'swne', 'wens', 'wesn', 'wnes', 'wnse', 'wsen', 'wsne'];

/**
 * Pauses, resets to step 0 and presses Step `steps` times, so the scene is at that step exactly
 * (played, a loaded machine may run several steps a frame and pass it); returns the step the
 * scene is at, with the metrics table shown for it.
 */
async function stepTo(page, steps) {
  await pause(page);
  await page.locator('[data-testid="reset"]').click();
  for (let i = 0; i < steps; i++) await page.locator('[data-testid="step"]').click();
  const at = await page.evaluate(() => {
    window.crowdlab.app.showMetrics();
    return window.crowdlab.scene.steps;
  });
  await nextFrame(page);
  return at;
}

/** Plays on to step `steps` at least, pauses, and returns the step the scene is at. */
async function runTo(page, steps) {
  // The scene's own count, not the read-out: the read-out is refreshed on the page's schedule.
  await page.waitForFunction((n) => window.crowdlab.scene.steps >= n, steps, { timeout: 30000 });
  await pause(page);
  // Paused: the metrics table is refreshed for the step the scene is at (the page refreshes it on
  // its own schedule while playing, so it may lag the step counter by a frame).
  const at = await page.evaluate(() => {
    window.crowdlab.app.showMetrics();
    return window.crowdlab.scene.steps;
  });
  await nextFrame(page);
  return at;
}

/** The crowd page at the size of the course's figures. */
const open = (env, query, size = { width: 1366, height: 768 }) => openCrowd(env, query, size);

describe('flow field under flocks, squads and the two-bunker figure', () => {
  const env = withBrowser();

  for (const [order, move, name] of [['nesw', '1', 'east'], ['wsen', '2', 'south']]) {
    test(`the figure's agent goes west, then ${name} under order=${order}`, async () => {
      const page = await open(env, `scene=flow-fig9&order=${order}&p.speed=0.5`);
      assert.equal(await page.locator('[data-testid="param-order"]').inputValue(), String(ORDERS.indexOf(order)));
      const steps = await stepTo(page, 12);
      assert.equal(steps, 12);
      const shown = await shownMetrics(page);
      assert.deepEqual(shown, replay('flow-fig9', 1, 1, { order: ORDERS.indexOf(order), speed: 0.5 }, steps));
      assert.equal(shown.standing_bunkers, '1', 'bunker 2 fell at 0.3 s');
      assert.equal(shown.first_move, move);
      assert.equal(replay('flow-fig9', 1, 1, { order: ORDERS.indexOf(order), destroy_at: 0 }, 4).first_move, '3', 'west first');
      // The explanation gives the figure's source and numbers, worked here by hand: from row 1,
      // column 1, bunker 2 (row 1, column 0) is 1 move west and bunker 1 (row 4, column 3) is
      // |3 - 1| + |4 - 1| = 5 moves, 2 east and 3 south; nesw tries E before S, wsen S before E.
      const note = await text(page, 'scene-explain');
      assert.match(note, /Path-Finding and Crowd Management/);
      assert.match(note, /Figure 9/);
      assert.match(note, /1 move west/);
      assert.match(note, /5 \(2 east and 3 south\)/);
      assert.match(note, /N, E, S, W \(order nesw\) the map says east/);
      assert.match(note, /W, S, E, N \(order wsen\) it says south/);
      if (order === 'wsen') await screenshot(page, 'crowd-flow-fig9-1366');
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }

  for (const [scene, agents, size] of [['flow-flock', 400, [1920, 1080]], ['flow-squads', 54, [1366, 768]]]) {
    test(`${scene} runs from its URL, a bunker falls on script and the table equals a replay`, async () => {
      const page = await open(env, `scene=${scene}&agents=${agents}&seed=3&p.destroy_at=1&p.map=bunker-1`, { width: size[0], height: size[1] });
      const steps = await runTo(page, 40);
      const shown = await shownMetrics(page);
      assert.deepEqual(shown, replay(scene, agents, 3, { destroy_at: 1, map: 1 }, steps), `the table at step ${steps}`);
      assert.equal(shown.standing_bunkers, '2');
      assert.ok(Number(shown.baked_bytes) > 0);
      await screenshot(page, `${scene}-${size[0]}`.replace('flow-', 'crowd-flow-'));
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }

  test('bad values get their own messages and fall back', async () => {
    const page = await open(env, 'scene=flow-flock&order=nesx&p.speed=99&p.destroy_at=nan&p.map=bunker-9');
    const said = await text(page, 'message');
    assert.match(said, /Parameter "order": expected the letters n, e, s and w each once \(such as nesw or wsen\), got "nesx"; using nesw\./);
    assert.match(said, /Parameter "p.speed": speed: 99 is outside 0.5 to 6; using 6/);
    assert.match(said, /Parameter "p.destroy_at": expected a number or a choice's name, got "nan"/);
    assert.match(said, /Parameter "p.map": "bunker-9" is not one of all, bunker-1, bunker-2, bunker-3; keeping all\./);
    assert.equal(await page.locator('[data-testid="param-order"]').inputValue(), String(ORDERS.indexOf('nesw')));
    const street = await open(env, 'scene=street&order=wsen');
    assert.match(await text(street, 'message'), /Parameter "order": the street scene has no parameter "order"/);
    assert.deepEqual([...page.errors, ...street.errors], []);
    await page.close();
    await street.close();
  });
});
