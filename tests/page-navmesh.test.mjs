// The navmesh and corner-graph views in real Chromium: switching from the grid page to the
// navmesh keeps the map and its ends; A* steps over polygons and then the funnel steps portal
// by portal (apex and legs named); a wall painted across the corridor rebuilds the mesh (its
// polygon count changes) and lengthens the path; the corner view on the tutorial's 3x3 example
// gives the length worked by hand (2·sqrt(5), corner to corner round the block), and the
// compare table lists the grid's waypoints at the tutorial's 4 moves; bad input (every cell a
// wall, the start moved into a wall) is named with the map kept. On the grid page Theta* and A*
// with smoothing show the exact any-angle optimum (hand-worked on the tutorial's map) and how
// much longer they are. Screenshots at 1440x900 and 1920x1080 go to tests/artifacts/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { drag, nextFrame, open, screenshot, start, text, withBrowser } from './support/browser.mjs';

async function click(page, id, times = 1) {
  for (let i = 0; i < times; i++) await page.locator(`[data-testid="${id}"]`).click();
  await nextFrame(page);
}

async function cost(page) {
  const raw = await page.locator('[data-testid="cost"]').getAttribute('data-value');
  return raw === '' ? null : Number(raw);
}

async function polygons(page) {
  return Number(await page.locator('[data-testid="mesh-info"]').getAttribute('data-polygons'));
}

/** Waits for the navmesh or corner view to be up (its phase read-out is filled). */
async function viewReady(page, space) {
  await page.waitForFunction(
    (s) => document.querySelector(`canvas[data-space="${s}"]`) && document.querySelector('[data-testid="phase"]')?.textContent !== '',
    space,
    { timeout: 15000 },
  );
  await nextFrame(page);
}

/** Steps until the phase read-out says `phase`; returns the steps taken. */
async function stepUntil(page, phase, limit = 400) {
  for (let k = 0; k < limit; k++) {
    if ((await text(page, 'phase')) === phase) return k;
    await click(page, 'step');
  }
  throw new Error(`phase ${phase} not reached in ${limit} steps`);
}

describe('navmesh and corner views', () => {
  const env = withBrowser();

  test('switching to the navmesh keeps the map; the funnel steps; a wall across the corridor changes mesh and path', async () => {
    const page = await open(env, 'map=wall-gap', { width: 1440, height: 900 });
    const title = await text(page, 'map-title');
    await page.locator('[data-testid="space"]').selectOption('navmesh');
    await viewReady(page, 'navmesh');
    assert.equal(await text(page, 'map-title'), title);
    // The wall-gap preset's ends: A at cell (4, 7), B at (15, 7).
    assert.equal(await page.locator('[data-testid="grid"]').getAttribute('data-start'), '(4.5, 7.5)');
    assert.equal(await page.locator('[data-testid="grid"]').getAttribute('data-goal'), '(15.5, 7.5)');
    const before = await polygons(page);
    assert.ok(before >= 2, `a wall with a gap needs several convex polygons, got ${before}`);

    // A* over the polygons, one per step, then the funnel one portal per step.
    await click(page, 'step');
    assert.equal(await text(page, 'phase'), 'search');
    assert.equal(await text(page, 'expanded'), '1');
    await stepUntil(page, 'funnel');
    assert.match(await text(page, 'narration'), /Corridor found: \d+ polygons/);
    await click(page, 'step');
    assert.match(await text(page, 'narration'), /tested (portal 1 of \d+|the goal)\. Apex \(4\.5, 7\.5\), left leg to .*, right leg to /);
    await screenshot(page, 'navmesh-funnel-1440x900');
    await click(page, 'back');
    assert.equal(await text(page, 'phase'), 'funnel');
    await click(page, 'run');
    assert.equal(await text(page, 'status'), 'found');
    const first = await cost(page);
    const straight = 11;
    assert.ok(first > straight, `the wall is in the way: ${first} > ${straight}`);
    const optimum = Number(await page.locator('[data-testid="optimum"]').getAttribute('data-value'));
    assert.ok(optimum <= first + 1e-9 && optimum > straight, `${optimum} between ${straight} and ${first}`);
    assert.match(await text(page, 'longer'), /^\d+\.\d %$/);

    // A wall from (3, 5) to (9, 5) across the way to the gap: the path goes round its end.
    await page.locator('[data-testid="nav-tool"]').selectOption('wall');
    await drag(page, [[3, 5], [9, 5]]);
    const after = await polygons(page);
    assert.notEqual(after, before, 'the mesh was built again');
    assert.match(await text(page, 'mesh-info'), new RegExp(`^${after} polygons, \\d+ portals; built in \\d+\\.\\d ms \\(triangulated\\)\\.$`));
    // A map this small has few boundary corners: the core triangulates it.
    assert.equal(await page.locator('[data-testid="mesh-info"]').getAttribute('data-build'), 'triangulated');
    await click(page, 'run');
    assert.equal(await text(page, 'status'), 'found');
    const second = await cost(page);
    assert.ok(second > first + 0.5, `the detour is longer: ${second} against ${first}`);
    await screenshot(page, 'navmesh-detour-1440x900');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the corner view on the tutorial example gives the hand-worked 2·sqrt(5); compare lists the 4 grid moves', async () => {
    const page = await open(env, 'space=corners&map=tutorial-3x3', { width: 1920, height: 1080 });
    await viewReady(page, 'corners');
    assert.equal(await page.locator('[data-testid="grid"]').getAttribute('data-start'), '(0, 3)');
    assert.equal(await page.locator('[data-testid="grid"]').getAttribute('data-goal'), '(3, 0)');
    assert.match(await text(page, 'nav-explain'), /Document 000/);
    await click(page, 'run');
    assert.equal(await text(page, 'status'), 'found');
    // Corner (0, 3) to a corner of the block, (1, 1) or (2, 2), to (3, 0): two legs of sqrt(1 + 4).
    const byHand = 2 * Math.sqrt(5);
    assert.ok(Math.abs((await cost(page)) - byHand) < 1e-3, `${await cost(page)} against ${byHand}`);
    assert.equal(await text(page, 'longer'), '0.0 %');
    // As in the tutorial's figure, by the block's top-left corner.
    assert.equal(await page.locator('[data-testid="grid"]').getAttribute('data-path'), '(0, 3) (1, 1) (3, 0)');
    await click(page, 'nav-compare');
    const rows = page.locator('[data-testid="nav-compare-table"] tbody tr');
    assert.equal(await rows.count(), 4);
    const length = async (m) => Number(await page.locator(`[data-testid="nav-compare-table"] tr[data-method="${m}"]`).getAttribute('data-length'));
    // The waypoints run between the cells at the corners: A* round the block, 4 straight moves.
    assert.equal(await length('grid-astar'), 4);
    for (const m of ['corners', 'navmesh', 'visibility']) assert.ok(Math.abs((await length(m)) - byHand) < 1e-9, m);
    await screenshot(page, 'corners-tutorial-1920x1080');

    // The same example on the navmesh at 1920x1080: the funnel reaches the same length.
    await page.locator('[data-testid="space"]').selectOption('navmesh');
    await viewReady(page, 'navmesh');
    assert.equal(await page.locator('[data-testid="grid"]').getAttribute('data-start'), '(0, 3)');
    await stepUntil(page, 'funnel');
    await click(page, 'step');
    await screenshot(page, 'navmesh-tutorial-1920x1080');
    await click(page, 'run');
    assert.ok(Math.abs((await cost(page)) - byHand) < 1e-3);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the grid page draws the exact any-angle optimum under Theta* and A* with smoothing, with the percentage', async () => {
    const page = await open(env, 'map=tutorial-3x3&algo=theta', { width: 1440, height: 900 });
    await click(page, 'run');
    const note = page.locator('[data-testid="any-angle-optimum"]');
    await note.waitFor({ state: 'visible', timeout: 15000 });
    // Cell centres (0.5, 2.5) to (2.5, 0.5) round the block's corner: 2·sqrt(0.5² + 1.5²) cells,
    // times 10 under the preset's 10/14 costs.
    const byHand = 10 * 2 * Math.sqrt(2.5);
    assert.ok(Math.abs(Number(await note.getAttribute('data-optimal')) - byHand) < 1e-9);
    assert.ok(Number(await note.getAttribute('data-longer')) >= 0);
    assert.match(await note.textContent(), /^Optimal any-angle: 31\.62 .* This path is \d+\.\d% longer\.$/);
    await screenshot(page, 'grid-theta-optimum-1440x900');
    await page.close();
    const smoothed = await open(env, 'map=wall-gap&algo=astar-smoothed', { width: 1920, height: 1080 });
    await click(smoothed, 'run');
    const line = smoothed.locator('[data-testid="any-angle-optimum"]');
    await line.waitFor({ state: 'visible', timeout: 15000 });
    const longer = Number(await line.getAttribute('data-longer'));
    assert.ok(longer >= 0, `smoothing is never shorter than the optimum: ${longer}`);
    await screenshot(smoothed, 'grid-smoothed-optimum-1920x1080');
    assert.deepEqual(smoothed.errors, []);
    await smoothed.close();
  });

  test('a map with no free cell and a start in a wall are named, the map kept, nothing thrown', async () => {
    const page = await open(env, 'space=navmesh&map=tutorial-3x3', { width: 1440, height: 900 });
    await viewReady(page, 'navmesh');
    // The start onto the wall in the middle.
    await page.locator('[data-testid="nav-tool"]').selectOption('start');
    const canvas = page.locator('[data-testid="grid"]');
    const box = await canvas.boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await nextFrame(page);
    assert.match(await text(page, 'nav-problem'), /the start \(1\.5, 1\.5\) is in a wall/);
    assert.equal(await text(page, 'status'), 'no-path');
    assert.match(await text(page, 'message'), /start \(1\.5, 1\.5\) is in a wall; the map is kept/);
    // Every cell a wall.
    await page.locator('[data-testid="nav-tool"]').selectOption('wall');
    await drag(page, [[0, 0], [2, 0], [2, 1], [0, 1], [0, 2], [2, 2]]);
    assert.match(await text(page, 'nav-problem'), /no free cell/);
    assert.equal(await polygons(page), 0);
    assert.ok(await page.locator('[data-testid="step"]').isDisabled());
    await page.locator('[data-testid="grid"]').focus();
    await page.keyboard.press('ArrowRight');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'no-path');
    // Clearing the walls brings the mesh back, with the start still where it was put.
    await click(page, 'clear');
    assert.equal(await polygons(page), 1);
    await click(page, 'run');
    assert.equal(await text(page, 'status'), 'found');
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
