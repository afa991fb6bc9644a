// Stepping through a search in real Chromium with the page's buttons and keys: step and back
// move one expansion; run ends at `found` with the cost an independent Dijkstra gives (and
// the MovingAI .scen optimum); play advances by itself and pauses; reset returns to `ready`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, nextFrame, open, screenshot, start, text, withBrowser } from './support/browser.mjs';
import { cheapest, readCourse, readMovingAi, readScen, sameCost, withTerrain } from './support/dijkstra.mjs';

const maps = (file) => readFileSync(join(ROOT, 'maps', file), 'utf8');
const presets = JSON.parse(maps('presets.json')).presets;

async function click(page, id, times = 1) {
  for (let i = 0; i < times; i++) await page.locator(`[data-testid="${id}"]`).click();
  await nextFrame(page);
}

async function cost(page) {
  const raw = await page.locator('[data-testid="cost"]').getAttribute('data-value');
  return raw === '' || raw === null ? null : Number(raw);
}

describe('stepping', () => {
  const env = withBrowser();

  test('five steps expand five cells; back once leaves four', async () => {
    const page = await open(env, 'map=course-5x5&algo=astar&heuristic=octile&diagonal=no-corner-cutting&costs=integer');
    assert.equal(await text(page, 'expanded'), '0');
    assert.equal(await text(page, 'status'), 'ready');
    await click(page, 'step', 5);
    assert.equal(await text(page, 'expanded'), '5');
    assert.equal(await text(page, 'status'), 'searching');
    const openAfterFive = await text(page, 'open');
    await click(page, 'back');
    assert.equal(await text(page, 'expanded'), '4');
    await click(page, 'step');
    assert.equal(await text(page, 'expanded'), '5');
    assert.equal(await text(page, 'open'), openAfterFive, 'back then step returns to the same state');
    assert.match(await text(page, 'narration'), /expanded \(\d+,\d+\)/);
    await screenshot(page, 'step-course-5x5');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("the course's 5x5 example runs to the cost an independent Dijkstra gives", async () => {
    const course = readCourse(maps('course-5x5.txt'));
    for (const diagonal of ['no-corner-cutting', 'never', 'always']) {
      const page = await open(env, `map=course-5x5&costs=integer&diagonal=${diagonal}`);
      await click(page, 'run');
      assert.equal(await text(page, 'status'), 'found');
      const want = cheapest(course, course.start, course.goal, { diagonal, costs: 'integer' });
      assert.equal(await cost(page), want, `${diagonal}`);
      assert.equal(await text(page, 'cost'), String(want), 'integer costs show without decimals');
      if (diagonal === 'no-corner-cutting') await screenshot(page, 'run-course-5x5');
      await page.close();
    }
  });

  test('run to the end on a MovingAI map gives found and the optimal cost', async () => {
    // arena.map.scen: 1 45 -> 47 9, optimal 60.9117 (printed to 6 significant digits).
    const arena = readMovingAi(maps('movingai/arena.map'));
    const problem = readScen(maps('movingai/arena.map.scen')).find(
      (p) => p.start.join() === '1,45' && p.goal.join() === '47,9',
    );
    assert.ok(problem, 'the problem is in the .scen file');
    const page = await open(env, 'map=arena&algo=astar&heuristic=octile&diagonal=no-corner-cutting&start=1,45&goal=47,9');
    await click(page, 'run');
    assert.equal(await text(page, 'status'), 'found');
    const got = await cost(page);
    const want = cheapest(arena, [1, 45], [47, 9]);
    assert.ok(Math.abs(got - want) < 1e-9, `page ${got}, reference Dijkstra ${want}`);
    assert.ok(Math.abs(got - problem.optimal) <= 1e-3, `page ${got}, .scen ${problem.optimal}`);
    assert.equal(await text(page, 'cost'), got.toFixed(2));
    assert.ok(Number(await text(page, 'expanded')) > 0);
    await screenshot(page, 'run-arena');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('Dijkstra on the 512 x 512 map matches the reference and the .scen optimum', async () => {
    const big = readMovingAi(maps('movingai/AR0011SR.map'));
    const page = await open(env, 'map=AR0011SR&algo=dijkstra');
    await click(page, 'run');
    assert.equal(await text(page, 'status'), 'found');
    const got = await cost(page);
    // bg512/AR0011SR.map.scen: 184 164 -> 460 186, optimal 511.97 (2 decimals).
    const want = cheapest(big, [184, 164], [460, 186]);
    assert.ok(sameCost(got, want), `page ${got}, reference ${want}`);
    assert.ok(Math.abs(got - 511.97) <= 0.005, `page ${got}`);
    await screenshot(page, 'run-AR0011SR');
    await page.close();
  });

  test('every preset runs to the cost of the reference Dijkstra', async () => {
    for (const preset of presets) {
      if (preset.name === 'AR0011SR') continue; // covered above
      // Worked examples in compare mode: page-lessons.test.mjs checks their panes' costs.
      if (preset.settings?.compare) continue;
      let map = preset.format === 'movingai' ? readMovingAi(maps(preset.file)) : readCourse(maps(preset.file));
      map = withTerrain(map, preset.terrain);
      const page = await open(env, `map=${preset.name}&algo=dijkstra`);
      await click(page, 'run');
      const [sx, sy] = (await page.locator('[data-testid="grid"]').getAttribute('data-start')).split(',').map(Number);
      const [gx, gy] = (await page.locator('[data-testid="grid"]').getAttribute('data-goal')).split(',').map(Number);
      // The rules the page runs with (a worked example brings its own moves).
      const { diagonal } = await page.evaluate(() => window.pathlab.lab.settings());
      const want = cheapest(map, [sx, sy], [gx, gy], { costs: preset.costs ?? 'real', diagonal });
      assert.equal(await text(page, 'status'), want === null ? 'no-path' : 'found', preset.name);
      assert.ok(Math.abs((await cost(page)) - want) < 1e-9, `${preset.name}: page ${await cost(page)}, reference ${want}`);
      if (preset.name === 'mud-field') await screenshot(page, 'run-mud-field');
      await page.close();
    }
  });

  test('play advances by itself and pauses; reset returns to ready', async () => {
    const page = await open(env, 'map=maze-small&speed=8');
    const play = page.locator('[data-testid="play"]');
    assert.equal(await play.textContent(), 'Play');
    // The button's word follows the play state; on a loaded machine it may take a frame.
    const says = (word) =>
      page.waitForFunction((w) => document.querySelector('[data-testid="play"]').textContent === w, word, { timeout: 5000 });
    await play.click();
    await says('Pause');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="expanded"]').textContent) >= 5);
    await play.click();
    await says('Play');
    await nextFrame(page);
    const paused = await text(page, 'expanded');
    await page.waitForTimeout(300);
    assert.equal(await text(page, 'expanded'), paused, 'nothing moves while paused');
    await click(page, 'reset');
    assert.equal(await text(page, 'expanded'), '0');
    assert.equal(await text(page, 'status'), 'ready');
    assert.equal(await text(page, 'cost'), '');
    await page.close();
  });

  test('autoplay=1 plays to the end and stops there', async () => {
    const page = await open(env, 'map=course-5x5&autoplay=1&speed=12');
    await page.waitForFunction(() => document.querySelector('[data-testid="status"]').textContent === 'found');
    await nextFrame(page);
    assert.equal(await page.locator('[data-testid="play"]').textContent(), 'Play');
    assert.notEqual(await text(page, 'cost'), '');
    await page.close();
  });

  test('keys: right arrow steps, left arrow goes back, End runs, Home resets', async () => {
    const page = await open(env, 'map=wall-gap');
    await page.locator('[data-testid="grid"]').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await nextFrame(page);
    assert.equal(await text(page, 'expanded'), '2');
    await page.keyboard.press('ArrowLeft');
    await nextFrame(page);
    assert.equal(await text(page, 'expanded'), '1');
    await page.keyboard.press('End');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    await page.keyboard.press('Home');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'ready');
    await page.close();
  });

  test('changing the algorithm keeps the step reached; a bad weight is refused with a message', async () => {
    const page = await open(env, 'map=wall-gap&step=12');
    await page.locator('[data-testid="algo"]').selectOption('bfs');
    await nextFrame(page);
    assert.equal(await text(page, 'expanded'), '12');
    await page.locator('[data-testid="algo"]').selectOption('astar');
    await page.locator('[data-testid="weight"]').fill('0.5');
    await page.locator('[data-testid="weight"]').press('Enter');
    await nextFrame(page);
    assert.match(await text(page, 'message'), /Weight.*0\.5/);
    assert.equal(await page.locator('[data-testid="weight"]').inputValue(), '1');
    await page.locator('[data-testid="weight"]').fill('2');
    await page.locator('[data-testid="weight"]').press('Enter');
    await nextFrame(page);
    assert.equal(await page.evaluate(() => window.pathlab.lab.settings().weight), 2);
    assert.equal(await text(page, 'expanded'), '12');
    await page.close();
  });

  test('hovering a cell shows its g, h, f and parent', async () => {
    const page = await open(env, 'map=course-5x5&costs=integer&step=3');
    const canvas = page.locator('[data-testid="grid"]');
    const box = await canvas.boundingBox();
    // The cell right of the start, (4,1): opened from the start with g = 10.
    await page.mouse.move(box.x + (4.5 * box.width) / 5, box.y + (1.5 * box.height) / 5);
    await nextFrame(page);
    const info = page.locator('[data-testid="cell-info"]');
    assert.match(await info.textContent(), /\(4,1\)/);
    assert.equal(await info.locator('[data-key="g"]').textContent(), '10');
    const h = Number(await info.locator('[data-key="h"]').textContent());
    assert.equal(Number(await info.locator('[data-key="f"]').textContent()), 10 + h);
    assert.equal(await info.locator('[data-key="parent"]').textContent(), '(3,1)');
    await page.close();
  });
});
