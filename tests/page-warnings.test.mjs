// Correctness warnings next to the result, in real Chromium: settings that can cost optimality
// (a heuristic that overestimates for the moves, a weight above 1, an algorithm that does not
// look for the cheapest path, an any-angle path) each show a sentence, and once a path is found
// the cheapest grid path's cost is shown for reference, equal to an independent Dijkstra, with
// the excess in percent; optimal settings show no warning, only a quiet "optimal".
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, drag, nextFrame, open, screenshot, start, text, withBrowser } from './support/browser.mjs';
import { cheapest, readCourse, readMovingAi, readPage, readScen, withTerrain } from './support/dijkstra.mjs';

const maps = (file) => readFileSync(join(ROOT, 'maps', file), 'utf8');
const presets = JSON.parse(maps('presets.json')).presets;
const arena = readMovingAi(maps('movingai/arena.map'));

async function click(page, id, times = 1) {
  for (let i = 0; i < times; i++) await page.locator(`[data-testid="${id}"]`).click();
  await nextFrame(page);
}

/** The kinds of the warnings shown, in order. */
function kinds(page) {
  return page.locator('[data-testid="warnings"] li[data-kind]').evaluateAll((ls) => ls.map((l) => l.dataset.kind));
}

/** The reference paragraph: hidden, or { optimal, cost, excess, text }. */
async function reference(page) {
  const p = page.locator('[data-testid="warnings-reference"]');
  if (!(await p.isVisible())) return null;
  const num = async (name) => Number(await p.getAttribute(`data-${name}`));
  return { optimal: await num('optimal'), cost: await num('cost'), excess: await num('excess'), text: await p.textContent() };
}

async function pageCost(page) {
  const raw = await page.locator('[data-testid="cost"]').getAttribute('data-value');
  return raw === '' || raw === null ? null : Number(raw);
}

async function ends(page) {
  const grid = page.locator('[data-testid="grid"]');
  const point = async (name) => (await grid.getAttribute(name)).split(',').map(Number);
  return [await point('data-start'), await point('data-goal')];
}

describe('correctness warnings', () => {
  const env = withBrowser();

  test('Manhattan with 8-way moves is flagged; after the run the reference is the cheapest cost', async () => {
    // arena.map.scen: 1 45 -> 47 9, optimal 60.9117; Manhattan's overestimate misses it here.
    const scen = readScen(maps('movingai/arena.map.scen')).find((p) => p.start.join() === '1,45' && p.goal.join() === '47,9');
    const page = await open(env, 'map=arena&heuristic=manhattan&diagonal=no-corner-cutting&start=1,45&goal=47,9');
    assert.deepEqual(await kinds(page), ['inadmissible']);
    const sentence = await page.locator('[data-testid="warnings"] li[data-kind="inadmissible"]').textContent();
    assert.match(sentence, /Manhattan/);
    assert.match(sentence, /√2/);
    assert.equal(await reference(page), null, 'no reference before a path is found');
    await click(page, 'run');
    const want = cheapest(arena, [1, 45], [47, 9]);
    const got = await reference(page);
    assert.ok(got, 'the reference shows once the path is found');
    assert.ok(Math.abs(got.optimal - want) < 1e-9, `reference ${got.optimal}, independent Dijkstra ${want}`);
    assert.ok(Math.abs(got.optimal - scen.optimal) <= 1e-3, `.scen optimum ${scen.optimal}`);
    const cost = await pageCost(page);
    assert.equal(got.cost, cost);
    assert.ok(cost > want + 0.5, `A* with Manhattan pays more here: ${cost} against ${want}`);
    assert.ok(Math.abs(got.excess - ((cost - want) / want) * 100) < 1e-6, `excess ${got.excess}%`);
    assert.match(got.text, new RegExp(`${(((cost - want) / want) * 100).toFixed(1)}% more`));
    assert.match(got.text, new RegExp(want.toFixed(2)));
    await screenshot(page, 'warnings-manhattan');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a weight above 1 is flagged and the cost stays within weight times the cheapest', async () => {
    // arena 1,10 -> 21,2: weighted A* (w = 2) finds a dearer path than the optimum.
    const page = await open(env, 'map=arena&weight=2&start=1,10&goal=21,2');
    assert.deepEqual(await kinds(page), ['weight']);
    assert.match(await page.locator('[data-testid="warnings"] li[data-kind="weight"]').textContent(), /Weight 2/);
    await click(page, 'run');
    const want = cheapest(arena, [1, 10], [21, 2]);
    const got = await reference(page);
    assert.ok(Math.abs(got.optimal - want) < 1e-9, `reference ${got.optimal}, independent Dijkstra ${want}`);
    const cost = await pageCost(page);
    assert.ok(cost > want + 1e-9 && cost <= 2 * want, `${want} < ${cost} <= 2 x ${want}`);
    assert.ok(got.excess > 0);
    // Dijkstra ignores the weight: nothing to warn about.
    await page.locator('[data-testid="algo"]').selectOption('dijkstra');
    await nextFrame(page);
    assert.deepEqual(await kinds(page), ['optimal']);
    assert.equal(await reference(page), null);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('greedy best-first is flagged as not optimal, with its excess over the cheapest path', async () => {
    const maze = readCourse(maps('maze-small.txt'));
    const page = await open(env, 'map=maze-small&algo=greedy');
    assert.deepEqual(await kinds(page), ['non-optimal']);
    assert.match(await page.locator('[data-testid="warnings"] li').textContent(), /Greedy best-first/);
    await click(page, 'run');
    const [s, g] = await ends(page);
    const want = cheapest(maze, s, g);
    const got = await reference(page);
    assert.ok(Math.abs(got.optimal - want) < 1e-9, `reference ${got.optimal}, independent Dijkstra ${want}`);
    const cost = await pageCost(page);
    assert.ok(cost >= want - 1e-9);
    assert.ok(Math.abs(got.excess - ((cost - want) / want) * 100) < 1e-6);
    await screenshot(page, 'warnings-greedy');
    // Erasing the wall at (6,1) opens a shortcut; the search re-runs to the end, and the
    // reference follows the new map instead of keeping the old optimum.
    await drag(page, [[6, 1], [6, 1]]);
    await nextFrame(page);
    const edited = await readPage(page);
    assert.equal(edited.terrain[1 * edited.width + 6], 1, 'the wall was erased');
    const wantAfter = cheapest(edited, s, g);
    assert.ok(wantAfter < want - 0.5, `the shortcut is cheaper: ${want} -> ${wantAfter}`);
    const after = await reference(page);
    assert.ok(Math.abs(after.optimal - wantAfter) < 1e-9, `after the edit: ${after.optimal}, reference ${wantAfter}`);
    assert.equal(after.cost, await pageCost(page));
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('A* with octile is optimal: no warning, a quiet note, and no reference', async () => {
    const page = await open(env, 'map=arena&algo=astar&heuristic=octile&diagonal=no-corner-cutting');
    assert.deepEqual(await kinds(page), ['optimal']);
    assert.match(await text(page, 'warnings'), /Optimal/);
    await click(page, 'run');
    assert.equal(await text(page, 'status'), 'found');
    assert.deepEqual(await kinds(page), ['optimal']);
    assert.equal(await reference(page), null);
    await screenshot(page, 'warnings-optimal');
    // Chosen in the page: Manhattan is flagged with 8-way moves, and fine with 4-way ones.
    await page.locator('[data-testid="heuristic"]').selectOption('manhattan');
    await nextFrame(page);
    assert.deepEqual(await kinds(page), ['inadmissible']);
    await page.locator('[data-testid="diagonal"]').selectOption('never');
    await nextFrame(page);
    assert.deepEqual(await kinds(page), ['optimal']);
    await page.locator('[data-testid="heuristic"]').selectOption('octile');
    await page.locator('[data-testid="diagonal"]').selectOption('always');
    await nextFrame(page);
    assert.deepEqual(await kinds(page), ['optimal']);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('an any-angle path is flagged and may cost less than the cheapest grid path', async () => {
    const wallGap = readCourse(maps('wall-gap.txt'));
    // Theta* estimates by the straight line whatever the menu says, so Manhattan costs it nothing.
    const page = await open(env, 'map=wall-gap&algo=theta&heuristic=manhattan');
    assert.deepEqual(await kinds(page), ['any-angle']);
    await click(page, 'run');
    const want = cheapest(wallGap, wallGap.start, wallGap.goal);
    const got = await reference(page);
    assert.ok(Math.abs(got.optimal - want) < 1e-9);
    assert.ok(got.cost < want && got.excess < 0, `Theta* ${got.cost} below the grid optimum ${want}`);
    assert.match(got.text, /less/);
    await screenshot(page, 'warnings-theta');
    await page.close();
  });

  test('BFS is optimal on 4-way plain ground, not with diagonals or terrain', async () => {
    const plain = await open(env, 'map=wall-gap&algo=bfs&diagonal=never');
    assert.deepEqual(await kinds(plain), ['optimal']);
    await plain.locator('[data-testid="diagonal"]').selectOption('no-corner-cutting');
    await nextFrame(plain);
    assert.deepEqual(await kinds(plain), ['non-optimal']);
    assert.match(await plain.locator('[data-testid="warnings"] li').textContent(), /diagonal/);
    await plain.close();

    const preset = presets.find((p) => p.name === 'mud-field');
    const mud = withTerrain(readCourse(maps(preset.file)), preset.terrain);
    const page = await open(env, 'map=mud-field&algo=bfs&diagonal=never');
    assert.deepEqual(await kinds(page), ['non-optimal']);
    assert.match(await page.locator('[data-testid="warnings"] li').textContent(), /mud and water/);
    await click(page, 'run');
    const [s, g] = await ends(page);
    const want = cheapest(mud, s, g, { diagonal: 'never' });
    const got = await reference(page);
    assert.ok(Math.abs(got.optimal - want) < 1e-9, `reference ${got.optimal}, independent Dijkstra ${want}`);
    assert.ok(got.cost > want, 'BFS wades through the mud');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a walking agent is flagged, and its walk is compared with the cheapest path', async () => {
    const trap = readCourse(maps('u-trap.txt'));
    const page = await open(env, 'map=u-trap&algo=lrta');
    assert.deepEqual(await kinds(page), ['non-optimal']);
    await click(page, 'run');
    assert.equal(await text(page, 'status'), 'found');
    const [s, g] = await ends(page);
    const got = await reference(page);
    assert.ok(Math.abs(got.optimal - cheapest(trap, s, g)) < 1e-9);
    assert.match(got.text, /The walk costs/);
    assert.ok(got.excess >= 0);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
