// Files in and out of the page, in real Chromium. In: the MovingAI samples (arena.map and
// AR0011SR.map, each with its longest .scen problem) and the course's 5 x 5 file, through the
// file picker and by a file dropped on the grid, give the cost the CLI gives (`pathlab scen`
// on a one-problem .scen), the .scen optimum, and an independent Dijkstra; a corrupt or
// oversized dropped file keeps the map and says why. Out: the run as JSON and CSV matches
// stepping the page (each step's expanded cell and open-list size, the row count, the final
// status and cost); the PNG export is a PNG; the map exports load back to the same cells.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { movingaiFolder, nextFrame, open, ROOT, screenshot, start, text } from './support/browser.mjs';
import { cheapest, readCourse, readMovingAi, readPage, readScen, sameCost } from './support/dijkstra.mjs';

const testid = (page, id) => page.locator(`[data-testid="${id}"]`);
const attr = (page, name) => testid(page, 'grid').getAttribute(name);

async function cost(page) {
  const raw = await testid(page, 'cost').getAttribute('data-value');
  return raw === '' || raw === null ? null : Number(raw);
}

async function downloaded(page, id) {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), testid(page, id).click()]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

/** The .scen of AR0011SR is not in maps/: it comes from the MovingAI folder ($PATHLAB_MOVINGAI). */
const AR_SCEN = join(movingaiFolder(), 'bg512', 'AR0011SR.map.scen');

/** The problem with the longest optimal path of a .scen file. */
function longest(scenPath) {
  return readScen(readFileSync(scenPath, 'utf8')).reduce((a, b) => (b.optimal > a.optimal ? b : a));
}

const SAMPLES = [
  { name: 'arena.map', path: join(ROOT, 'maps', 'movingai', 'arena.map'), scen: join(ROOT, 'maps', 'movingai', 'arena.map.scen') },
  { name: 'AR0011SR.map', path: join(ROOT, 'maps', 'movingai', 'AR0011SR.map'), scen: AR_SCEN },
];

/** The CLI's cost for one problem: `pathlab scen MAP SCEN --limit 1` on a one-line .scen. */
function cliCost(dir, mapPath, width, height, problem) {
  const scen = join(dir, `one-${problem.start.join('-')}-${problem.goal.join('-')}.scen`);
  const line = [0, 'map', width, height, ...problem.start, ...problem.goal, problem.optimal ?? 0].join('\t');
  writeFileSync(scen, `version 1\n${line}\n`);
  const out = execFileSync(
    'cargo',
    ['run', '--quiet', '--profile', 'ci', '-p', 'pathlab-cli', '--', 'scen', mapPath, scen, '--limit', '1'],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return JSON.parse(out.trim().split('\n')[0]).cost;
}

/** Opens a file from disk through the file picker. */
async function pick(page, path, name) {
  await testid(page, 'load-file').setInputFiles({ name, mimeType: 'text/plain', buffer: readFileSync(path) });
  await nextFrame(page);
}

/**
 * Drops a file with a synthetic drag-and-drop (dragenter, dragover, drop) on the grid, or on
 * the element `on` selects; checks that the page took the drop (prevented the browser's own).
 */
async function drop(page, name, body, on = '[data-testid="grid"]') {
  const taken = await page.evaluate(
    ({ name, body, on }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([body], name, { type: 'text/plain' }));
      const target = document.querySelector(on);
      return ['dragenter', 'dragover', 'drop'].map(
        (type) => !target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true })),
      );
    },
    { name, body, on },
  );
  assert.deepEqual(taken, [true, true, true], 'the page handles dragenter, dragover and drop');
  // The file is read asynchronously.
  await page.waitForFunction(
    (name) => {
      const option = document.querySelector('[data-testid="map"] option:checked');
      const message = document.querySelector('[data-testid="message"]')?.textContent ?? '';
      return option?.textContent.includes(name) || message.includes(name);
    },
    name,
  );
  await nextFrame(page);
}

/** Moves the ends (the editor's drag is tested elsewhere) and runs to the end. */
async function solve(page, s, g) {
  await page.evaluate(([s, g]) => {
    window.pathlab.lab.setStart(s[0], s[1]);
    window.pathlab.lab.setGoal(g[0], g[1]);
  }, [s, g]);
  await testid(page, 'run').click();
  await nextFrame(page);
  assert.equal(await attr(page, 'data-start'), s.join(','));
  assert.equal(await attr(page, 'data-goal'), g.join(','));
  return cost(page);
}

/** Reads the CSV export: the comment lines, the header and the rows as objects. */
function parseCsv(textValue) {
  const lines = textValue.trim().split('\n');
  const comments = lines.filter((l) => l.startsWith('#'));
  const [header, ...rows] = lines.filter((l) => !l.startsWith('#'));
  const keys = header.split(',');
  return { comments, keys, rows: rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [keys[i], v]))) };
}

describe('files in and out', () => {
  let env;
  let dir;
  before(async () => {
    env = await start();
    dir = mkdtempSync(join(tmpdir(), 'pathlab-files-'));
  });
  after(async () => {
    await env?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const sample of SAMPLES) {
    test(`${sample.name} opened by the picker and by a drop costs what the CLI, the .scen and Dijkstra say`, { skip: !sample.scen && 'its .scen file is not beside the repository', timeout: 240_000 }, async () => {
      const problem = longest(sample.scen);
      const body = readFileSync(sample.path, 'utf8');
      const map = readMovingAi(body);
      const cli = cliCost(dir, sample.path, map.width, map.height, problem);
      const reference = cheapest(map, problem.start, problem.goal);
      assert.ok(sameCost(cli, reference), `CLI ${cli}, reference ${reference}`);
      assert.ok(Math.abs(cli - problem.optimal) < 1e-3, `CLI ${cli}, .scen ${problem.optimal}`);

      // wall-gap: real costs (1 and √2) and no corner cutting, as in the .scen files.
      const page = await open(env, 'map=wall-gap');
      await pick(page, sample.path, sample.name);
      assert.equal(await attr(page, 'data-width'), String(map.width));
      assert.match(await testid(page, 'map').locator('option:checked').textContent(), new RegExp(sample.name));
      const picked = await solve(page, problem.start, problem.goal);
      assert.ok(Math.abs(picked - cli) < 1e-9, `picker: page ${picked}, CLI ${cli}`);

      await page.goto(`${env.base}index.html?map=wall-gap`);
      await page.waitForFunction(() => window.pathlab && document.querySelector('[data-testid="status"]').textContent);
      assert.equal(await attr(page, 'data-width'), '20');
      await drop(page, sample.name, body);
      assert.equal(await attr(page, 'data-width'), String(map.width));
      const dropped = await solve(page, problem.start, problem.goal);
      assert.ok(Math.abs(dropped - cli) < 1e-9, `drop: page ${dropped}, CLI ${cli}`);
      if (sample.name === 'arena.map') await screenshot(page, 'files-arena-dropped');
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }

  test('the course 5 x 5 file, by the picker and by a drop, costs what the CLI and Dijkstra say, and 64 by hand in 10/14 costs', async () => {
    const path = join(ROOT, 'maps', 'course-5x5.txt');
    const body = readFileSync(path, 'utf8');
    const course = readCourse(body);
    assert.deepEqual([course.start, course.goal], [[3, 1], [0, 3]]);
    // The CLI reads MovingAI maps: the same cells written as one.
    const rows = [];
    for (let y = 0; y < 5; y++) rows.push(course.open.slice(y * 5, y * 5 + 5).map((o) => (o ? '.' : '@')).join(''));
    const mapPath = join(dir, 'course-5x5.map');
    writeFileSync(mapPath, `type octile\nheight 5\nwidth 5\nmap\n${rows.join('\n')}\n`);
    const cli = cliCost(dir, mapPath, 5, 5, { start: course.start, goal: course.goal });
    const reference = cheapest(course, course.start, course.goal);
    assert.ok(sameCost(cli, reference), `CLI ${cli}, reference ${reference}`);

    const page = await open(env, 'map=wall-gap');
    await pick(page, path, 'course-5x5.txt');
    assert.equal(await attr(page, 'data-start'), '3,1');
    assert.equal(await attr(page, 'data-goal'), '0,3');
    await testid(page, 'run').click();
    await nextFrame(page);
    assert.ok(Math.abs((await cost(page)) - cli) < 1e-9, `picker: ${await cost(page)} vs CLI ${cli}`);

    await testid(page, 'map').selectOption('wall-gap');
    await page.waitForFunction(() => document.querySelector('[data-testid="grid"]').dataset.width === '20');
    // Dropped on the panel rather than the grid: Pathlab takes it all the same.
    await drop(page, 'course-5x5.txt', body, '[data-testid="legend"]');
    assert.equal(await attr(page, 'data-start'), '3,1');
    await testid(page, 'run').click();
    await nextFrame(page);
    assert.ok(Math.abs((await cost(page)) - cli) < 1e-9, `drop: ${await cost(page)} vs CLI ${cli}`);
    // The course's integer costs: round the wall, 64.
    await testid(page, 'costs').selectOption('integer');
    await nextFrame(page);
    assert.equal(await cost(page), 64);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a corrupt or oversized dropped file keeps the map and says why; a drop without files says what to drop', async () => {
    const page = await open(env, 'map=arena');
    await drop(page, 'broken.map', 'type octile\nheight 3\nwidth 3\nmap\n...\n.x.\n...\n');
    let message = await text(page, 'message');
    assert.match(message, /broken\.map.*line 6.*current map is kept/);
    assert.equal(await attr(page, 'data-width'), '49');
    await drop(page, 'huge.txt', `2\n2\n00\n00\n${'0'.repeat(9 * 1024 * 1024)}`);
    message = await text(page, 'message');
    assert.match(message, /huge\.txt.*over the limit of 8388608.*current map is kept/);
    assert.equal(await attr(page, 'data-width'), '49');
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.setData('text/plain', 'just text');
      document.querySelector('[data-testid="grid"]').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    assert.match(await text(page, 'message'), /Only files can be dropped/);
    await testid(page, 'step').click();
    await nextFrame(page);
    assert.equal(await text(page, 'expanded'), '1');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the run exported as JSON and CSV matches stepping the page', async () => {
    const page = await open(env, 'map=wall-gap');
    const json = JSON.parse((await downloaded(page, 'export-json')).bytes.toString('utf8'));
    const csv = parseCsv((await downloaded(page, 'export-csv')).bytes.toString('utf8'));
    assert.equal(json.pathlab, 'run');
    assert.deepEqual(json.map.width, 20);
    assert.deepEqual([json.start, json.goal], [[4, 7], [15, 7]]);
    assert.equal(json.settings.algo, 'astar');
    assert.equal(json.settings.heuristic, 'octile');
    assert.equal(json.truncated, false);
    // Step the page and compare each step with its row.
    for (let k = 1; k <= 25; k++) {
      await testid(page, 'step').click();
      await nextFrame(page);
      const row = json.rows[k - 1];
      assert.equal(row.step, k);
      assert.equal(String(row.open), await text(page, 'open'), `open list after step ${k}`);
      const narration = await text(page, 'narration');
      assert.ok(narration.includes(`expanded (${row.expanded.join(',')})`), `step ${k}: ${narration}`);
      const info = await page.evaluate(([x, y]) => window.pathlab.lab.cellInfo(x, y), row.expanded);
      assert.deepEqual([row.g, row.h, row.f], [info.g, info.h, info.f]);
      assert.equal(row.status, await text(page, 'status'));
      // The CSV row says the same.
      const c = csv.rows[k - 1];
      assert.deepEqual([c.step, c.x, c.y, c.open, c.status], [String(k), String(row.expanded[0]), String(row.expanded[1]), String(row.open), row.status]);
      assert.equal(Number(c.f), row.f);
    }
    await testid(page, 'run').click();
    await nextFrame(page);
    const steps = Number((await text(page, 'steps')).replace('step ', ''));
    assert.equal(json.rows.length, steps);
    assert.equal(csv.rows.length, steps);
    assert.equal(json.steps, steps);
    assert.equal(json.rows.at(-1).status, 'found');
    assert.equal(csv.rows.at(-1).status, 'found');
    assert.equal(json.cost, await cost(page));
    assert.equal(Number(csv.rows.at(-1).cost), await cost(page));
    assert.equal(json.expanded, Number(await text(page, 'expanded')));
    // The first expansion opens the start's open neighbours, each for the first time.
    const first = json.rows[0].opened;
    assert.ok(first.length >= 3);
    for (const o of first) {
      assert.equal(o.old_g, null);
      assert.ok(Math.abs(Math.hypot(o.at[0] - 4, o.at[1] - 7) - o.g) < 1e-9, `g of ${o.at} from the start`);
    }
    assert.deepEqual(csv.keys, ['step', 'x', 'y', 'g', 'h', 'f', 'open', 'status', 'cost']);
    assert.match(csv.comments.join('\n'), /algo=astar.*\n# map 20x12; start 4,7; goal 15,7\n# outcome: found/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the export replays the search switches too: BFS with its neighbours tried west first', async () => {
    // BFS expands in the order it opened cells, so the neighbour order decides every step: a
    // replay in the default order (north first) would part from the page at step 2.
    const page = await open(env, 'map=wall-gap&algo=bfs&order=wsen');
    const json = JSON.parse((await downloaded(page, 'export-json')).bytes.toString('utf8'));
    assert.equal(json.settings.order, 'wsen');
    assert.equal(json.settings.reopen, false);
    assert.equal(json.settings.list, 'priority');
    for (let k = 1; k <= 12; k++) {
      await testid(page, 'step').click();
      await nextFrame(page);
      const narration = await text(page, 'narration');
      assert.ok(narration.includes(`expanded (${json.rows[k - 1].expanded.join(',')})`), `step ${k}: ${narration}`);
    }
    // The start (4,7) opens west, south, east, north, then the diagonals NE, SE, SW, NW.
    const around = [[3, 7], [4, 8], [5, 7], [4, 6], [5, 6], [5, 8], [3, 8], [3, 6]];
    assert.deepEqual(json.rows[0].opened.map((o) => o.at), around);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the export replays the settings on show: BFS, 4-way, with an edit', async () => {
    const page = await open(env, 'map=u-trap&algo=bfs&diagonal=never');
    await page.evaluate(() => window.pathlab.lab.paintLine(3, 3, 3, 9, 0));
    await testid(page, 'run').click();
    await nextFrame(page);
    const json = JSON.parse((await downloaded(page, 'export-json')).bytes.toString('utf8'));
    assert.equal(json.settings.algo, 'bfs');
    assert.equal(json.settings.diagonal, 'never');
    assert.equal(json.rows.length, Number((await text(page, 'steps')).replace('step ', '')));
    assert.equal(json.cost, await cost(page));
    await page.close();
  });

  test('a run longer than 200,000 steps is exported cut off, with a message', { timeout: 120_000 }, async () => {
    const page = await open(env, 'map=wall-gap&algo=dijkstra');
    await testid(page, 'width').fill('600');
    await testid(page, 'height').fill('400');
    await testid(page, 'resize').click();
    // The ends stay where they were on the old map; the goal goes to the far corner, so
    // Dijkstra expands most of the 240,000 cells.
    await page.evaluate(() => window.pathlab.lab.setGoal(599, 399));
    await nextFrame(page);
    const csv = parseCsv((await downloaded(page, 'export-csv')).bytes.toString('utf8'));
    assert.equal(csv.rows.length, 200_000);
    assert.equal(csv.rows.at(-1).status, 'searching');
    assert.equal(csv.rows.at(-1).step, '200000');
    assert.match(csv.comments.join('\n'), /outcome: searching; cost none; steps 200000; .*cut off after 200000 steps/);
    assert.match(await text(page, 'message'), /The run goes on past 200,000 steps; the export holds the first 200,000/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the picture export is a PNG, and the map exports load back to the same cells', async () => {
    const page = await open(env, 'map=maze-small');
    await testid(page, 'run').click();
    await nextFrame(page);
    const png = await downloaded(page, 'export-png');
    assert.match(png.name, /^pathlab-maze-small\.png$/);
    assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.ok(png.bytes.length > 1000);
    const before = await readPage(page);
    const course = await downloaded(page, 'export-course');
    const movingAi = await downloaded(page, 'export-movingai');
    assert.match(movingAi.bytes.toString('utf8'), /^type octile\nheight 21\nwidth 21\nmap\n/);
    await testid(page, 'map').selectOption('wall-gap');
    await page.waitForFunction(() => document.querySelector('[data-testid="grid"]').dataset.width === '20');
    await testid(page, 'load-file').setInputFiles({ name: course.name, mimeType: 'text/plain', buffer: course.bytes });
    await nextFrame(page);
    assert.deepEqual((await readPage(page)).open, before.open);
    await testid(page, 'load-file').setInputFiles({ name: movingAi.name, mimeType: 'text/plain', buffer: movingAi.bytes });
    await nextFrame(page);
    assert.deepEqual((await readPage(page)).open, before.open);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a map file over the size limit is refused by its size, unread: the message names the limit and wasm memory does not grow', async () => {
    const page = await open(env, 'map=maze-small');
    const before = await readPage(page);
    // The page's wasm memory: init() hands back the module the page already started.
    const memory = () => page.evaluate(async () => (await (await import('./pkg/pathlab_wasm.js')).default()).memory.buffer.byteLength);
    const bytesBefore = await memory();
    // 24 MB of a valid-looking map (three times the limit: a copy into wasm memory would grow it
    // by more than the 8 MB allowed below): parsed, it would be "the file ends before ...".
    const big = Buffer.alloc(24 * 1024 * 1024, 46);
    big.write('type octile\nheight 2048\nwidth 2048\nmap\n');
    await testid(page, 'load-file').setInputFiles({ name: 'huge.map', mimeType: 'text/plain', buffer: big });
    await page.waitForFunction(() => /over the limit/.test(document.querySelector('[data-testid="message"]').textContent));
    const message = await text(page, 'message');
    assert.match(message, /huge\.map.*25165824 bytes, over the limit of 8388608/);
    assert.match(message, /current map is kept/);
    assert.deepEqual((await readPage(page)).open, before.open, 'the map is kept');
    assert.ok((await memory()) < bytesBefore + 8 * 1024 * 1024, 'the file was not copied into wasm memory');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('exporting a map with mud warns that the formats have no symbol for it', async () => {
    const page = await open(env, 'map=mud-field');
    await downloaded(page, 'export-course');
    assert.match(await text(page, 'message'), /course file has no symbol for mud or water/);
    await page.close();
  });

  test('a start on the goal cannot be written as a course file: no download, a message naming the cell', async () => {
    const page = await open(env, 'map=course-5x5&start=1,1&goal=1,1');
    let downloads = 0;
    page.on('download', () => { downloads += 1; });
    await testid(page, 'export-course').click();
    await nextFrame(page);
    assert.match(await text(page, 'message'), /course file was not written: the start and the goal are both at \(1,1\)/);
    assert.equal(downloads, 0);
    await page.close();
  });
});
