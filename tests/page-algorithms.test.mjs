// Every algorithm on the shelf, chosen in the page like a student would: it steps, shows its
// overlay (checked in the DOM key and by pixels on the canvas), and runs to a result that an
// independent Dijkstra confirms: equal for the optimal ones, never above it for the any-angle
// ones (whose paths may leave the grid moves).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, nextFrame, open, screenshot, start, text } from './support/browser.mjs';
import { cheapest, readCourse } from './support/dijkstra.mjs';

const course = (file) => readCourse(readFileSync(join(ROOT, 'maps', file), 'utf8'));
/**
 * The map each algorithm runs on: IDA* revisits too much for anything but a tiny map, and
 * pruned JPS+ crosses the wall's gap to the goal in two expansions, so it takes the maze.
 */
const MAPS = {
  ida: ['course-5x5', course('course-5x5.txt'), 'integer'],
  'jps-plus-pruned': ['maze-small', course('maze-small.txt'), 'real'],
};
const DEFAULT_MAP = ['wall-gap', course('wall-gap.txt'), 'real'];
const OPTIMAL = new Set(['dijkstra', 'astar', 'bi-astar', 'ida', 'jps', 'jps-plus', 'jps-plus-pruned']);
const ANY_ANGLE = new Set(['theta', 'lazy-theta', 'astar-smoothed']);
/** Overlay keys of which each algorithm must show at least one, after a few steps or at the end. */
const OVERLAY = {
  jps: ['overlay-scan', 'overlay-scan-hit', 'overlay-jump-point'],
  'jps-plus': ['overlay-scan', 'overlay-scan-hit', 'overlay-jump-point'],
  'jps-plus-pruned': ['overlay-scan', 'overlay-scan-hit', 'overlay-jump-point'],
  theta: ['overlay-sight', 'overlay-blocked', 'overlay-rewire'],
  'lazy-theta': ['overlay-sight', 'overlay-blocked', 'overlay-rewire'],
  'astar-smoothed': ['overlay-raw-path'],
  'bi-astar': ['overlay-meeting'],
  ida: ['overlay-stack'],
};

/** Which of `keys` the overlay key in the page shows now. */
function shown(page, keys) {
  return page.evaluate((keys) => keys.filter((k) => document.querySelector(`[data-testid="${k}"]`)), keys);
}

async function click(page, id, times = 1) {
  for (let i = 0; i < times; i++) await page.locator(`[data-testid="${id}"]`).click();
  await nextFrame(page);
}

/** How many canvas pixels have exactly this colour (the overlay's own colours). */
function countColour(page, hex) {
  return page.evaluate((hex) => {
    const canvas = document.querySelector('[data-testid="grid"]');
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const n = parseInt(hex.slice(1), 16);
    const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - r) < 6 && Math.abs(data[i + 1] - g) < 6 && Math.abs(data[i + 2] - b) < 6) count++;
    }
    return count;
  }, hex);
}

describe('the algorithm shelf in the page', () => {
  let env;
  let algorithms;
  before(async () => {
    env = await start();
    const page = await open(env, 'map=wall-gap');
    algorithms = await page.locator('[data-testid="algo"] option').evaluateAll((os) => os.map((o) => o.value));
    await page.close();
  });
  after(async () => {
    await env?.close();
  });

  test('the menu offers the whole shelf', () => {
    for (const name of ['bfs', 'dfs', 'dijkstra', 'greedy', 'astar', ...Object.keys(OVERLAY)]) {
      assert.ok(algorithms.includes(name), `${name} is missing from the menu: ${algorithms}`);
    }
  });

  for (const name of ['bfs', 'dfs', 'dijkstra', 'greedy', 'astar', ...Object.keys(OVERLAY)]) {
    test(`${name}: steps, shows its overlay and reaches the right cost`, async () => {
      const [mapName, map, costs] = MAPS[name] ?? DEFAULT_MAP;
      const page = await open(env, `map=${mapName}&algo=${name}&diagonal=no-corner-cutting&costs=${costs}`);
      assert.equal(await page.locator('[data-testid="algo"]').inputValue(), name);
      await click(page, 'step', 3);
      assert.equal(await text(page, 'status'), 'searching');
      assert.ok(Number(await text(page, 'steps').then((t) => t.replace(/\D/g, ''))) === 3);
      const want = OVERLAY[name] ?? [];
      const seen = new Set(await shown(page, want));
      const colours = want.length ? await countColour(page, '#0072b2') + (await countColour(page, '#009e73')) : 0;
      await click(page, 'run');
      assert.equal(await text(page, 'status'), 'found');
      for (const k of await shown(page, want)) seen.add(k);
      if (want.length) {
        assert.ok(seen.size > 0, `${name} showed none of ${want} in its overlay key`);
        const after = (await countColour(page, '#0072b2')) + (await countColour(page, '#009e73'));
        assert.ok(colours + after > 0, 'the overlay drew nothing on the canvas');
      }
      const cost = Number(await page.locator('[data-testid="cost"]').getAttribute('data-value'));
      const best = cheapest(map, map.start, map.goal, { diagonal: 'no-corner-cutting', costs });
      if (OPTIMAL.has(name)) assert.ok(Math.abs(cost - best) < 1e-9, `${name} cost ${cost}, Dijkstra ${best}`);
      else if (ANY_ANGLE.has(name)) {
        const [sx, sy] = map.start;
        const [gx, gy] = map.goal;
        const unit = costs === 'integer' ? 10 : 1;
        assert.ok(cost <= best + 1e-9, `${name} cost ${cost} is above the grid optimum ${best}`);
        assert.ok(cost >= unit * Math.hypot(gx - sx, gy - sy) - 1e-9, `${name} cost ${cost} is below the straight line`);
      } else assert.ok(cost >= best - 1e-9, `${name} cost ${cost} is below the optimum ${best}`);
      if (want.length) await screenshot(page, `algo-${name}`);
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }

  test('an algorithm that cannot run here says so and keeps the page working', async () => {
    const page = await open(env, 'map=mud-field&algo=jps');
    const message = await text(page, 'message');
    assert.match(message, /terrain|mud|JPS/i);
    await click(page, 'step');
    assert.notEqual(await text(page, 'status'), 'ready');
    await page.close();
  });
});
