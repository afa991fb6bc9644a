// Costs on links in real Chromium (www/links.js): a teleport added with the mouse; A* with the
// plain estimate, blind to the teleport, misses the cheapest path (the warning says so and the
// path cost is above an independent Dijkstra over cells and teleports), and with the
// teleport-aware estimate finds it; heights painted with the mouse give read-outs there and
// back equal to an independent Dijkstra with the climb rule; the URL keys (teleports=,
// teleport-h=, heights=, uphill=, downhill=) round-trip, and bad values give a message (as
// text) while the map is kept and the page goes on working.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { cellCentre, drag, nextFrame, open, settled, start, text, withBrowser } from './support/browser.mjs';
import { encodeGrid } from '../www/share.js';

const SHOTS = '/tmp/shots';
const SIZES = [[1366, 768], [1920, 1080]];

/**
 * Cheapest cost from `start` to `goal` on `map` ({ width, height, cells }: 0 wall, else the
 * terrain multiplier), written from the course's rules and sharing no code with the core: a
 * move costs 1 (straight) or sqrt 2 (diagonal, allowed by `diagonal`) times the terrain of the
 * cell entered, plus `uphill` per unit of height climbed or `downhill` per unit descended;
 * a teleport [fx, fy, tx, ty, cost, both] adds an edge of its cost (both ways when `both`).
 */
function dijkstra(map, start, goal, { diagonal = 'no-corner-cutting', teleports = [], heights = null, uphill = 0, downhill = 0 } = {}) {
  const { width, height, cells } = map;
  const open = (x, y) => x >= 0 && y >= 0 && x < width && y < height && cells[y * width + x] !== 0;
  const diagonalOk = (a, b) => ({ never: false, 'no-corner-cutting': a && b, 'at-most-one-blocked': a || b, always: true })[diagonal];
  const jumps = new Map();
  const addJump = (a, b, c) => {
    if (!jumps.has(a)) jumps.set(a, []);
    jumps.get(a).push([b, c]);
  };
  for (const [fx, fy, tx, ty, c, both] of teleports) {
    addJump(fy * width + fx, ty * width + tx, c);
    if (both) addJump(ty * width + tx, fy * width + fx, c);
  }
  const dist = new Array(width * height).fill(Infinity);
  const done = new Array(width * height).fill(false);
  const s = start[1] * width + start[0];
  const t = goal[1] * width + goal[0];
  dist[s] = 0;
  // A plain O(n^2) Dijkstra: the test maps are small, and simple is easy to trust.
  for (;;) {
    let i = -1;
    for (let k = 0; k < dist.length; k++) if (!done[k] && dist[k] < Infinity && (i < 0 || dist[k] < dist[i])) i = k;
    if (i < 0) return null;
    if (i === t) return dist[t];
    done[i] = true;
    const x = i % width;
    const y = (i - x) / width;
    const relax = (j, c) => {
      if (dist[i] + c < dist[j]) dist[j] = dist[i] + c;
    };
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if ((!dx && !dy) || !open(x + dx, y + dy)) continue;
        if (dx && dy && !diagonalOk(open(x + dx, y), open(x, y + dy))) continue;
        const j = (y + dy) * width + x + dx;
        let c = (dx && dy ? Math.SQRT2 : 1) * cells[j];
        if (heights) {
          const rise = heights[j] - heights[i];
          c += rise >= 0 ? uphill * rise : downhill * -rise;
        }
        relax(j, c);
      }
    }
    for (const [j, c] of jumps.get(i) ?? []) if (open(j % width, Math.floor(j / width))) relax(j, c);
  }
}

/** The page's map, read cell by cell through the Lab handle. */
function readMap(page) {
  return page.evaluate(() => {
    const lab = window.pathlab.lab;
    const cells = [];
    for (let y = 0; y < lab.height; y++) for (let x = 0; x < lab.width; x++) cells.push(lab.cell(x, y));
    return { width: lab.width, height: lab.height, cells, start: [lab.startX, lab.startY], goal: [lab.goalX, lab.goalY] };
  });
}

async function cost(page) {
  await nextFrame(page);
  const raw = await page.locator('[data-testid="cost"]').getAttribute('data-value');
  return raw === '' || raw === null ? null : Number(raw);
}

async function dataValue(page, id) {
  await nextFrame(page);
  const raw = await page.locator(`[data-testid="${id}"]`).getAttribute('data-value');
  return raw === '' || raw === null ? null : Number(raw);
}

/** Clicks the centre of cell (x, y) with the grid scrolled into view. */
async function clickCell(page, x, y) {
  await page.locator('[data-testid="grid"]').evaluate((c) => c.scrollIntoView({ block: 'center' }));
  const p = await cellCentre(page, x, y);
  await page.mouse.click(p.x, p.y);
  await nextFrame(page);
}

/** Sets a range input (the height brush) as a person dragging its thumb would. */
async function setRange(page, id, value) {
  await page.locator(`[data-testid="${id}"]`).evaluate((input, v) => {
    input.value = v;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, String(value));
}

/** Waits until the deferred modules, the Links section among them, are on the page. */
async function linksReady(page) {
  await page.waitForSelector('[data-testid="teleport-tool"]', { timeout: 15000 });
  await nextFrame(page);
}

/** Screenshots of the page at each size: the view as it opens, and scrolled to the Links section. */
async function shots(env, query, name, prepare) {
  mkdirSync(SHOTS, { recursive: true });
  for (const [width, height] of SIZES) {
    const page = await open(env, query, { width, height });
    await linksReady(page);
    await prepare(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await nextFrame(page);
    await page.screenshot({ path: `${SHOTS}/links-${name}-${width}x${height}.png` });
    await page.locator('[data-testid="links"]').evaluate((s) => s.scrollIntoView({ block: 'start' }));
    await nextFrame(page);
    await page.screenshot({ path: `${SHOTS}/links-${name}-panel-${width}x${height}.png` });
    assert.deepEqual(page.errors, []);
    await page.close();
  }
}

/** The 20 x 8 teleport map: open, with a short wall across the straight way (column 10, rows 2-5). */
function teleportMap() {
  const width = 20;
  const height = 8;
  const cells = new Array(width * height).fill(1);
  for (let y = 2; y <= 5; y++) cells[y * width + 10] = 0;
  return { width, height, cells };
}

const TELEPORT_QUERY = `grid=${encodeGrid(teleportMap())}&start=2,4&goal=17,4&algo=astar&diagonal=no-corner-cutting&heuristic=octile`;

describe('links: teleports and slopes', () => {
  const env = withBrowser();

  test('a teleport added by mouse: plain A* misses the cheapest path and says so; teleport-aware A* finds it', async () => {
    const page = await open(env, TELEPORT_QUERY, { width: 1366, height: 768 });
    await linksReady(page);
    await page.locator('[data-testid="teleport-cost"]').fill('1');
    await page.locator('[data-testid="teleport-tool"]').click();
    assert.equal(await page.locator('[data-testid="teleport-tool"]').getAttribute('aria-pressed'), 'true');
    // Entry two cells below the start, exit two cells below the goal: click one, then the other.
    await clickCell(page, 2, 6);
    assert.match(await text(page, 'links-hint'), /Entry \(2,6\) chosen/);
    await clickCell(page, 17, 6);
    const links = await page.evaluate(() => window.pathlab.lab.links());
    assert.equal(links.kind, 'teleports');
    assert.deepEqual(links.teleports, [[2, 6, 17, 6, 1, false]]);
    assert.equal(await page.locator('[data-testid="teleport-list"] li').count(), 1);
    // Clicking cells with the tool painted no wall.
    assert.equal(await page.evaluate(() => window.pathlab.lab.cell(2, 6)), 1);

    const map = await readMap(page);
    const teleports = [[2, 6, 17, 6, 1, 0]];
    const want = dijkstra(map, map.start, map.goal, { teleports });
    assert.equal(want, 5, 'down 2, jump 1, up 2');
    assert.ok(Math.abs(want - (await dataValue(page, 'links-there'))) < 1e-9);

    await page.locator('[data-testid="teleport-heuristic"]').selectOption('plain');
    await page.locator('[data-testid="run"]').click();
    assert.equal(await settled(page, 'status'), 'found');
    const plain = await cost(page);
    assert.ok(plain > want + 1, `plain A* should miss the teleport: ${plain} vs ${want}`);
    const warning = page.locator('[data-testid="links-warning"]');
    assert.equal(await warning.isVisible(), true);
    const said = await warning.textContent();
    assert.match(said, /plain estimate/);
    assert.match(said, /overestimates/);
    assert.match(said, /may miss the cheapest path/);
    assert.ok(said.includes(`A* found ${plain.toFixed(2)}; the cheapest is 5.`), said);
    // The settings know the estimate is no longer admissible.
    assert.equal(await page.evaluate(() => window.pathlab.lab.settings().admissible), false);
    // The URL holds the teleport and the estimate.
    const search = await page.evaluate(() => location.search);
    assert.match(search, /teleports=2\.6\.17\.6\.1\.0/);
    assert.match(search, /teleport-h=plain/);

    await page.locator('[data-testid="teleport-heuristic"]').selectOption('teleports');
    assert.equal(await settled(page, 'status'), 'found');
    const aware = await cost(page);
    assert.ok(Math.abs(aware - want) < 1e-9, `teleport-aware A* ${aware}, Dijkstra ${want}`);
    assert.equal(await warning.isVisible(), false);
    assert.equal(await page.evaluate(() => window.pathlab.lab.settings().admissible), true);

    // A second teleport by dragging from its entry to its exit, then deleted from the list.
    await page.locator('[data-testid="teleport-both"]').check();
    await page.locator('[data-testid="teleport-cost"]').fill('2.5');
    await drag(page, [[5, 1], [8, 1]]);
    let now = await page.evaluate(() => window.pathlab.lab.links().teleports);
    assert.deepEqual(now[1], [5, 1, 8, 1, 2.5, true]);
    assert.match(await page.evaluate(() => location.search), /teleports=2\.6\.17\.6\.1\.0_5\.1\.8\.1\.2\.5\.1/);
    await page.locator('[data-testid="teleport-delete"]').nth(1).click();
    now = await page.evaluate(() => window.pathlab.lab.links().teleports);
    assert.deepEqual(now, [[2, 6, 17, 6, 1, false]]);

    // A wall painted on the exit takes the teleport away, with a word.
    await page.locator('[data-testid="teleport-tool"]').click();
    assert.equal(await page.locator('[data-testid="teleport-tool"]').getAttribute('aria-pressed'), 'false');
    await drag(page, [[16, 6], [18, 6]]);
    assert.equal(await page.evaluate(() => window.pathlab.lab.links().kind), 'none');
    assert.match(await text(page, 'message'), /teleport was removed: a wall was painted on its end/);
    assert.equal(await settled(page, 'status'), 'found');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the teleport example shows plain A* missing the shortcut', async () => {
    const page = await open(env, 'map=wall-gap', { width: 1366, height: 768 });
    await linksReady(page);
    await page.locator('[data-testid="teleport-example"]').click();
    await page.locator('[data-testid="run"]').click();
    await nextFrame(page);
    const map = await readMap(page);
    const links = await page.evaluate(() => window.pathlab.lab.links());
    const want = dijkstra(map, map.start, map.goal, { teleports: links.teleports.map((t) => t.map(Number)) });
    const got = await cost(page);
    assert.ok(got > want + 1, `${got} vs ${want}`);
    assert.match(await text(page, 'links-warning'), new RegExp(`A\\* found ${got.toFixed(2)}; the cheapest is ${want}\\.`));
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('heights painted by mouse: the way there and the way back each equal an independent Dijkstra', async () => {
    // wall-gap: start (4,7), goal (15,7), a wall down column 10 with its gap at row 2.
    const page = await open(env, 'map=wall-gap&diagonal=no-corner-cutting', { width: 1366, height: 768 });
    await linksReady(page);
    await page.locator('[data-testid="height-tool"]').click();
    // A plateau of height 5 round the start, and a ridge of height 2 on the far side of the wall.
    await setRange(page, 'height-value', 5);
    for (const y of [6, 7, 8]) await drag(page, [[2, y], [6, y]]);
    await setRange(page, 'height-value', 2);
    await drag(page, [[12, 1], [12, 10]]);
    const heights = Array.from(await page.evaluate(() => window.pathlab.lab.heights()));
    const map = await readMap(page);
    for (const y of [6, 7, 8]) for (let x = 2; x <= 6; x++) assert.equal(heights[y * map.width + x], 5, `(${x},${y})`);
    for (let y = 1; y <= 10; y++) assert.equal(heights[y * map.width + 12], 2, `(12,${y})`);
    assert.equal(heights.filter((h) => h > 0).length, 15 + 10);
    // No wall was painted by the height tool.
    assert.equal(map.cells[7 * map.width + 4], 1);

    const check = async (uphill, downhill) => {
      const rule = { heights, uphill, downhill };
      const there = dijkstra(map, map.start, map.goal, rule);
      const back = dijkstra(map, map.goal, map.start, rule);
      assert.ok(Math.abs(there - (await dataValue(page, 'links-there'))) < 1e-9, `there: page vs ${there}`);
      assert.ok(Math.abs(back - (await dataValue(page, 'links-back'))) < 1e-9, `back: page vs ${back}`);
      assert.ok(back > there + 1, `climbing back costs more: ${there} there, ${back} back`);
      const shown = await text(page, 'links-costs');
      assert.match(shown, /start → goal: .+, goal → start: /);
      return there;
    };
    let there = await check(2, 0.5);
    // A* (octile stays admissible on slopes) walks the cheapest way there.
    await page.locator('[data-testid="run"]').click();
    assert.ok(Math.abs((await cost(page)) - there) < 1e-9);
    // Dearer climbing: the read-outs follow.
    await page.locator('[data-testid="uphill"]').fill('3');
    await page.locator('[data-testid="uphill"]').press('Enter');
    await page.locator('[data-testid="downhill"]').fill('0');
    await page.locator('[data-testid="downhill"]').press('Enter');
    await nextFrame(page);
    const view = await page.evaluate(() => window.pathlab.lab.links());
    assert.deepEqual([view.kind, view.uphill, view.downhill], ['slopes', 3, 0]);
    there = await check(3, 0);
    assert.ok(Math.abs((await cost(page)) - there) < 1e-9);
    // The URL carries the heights, and a reload shows the same.
    const search = await page.evaluate(() => location.search);
    assert.match(search, /heights=20\.12\./);
    assert.match(search, /uphill=3/);
    assert.match(search, /downhill=0(&|$)/);
    const again = await open(env, search.slice(1), { width: 1366, height: 768 });
    await linksReady(again);
    assert.deepEqual(Array.from(await again.evaluate(() => window.pathlab.lab.heights())), heights);
    assert.ok(Math.abs((await dataValue(again, 'links-there')) - there) < 1e-9);
    await again.close();
    // Remove links: no heights, the read-out goes.
    await page.locator('[data-testid="remove-links"]').click();
    assert.equal(await page.evaluate(() => window.pathlab.lab.links().kind), 'none');
    assert.equal(await page.locator('[data-testid="links-costs"]').isVisible(), false);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('teleports in the URL are read back, and a share link keeps them', async () => {
    const page = await open(env, 'map=wall-gap&teleports=4.9.15.9.0.5.1&teleport-h=plain', { width: 1366, height: 768 });
    await linksReady(page);
    await page.waitForFunction(() => window.pathlab.lab.links().kind === 'teleports');
    assert.deepEqual(await page.evaluate(() => window.pathlab.lab.links().teleports), [[4, 9, 15, 9, 0.5, true]]);
    assert.equal(await page.locator('[data-testid="teleport-heuristic"]').inputValue(), 'plain');
    assert.equal(await page.locator('[data-testid="message"]').isVisible(), false);
    await page.locator('[data-testid="share"]').click();
    const link = await page.locator('[data-testid="share-url"]').inputValue();
    assert.match(link, /teleports=4\.9\.15\.9\.0\.5\.1/);
    assert.match(link, /teleport-h=plain/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('bad link values give a specific message as text; the map is kept and the page works', async () => {
    const cases = [
      ['teleports=<b>x</b>_1.1.2.2.1.1', /Parameter "teleports": teleport 1 is "<b>x<\/b>", not FX\.FY\.TX\.TY\.COST\.BOTH/],
      ['teleports=1.1.10.5.1.0', /Parameter "teleports": teleport 1: its exit \(10,5\) is a wall/],
      ['teleports=1.1.99.5.1.0', /Parameter "teleports": teleport 1: its exit \(99,5\) is outside the 20 x 12 map/],
      ['teleports=1.1.3.3.1.0&teleport-h=maybe', /Parameter "teleport-h": expected plain .* got "maybe"/],
      [`heights=${encodeGrid({ width: 3, height: 3, cells: new Array(9).fill(2) })}`, /Parameter "heights": the heights cannot be used: they are for a 3 x 3 map, but this map is 20 x 12/],
      ['heights=3.3.AAA', /Parameter "heights": the heights cannot be used: the cell data describes 2 cells, but 3x3 cells need 9/],
      ['uphill=-1', /Parameter "uphill": expected a number from 0/],
    ];
    for (const [query, message] of cases) {
      const page = await open(env, `map=wall-gap&${query}`, { width: 1366, height: 768 });
      await linksReady(page);
      await nextFrame(page);
      const shown = await text(page, 'message');
      assert.match(shown, message, query);
      assert.equal(await page.locator('[data-testid="message"] b').count(), 0, 'no markup from the URL');
      assert.equal(await page.locator('[data-testid="map"]').inputValue(), 'wall-gap', 'the map is kept');
      const kind = await page.evaluate(() => window.pathlab.lab.links().kind);
      assert.equal(kind, query.startsWith('teleports=1.1.3.3') ? 'teleports' : 'none', query);
      await page.locator('[data-testid="run"]').click();
      assert.equal(await settled(page, 'status'), 'found');
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  });

  test('screenshots at 1366x768 and 1920x1080', async () => {
    await shots(env, TELEPORT_QUERY, 'teleport', async (page) => {
      await page.locator('[data-testid="teleport-example"]').click();
      await page.locator('[data-testid="run"]').click();
      await nextFrame(page);
    });
    await shots(env, 'map=wall-gap', 'heights', async (page) => {
      await page.locator('[data-testid="height-tool"]').click();
      await setRange(page, 'height-value', 5);
      for (const y of [6, 7, 8]) await drag(page, [[2, y], [6, y]]);
      await setRange(page, 'height-value', 2);
      await drag(page, [[12, 1], [12, 10]]);
      await page.locator('[data-testid="run"]').click();
      await nextFrame(page);
    });
  });
});
