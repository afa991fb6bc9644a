// Keeping and sharing maps, in real Chromium. A painted map survives a reload (same walls,
// same cost) and comes back with its settings when the page opens without a map; "forget
// saved map" removes it; full or disabled storage gives a message and the page goes on. A
// share link opened in a fresh browser context reproduces the map, the ends, the settings and
// the cost; a map whose link would be too long says to export a file instead; hostile grid=
// values give a message naming the parameter and the default map, with no script run.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { drag, freshPage, nextFrame, screenshot, start, text, visit, withBrowser } from './support/browser.mjs';
import { readPage } from './support/dijkstra.mjs';

const KEY = 'pathlab.saved.v1';
const testid = (page, id) => page.locator(`[data-testid="${id}"]`);
const attr = (page, name) => testid(page, 'grid').getAttribute(name);
const cellValue = (page, x, y) => page.evaluate(([x, y]) => window.pathlab.lab.cell(x, y), [x, y]);

async function cost(page) {
  const raw = await testid(page, 'cost').getAttribute('data-value');
  return raw === '' || raw === null ? null : Number(raw);
}

const fresh = freshPage;

async function runToEnd(page) {
  await testid(page, 'run').click();
  await nextFrame(page);
}

/** Waits until the autosave has written a map (it waits for the edits to pause). */
function saved(page) {
  return page.waitForFunction((key) => JSON.parse(localStorage.getItem(key) ?? 'null')?.map, KEY);
}

describe('keeping and sharing maps', () => {
  const env = withBrowser();

  test('painted walls survive a reload, with the same cost', async () => {
    const { context, page } = await fresh(env);
    await visit(page, `${env.base}index.html`);
    await drag(page, [[13, 2], [13, 10]]);
    await runToEnd(page);
    const before = await cost(page);
    assert.equal(await text(page, 'status'), 'found');
    await saved(page);
    // The URL no longer names the preset, so a reload restores the saved map.
    assert.equal(new URL(page.url()).searchParams.get('map'), null);
    await page.reload();
    await page.waitForFunction(() => window.pathlab && document.querySelector('[data-testid="status"]').textContent);
    for (let y = 2; y <= 10; y++) assert.equal(await cellValue(page, 13, y), 0, `(13,${y}) is still a wall`);
    assert.equal(await attr(page, 'data-start'), '4,7');
    assert.match(await text(page, 'saved-state'), /restored/);
    await runToEnd(page);
    assert.equal(await cost(page), before);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('a page opened without a map gets the saved map and settings; the URL still wins', async () => {
    const { context, page } = await fresh(env);
    await visit(page, `${env.base}index.html?map=maze-small`);
    await testid(page, 'generator').selectOption('rooms');
    await testid(page, 'seed').fill('3');
    await testid(page, 'generate').click();
    await testid(page, 'algo').selectOption('dijkstra');
    await testid(page, 'diagonal').selectOption('never');
    await saved(page);
    await page.waitForFunction((key) => JSON.parse(localStorage.getItem(key)).settings.diagonal === 'never', KEY);
    const cells = (await readPage(page)).terrain;
    await runToEnd(page);
    const want = await cost(page);

    const other = await context.newPage();
    other.errors = [];
    other.on('pageerror', (e) => other.errors.push(`pageerror: ${e.message}`));
    await visit(other, `${env.base}index.html`);
    assert.deepEqual((await readPage(other)).terrain, cells);
    assert.equal(await testid(other, 'algo').inputValue(), 'dijkstra');
    assert.equal(await testid(other, 'diagonal').inputValue(), 'never');
    await runToEnd(other);
    assert.equal(await cost(other), want);
    // A setting in the URL is taken over the saved one; a map in the URL shows that map.
    await visit(other, `${env.base}index.html?algo=bfs`);
    assert.equal(await testid(other, 'algo').inputValue(), 'bfs');
    assert.deepEqual((await readPage(other)).terrain, cells);
    await visit(other, `${env.base}index.html?map=u-trap`);
    assert.equal(await attr(other, 'data-width'), '24');
    assert.deepEqual(other.errors, []);
    await context.close();
  });

  test('"forget saved map" removes it: the next visit shows the default map', async () => {
    const { context, page } = await fresh(env);
    await visit(page, `${env.base}index.html`);
    await drag(page, [[2, 2], [2, 9]]);
    await saved(page);
    await testid(page, 'forget').click();
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), KEY), null);
    assert.match(await text(page, 'narration'), /Forgot the saved map/);
    await visit(page, `${env.base}index.html`);
    assert.equal(await testid(page, 'map').inputValue(), 'wall-gap');
    assert.equal(await cellValue(page, 2, 5), 1);
    await context.close();
  });

  test('full storage gives a message and the page goes on working', async () => {
    const { context, page } = await fresh(env);
    await context.addInitScript(() => {
      Storage.prototype.setItem = function setItem() {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
    });
    await visit(page, `${env.base}index.html`);
    await drag(page, [[13, 2], [13, 10]]);
    await page.waitForFunction(() => document.querySelector('[data-testid="message"]').textContent.includes('could not be saved'));
    assert.match(await text(page, 'message'), /Your map could not be saved in this browser: the browser's storage for this page is full\. Export it as a file to keep it\./);
    assert.equal(await text(page, 'saved-state'), 'Not saved.');
    await runToEnd(page);
    assert.equal(await text(page, 'status'), 'found');
    // One message, not one per edit.
    await drag(page, [[15, 2], [15, 5]]);
    await page.waitForTimeout(700);
    assert.equal((await text(page, 'message')).match(/could not be saved/g).length, 1);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('storage turned off gives a message, never a broken page', async () => {
    const { context, page } = await fresh(env);
    await context.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('Access is denied for this document.', 'SecurityError');
        },
      });
    });
    await visit(page, `${env.base}index.html`);
    assert.equal(await testid(page, 'map').inputValue(), 'wall-gap');
    await drag(page, [[13, 2], [13, 10]]);
    await page.waitForFunction(() => document.querySelector('[data-testid="message"]').textContent.includes('could not be saved'));
    assert.match(await text(page, 'message'), /does not let the page use its storage/);
    await testid(page, 'forget').click();
    assert.match(await text(page, 'message'), /could not be removed/);
    await testid(page, 'step').click();
    await nextFrame(page);
    assert.equal(await text(page, 'expanded'), '1');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('a saved start or goal that is not a cell is refused with a message, not turned into a cell', async () => {
    const { context, page } = await fresh(env);
    await visit(page, `${env.base}index.html`);
    await drag(page, [[13, 2], [13, 10]]);
    await saved(page);
    const defaults = [await attr(page, 'data-start'), await attr(page, 'data-goal')];
    // The page's own record, with ends no cell can have.
    await page.evaluate((key) => {
      const record = JSON.parse(localStorage.getItem(key));
      record.map.start = [1e308, 1e308];
      record.map.goal = [2.5, '3'];
      localStorage.setItem(key, JSON.stringify(record));
    }, KEY);
    await page.reload();
    await page.waitForFunction(() => window.pathlab && document.querySelector('[data-testid="status"]').textContent);
    const message = await text(page, 'message');
    assert.match(message, /The start "1e\+308,1e\+308" of the saved map is not a cell of its \d+ x \d+ map/);
    assert.match(message, /The goal "2\.5,3" of the saved map is not a cell/);
    assert.notEqual(await attr(page, 'data-start'), '0,0', 'the start was not turned into (0,0)');
    assert.deepEqual([await attr(page, 'data-start'), await attr(page, 'data-goal')], defaults, "the map's own ends");
    for (let y = 2; y <= 10; y++) assert.equal(await cellValue(page, 13, y), 0, 'the saved walls are kept');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('a corrupt saved record gives a message and the default map', async () => {
    const { context, page } = await fresh(env);
    await context.addInitScript((key) => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem(key, JSON.stringify({ version: 1, map: { grid: '9999.9999.AAAA', start: [1, 1] }, settings: { algo: '<b>x</b>' } }));
        sessionStorage.setItem('seeded', '1');
      }
    }, KEY);
    await visit(page, `${env.base}index.html`);
    const message = await text(page, 'message');
    assert.match(message, /Saved settings: Parameter "algo": unknown algorithm "<b>x<\/b>"/);
    assert.match(message, /The map saved in this browser cannot be used \(a grid of 9999x9999 is over the limit/);
    assert.equal(await testid(page, 'map').inputValue(), 'wall-gap');
    assert.equal(await testid(page, 'message').locator('b').count(), 0);
    await context.close();
  });

  test('a share link opened in a fresh browser reproduces the map, the settings and the cost', async () => {
    const { context, page } = await fresh(env, { permissions: ['clipboard-read', 'clipboard-write'] });
    await visit(page, `${env.base}index.html?map=wall-gap`);
    await testid(page, 'width').fill('45');
    await testid(page, 'height').fill('33');
    await testid(page, 'resize').click();
    await testid(page, 'generator').selectOption('maze');
    await testid(page, 'seed').fill('2024');
    await testid(page, 'generate').click();
    // Mud along a corridor, the goal moved, and settings away from their defaults.
    await testid(page, 'brush').selectOption('3');
    await drag(page, [[1, 3], [1, 9]]);
    await testid(page, 'algo').selectOption('astar');
    await testid(page, 'diagonal').selectOption('always');
    await testid(page, 'heuristic').selectOption('euclidean');
    await testid(page, 'costs').selectOption('integer');
    await testid(page, 'weight').fill('1.5');
    await testid(page, 'weight').press('Tab');
    await page.evaluate(() => window.pathlab.lab.setGoal(31, 21));
    await runToEnd(page);
    const want = await cost(page);
    assert.equal(await text(page, 'status'), 'found');
    const cells = (await readPage(page)).terrain;
    assert.ok(cells.includes(3), 'the map has mud');
    await testid(page, 'share').click();
    const link = await testid(page, 'share-url').inputValue();
    assert.ok(link.length < 8000, `${link.length} characters`);
    assert.match(link, /index\.html\?.*grid=45\.33\.[A-Za-z0-9_-]+/);
    await testid(page, 'copy-share').click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    await screenshot(page, 'share-link');
    await context.close();

    const other = await fresh(env);
    await visit(other.page, link);
    const p = other.page;
    assert.equal(await p.locator('[data-testid="message"]').isVisible(), false);
    assert.deepEqual((await readPage(p)).terrain, cells);
    assert.equal(await attr(p, 'data-goal'), '31,21');
    assert.equal(await attr(p, 'data-start'), '1,1');
    for (const [id, value] of [['algo', 'astar'], ['diagonal', 'always'], ['heuristic', 'euclidean'], ['costs', 'integer'], ['weight', '1.5']]) {
      assert.equal(await testid(p, id).inputValue(), value, id);
    }
    await runToEnd(p);
    assert.equal(await cost(p), want);
    assert.deepEqual(p.errors, []);
    await other.context.close();
  });

  test('an unedited preset is shared by name; a map too big for a link says to export a file', async () => {
    const { context, page } = await fresh(env);
    await visit(page, `${env.base}index.html?map=AR0011SR`);
    await testid(page, 'share').click();
    const link = await testid(page, 'share-url').inputValue();
    assert.match(link, /map=AR0011SR/);
    assert.doesNotMatch(link, /grid=/);
    // One wall makes it the user's own map: the link would carry all 512 x 512 cells.
    await testid(page, 'brush').selectOption('0');
    // The link took the focus (and scrolled to it); back to the grid.
    await testid(page, 'grid').scrollIntoViewIfNeeded();
    await drag(page, [[10, 10], [30, 30]]);
    assert.equal(await testid(page, 'share-url').inputValue(), '', 'an edit clears the old link');
    await testid(page, 'share').click();
    assert.equal(await testid(page, 'share-url').inputValue(), '');
    assert.match(await text(page, 'message'), /A link to this map would be [\d,]+ characters long, over 8,000.*Export the map as a file instead/);
    assert.ok(await testid(page, 'copy-share').isDisabled());
    await context.close();
  });

  test('hostile share links give a message naming grid, the default map, and run no script', async () => {
    const hostile = [
      '<img src=x onerror="window.pwned=1">',
      '<script>window.pwned=1</script>',
      '100000.100000.AAAA',
      '20.12.!!!!',
      '20.12.AAAA',
      `20.12.${'_'.repeat(400)}`,
      '20.12.<svg onload=window.pwned=1>',
    ];
    for (const value of hostile) {
      const { context, page } = await fresh(env);
      await visit(page, `${env.base}index.html?grid=${encodeURIComponent(value)}&algo=bfs`);
      assert.equal(await page.evaluate(() => window.pwned), undefined, value);
      const message = await text(page, 'message');
      assert.match(message, /Parameter "grid": the map in the link cannot be read: .+Showing the default map instead\./, value);
      assert.equal(await testid(page, 'message').locator('img, script, svg').count(), 0);
      assert.equal(await testid(page, 'map').inputValue(), 'wall-gap');
      assert.equal(await attr(page, 'data-width'), '20');
      assert.equal(await testid(page, 'algo').inputValue(), 'bfs', 'the other parameters still apply');
      await testid(page, 'step').click();
      await nextFrame(page);
      assert.equal(await text(page, 'expanded'), '1');
      assert.deepEqual(page.errors, []);
      if (value.startsWith('100000')) {
        assert.match(message, /100000x100000 is over the limit of 2048x2048/);
        await screenshot(page, 'share-hostile');
      }
      await context.close();
    }
  });

  test('embedded pages neither restore nor save a map', async () => {
    const { context, page } = await fresh(env);
    await visit(page, `${env.base}index.html`);
    await drag(page, [[13, 2], [13, 10]]);
    await saved(page);
    // On a loaded machine the autosave may have caught the drag half way (it waits for a pause
    // in the edits): the saved record is the one the page leaves behind (it saves on pagehide).
    await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pagehide")));
    const record = await page.evaluate((key) => localStorage.getItem(key), KEY);
    await visit(page, `${env.base}index.html?embed=1`);
    assert.equal(await cellValue(page, 13, 5), 1, 'the default map, not the saved one');
    await drag(page, [[3, 2], [3, 9]]);
    await page.waitForTimeout(700);
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), KEY), record);
    await context.close();
  });
});
