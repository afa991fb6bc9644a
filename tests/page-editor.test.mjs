// The map editor in real Chromium, driven with the mouse and the keyboard: the maze, rooms and
// random generators (the page finds a path on the maze and on the rooms, at the cost an
// independent Dijkstra gives on the map exported from the page; the maze is perfect; the
// random walls come close to the density on the slider; the same seed gives the same map);
// the erase brush; resizing within the core's 2048 limit, with a message beyond it; and an
// edited preset becoming the user's own map (the URL stops naming the preset).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { drag, nextFrame, open, screenshot, start, text, withBrowser } from './support/browser.mjs';
import { cheapest, readMovingAi, readPage } from './support/dijkstra.mjs';

const testid = (page, id) => page.locator(`[data-testid="${id}"]`);
const attr = (page, name) => testid(page, 'grid').getAttribute(name);
const point = async (page, name) => (await attr(page, name)).split(',').map(Number);
const cellValue = (page, x, y) => page.evaluate(([x, y]) => window.pathlab.lab.cell(x, y), [x, y]);

async function cost(page) {
  const raw = await testid(page, 'cost').getAttribute('data-value');
  return raw === '' || raw === null ? null : Number(raw);
}

/** Clicks an export button and returns the downloaded file's name and bytes. */
async function downloaded(page, id) {
  const [file] = await Promise.all([page.waitForEvent('download'), testid(page, id).click()]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

/** Types a size into the width and height inputs and presses the resize button. */
async function resize(page, w, h) {
  await testid(page, 'width').fill(String(w));
  await testid(page, 'height').fill(String(h));
  await testid(page, 'resize').click();
  await nextFrame(page);
}

/** Chooses a generator and seed with the mouse and presses Generate. */
async function generate(page, kind, seed) {
  await testid(page, 'generator').selectOption(kind);
  await testid(page, 'seed').fill(String(seed));
  await testid(page, 'generate').click();
  await nextFrame(page);
}

async function runToEnd(page) {
  await testid(page, 'run').click();
  await nextFrame(page);
}

/** Open cells and 4-adjacent open pairs, and how many open cells the start reaches (4-way). */
function shape(map, from) {
  const { width, height, open } = map;
  let nodes = 0;
  let edges = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!open[y * width + x]) continue;
      nodes++;
      if (x + 1 < width && open[y * width + x + 1]) edges++;
      if (y + 1 < height && open[(y + 1) * width + x]) edges++;
    }
  }
  const seen = new Uint8Array(width * height);
  const queue = [from[1] * width + from[0]];
  seen[queue[0]] = 1;
  for (let k = 0; k < queue.length; k++) {
    const i = queue[k];
    const x = i % width;
    const y = (i - x) / width;
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const nx = x + dx;
      const ny = y + dy;
      const j = ny * width + nx;
      if (nx >= 0 && ny >= 0 && nx < width && ny < height && open[j] && !seen[j]) {
        seen[j] = 1;
        queue.push(j);
      }
    }
  }
  return { nodes, edges, reached: queue.length };
}

describe('map editor', () => {
  const env = withBrowser();

  test('a generated maze is perfect, and the page finds the cost Dijkstra finds on the exported map', async () => {
    const page = await open(env, 'map=wall-gap');
    await resize(page, 41, 31);
    assert.equal(await attr(page, 'data-width'), '41');
    await generate(page, 'maze', 7);
    assert.match(await text(page, 'map-title'), /maze.*seed 7/);
    assert.deepEqual(await point(page, 'data-start'), [1, 1]);
    assert.deepEqual(await point(page, 'data-goal'), [39, 29]);
    await runToEnd(page);
    assert.equal(await text(page, 'status'), 'found');
    const got = await cost(page);

    const file = await downloaded(page, 'export-movingai');
    assert.match(file.name, /\.map$/);
    const exported = readMovingAi(file.bytes.toString('utf8'));
    assert.equal(exported.width, 41);
    const want = cheapest(exported, [1, 1], [39, 29], { diagonal: await testid(page, 'diagonal').inputValue() });
    assert.ok(want !== null && Math.abs(got - want) < 1e-9, `page ${got}, reference ${want}`);
    // Perfect: 20 x 15 maze cells, one passage fewer than open cells, all reached.
    const { nodes, edges, reached } = shape(exported, [1, 1]);
    assert.equal(nodes, 2 * 20 * 15 - 1);
    assert.equal(edges, nodes - 1);
    assert.equal(reached, nodes);
    await screenshot(page, 'editor-maze');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the same seed gives the same maze, another seed another; Enter in the seed field generates', async () => {
    const page = await open(env, 'map=maze-small');
    await generate(page, 'maze', 123);
    const first = (await readPage(page)).terrain;
    await generate(page, 'maze', 124);
    const second = (await readPage(page)).terrain;
    assert.notDeepEqual(second, first);
    // Keyboard only: focus the seed, type, press Enter.
    await testid(page, 'seed').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('123');
    await page.keyboard.press('Enter');
    await nextFrame(page);
    assert.deepEqual((await readPage(page)).terrain, first);
    await page.close();
  });

  test('rooms are all connected through their doors, and the path costs what Dijkstra says', async () => {
    const page = await open(env, 'map=wall-gap');
    await resize(page, 48, 32);
    await generate(page, 'rooms', 11);
    const map = await readPage(page);
    const s = await point(page, 'data-start');
    const g = await point(page, 'data-goal');
    const { nodes, reached } = shape(map, s);
    assert.equal(reached, nodes, 'every open cell is reachable from the start');
    assert.ok(map.open.filter((o) => !o).length > 100, 'there are walls between rooms');
    await runToEnd(page);
    assert.equal(await text(page, 'status'), 'found');
    const want = cheapest(map, s, g, { diagonal: await testid(page, 'diagonal').inputValue() });
    assert.ok(Math.abs((await cost(page)) - want) < 1e-9);
    await screenshot(page, 'editor-rooms');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('random walls come close to the density set on the slider with the keyboard', async () => {
    const page = await open(env, 'map=wall-gap');
    await resize(page, 80, 60);
    await testid(page, 'generator').selectOption('random');
    const slider = testid(page, 'density');
    assert.ok(await slider.isVisible(), 'the density slider shows for random walls');
    assert.equal(await slider.inputValue(), '30');
    await slider.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    assert.equal(await slider.inputValue(), '35');
    await testid(page, 'seed').fill('5');
    await testid(page, 'generate').click();
    await nextFrame(page);
    const map = await readPage(page);
    const walls = map.open.filter((o) => !o).length / map.open.length;
    // 4,800 cells: one standard deviation is under 0.007.
    assert.ok(Math.abs(walls - 0.35) < 0.03, `wall density ${walls}`);
    const s = await point(page, 'data-start');
    const g = await point(page, 'data-goal');
    assert.ok(map.open[s[1] * 80 + s[0]] && map.open[g[1] * 80 + g[0]], 'the ends are open');
    await runToEnd(page);
    const want = cheapest(map, s, g, { diagonal: await testid(page, 'diagonal').inputValue() });
    assert.equal(await text(page, 'status'), want === null ? 'no-path' : 'found');
    if (want !== null) assert.ok(Math.abs((await cost(page)) - want) < 1e-9);
    // The slider hides again for the other generators.
    await testid(page, 'generator').selectOption('maze');
    assert.equal(await slider.isVisible(), false);
    await page.close();
  });

  test('the erase brush paints ground over walls and leaves ground alone', async () => {
    const page = await open(env, 'map=wall-gap');
    await testid(page, 'brush').selectOption('1');
    assert.equal(await cellValue(page, 10, 4), 0);
    // Start on ground and drag across the wall: everything on the way becomes ground.
    await drag(page, [[8, 4], [12, 4]]);
    for (let x = 8; x <= 12; x++) assert.equal(await cellValue(page, x, 4), 1, `(${x},4) is ground`);
    assert.equal(await cellValue(page, 10, 3), 0, 'cells off the drag stay walls');
    await page.close();
  });

  test('resizing keeps the cells that fit and the ends; sizes past 2048 are refused by name', async () => {
    const page = await open(env, 'map=wall-gap');
    const before = await readPage(page);
    await resize(page, 3000, 12);
    assert.match(await text(page, 'message'), /Width: a map may be 1 to 2048 cells wide; got "3000"\. The map is unchanged\./);
    await resize(page, 20, 0);
    assert.match(await text(page, 'message'), /Height: a map may be 1 to 2048 cells high; got "0"/);
    assert.equal(await attr(page, 'data-width'), '20');
    await resize(page, 26, 9);
    const after = await readPage(page);
    assert.equal(after.width, 26);
    assert.equal(after.height, 9);
    for (let y = 0; y < 9; y++) {
      for (let x = 0; x < 26; x++) {
        const want = x < 20 ? before.terrain[y * 20 + x] : 1;
        assert.equal(after.terrain[y * 26 + x], want, `(${x},${y})`);
      }
    }
    assert.deepEqual(await point(page, 'data-start'), [4, 7]);
    assert.deepEqual(await point(page, 'data-goal'), [15, 7]);
    // The largest size is allowed.
    await resize(page, 2048, 2);
    assert.equal(await attr(page, 'data-width'), '2048');
    await runToEnd(page);
    assert.equal(await text(page, 'status'), 'found');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('an edited preset becomes your own map: the URL stops naming the preset', async () => {
    const page = await open(env, 'map=u-trap');
    await testid(page, 'algo').selectOption('dijkstra');
    assert.equal(new URL(page.url()).searchParams.get('map'), 'u-trap');
    await drag(page, [[2, 2], [2, 5]]);
    assert.equal(new URL(page.url()).searchParams.get('map'), null);
    assert.equal(new URL(page.url()).searchParams.get('algo'), 'dijkstra');
    const option = testid(page, 'map').locator('option:checked');
    assert.match(await option.textContent(), /edited/);
    // Choosing the preset again brings it back as it was.
    await testid(page, 'map').selectOption('u-trap');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('map') === 'u-trap');
    assert.equal(await cellValue(page, 2, 3), 1);
    await page.close();
  });

  test('a generator refused by the core keeps the map and says why', async () => {
    const page = await open(env, 'map=course-5x5');
    await resize(page, 3, 3);
    const before = await readPage(page);
    await generate(page, 'maze', 1);
    assert.match(await text(page, 'message'), /Generate: a maze cannot be made on a 3x3 grid.*The map is unchanged/);
    assert.deepEqual((await readPage(page)).terrain, before.terrain);
    await testid(page, 'seed').fill('-4');
    await testid(page, 'generate').click();
    assert.match(await text(page, 'message'), /Seed: a seed is a whole number from 0 to 4294967295; got "-4"/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
