// The graph and hex views brought up to the grid page's standard, in real Chromium: compare
// mode (panes stepping in sync, each reading what a normal page stepped as often reads, costs
// matching an independent Dijkstra or hex BFS), compared grid searches with teleports costing
// as the page's own, the closed list in expansion order, the keyboard cursor (Shift+arrows)
// with its read-out, the graph and hexes kept in the browser across a reload, and the embed
// dialog's iframe code opening the same view. Every algorithm the core offers on a space runs
// there (agents, extra values and give-up messages shown when the core gives them).
// Screenshots at 1366x768 and 1920x1080 go to tests/artifacts/spaces-*.png.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, nextFrame, open, screenshot, start, text, withBrowser } from './support/browser.mjs';
import { readCourse } from './support/dijkstra.mjs';
import { click, cost, dijkstra, fileEdges, hexBfs, hook } from './support/spaces.mjs';
import { encodeGrid } from '../www/share.js';

const maps = (file) => readFileSync(join(ROOT, 'maps', file), 'utf8');

/** Every pane's read-outs, in order. */
function panes(page) {
  return page.locator('[data-testid="compare-pane"]').evaluateAll((nodes) =>
    nodes.map((n) => {
      const q = (id) => n.querySelector(`[data-testid="${id}"]`);
      const raw = q('compare-cost').dataset.value;
      return {
        algo: n.dataset.algo,
        status: q('compare-status').textContent,
        expanded: q('compare-expanded').textContent,
        open: q('compare-open').textContent,
        cost: raw === '' || raw === undefined ? null : Number(raw),
      };
    }),
  );
}

/** The normal page's read-outs after `k` steps of `algo`. */
async function stepped(env, query, algo, k) {
  const page = await open(env, `${query}&algo=${algo}`);
  await click(page, 'step', k);
  const out = {
    algo,
    status: await text(page, 'status'),
    expanded: await text(page, 'expanded'),
    open: await text(page, 'open'),
    cost: await cost(page),
  };
  await page.close();
  return out;
}

/** The cell read-out as { key: value }. */
function cellInfo(page) {
  return hook(page, 'cell-info').evaluate((box) =>
    Object.fromEntries([...box.querySelectorAll('dd')].map((dd) => [dd.dataset.key, dd.textContent])));
}

describe('graph and hex views: compare, panels, cursor, saving, embedding', () => {
  const env = withBrowser();

  test('compare on a graph: three panes step in sync as normal pages do, and run to the Dijkstra cost', async () => {
    const file = JSON.parse(maps('graphs/slides-5.json'));
    const query = 'map=slides-5&space=graph&start=B&goal=E';
    const page = await open(env, `${query}&compare=astar,dijkstra,bfs`);
    assert.deepEqual((await panes(page)).map((p) => p.algo), ['astar', 'dijkstra', 'bfs']);
    assert.equal(await hook(page, 'grid').isVisible(), false, 'the single canvas makes way');
    assert.equal(await hook(page, 'compare-grid').count(), 3);
    assert.equal(await hook(page, 'message').isVisible(), false, 'no "square grid only" message any more');
    await click(page, 'compare-step', 2);
    const after2 = await panes(page);
    for (const p of after2) assert.deepEqual(p, await stepped(env, query, p.algo, 2), `${p.algo} after 2 steps`);
    assert.equal(await text(page, 'compare-tick'), 'step 2');
    // Keys on the panes: back and forth together; the hidden page does not move.
    await hook(page, 'compare-panes').focus();
    await page.keyboard.press('ArrowLeft');
    await nextFrame(page);
    for (const p of await panes(page)) assert.equal(p.expanded, '1', p.algo);
    await page.keyboard.press('ArrowRight');
    await nextFrame(page);
    assert.deepEqual(await panes(page), after2);
    await click(page, 'compare-run');
    const got = Object.fromEntries((await panes(page)).map((p) => [p.algo, p]));
    const want = dijkstra(fileEdges(file), 'B', 'E');
    assert.equal(want, 11);
    assert.equal(got.astar.cost, want);
    assert.equal(got.dijkstra.cost, want);
    assert.ok(got.bfs.cost >= want, 'BFS is no cheaper');
    for (const p of Object.values(got)) assert.equal(p.status, 'found', p.algo);
    assert.match(page.url(), /compare=astar,dijkstra,bfs/);
    await screenshot(page, 'spaces-graph-compare');
    // Leaving gives the page back where it stood.
    await click(page, 'compare-exit');
    assert.equal(await hook(page, 'compare-view').count(), 0);
    assert.equal(await hook(page, 'grid').isVisible(), true);
    assert.equal(await text(page, 'expanded'), '0');
    assert.doesNotMatch(page.url(), /compare=/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('compare on hexes from the panel; a grid-only algorithm gets a pane that says why', async () => {
    const course = readCourse(maps('wall-gap.txt'));
    const page = await open(env, 'map=wall-gap&space=hex');
    await hook(page, 'compare-pick-1').selectOption('bfs');
    await hook(page, 'compare-pick-2').selectOption('astar');
    await hook(page, 'compare-pick-3').selectOption('dijkstra');
    const jps = hook(page, 'compare-pick-4').locator('option[value="jps"]');
    assert.equal(await jps.isDisabled(), true, 'JPS is greyed out in the picks');
    await hook(page, 'compare').click();
    await nextFrame(page);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'compare-step');
    await click(page, 'compare-step', 5);
    for (const p of await panes(page)) assert.equal(p.expanded, '5', p.algo);
    await click(page, 'compare-run');
    const want = hexBfs(course, course.start, course.goal);
    for (const p of await panes(page)) assert.equal(p.cost, want, `${p.algo}: the hex BFS cost`);
    const [bfs, astar] = await panes(page);
    assert.ok(Number(astar.expanded) <= Number(bfs.expanded), 'A* expands no more than BFS');
    // Run to the end disabled the button that had focus: Escape on the panes leaves.
    await hook(page, 'compare-panes').focus();
    await page.keyboard.press('Escape');
    await nextFrame(page);
    assert.equal(await hook(page, 'compare-view').count(), 0);
    await page.close();

    // From the link, with JPS: its pane says it cannot run, the others work.
    const mixed = await open(env, 'map=wall-gap&space=hex&compare=astar,jps');
    assert.match(await mixed.locator('[data-testid="compare-pane"][data-algo="jps"] [data-testid="compare-note"]').textContent(), /cannot run here: .*square grid/);
    assert.match(await text(mixed, 'message'), /Compare: .* cannot run on this map of hexes/);
    await click(mixed, 'compare-run');
    assert.equal((await panes(mixed))[0].cost, want);
    assert.deepEqual(mixed.errors, []);
    await mixed.close();
  });

  test('compare on the grid takes the teleports along: each pane costs what the page costs', async () => {
    const links = 'map=wall-gap&teleports=4.9.15.9.0.5.1';
    const normal = await open(env, `${links}&algo=dijkstra`);
    await normal.waitForFunction(() => window.pathlab.lab.links().kind === 'teleports');
    await click(normal, 'run');
    const withTeleports = await cost(normal);
    await normal.close();
    const plain = await open(env, 'map=wall-gap&algo=dijkstra');
    await click(plain, 'run');
    const without = await cost(plain);
    await plain.close();
    assert.ok(withTeleports < without - 0.5, `the teleport matters: ${without} -> ${withTeleports}`);

    const page = await open(env, `${links}&compare=dijkstra,astar,bfs`);
    await page.waitForSelector('[data-testid="compare-pane"]');
    await click(page, 'compare-run');
    const got = Object.fromEntries((await panes(page)).map((p) => [p.algo, p]));
    assert.ok(Math.abs(got.dijkstra.cost - withTeleports) < 1e-9, `compared Dijkstra ${got.dijkstra.cost}, page ${withTeleports}`);
    assert.ok(got.astar.cost <= without - 0.5, 'A* uses the teleport too');
    assert.ok(got.bfs.cost !== null, 'BFS runs with teleports');
    assert.deepEqual(page.errors, []);
    await page.close();

    // Slopes too: a hill across the middle of the map makes the way dearer, in the panes as on the page.
    const heights = Array.from({ length: 20 * 12 }, (_, i) => Math.max(0, 5 - Math.abs((i % 20) - 6)));
    const slopes = `map=wall-gap&heights=${encodeGrid({ width: 20, height: 12, cells: heights })}&uphill=3`;
    const hilly = await open(env, `${slopes}&algo=dijkstra`);
    await hilly.waitForFunction(() => window.pathlab.lab.links().kind === 'slopes');
    await click(hilly, 'run');
    const climbing = await cost(hilly);
    await hilly.close();
    assert.ok(climbing > without + 0.5, `the hill matters: ${without} -> ${climbing}`);
    const compared = await open(env, `${slopes}&compare=dijkstra,astar`);
    await compared.waitForSelector('[data-testid="compare-pane"]');
    await click(compared, 'compare-run');
    const [d] = await panes(compared);
    assert.ok(Math.abs(d.cost - climbing) < 1e-9, `compared Dijkstra with slopes ${d.cost}, page ${climbing}`);
    assert.deepEqual(compared.errors, []);
    await compared.close();
  });

  test('the closed list in expansion order and the keyboard cursor on a graph', async () => {
    const page = await open(env, 'map=slides-5&space=graph&start=B&goal=E&algo=dijkstra');
    await click(page, 'step', 3);
    const closed = hook(page, 'closed-list');
    assert.match(await closed.locator('summary').textContent(), /Closed list: 3 expansions/);
    await closed.locator('summary').click();
    await nextFrame(page);
    const rows = await hook(page, 'closed-cells').locator('li').evaluateAll((lis) => lis.map((li) => [li.dataset.node, Number(li.dataset.g)]));
    assert.equal(rows.length, 3);
    assert.deepEqual(rows[0], ['B', 0], 'the start first, at g 0');
    // Dijkstra takes nodes off in order of g.
    for (let k = 1; k < rows.length; k++) assert.ok(rows[k][1] >= rows[k - 1][1], `g rises: ${JSON.stringify(rows)}`);
    const order = await page.evaluate(() => [...window.pathlab.lab.expansionOrder()].map((n) => window.pathlab.lab.labels()[n]));
    assert.deepEqual(rows.map((r) => r[0]), order);

    // Shift+arrows on the focused canvas: the cursor starts on the start and moves node to node.
    await hook(page, 'grid').focus();
    await page.keyboard.press('Shift+ArrowRight');
    await nextFrame(page);
    assert.equal(await hook(page, 'grid').getAttribute('data-cursor'), 'B');
    let info = await cellInfo(page);
    assert.match(info.node, /^B · closed/);
    assert.equal(info.g, '0');
    assert.match(await text(page, 'cursor'), /^B: closed, g 0, h \d/);
    await page.keyboard.press('Shift+ArrowRight');
    await nextFrame(page);
    // Right of B (40, 200) the nearest that way is C (200, 120) or E (360, 200): C is nearer.
    assert.equal(await hook(page, 'grid').getAttribute('data-cursor'), 'C');
    info = await cellInfo(page);
    const c = await page.evaluate(() => window.pathlab.lab.nodeInfo(window.pathlab.lab.nodeById('C')));
    assert.equal(info.g, String(c.g));
    assert.equal(info.parent, 'B');
    assert.equal(await text(page, 'expanded'), '3', 'Shift+arrows move the cursor, they do not step');
    // Plain arrows still step; Escape hides the cursor.
    await page.keyboard.press('ArrowRight');
    await nextFrame(page);
    assert.equal(await text(page, 'expanded'), '4');
    await page.keyboard.press('Escape');
    await nextFrame(page);
    assert.equal(await hook(page, 'grid').getAttribute('data-cursor'), '');
    // A closed-list entry puts the cursor on its node.
    await hook(page, 'closed-cells').locator('li button').first().click();
    await nextFrame(page);
    assert.equal(await hook(page, 'grid').getAttribute('data-cursor'), 'B');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the keyboard cursor on hexes moves along rows and reads g, h, f', async () => {
    const course = readCourse(maps('wall-gap.txt'));
    const page = await open(env, 'map=wall-gap&space=hex&step=10');
    await hook(page, 'grid').focus();
    await page.keyboard.press('Shift+ArrowUp');
    await nextFrame(page);
    const [sx, sy] = course.start;
    assert.equal(await hook(page, 'grid').getAttribute('data-cursor'), `(${sx},${sy})`);
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    await nextFrame(page);
    assert.equal(await hook(page, 'grid').getAttribute('data-cursor'), `(${sx + 1},${sy + 1})`);
    const info = await cellInfo(page);
    const want = await page.evaluate(([x, y]) => window.pathlab.lab.nodeInfo(y * window.pathlab.lab.width + x), [sx + 1, sy + 1]);
    assert.equal(info.g, want.g === undefined || want.g === null ? '–' : String(want.g));
    assert.equal(info.h, String(want.h));
    assert.match(await text(page, 'cursor'), new RegExp(`^\\(${sx + 1},${sy + 1}\\): `));
    await page.locator('[data-testid="closed-list"] summary').click();
    await nextFrame(page);
    assert.equal(await hook(page, 'closed-cells').locator('li').count(), 10);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('your graph and hexes come back after a reload; Forget removes them', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const fresh = async (query) => {
      const page = await context.newPage();
      page.errors = [];
      page.on('pageerror', (e) => page.errors.push(e.message));
      await page.goto(`${env.base}index.html?${query}`);
      await page.waitForFunction(() => window.pathlab && document.querySelector('[data-testid="status"]')?.textContent !== '');
      await nextFrame(page);
      return page;
    };
    const page = await fresh('space=graph');
    assert.equal(await hook(page, 'map').inputValue(), 'slides-5', 'nothing saved yet: the first preset');
    await click(page, 'graph-new');
    await hook(page, 'grid').scrollIntoViewIfNeeded();
    const box = await hook(page, 'grid').boundingBox();
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.25);
    await nextFrame(page);
    assert.equal(await hook(page, 'grid').getAttribute('data-nodes'), '3');
    await page.waitForFunction(() => localStorage.getItem('pathlab.spaces.v1')?.includes('"graph"'));
    await hook(page, 'algo').selectOption('dijkstra');
    await page.waitForTimeout(600);
    await page.close();

    const again = await fresh('space=graph');
    assert.equal(await hook(again, 'grid').getAttribute('data-nodes'), '3', 'the saved graph is back');
    assert.deepEqual(await again.evaluate(() => [...window.pathlab.lab.labels()]), ['A', 'B', 'C']);
    assert.equal(await hook(again, 'algo').inputValue(), 'dijkstra', 'with its algorithm');
    assert.match(await text(again, 'saved-state'), /saved in this browser/);
    // A preset named in the link wins over the saved graph.
    const named = await fresh('space=graph&map=slides-5');
    assert.equal(await hook(named, 'grid').getAttribute('data-nodes'), '5');
    await named.close();
    await click(again, 'forget');
    await again.close();
    const forgotten = await fresh('space=graph');
    assert.equal(await hook(forgotten, 'map').inputValue(), 'slides-5');
    await forgotten.close();

    // Hexes: paint a wall, reload.
    const hex = await fresh('space=hex&map=wall-gap');
    const p = await hex.evaluate(() => window.pathlab.view.hexPoint(3, 2));
    await hex.mouse.click(p.x, p.y);
    await nextFrame(hex);
    await hex.waitForFunction(() => localStorage.getItem('pathlab.spaces.v1')?.includes('"hex"'));
    const cells = await hex.evaluate(() => window.pathlab.config().grid);
    await hex.close();
    const hexAgain = await fresh('space=hex');
    assert.equal(await hexAgain.evaluate(() => window.pathlab.config().grid), cells, 'the same hexes');
    assert.deepEqual(hexAgain.errors, []);
    await hexAgain.close();

    // A broken saved entry is named and removed; the preset shows.
    const broken = await context.newPage();
    await broken.goto(`${env.base}index.html?space=graph&map=slides-5`);
    await broken.evaluate(() => localStorage.setItem('pathlab.spaces.v1', JSON.stringify({ graph: { graph: '{"nodes": 3}' } })));
    await broken.close();
    const after = await fresh('space=graph');
    assert.match(await text(after, 'message'), /saved in this browser cannot be shown/);
    assert.equal(await hook(after, 'map').inputValue(), 'slides-5');
    await after.close();
    await context.close();
  });

  test('the embed dialog gives iframe code that opens the same graph, embedded and locked', async () => {
    const page = await open(env, 'map=slides-5&space=graph&start=B&goal=E&algo=dijkstra');
    await click(page, 'step', 2);
    await click(page, 'embed-code');
    assert.equal(await hook(page, 'embed-dialog').isVisible(), true);
    await hook(page, 'embed-lock').check();
    await hook(page, 'embed-step').check();
    await nextFrame(page);
    const code = await hook(page, 'embed-snippet').inputValue();
    assert.match(code, /^<iframe src="[^"]+" width="720" height="\d+" title="Pathlab: Dijkstra on [^"]+"/);
    const src = code.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&');
    const url = new URL(src);
    for (const [k, v] of [['space', 'graph'], ['map', 'slides-5'], ['algo', 'dijkstra'], ['embed', '1'], ['lock', '1'], ['step', '2'], ['start', 'B'], ['goal', 'E']]) {
      assert.equal(url.searchParams.get(k), v, k);
    }
    await click(page, 'embed-close');
    await page.close();
    const embedded = await open(env, url.search.slice(1));
    assert.equal(await text(embedded, 'expanded'), '2');
    assert.equal(await hook(embedded, 'embed-code').count(), 0, 'no embed section inside an embed');
    await click(embedded, 'run');
    assert.equal(await cost(embedded), 11);
    assert.deepEqual(embedded.errors, []);
    await embedded.close();

    // An edited hex map carries its cells.
    const hex = await open(env, 'map=wall-gap&space=hex');
    const p = await hex.evaluate(() => window.pathlab.view.hexPoint(3, 2));
    await hex.mouse.click(p.x, p.y);
    await nextFrame(hex);
    await click(hex, 'embed-code');
    const hexCode = await hook(hex, 'embed-snippet').inputValue();
    const hexUrl = new URL(hexCode.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&'));
    assert.equal(hexUrl.searchParams.get('space'), 'hex');
    assert.equal(hexUrl.searchParams.get('grid'), await hex.evaluate(() => window.pathlab.config().grid));
    await hex.close();
  });

  test('every algorithm the core offers on a space runs there; agent, extra value and give-up read-outs follow the core', async () => {
    for (const query of ['map=slides-5&space=graph&start=B&goal=E', 'map=wall-gap&space=hex']) {
      const page = await open(env, query);
      const offered = await page.evaluate(() => window.pathlab.lab.algorithms().filter((a) => a.ok).map((a) => a.name));
      assert.ok(offered.includes('astar') && offered.includes('bfs'));
      for (const algo of offered) {
        await hook(page, 'algo').selectOption(algo);
        for (let k = 0; k < 3 && (await hook(page, 'step').isEnabled()); k++) await click(page, 'step');
        const core = await page.evaluate(() => {
          const lab = window.pathlab.lab;
          const agent = lab.agentNode;
          return {
            agent: agent === undefined || agent === null ? '' : lab.labels()[agent],
            label: lab.cellValuesLabel ?? null,
            start: lab.start,
          };
        });
        assert.equal(await hook(page, 'grid').getAttribute('data-agent'), core.agent, `${algo}: the agent marker`);
        await hook(page, 'grid').focus();
        await page.keyboard.press('Shift+ArrowRight');
        await nextFrame(page);
        const info = await cellInfo(page);
        if (core.label) assert.ok(core.label in info, `${algo}: ${core.label} in the read-out`);
        else assert.deepEqual(Object.keys(info), [query.includes('graph') ? 'node' : 'hex', 'g', 'h', 'f', 'parent'], algo);
        await page.keyboard.press('Escape');
        if (await hook(page, 'run').isEnabled()) await click(page, 'run');
        const status = await text(page, 'status');
        assert.ok(['found', 'no-path'].includes(status), `${algo}: ${status}`);
        const gaveUp = await page.evaluate(() => window.pathlab.lab.gaveUp() ?? null);
        assert.equal(await hook(page, 'gave-up').isVisible(), gaveUp !== null, `${algo}: the give-up message`);
        if (gaveUp) assert.equal(await text(page, 'gave-up'), gaveUp);
        await click(page, 'reset');
      }
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  });

  test('screenshots: graph and hexes in compare mode and with the panels open', async () => {
    for (const [width, height] of [[1366, 768], [1920, 1080]]) {
      const size = `${width}x${height}`;
      const g = await open(env, 'map=road-junctions&space=graph&compare=astar,dijkstra,greedy&step=4', { width, height });
      await nextFrame(g);
      await screenshot(g, `spaces-graph-compare-${size}`);
      await g.close();
      const h = await open(env, 'map=mud-field&space=hex&compare=astar,dijkstra,bfs,greedy&step=30', { width, height });
      await nextFrame(h);
      await screenshot(h, `spaces-hex-compare-${size}`);
      await h.close();
      for (const [query, name] of [['map=slides-5&space=graph&start=B&goal=E&step=3', 'graph'], ['map=wall-gap&space=hex&step=12', 'hex']]) {
        const page = await open(env, query, { width, height });
        await page.locator('[data-testid="closed-list"] summary').click();
        await hook(page, 'grid').focus();
        await page.keyboard.press('Shift+ArrowRight');
        await page.keyboard.press('Shift+ArrowRight');
        await nextFrame(page);
        await screenshot(page, `spaces-${name}-panels-${size}`);
        assert.deepEqual(page.errors, []);
        await page.close();
      }
    }
  });
});
