// The searches for changing worlds and walking agents, in real Chromium: walls painted while
// LPA* or D* Lite is shown are repaired, not restarted, and the repair read-out counts it
// against a fresh A* on the edited map; the D* Lite agent walks, meets a painted wall and
// goes round it; hierarchical A* shows its clusters and stays within its bound of the optimum;
// LRTA* learns h on its way; crash and turn says so when a C-shaped obstacle traps it.
// Costs are checked against an independent Dijkstra on the grid as the page holds it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { drag, nextFrame, open, screenshot, start, text, withBrowser } from './support/browser.mjs';
import { cheapest, readPage } from './support/dijkstra.mjs';

const click = (page, id) => page.locator(`[data-testid="${id}"]`).click();
const data = (page, id, name) => page.locator(`[data-testid="${id}"]`).getAttribute(`data-${name}`);
const point = async (page, name) => (await page.locator('[data-testid="grid"]').getAttribute(name)).split(',').map(Number);

async function cost(page) {
  const raw = await data(page, 'cost', 'value');
  return raw === '' || raw === null ? null : Number(raw);
}

/** The cheapest cost between two cells on the grid as the page holds it now. */
async function reference(page, from, to) {
  return cheapest(await readPage(page), from ?? (await point(page, 'data-start')), to ?? (await point(page, 'data-goal')));
}

async function agent(page) {
  return page.evaluate(() => window.pathlab.lab.agent());
}

describe('searches for changing worlds', () => {
  const env = withBrowser();

  test('LPA* repairs after a wall is painted across its path, and counts the repair against a fresh A*', async () => {
    const page = await open(env, 'map=arena&algo=lpa');
    assert.equal(await page.locator('[data-testid="algo"]').inputValue(), 'lpa');
    await click(page, 'run');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    assert.ok(Math.abs((await cost(page)) - (await reference(page))) < 1e-9);
    assert.equal(await text(page, 'repair'), 'no edit yet');
    const expandedBefore = Number(await text(page, 'expanded'));
    const stepsBefore = await page.evaluate(() => window.pathlab.lab.steps);

    // A wall across the path near the goal: the search keeps its steps and waits to repair.
    await drag(page, [[36, 44], [44, 36]]);
    assert.equal(await text(page, 'status'), 'searching');
    assert.equal(await page.evaluate(() => window.pathlab.lab.steps), stepsBefore, 'kept its steps');
    assert.match(await text(page, 'narration'), /repairs instead of starting over/);
    assert.equal(await data(page, 'repair', 're-expanded'), '0');

    // One step of the repair, then the rest.
    await click(page, 'step');
    await nextFrame(page);
    assert.equal(await data(page, 'repair', 're-expanded'), '1');
    await click(page, 'run');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    const repaired = await cost(page);
    const want = await reference(page);
    assert.ok(Math.abs(repaired - want) < 1e-9, `repaired ${repaired}, Dijkstra on the edited map ${want}`);
    const reExpanded = Number(await data(page, 'repair', 're-expanded'));
    assert.equal(reExpanded, Number(await text(page, 'expanded')) - expandedBefore, 'the counter counts the repair');
    assert.match(await text(page, 'narration'), /Repaired/);
    await screenshot(page, 'dynamic-lpa-repaired');

    // The fresh count is what A* itself expands on the edited map.
    const fresh = Number(await data(page, 'repair', 'fresh'));
    // Choosing another algorithm re-runs to where the search stood: the end.
    await page.locator('[data-testid="algo"]').selectOption('astar');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    assert.equal(Number(await text(page, 'expanded')), fresh);
    assert.ok(Math.abs((await cost(page)) - want) < 1e-9);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('LPA* says no-path once an edit cuts the goal off, and finds it again when the wall is erased', async () => {
    const page = await open(env, 'map=wall-gap&algo=lpa');
    await click(page, 'run');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    await drag(page, [[9, 2], [11, 2]]);
    await click(page, 'run');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'no-path');
    assert.equal(await text(page, 'cost'), '');
    // Erase the gap again (a drag that starts on a wall erases).
    await drag(page, [[9, 2], [11, 2]]);
    assert.deepEqual(await page.evaluate(() => [9, 10, 11].map((x) => window.pathlab.lab.cell(x, 2))), [1, 1, 1]);
    await click(page, 'run');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    assert.ok(Math.abs((await cost(page)) - (await reference(page))) < 1e-9);
    await page.close();
  });

  test('the D* Lite agent walks, meets a wall painted in its way and goes round it', async () => {
    // wall-gap: a wall down column 10 with one gap at row 2; the agent heads through the gap.
    const page = await open(env, 'map=wall-gap&algo=dstar-lite&sensor=2');
    assert.equal(await page.locator('[data-testid="sensor"]').inputValue(), '2');
    const start = await point(page, 'data-start');
    const goal = await point(page, 'data-goal');
    const before = await reference(page);
    // Step until the agent has walked through the gap.
    for (let k = 0; k < 400; k++) {
      const a = await agent(page);
      if (a && a.at[0] >= 10) break;
      await click(page, 'step');
    }
    const walked = await agent(page);
    assert.ok(walked.at[0] >= 10 && walked.moves > 0, `the agent reached the gap: ${JSON.stringify(walked)}`);
    assert.equal(await text(page, 'repair'), 'no edit yet');
    assert.match(await text(page, 'agent'), /moves/);

    // A wall right of the gap, across the way down to the goal.
    await drag(page, [[12, 0], [12, 5]]);
    assert.equal(await text(page, 'status'), 'searching');
    await click(page, 'run');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    const end = await agent(page);
    assert.deepEqual(end.at, goal, 'the agent stands on the goal');
    assert.ok(Number(await data(page, 'repair', 're-expanded')) > 0, 'the agent repaired its plan');
    assert.match(await text(page, 'repair'), /re-expanded · fresh A\* \d+/);
    const walkedCost = await cost(page);
    assert.ok(Math.abs(walkedCost - end.travelled) < 1e-9);
    // The wall made the walk longer than the old optimum, and no walk beats the new one.
    const after = await reference(page, start, goal);
    assert.ok(walkedCost > before + 0.5, `the detour costs more: ${before} -> ${walkedCost}`);
    assert.ok(walkedCost >= after - 1e-9, `no cheaper than Dijkstra on the edited map: ${walkedCost} vs ${after}`);
    await screenshot(page, 'dynamic-dstar-detour');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the D* Lite agent stops and says so when the goal is walled off', async () => {
    const page = await open(env, 'map=wall-gap&algo=dstar-lite&sensor=0');
    await click(page, 'step');
    await drag(page, [[9, 2], [11, 2]]);
    await click(page, 'run');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'no-path');
    assert.match(await text(page, 'overlay'), /unreachable/);
    await page.close();
  });

  test('hierarchical A* shows clusters and entrances and stays near the optimum', async () => {
    const page = await open(env, 'map=AR0011SR&algo=hpa&cluster=16');
    assert.equal(await page.locator('[data-testid="cluster"]').inputValue(), '16');
    await click(page, 'run');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    const got = await cost(page);
    const best = await reference(page);
    assert.ok(got >= best - 1e-9 && got <= best * 1.5, `hierarchical ${got}, optimum ${best}`);
    assert.equal(await page.locator('[data-testid="overlay-cluster"]').count(), 1);
    assert.equal(await page.locator('[data-testid="overlay-entrance"]').count(), 1);
    await screenshot(page, 'dynamic-hpa');
    // A smaller cluster side rebuilds the abstract graph and still finds a path.
    await page.locator('[data-testid="cluster"]').fill('8');
    await page.locator('[data-testid="cluster"]').press('Enter');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    assert.ok((await cost(page)) >= best - 1e-9);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the LRTA* agent reaches the goal, learning h where the trap held it', async () => {
    const page = await open(env, 'map=u-trap&algo=lrta');
    const start = await point(page, 'data-start');
    const goal = await point(page, 'data-goal');
    await click(page, 'run');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    const end = await agent(page);
    assert.deepEqual(end.at, goal);
    assert.ok(end.revisits > 0, 'the trap made it walk back over cells');
    const walked = await cost(page);
    assert.ok(Math.abs(walked - end.travelled) < 1e-9);
    assert.ok(walked >= (await reference(page, start, goal)) - 1e-9);
    assert.match(await text(page, 'narration'), /reached the goal after \d+ moves/);
    // The learned h is shown (and painted as a heat map); inside the trap it rose above the
    // straight octile estimate, but never above the true distance to the goal.
    assert.equal(await page.evaluate(() => window.pathlab.lab.cellValuesHeat()), true);
    const map = await readPage(page);
    let raised = 0;
    for (let y = 0; y < map.height; y += 1) {
      for (let x = 0; x < map.width; x += 1) {
        const info = await page.evaluate(([x, y]) => window.pathlab.lab.cellInfo(x, y), [x, y]);
        if (!info.extra || info.extra[1] === undefined || info.extra[1] === null || info.terrain === 0) continue;
        const [dx, dy] = [Math.abs(x - goal[0]), Math.abs(y - goal[1])];
        const octile = Math.max(dx, dy) + (Math.SQRT2 - 1) * Math.min(dx, dy);
        if (info.extra[1] > octile + 1e-9) {
          raised += 1;
          const truth = cheapest(map, [x, y], goal);
          assert.ok(info.extra[1] <= truth + 1e-9, `learned h at (${x},${y}) ${info.extra[1]} > true ${truth}`);
        }
      }
    }
    assert.ok(raised > 5, `h was raised on ${raised} cells`);
    await screenshot(page, 'dynamic-lrta');
    // A deeper look-ahead is a setting of its own, and still arrives.
    await page.locator('[data-testid="lookahead"]').fill('4');
    await page.locator('[data-testid="lookahead"]').press('Enter');
    await nextFrame(page);
    assert.equal((await page.evaluate(() => window.pathlab.lab.settings())).lookahead, 4);
    assert.equal(await text(page, 'status'), 'found');
    await page.locator('[data-testid="algo"]').selectOption('rta');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    assert.deepEqual((await agent(page)).at, goal);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('crash and turn is trapped by the C-shaped obstacle with either hand, and says so', async () => {
    for (const hand of ['left', 'right']) {
      const page = await open(env, `map=c-trap&algo=crash-turn&hand=${hand}`);
      assert.equal(await page.locator('[data-testid="hand"]').inputValue(), hand);
      await click(page, 'run');
      await nextFrame(page);
      assert.equal(await text(page, 'status'), 'no-path');
      assert.match(await text(page, 'message'), /loop/);
      assert.match(await text(page, 'narration'), /loop/);
      if (hand === 'left') await screenshot(page, 'dynamic-crash-turn-trapped');
      // A planner finds the way round the same obstacle.
      await page.locator('[data-testid="algo"]').selectOption('astar');
      await nextFrame(page);
      assert.equal(await text(page, 'status'), 'found');
      await page.close();
    }
  });

  test('crash and turn reaches the goal round a wall it can follow', async () => {
    const page = await open(env, 'map=wall-gap&algo=crash-turn&hand=right');
    await click(page, 'run');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    assert.deepEqual((await agent(page)).at, await point(page, 'data-goal'));
    assert.ok((await cost(page)) >= (await reference(page)) - 1e-9);
    await page.close();
  });

  test('algorithm settings out of range are refused by name and the old value kept', async () => {
    const page = await open(env, 'algo=lpa&cluster=2&sensor=x&lookahead=99&hand=middle');
    const message = await text(page, 'message');
    for (const key of ['cluster', 'sensor', 'lookahead', 'hand']) assert.match(message, new RegExp(`"${key}"`));
    const settings = await page.evaluate(() => window.pathlab.lab.settings());
    assert.deepEqual([settings.cluster, settings.sensor, settings.lookahead, settings.hand], [10, 3, 1, 'left']);
    await page.locator('[data-testid="algo"]').selectOption('hpa');
    await page.locator('[data-testid="cluster"]').fill('500');
    await page.locator('[data-testid="cluster"]').press('Enter');
    assert.match(await text(page, 'message'), /Cluster side.*500/);
    assert.equal((await page.evaluate(() => window.pathlab.lab.settings())).cluster, 10);
    await page.close();
  });
});
