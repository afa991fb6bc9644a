// The boid page in real Chromium: every preset runs from its URL and its read-outs move, the
// controls step, pause and reset reproducibly, agents can be selected, added and removed,
// walls painted, weights changed, the worker thread's copy of the world stays the page's world
// through all of it (and the page steps on its own without workers), bad URL values give
// messages, and embed mode shows only the world. Screenshots go to tests/artifacts/boids-*.png.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, openBoids, screenshot, text, withBrowser } from './support/browser.mjs';

const SCENARIOS = ['flock', 'hawks-and-pigeons', 'path-following', 'leader-following', 'wall-following', 'obstacle-field'];

/** Reads a numeric read-out. */
async function number(page, id) {
  const t = await text(page, id);
  assert.match(t, /^-?\d+(\.\d+)?$/, `${id} is a number: ${JSON.stringify(t)}`);
  return Number(t);
}

/** Waits until the `fps` read-out shows a positive number. */
async function fpsShows(page) {
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="fps"]')?.textContent) > 0, null, {
    timeout: 15000,
  });
}

/** Positions of every agent, read from the wasm memory views the page paints from. */
/** Waits until the world has taken `n` more steps than it has now (a timeout fails the test). */
async function stepsMore(page, n) {
  const now = await page.evaluate(() => window.boidlab.boids.steps);
  await page.waitForFunction((target) => window.boidlab.boids.steps >= target, now + n, { timeout: 20000 });
}

function positions(page) {
  return page.evaluate(() => {
    const v = window.boidlab.app.views();
    return Array.from(v.x).concat(Array.from(v.y));
  });
}

/** The world canvas's box, scrolled into view first (the panel's controls scroll the page). */
async function worldBox(page) {
  const canvas = page.locator('[data-testid="world"]');
  await canvas.scrollIntoViewIfNeeded();
  return canvas.boundingBox();
}

/** True when every agent's centre is in an open cell inside the world. */
function allInOpenCells(page) {
  return page.evaluate(() => {
    const b = window.boidlab.boids;
    const v = window.boidlab.app.views();
    for (let i = 0; i < v.count; i++) {
      const x = v.x[i];
      const y = v.y[i];
      if (!Number.isFinite(x) || !Number.isFinite(y) || x < 0 || y < 0 || x > b.width || y > b.height) return false;
      if (b.cell(Math.floor(x / b.cellSize), Math.floor(y / b.cellSize)) === 0) return false;
    }
    return true;
  });
}

describe('boid page', () => {
  const env = withBrowser();

  test('the default page runs the flock and its read-outs update', async () => {
    const page = await openBoids(env);
    assert.equal(await page.locator('[data-testid="scenario"]').inputValue(), 'flock');
    assert.equal(await number(page, 'agents'), 500);
    await fpsShows(page);
    const before = await positions(page);
    await stepsMore(page, 5);
    assert.notDeepEqual(await positions(page), before, 'agents move while playing');
    assert.ok((await number(page, 'step-ms')) > 0);
    assert.equal(await page.locator('[data-testid="play"]').getAttribute('aria-pressed'), 'true');
    await screenshot(page, 'boids-flock');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  for (const scenario of SCENARIOS) {
    test(`the ${scenario} preset runs from its URL`, async () => {
      const page = await openBoids(env, `scenario=${scenario}&agents=120&seed=5`);
      assert.equal(await page.locator('[data-testid="scenario"]').inputValue(), scenario);
      assert.equal(await number(page, 'agents'), 120);
      assert.equal(await page.locator('[data-testid="seed"]').inputValue(), '5');
      await fpsShows(page);
      // A second and a half of play at 60 steps a second.
      await stepsMore(page, 90);
      assert.ok(await allInOpenCells(page), 'no agent in a wall or outside the world');
      assert.equal(await text(page, 'message'), '');
      await screenshot(page, `boids-${scenario}`);
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }

  test('pause, step and reset: one step at a time, and the same seed replays', async () => {
    const page = await openBoids(env, 'scenario=hawks-and-pigeons&agents=200&seed=11');
    await page.locator('[data-testid="play"]').click();
    assert.equal(await page.locator('[data-testid="play"]').getAttribute('aria-pressed'), 'false');
    await page.locator('[data-testid="reset"]').click();
    await nextFrame(page);
    const fresh = await positions(page);
    for (let k = 0; k < 5; k++) await page.locator('[data-testid="step"]').click();
    await nextFrame(page);
    assert.equal(await page.evaluate(() => window.boidlab.boids.steps), 5);
    const five = await positions(page);
    assert.notDeepEqual(five, fresh);
    await page.locator('[data-testid="reset"]').click();
    await nextFrame(page);
    assert.deepEqual(await positions(page), fresh, 'reset rebuilds the same world');
    for (let k = 0; k < 5; k++) await page.locator('[data-testid="step"]').click();
    await nextFrame(page);
    assert.deepEqual(await positions(page), five, 'and the same steps give the same positions');
    // Another seed is another world.
    await page.locator('[data-testid="seed"]').fill('12');
    await page.locator('[data-testid="seed"]').press('Enter');
    await nextFrame(page);
    assert.notDeepEqual(await positions(page), fresh);
    assert.match(page.url(), /seed=12/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('clicking an agent shows its neighbourhood, forces and context map', async () => {
    const page = await openBoids(env, 'scenario=flock&agents=150&seed=3');
    await stepsMore(page, 60);
    await page.locator('[data-testid="play"]').click();
    await nextFrame(page);
    // Click the agent with the most neighbours, at its place on the canvas.
    const at = await page.evaluate(() => {
      const { app, boids } = window.boidlab;
      let i = 0;
      let most = -1;
      for (let j = 0; j < boids.count; j++) {
        const n = boids.inspect(j).neighbours.length;
        if (n > most) [i, most] = [j, n];
      }
      const v = app.views();
      const r = app.canvas.getBoundingClientRect();
      return { i, x: r.left + (v.x[i] / boids.width) * r.width, y: r.top + (v.y[i] / boids.height) * r.height };
    });
    await page.mouse.click(at.x, at.y);
    await nextFrame(page);
    const inspector = await text(page, 'inspector');
    assert.match(inspector, new RegExp(`Agent ${at.i} \\(boids\\)`));
    for (const name of ['separation', 'alignment', 'cohesion', 'combined']) assert.ok(inspector.includes(name), name);
    const view = await page.evaluate((i) => window.boidlab.boids.inspect(i), at.i);
    assert.ok(view.neighbours.length > 0);
    assert.equal(view.context.slots, 12);
    assert.equal(view.context.interest.length, 12);
    await screenshot(page, 'boids-inspect');
    // Context steering and priority change how the same forces combine.
    await page.locator('[data-testid="combine"]').selectOption('context');
    await page.locator('[data-testid="step"]').click();
    assert.match(await text(page, 'inspector'), /Context steering/);
    await page.locator('[data-testid="combine"]').selectOption('priority');
    await page.locator('[data-testid="step"]').click();
    assert.match(await text(page, 'inspector'), /Priority/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('painting walls on the grid; agents never end up inside them', async () => {
    const page = await openBoids(env, 'scenario=path-following&agents=150&seed=2');
    await page.locator('[data-testid="tool-walls"]').check();
    const box = await worldBox(page);
    // Drag a wall down the left side of the ring road, across the loop.
    await page.mouse.move(box.x + box.width * 0.12, box.y + box.height * 0.01);
    await page.mouse.down();
    // On past the bottom edge: the canvas keeps the pointer, and cells off the grid are skipped.
    await page.mouse.move(box.x + box.width * 0.12, box.y + box.height + 20, { steps: 30 });
    await page.mouse.up();
    await nextFrame(page);
    const walled = await page.evaluate(() => {
      const b = window.boidlab.boids;
      const cx = Math.floor(b.gridWidth * 0.12);
      let count = 0;
      for (let y = 0; y < b.gridHeight; y++) if (b.cell(cx, y) === 0) count++;
      return { count, rows: b.gridHeight, error: b.pathError };
    });
    assert.equal(walled.count, walled.rows, `the column is walled: ${JSON.stringify(walled)}`);
    // The loop is cut, so the path cannot be planned: a message says so.
    assert.match(await text(page, 'message'), /Path: no path/);
    await stepsMore(page, 60);
    assert.ok(await allInOpenCells(page));
    await screenshot(page, 'boids-painted-walls');
    // Clearing the walls plans the path again.
    await page.locator('[data-testid="clear-walls"]').click();
    await nextFrame(page);
    assert.equal(await page.evaluate(() => window.boidlab.boids.pathError), undefined);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('sliders, add and remove, and the goal tool', async () => {
    const page = await openBoids(env, 'scenario=hawks-and-pigeons&agents=100&seed=1');
    const slider = page.locator('[data-testid="param-weight.cohesion"]');
    await slider.fill('4');
    await nextFrame(page);
    assert.equal(await page.evaluate(() => window.boidlab.boids.param(0, 'weight.cohesion')), 4);
    // Other groups than the weights open on demand.
    await page.locator('summary', { hasText: /^Separation$/ }).click();
    await page.locator('[data-testid="param-separation.radius"]').fill('12.5');
    assert.equal(await page.evaluate(() => window.boidlab.boids.param(0, 'separation.radius')), 12.5);
    // Hawks (species 1) have their own settings.
    await page.locator('[data-testid="species"]').selectOption('1');
    assert.equal(await slider.inputValue(), '0');
    await page.locator('[data-testid="amount"]').selectOption('10');
    await page.locator('[data-testid="add-agents"]').click();
    await nextFrame(page);
    assert.equal(await number(page, 'agents'), 110);
    assert.match(await text(page, 'census'), /hawks: 11/);
    await page.locator('[data-testid="amount"]').selectOption('100');
    await page.locator('[data-testid="remove-agents"]').click();
    await nextFrame(page);
    assert.equal(await number(page, 'agents'), 99, 'only the 11 hawks went');
    // The goal tool sets the goal where clicked.
    await page.locator('[data-testid="tool-goal"]').check();
    const box = await worldBox(page);
    await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.5);
    const goals = await page.evaluate(() => Array.from(window.boidlab.boids.goals()));
    const w = await page.evaluate(() => window.boidlab.boids.width);
    assert.equal(goals.length, 2);
    assert.ok(Math.abs(goals[0] - w * 0.25) < w * 0.01, `${goals}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("while playing, the worker thread steps a copy that stays the page's world through every change", async () => {
    const page = await openBoids(env, 'scenario=path-following&agents=300&seed=4');
    await fpsShows(page);
    // The worker loads its own wasm and builds its copy, which may take longer than the page's
    // first frames on a loaded machine; it must then take the steps.
    await page.waitForFunction(() => window.boidlab.app.link.active, null, { timeout: 20000 });
    const settle = () => page.waitForTimeout(250);
    const before = await page.evaluate(() => window.boidlab.boids.steps);
    // Every kind of change, made while the copy is stepping.
    await page.locator('[data-testid="param-weight.separation"]').fill('4.5');
    await settle();
    await page.locator('[data-testid="combine"]').selectOption('priority');
    await page.locator('[data-testid="collisions"]').setChecked(false);
    await page.locator('[data-testid="spline"]').setChecked(true);
    await settle();
    await page.locator('[data-testid="tool-walls"]').check();
    const box = await worldBox(page);
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.05);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.6, { steps: 20 });
    await page.mouse.up();
    await settle();
    await page.locator('[data-testid="amount"]').selectOption('100');
    await page.locator('[data-testid="add-agents"]').click();
    await settle();
    await page.locator('[data-testid="amount"]').selectOption('10');
    await page.locator('[data-testid="remove-agents"]').click();
    await page.locator('[data-testid="tool-goal"]').check();
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.4);
    await settle();
    assert.equal(await number(page, 'agents'), 390);
    assert.ok(await allInOpenCells(page), 'no agent inside the painted wall');
    const played = (await page.evaluate(() => window.boidlab.boids.steps)) - before;
    assert.ok(played > 40, `the page kept stepping through the changes: ${played} steps`);
    /** Pauses, lets the answers in, and compares the copy with the page's world. */
    const verify = async (when) => {
      await page.locator('[data-testid="play"]').click();
      await page.waitForTimeout(300);
      const check = await page.evaluate(() => window.boidlab.app.link.verify());
      assert.deepEqual(check, { same: true, sameAfterStep: true }, `${when}: the page shows the copy, and both step alike`);
    };
    await verify('with the wall');
    await page.locator('[data-testid="play"]').click();
    await page.locator('[data-testid="clear-walls"]').click();
    await settle();
    await verify('walls cleared');
    // A step taken on the page (paused) reaches the copy too.
    await page.locator('[data-testid="step"]').click();
    assert.deepEqual(await page.evaluate(() => window.boidlab.app.link.verify()), { same: true, sameAfterStep: true });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('without worker threads the page steps its world itself', async () => {
    const page = await openBoids(env, 'scenario=flock&agents=400&seed=2', {
      init: () => {
        delete window.Worker;
      },
    });
    await fpsShows(page);
    const first = await page.evaluate(() => window.boidlab.boids.steps);
    // The page's own loop advances the world: wait for ten more steps (a loaded machine may
    // need longer than a quiet one), and fail if they never come.
    await page.waitForFunction((n) => window.boidlab.boids.steps > n + 10, first, { timeout: 15000 });
    assert.equal(await page.evaluate(() => window.boidlab.app.link.active), false);
    assert.ok(Number(await text(page, 'step-ms')) > 0);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('bad URL values give messages and fall back; zero agents work', async () => {
    const page = await openBoids(env, 'scenario=starlings&agents=-7&seed=xyz&embed=2');
    const message = await text(page, 'message');
    for (const key of ['scenario', 'agents', 'seed', 'embed']) assert.match(message, new RegExp(`Parameter "${key}"`));
    assert.equal(await page.locator('[data-testid="scenario"]').inputValue(), 'flock');
    assert.equal(await number(page, 'agents'), 500);
    // Typing a bad count in the agents box is refused with a message.
    await page.locator('[data-testid="agent-count"]').fill('100001');
    await page.locator('[data-testid="agent-count"]').press('Enter');
    assert.match(await text(page, 'message'), /Agents: expected a whole number from 0 to 100000/);
    assert.equal(await number(page, 'agents'), 500);
    await page.close();

    const empty = await openBoids(env, 'scenario=obstacle-field&agents=0');
    assert.equal(await number(empty, 'agents'), 0);
    await fpsShows(empty);
    await empty.locator('[data-testid="step"]').click();
    assert.deepEqual(empty.errors, []);
    await empty.close();
  });

  test('a count over the limit is clamped to 100000 and the tab keeps running', async () => {
    const page = await openBoids(env, 'agents=5000000&seed=4');
    assert.match(await text(page, 'message'), /over the limit of 100000/);
    assert.equal(await number(page, 'agents'), 100000);
    await page.locator('[data-testid="play"]').click();
    // The page still answers: a single step and a frame go through.
    await page.locator('[data-testid="step"]').click();
    await nextFrame(page);
    assert.equal(await page.evaluate(() => window.boidlab.boids.steps > 0), true);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('embed mode shows the world, the controls and the read-outs only', async () => {
    const page = await openBoids(env, 'scenario=leader-following&embed=1', { width: 700, height: 520 });
    assert.equal(await page.locator('.pl-panel').isVisible(), false);
    assert.equal(await page.locator('header').isVisible(), false);
    for (const id of ['world', 'play', 'step', 'reset', 'fps', 'agents', 'step-ms']) {
      assert.ok(await page.locator(`[data-testid="${id}"]`).isVisible(), id);
    }
    await fpsShows(page);
    await screenshot(page, 'boids-embed');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the two pages link to each other', async () => {
    const page = await openBoids(env);
    assert.equal(await page.locator('[data-testid="nav-pathfinding"]').getAttribute('href'), 'index.html');
    await page.goto(`${env.base}index.html`);
    assert.equal(await page.locator('a[href="boids.html"]').count(), 1);
    await page.close();
  });
});
