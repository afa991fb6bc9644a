// Fog of war, the human-like explorer and crash and turn's side rules, in real Chromium:
// - `fog=1` with D* Lite greys the cells the agent has not seen (the painted canvas, read back)
//   and the agent still reaches the goal; A* under fog says it sees through the fog;
// - the explorer runs from its URL to the goal; its trail is a chain of legal moves on free
//   cells of the page's own map (checked here against the map read through the Lab), and its
//   mental map is drawn (walls seen, junctions);
// - `hand=least-deviation` and `hand=random&seed=` come from the URL into the hand menu;
// - bad values of the new keys are named in the message and fall back.
// Screenshots at 1366x768 and 1920x1080 go to tests/artifacts/.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, open, screenshot, text, withBrowser } from './support/browser.mjs';

const click = (page, id) => page.locator(`[data-testid="${id}"]`).click();

/** Runs to the end and waits for a finished status. */
async function runToEnd(page) {
  await click(page, 'run');
  await page.waitForFunction(() => ['found', 'no-path'].includes(document.querySelector('[data-testid="status"]')?.textContent ?? ''));
  await nextFrame(page);
}

/** The map's cells, the trail (path buffer) and what the agent has seen, read through the Lab. */
function readRun(page) {
  return page.evaluate(async () => {
    const lab = window.pathlab.lab;
    // The module the page's Lab lives in (the explorer's: the one with every search).
    const { memory } = window.pathlab;
    const n = lab.width * lab.height;
    const cells = Array.from(new Uint8Array(memory.buffer, lab.cellsPtr(), n));
    const trail = Array.from(new Uint32Array(memory.buffer, lab.pathPtr(), lab.pathLength));
    const ptr = lab.sensedPtr();
    const sensed = ptr ? Array.from(new Uint8Array(memory.buffer, ptr, n)) : null;
    return { width: lab.width, height: lab.height, cells, trail, sensed, settings: lab.settings() };
  });
}

/** Checks every move of `trail` against the page's map under `diagonal` (its own reading of the rules). */
function checkTrail({ width, cells, trail }, diagonal) {
  const free = (x, y) => x >= 0 && y >= 0 && x < width && y * width + x < cells.length && cells[y * width + x] !== 0;
  for (const i of trail) assert.notEqual(cells[i], 0, `stood on the wall ${i % width},${Math.floor(i / width)}`);
  for (let k = 1; k < trail.length; k++) {
    const [ax, ay, bx, by] = [trail[k - 1] % width, Math.floor(trail[k - 1] / width), trail[k] % width, Math.floor(trail[k] / width)];
    const [dx, dy] = [bx - ax, by - ay];
    assert.ok(Math.max(Math.abs(dx), Math.abs(dy)) === 1, `move ${k} is not to a neighbour`);
    if (dx !== 0 && dy !== 0) {
      const [a, b] = [free(bx, ay), free(ax, by)];
      const ok = { never: false, 'no-corner-cutting': a && b, 'at-most-one-blocked': a || b, always: true }[diagonal];
      assert.ok(ok, `move ${k} cuts a corner the ${diagonal} rule forbids`);
    }
  }
}

describe('fog of war and the human-like explorer', () => {
  const env = withBrowser();

  test('fog greys the cells D* Lite has not seen, and its agent still reaches the goal', async () => {
    const page = await open(env, 'map=maze-small&algo=dstar-lite&sensor=2&fog=1', { width: 1366, height: 768 });
    assert.equal(await page.locator('[data-testid="fog"]').isChecked(), true);
    await nextFrame(page);
    const before = await readRun(page);
    assert.ok(before.sensed, 'an agent in fog reports what it has seen');
    const unseen = before.sensed.filter((k) => k === 0).length;
    assert.ok(unseen > before.sensed.length / 2, `most of the map is unseen at the start (${unseen})`);
    // The canvas: an unseen ground cell is painted greyer than a seen one.
    const [seenCell, unseenCell] = [before.sensed.indexOf(1), before.sensed.findIndex((k, i) => k === 0 && before.cells[i] !== 0)];
    const colours = await page.evaluate(([a, b, w]) => {
      const canvas = document.querySelector('[data-testid="grid"]');
      const px = Number(canvas.dataset.cellPx);
      const [ox, oy] = [Number(canvas.dataset.ox), Number(canvas.dataset.oy)];
      const ctx = canvas.getContext('2d');
      const at = (i) => Array.from(ctx.getImageData(ox + ((i % w) + 0.5) * px, oy + (Math.floor(i / w) + 0.5) * px, 1, 1).data);
      return [at(a), at(b)];
    }, [seenCell, unseenCell, before.width]);
    const spread = (c) => Math.max(c[0], c[1], c[2]) - Math.min(c[0], c[1], c[2]);
    assert.ok(colours[0][0] + colours[0][1] + colours[0][2] > colours[1][0] + colours[1][1] + colours[1][2], `unseen ground is darker: ${colours}`);
    assert.ok(spread(colours[1]) < 40, `unseen ground is grey: ${colours[1]}`);
    await screenshot(page, 'fog-dstar-start-1366');
    await runToEnd(page);
    assert.equal(await text(page, 'status'), 'found');
    const after = await readRun(page);
    assert.ok(after.sensed.filter((k) => k === 0).length < unseen, 'it has seen more on its way');
    assert.match(await text(page, 'fog-note'), /D\* Lite sees only within 2 cells/);
    assert.equal(await page.locator('text=Optimal: D* Lite').count(), 0, 'in fog its walk is not promised to be the cheapest');
    await screenshot(page, 'fog-dstar-found-1366');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await nextFrame(page);
    await screenshot(page, 'fog-dstar-found-1920');
    assert.deepEqual(page.errors, []);
  });

  test('A* under fog plans on the whole map and the page says it sees through the fog', async () => {
    const page = await open(env, 'map=maze-small&algo=astar&fog=1');
    assert.equal(await text(page, 'fog-note'), 'A* sees through the fog: it plans on the whole map.');
    assert.equal((await readRun(page)).sensed, null);
    assert.deepEqual(page.errors, []);
  });

  test('the explorer runs from its URL to the goal, by legal moves on free cells, with its mental map drawn', async () => {
    const page = await open(env, 'map=maze-small&algo=explorer&sensor=1', { width: 1366, height: 768 });
    assert.equal(await page.locator('[data-testid="algo"]').inputValue(), 'explorer');
    await runToEnd(page);
    assert.equal(await text(page, 'status'), 'found');
    const run = await readRun(page);
    checkTrail(run, run.settings.diagonal);
    const goal = run.settings.goal[1] * run.width + run.settings.goal[0];
    assert.equal(run.trail.at(-1), goal);
    assert.ok(run.trail.length > 2);
    const overlay = await page.evaluate(() => window.pathlab.lab.overlay());
    const kinds = new Set(overlay.marks.map((m) => m[2]));
    assert.ok(kinds.has('known-wall'), 'the walls it has seen are marked');
    assert.ok(overlay.lines.some((l) => l[4] === 'trail'), 'its trail is drawn');
    assert.match(await text(page, 'fog-note'), /sees only within 1 cell of where it stands/);
    await screenshot(page, 'explorer-found-1366');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await nextFrame(page);
    await screenshot(page, 'explorer-found-1920');
    assert.deepEqual(page.errors, []);
  });

  test('the side rules come from the URL, and bad fog, seed and hand values are named and fall back', async () => {
    let page = await open(env, 'map=c-trap&algo=crash-turn&hand=least-deviation');
    assert.equal(await page.locator('[data-testid="hand"]').inputValue(), 'least-deviation');
    await page.close();
    page = await open(env, 'map=c-trap&algo=crash-turn&hand=random&seed=42');
    assert.equal(await page.locator('[data-testid="hand"]').inputValue(), 'random');
    assert.equal((await page.evaluate(() => window.pathlab.lab.settings())).seed, 42);
    await page.close();
    page = await open(env, 'map=c-trap&algo=explorr&fog=2&seed=-1&hand=sideways&sensor=NaN');
    const message = await text(page, 'message');
    for (const name of ['"algo"', '"fog"', '"seed"', '"hand"', '"sensor"']) assert.ok(message.includes(name), `${name} in ${message}`);
    const s = await page.evaluate(() => window.pathlab.lab.settings());
    assert.deepEqual([s.algo, s.fog, s.seed, s.hand, s.sensor], ['astar', false, 1, 'left', 3]);
    assert.deepEqual(page.errors, []);
  });
});
