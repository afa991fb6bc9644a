// Compare mode in real Chromium: several algorithms on the same map, one pane each, stepping in
// sync under one set of controls. Each pane after k steps reads exactly what a normal page
// stepped k times with that algorithm reads; run to the end, the optimal ones reach the cost of
// an independent Dijkstra and greedy never goes below it; the chart holds one bar per algorithm
// and measure with the panes' own numbers; invalid `compare=` values are named in a message;
// leaving compare mode gives back the page with its map and search as they were.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, drag, nextFrame, open, screenshot, start, text, withBrowser } from './support/browser.mjs';
import { cheapest, readCourse, readMovingAi, readPage } from './support/dijkstra.mjs';

const maps = (file) => readFileSync(join(ROOT, 'maps', file), 'utf8');
const arena = readMovingAi(maps('movingai/arena.map'));
/** The arena preset's start and goal (maps/presets.json). */
const ARENA_ENDS = [[1, 7], [47, 46]];

async function click(page, id, times = 1) {
  for (let i = 0; i < times; i++) await page.locator(`[data-testid="${id}"]`).click();
  await nextFrame(page);
}

/** The read-outs of every pane, in order: { algo, status, expanded, open, cost, moves }. */
function panes(page) {
  return page.locator('[data-testid="compare-pane"]').evaluateAll((nodes) =>
    nodes.map((n) => {
      const q = (id) => n.querySelector(`[data-testid="${id}"]`);
      const cost = q('compare-cost').dataset.value;
      return {
        algo: n.dataset.algo,
        status: q('compare-status').textContent,
        expanded: q('compare-expanded').textContent,
        open: q('compare-open').textContent,
        costText: q('compare-cost').textContent,
        cost: cost === '' ? null : Number(cost),
        moves: q('compare-moves')?.textContent ?? null,
      };
    }),
  );
}

/** The normal page's read-outs after `k` steps of `algo` on `query`'s map. */
async function stepped(env, query, algo, k) {
  const page = await open(env, `${query}&algo=${algo}`);
  await click(page, 'step', k);
  const raw = await page.locator('[data-testid="cost"]').getAttribute('data-value');
  const out = {
    algo,
    status: await text(page, 'status'),
    expanded: await text(page, 'expanded'),
    open: await text(page, 'open'),
    costText: await text(page, 'cost'),
    cost: raw === '' || raw === null ? null : Number(raw),
  };
  await page.close();
  return out;
}

/** Waits until the chart has measured every algorithm; returns its bars by measure. */
async function chart(page) {
  await page.waitForFunction(
    () => document.querySelector('[data-testid="compare-chart"]')?.dataset.state === 'done',
    null,
    { timeout: 30000 },
  );
  return page.locator('[data-testid="compare-chart"] svg rect').evaluateAll((rects) => {
    const out = {};
    for (const r of rects) {
      (out[r.dataset.measure] ??= []).push({ algo: r.dataset.algo, value: Number(r.dataset.value), width: Number(r.getAttribute('width')) });
    }
    return out;
  });
}

describe('compare mode', () => {
  const env = withBrowser();

  test('three panes step in sync, each as a normal page stepped as often', async () => {
    const query = 'map=arena';
    const page = await open(env, `${query}&compare=astar,dijkstra,greedy`);
    const algos = await page.locator('[data-testid="compare-pane"]').evaluateAll((ns) => ns.map((n) => n.dataset.algo));
    assert.deepEqual(algos, ['astar', 'dijkstra', 'greedy']);
    assert.equal(await page.locator('[data-testid="grid"]').isVisible(), false, 'the single grid makes way');
    assert.equal(await page.locator('[data-testid="compare-grid"]').count(), 3, 'one canvas per pane');
    for (const p of await panes(page)) {
      assert.deepEqual([p.status, p.expanded, p.costText], ['ready', '0', ''], p.algo);
    }
    const k = 17;
    await click(page, 'compare-step', k);
    const after17 = await panes(page);
    for (const algo of algos) {
      const want = await stepped(env, query, algo, k);
      const got = after17.find((p) => p.algo === algo);
      assert.deepEqual({ ...got, moves: undefined }, { ...want, moves: undefined }, `${algo} after ${k} steps`);
    }
    assert.equal(await text(page, 'compare-tick'), `step ${k}`);
    // Back and forth with the keyboard: every pane moves together.
    await page.locator('[data-testid="compare-panes"]').focus();
    await page.keyboard.press('ArrowLeft');
    await nextFrame(page);
    for (const p of await panes(page)) assert.equal(p.expanded, String(k - 1), `${p.algo} one step back`);
    await page.keyboard.press('ArrowRight');
    await nextFrame(page);
    assert.deepEqual(await panes(page), after17, 'back then step returns to the same state');
    assert.equal(await text(page, 'expanded'), '0', 'the hidden page did not step with the keys');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('run to the end: optimal costs match Dijkstra, greedy is no cheaper, the chart has three bars per measure', async () => {
    const page = await open(env, 'map=arena&compare=astar,dijkstra,greedy');
    await click(page, 'compare-run');
    const want = cheapest(arena, ...ARENA_ENDS);
    const got = Object.fromEntries((await panes(page)).map((p) => [p.algo, p]));
    for (const p of Object.values(got)) assert.equal(p.status, 'found', p.algo);
    assert.ok(Math.abs(got.astar.cost - want) < 1e-9, `A* ${got.astar.cost}, reference ${want}`);
    assert.ok(Math.abs(got.dijkstra.cost - want) < 1e-9, `Dijkstra ${got.dijkstra.cost}, reference ${want}`);
    assert.ok(got.greedy.cost >= want - 1e-9, `greedy ${got.greedy.cost} is not below ${want}`);
    assert.ok(Number(got.dijkstra.expanded) > Number(got.astar.expanded), 'Dijkstra expands more than A*');
    assert.equal(await page.locator('[data-testid="compare-step"]').isDisabled(), true, 'all finished: nothing to step');

    const bars = await chart(page);
    for (const measure of ['expanded', 'cost', 'time']) {
      assert.deepEqual(bars[measure]?.map((b) => b.algo), ['astar', 'dijkstra', 'greedy'], `three ${measure} bars`);
    }
    for (const b of bars.expanded) assert.equal(b.value, Number(got[b.algo].expanded), `${b.algo}: the chart's expanded`);
    for (const b of bars.cost) assert.ok(Math.abs(b.value - got[b.algo].cost) < 1e-9, `${b.algo}: the chart's cost`);
    for (const b of bars.time) assert.ok(b.value > 0 && b.value < 5000, `${b.algo}: time ${b.value} ms`);
    const width = Object.fromEntries(bars.expanded.map((b) => [b.algo, b.width]));
    assert.ok(width.dijkstra > width.astar, "Dijkstra's bar is the longer");
    const reference = Number(await page.locator('[data-testid="compare-chart"] line.pl-chart-reference').getAttribute('data-value'));
    assert.ok(Math.abs(reference - want) < 1e-9, `the dashed line marks the cheapest cost ${want}, got ${reference}`);
    // Pixels: each pane's colour is painted on the chart, so the bars are really drawn.
    const painted = await page.locator('[data-testid="compare-chart"] svg').screenshot();
    assert.ok(painted.length > 2000, 'the chart renders');
    await screenshot(page, 'compare-arena');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('invalid compare values give a message naming the parameter, and one search is shown', async () => {
    const cases = [
      ['astar,nonsense,bogus', ['"nonsense"', '"bogus"', 'unknown algorithms']],
      ['astar', ['only one name']],
      ['astar,dijkstra,greedy,bfs,dfs', ['5 names', 'at most 4']],
      ['astar,astar', ['"astar" more than once']],
      ['astar,,dijkstra', ['empty name']],
    ];
    for (const [value, words] of cases) {
      const page = await open(env, `map=wall-gap&compare=${encodeURIComponent(value)}`);
      const message = await text(page, 'message');
      assert.match(message, /Parameter "compare"/, value);
      for (const w of words) assert.ok(message.includes(w), `${value}: "${w}" in ${message}`);
      assert.equal(await page.locator('[data-testid="compare-pane"]').count(), 0, `${value}: no panes`);
      assert.equal(await page.locator('[data-testid="grid"]').isVisible(), true);
      await click(page, 'run');
      assert.equal(await text(page, 'status'), 'found', `${value}: the page still works`);
      if (value.includes('nonsense')) await screenshot(page, 'compare-invalid');
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  });

  test('entered from the panel with an edited map; exit gives the page back as it was', async () => {
    const page = await open(env, 'map=wall-gap&algo=astar');
    // A wall just past the gap (column 10, row 2) makes the way through it longer.
    const wallGap = readCourse(maps('wall-gap.txt'));
    const unedited = cheapest(wallGap, wallGap.start, wallGap.goal);
    await drag(page, [[12, 0], [12, 5]]);
    await click(page, 'step', 6);
    const before = await readPage(page);
    const expandedBefore = await text(page, 'expanded');
    const [sx, sy] = (await page.locator('[data-testid="grid"]').getAttribute('data-start')).split(',').map(Number);
    const [gx, gy] = (await page.locator('[data-testid="grid"]').getAttribute('data-goal')).split(',').map(Number);

    // One algorithm twice is no comparison: a message, and the page stays as it is.
    await page.locator('[data-testid="compare-pick-1"]').selectOption('jps');
    await page.locator('[data-testid="compare-pick-2"]').selectOption('jps');
    await click(page, 'compare');
    assert.match(await text(page, 'message'), /at least two different algorithms/);
    assert.equal(await page.locator('[data-testid="compare-view"]').count(), 0);
    await page.locator('[data-testid="compare-pick-1"]').selectOption('bfs');
    await page.locator('[data-testid="compare-pick-3"]').selectOption('theta');
    await page.locator('[data-testid="compare"]').focus();
    await page.keyboard.press('Enter');
    await nextFrame(page);
    assert.deepEqual(
      await page.locator('[data-testid="compare-pane"]').evaluateAll((ns) => ns.map((n) => n.dataset.algo)),
      ['bfs', 'jps', 'theta'],
    );
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'compare-step', 'focus moves to the controls');
    assert.match(page.url(), /compare=bfs,jps,theta/, 'the URL names the comparison');
    await page.keyboard.press('End');
    await nextFrame(page);
    const want = cheapest(before, [sx, sy], [gx, gy]);
    assert.ok(want !== null && want > unedited + 0.5, `the edit matters: ${unedited} -> ${want}`);
    const got = Object.fromEntries((await panes(page)).map((p) => [p.algo, p]));
    for (const p of Object.values(got)) assert.equal(p.status, 'found', p.algo);
    assert.ok(Math.abs(got.jps.cost - want) < 1e-9, `JPS on the edited map: ${got.jps.cost}, reference ${want}`);
    assert.ok(got.bfs.cost >= want - 1e-9, 'BFS with diagonals is no cheaper');
    assert.ok(got.theta.cost <= want + 1e-9, 'Theta* may go below the grid optimum, never above it here');
    assert.match(await page.locator('[data-testid="compare-pane"][data-algo="theta"]').textContent(), /any-angle/i);
    assert.equal(
      await page.locator('[data-testid="compare-pane"][data-algo="theta"] [data-kind="any-angle"]').count(),
      1,
      'the any-angle pane is labelled',
    );
    await chart(page);
    await screenshot(page, 'compare-edited-map');

    await click(page, 'compare-exit');
    assert.equal(await page.locator('[data-testid="compare-view"]').count(), 0);
    assert.equal(await page.locator('[data-testid="grid"]').isVisible(), true);
    assert.equal(await text(page, 'expanded'), expandedBefore, 'the page search stands where it stood');
    assert.deepEqual(await readPage(page), before, 'the map is intact');
    assert.doesNotMatch(page.url(), /compare=/, 'the URL drops the comparison');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'compare', 'focus returns to the Compare button');
    await click(page, 'run');
    assert.ok(Math.abs(Number(await page.locator('[data-testid="cost"]').getAttribute('data-value')) - want) < 1e-9);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('walking agents and any-angle searches side by side, four panes', async () => {
    const wallGap = readCourse(maps('wall-gap.txt'));
    const page = await open(env, 'map=wall-gap&compare=lrta,crash-turn,lazy-theta,dstar-lite');
    assert.equal(await page.locator('[data-testid="compare-pane"]').count(), 4);
    await click(page, 'compare-step', 5);
    for (const p of await panes(page)) {
      assert.equal(p.status, 'searching', p.algo);
      if (p.algo !== 'lazy-theta') assert.notEqual(p.moves, null, `${p.algo} shows its moves`);
    }
    await click(page, 'compare-run');
    const want = cheapest(wallGap, wallGap.start, wallGap.goal);
    const got = Object.fromEntries((await panes(page)).map((p) => [p.algo, p]));
    for (const algo of ['lrta', 'lazy-theta', 'dstar-lite']) assert.equal(got[algo].status, 'found', algo);
    assert.ok(got.lrta.cost >= want - 1e-9, 'LRTA* walks no less than the optimum');
    assert.ok(Math.abs(got['dstar-lite'].cost - want) < 1e-9, 'D* Lite walks the cheapest path on a known map');
    assert.ok(got['lazy-theta'].cost <= want + 1e-9, 'lazy Theta* is no dearer than the grid optimum');
    // Crash and turn keeps its hand on the long wall and comes back where it began: it says so.
    assert.equal(got['crash-turn'].status, 'no-path');
    assert.notEqual(await page.locator('[data-testid="compare-pane"][data-algo="crash-turn"] [data-testid="compare-why"]').textContent(), '');
    for (const p of Object.values(got)) if (p.moves !== null) assert.ok(Number(p.moves) > 0, `${p.algo} moved`);
    const bars = await chart(page);
    assert.equal(bars.expanded.length, 4);
    assert.deepEqual(bars.cost.map((b) => b.algo), ['lrta', 'lazy-theta', 'dstar-lite'], 'no cost bar where no path was found');
    assert.equal(bars.time.length, 4);
    const words = await page.locator('[data-testid="compare-chart"]').textContent();
    assert.match(words, /moves/);
    assert.match(words, /gave up|no path/);
    assert.match(words, /any-angle/);
    await screenshot(page, 'compare-agents');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('play advances every pane and stops when all have finished', async () => {
    const page = await open(env, 'map=course-5x5&compare=astar,dijkstra&speed=12');
    await click(page, 'compare-play');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="compare-status"]')].every((s) => s.textContent === 'found'),
    );
    await nextFrame(page);
    assert.equal(await page.locator('[data-testid="compare-play"]').textContent(), 'Play');
    await click(page, 'compare-reset');
    for (const p of await panes(page)) assert.deepEqual([p.status, p.expanded], ['ready', '0']);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
