// Loading maps in real Chromium, and bad input: presets by name, map files by relative path and
// through the file picker; a start or goal on a wall, an unknown map, a missing file and a
// malformed or truncated file each give a message naming the problem and keep a working map.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, open, screenshot, start, text, withBrowser } from './support/browser.mjs';

const grid = (page, name) => page.locator('[data-testid="grid"]').getAttribute(name);

async function stepWorks(page) {
  const before = Number(await text(page, 'expanded'));
  await page.locator('[data-testid="reset"]').click();
  await page.locator('[data-testid="step"]').click();
  await nextFrame(page);
  assert.equal(await text(page, 'expanded'), '1', `step works (was ${before})`);
}

async function openFile(page, name, body) {
  await page.locator('[data-testid="load-file"]').setInputFiles({
    name,
    mimeType: 'text/plain',
    buffer: Buffer.from(body),
  });
  await nextFrame(page);
}

describe('loading maps', () => {
  const env = withBrowser();

  test('without a map parameter the page shows wall-gap with A*', async () => {
    const page = await open(env);
    assert.equal(await page.locator('[data-testid="map"]').inputValue(), 'wall-gap');
    assert.equal(await page.locator('[data-testid="algo"]').inputValue(), 'astar');
    assert.equal(await grid(page, 'data-width'), '20');
    assert.equal(await grid(page, 'data-height'), '12');
    await screenshot(page, 'default');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a start on a wall is refused with a message; the map and its start stay', async () => {
    const page = await open(env, 'map=wall-gap&start=10,5&goal=10,6');
    const message = await text(page, 'message');
    assert.match(message, /"start".*wall/);
    assert.match(message, /"goal".*wall/);
    assert.equal(await grid(page, 'data-width'), '20');
    assert.equal(await grid(page, 'data-start'), '4,7');
    assert.equal(await grid(page, 'data-goal'), '15,7');
    await stepWorks(page);
    await screenshot(page, 'load-start-on-wall');
    await page.close();
  });

  test('an unknown map name gives a message and the default map', async () => {
    const page = await open(env, 'map=no-such-map');
    const message = await text(page, 'message');
    assert.match(message, /"map".*no-such-map/);
    assert.equal(await grid(page, 'data-width'), '20');
    await stepWorks(page);
    await page.close();
  });

  test('a relative path to a .map file loads it; a missing one says so', async () => {
    const page = await open(env, 'map=maps/movingai/arena.map&start=1,45&goal=47,9');
    assert.equal(await grid(page, 'data-width'), '49');
    assert.equal(await grid(page, 'data-start'), '1,45');
    assert.equal(await page.locator('[data-testid="message"]').isVisible(), false);
    await page.close();

    const missing = await open(env, 'map=maps/missing.map');
    assert.match(await text(missing, 'message'), /"map".*maps\/missing\.map.*404/);
    assert.equal(await grid(missing, 'data-width'), '20');
    await missing.close();
  });

  test('a malformed file keeps the current map and names the line', async () => {
    const page = await open(env, 'map=arena');
    await page.locator('[data-testid="step"]').click();
    await openFile(page, 'broken.map', 'type octile\nheight 3\nwidth 3\nmap\n...\n.x.\n...\n');
    const message = await text(page, 'message');
    assert.match(message, /broken\.map/);
    assert.match(message, /line 6/);
    assert.match(message, /current map is kept/);
    assert.equal(await grid(page, 'data-width'), '49');
    assert.equal(await page.locator('[data-testid="map"]').inputValue(), 'arena');
    assert.equal(await text(page, 'expanded'), '1', 'the search shown is untouched');
    await stepWorks(page);
    await screenshot(page, 'load-malformed');
    await page.close();
  });

  test('a truncated course file and an oversized one are refused', async () => {
    const page = await open(env, 'map=course-5x5');
    await openFile(page, 'short.txt', '5\n5\n00000\n001A0\n');
    assert.match(await text(page, 'message'), /short\.txt.*ends after 2 of 5 rows/);
    await openFile(page, 'huge.txt', '3000\n3000\n0\n');
    assert.match(await text(page, 'message'), /huge\.txt.*from 1 to 2048/);
    assert.equal(await grid(page, 'data-width'), '5');
    await stepWorks(page);
    await page.close();
  });

  test('a good file from the picker replaces the map', async () => {
    const page = await open(env, 'map=wall-gap');
    await openFile(page, 'mine.txt', '3\n4\nA010\n0010\n000B\n');
    assert.equal(await grid(page, 'data-width'), '4');
    assert.equal(await grid(page, 'data-height'), '3');
    assert.equal(await grid(page, 'data-start'), '0,0');
    assert.equal(await grid(page, 'data-goal'), '3,2');
    const select = page.locator('[data-testid="map"]');
    assert.match(await select.locator('option:checked').textContent(), /mine\.txt/);
    await page.locator('[data-testid="run"]').click();
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    await page.close();
  });

  test('choosing a preset from the map list loads it', async () => {
    const page = await open(env, 'map=wall-gap');
    await page.locator('[data-testid="map"]').selectOption('maze-small');
    await page.waitForFunction(() => document.querySelector('[data-testid="grid"]').dataset.width === '21');
    assert.equal(await text(page, 'status'), 'ready');
    await page.locator('[data-testid="run"]').click();
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    await screenshot(page, 'maze-small');
    await page.close();
  });

  test('a far step= is reached a slice at a time: the page paints, shows its progress, and a key stops it', async () => {
    // LRTA* looking 8 moves ahead on a 512 x 512 map, to step 100,000,000: far more than one
    // slice's work, and slow enough (thousands of steps a second) that the walk is still on
    // its way when the key comes.
    const page = await open(env, 'map=AR0011SR&algo=lrta&lookahead=8&step=100000000');
    const narration = () => text(page, 'narration');
    await page.waitForFunction(() => /Going to step 100,000,000: \d+%/.test(document.querySelector('[data-testid="narration"]').textContent));
    const steps = () => page.evaluate(() => window.pathlab.lab.steps);
    const first = await steps();
    await page.waitForFunction((n) => window.pathlab.lab.steps > n, first);
    assert.ok((await steps()) < 100000000, 'still on its way');
    // The page answers a key between slices, and the walk stops where it is.
    await page.locator('[data-testid="grid"]').focus();
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => /Stopped at step [\d,]+ on the way to step 100,000,000/.test(document.querySelector('[data-testid="narration"]').textContent));
    const stoppedAt = await steps();
    await page.waitForTimeout(300);
    assert.equal(await steps(), stoppedAt, 'no slice runs after the stop');
    assert.match(await narration(), new RegExp(`Stopped at step ${stoppedAt.toLocaleString('en')}`));
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a near step= is reached before the first paint, as before', async () => {
    const page = await open(env, 'map=maze-small&step=7');
    assert.equal(await page.evaluate(() => window.pathlab.lab.steps), 7);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the 512 x 512 map paints and plays', async () => {
    const page = await open(env, 'map=AR0011SR&speed=12');
    await page.locator('[data-testid="play"]').click();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="expanded"]').textContent) > 500);
    await page.locator('[data-testid="play"]').click();
    await nextFrame(page);
    await screenshot(page, 'AR0011SR-playing');
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
