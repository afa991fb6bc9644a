// Zoom and pan on the square grid (www/zoom.js, www/paint.js), checked in Chromium against what
// the test works out itself from the view the canvas reports (data-cell-px: device pixels per
// cell, data-ox and data-oy: where the map's top-left lies on the canvas):
// - the wheel zooms about the pointer: the cell under it stays under it; the start and goal
//   markers stay on screen (their colours are on the canvas, pinned to the edge when out of view);
// - keys zoom (+, -) and pan (Alt+arrows) without stepping the search, 0 fits the map again,
//   and the view follows the keyboard's cell cursor (Shift+arrows);
// - a pinch of two touch pointers zooms in;
// - a click at a zoomed and panned position paints the cell the view puts there, and not the
//   cell the unzoomed view would;
// - maps of one-cell stripes, 1024 and 2048 cells wide, draw without moiré: each canvas pixel of
//   a row is the area average of the cells under it (worked out here from the legend's colours),
//   where a plain scaled image would show stripes that beat.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, open, screenshot, start, withBrowser } from './support/browser.mjs';

/** The start and goal markers' colours (www/palette.js, PALETTE.start and PALETTE.goal). */
const START_RGB = [0x00, 0x9e, 0x73];
const GOAL_RGB = [0xcc, 0x79, 0xa7];
/** The path line's colour (PALETTE.pathLine). */
const PATH_LINE_RGB = [0x00, 0x72, 0xb2];

/** The grid's view: canvas box (CSS px), size (device px), cell size, offset, map size, ends. */
function view(page) {
  return page.locator('[data-testid="grid"]').evaluate((c) => {
    const r = c.getBoundingClientRect();
    const pair = (s) => s.split(',').map(Number);
    return {
      rect: { x: r.x, y: r.y, width: r.width, height: r.height },
      W: c.width,
      H: c.height,
      cs: Number(c.dataset.cellPx),
      ox: Number(c.dataset.ox),
      oy: Number(c.dataset.oy),
      w: Number(c.dataset.width),
      h: Number(c.dataset.height),
      start: pair(c.dataset.start),
      goal: pair(c.dataset.goal),
    };
  });
}

/** The cell under page point (px, py) in view `v`, worked out here. */
function cellUnder(v, px, py) {
  const scale = v.W / v.rect.width;
  return [Math.floor(((px - v.rect.x) * scale - v.ox) / v.cs), Math.floor(((py - v.rect.y) * scale - v.oy) / v.cs)];
}

/** The page point of cell (x, y)'s centre in view `v`. */
function pointOf(v, x, y) {
  const scale = v.rect.width / v.W;
  return { x: v.rect.x + ((x + 0.5) * v.cs + v.ox) * scale, y: v.rect.y + ((y + 0.5) * v.cs + v.oy) * scale };
}

/** How many canvas pixels have (nearly) colour `rgb`. */
function colourCount(page, rgb) {
  return page.locator('[data-testid="grid"]').evaluate((canvas, [r, g, b]) => {
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - r) < 6 && Math.abs(data[i + 1] - g) < 6 && Math.abs(data[i + 2] - b) < 6) count++;
    }
    return count;
  }, rgb);
}

async function assertMarkersShown(page, when) {
  assert.ok((await colourCount(page, START_RGB)) >= 20, `${when}: the start marker is on the canvas`);
  assert.ok((await colourCount(page, GOAL_RGB)) >= 20, `${when}: the goal marker is on the canvas`);
}

/** Opens `query` at 1440 x 900 and reads the fitted view: [page, view]. */
async function openFitted(env, query) {
  const page = await open(env, query, { width: 1440, height: 900 });
  await nextFrame(page);
  return [page, await view(page)];
}

/** Insists the page had no errors, and closes it. */
async function done(page) {
  assert.deepEqual(page.errors, []);
  await page.close();
}

/** A MovingAI map of w x h cells, walls in the even columns: stripes one cell wide. */
function stripes(w, h) {
  const row = Array.from({ length: w }, (_, x) => (x % 2 === 0 ? '@' : '.')).join('');
  return `type octile\nheight ${h}\nwidth ${w}\nmap\n${`${row}\n`.repeat(h)}`;
}

describe('zoom and pan on the grid', () => {
  const env = withBrowser();

  for (const [width, height] of [[1366, 768], [1440, 900], [1920, 1080]]) {
    test(`at ${width}x${height} the fitted 512 x 512 map fills the room it is given, with its markers and path`, async () => {
      const page = await open(env, 'map=AR0011SR&algo=astar', { width, height });
      await page.locator('[data-testid="run"]').click();
      await nextFrame(page);
      await nextFrame(page);
      const v = await view(page);
      const [roomW, roomH] = await page.locator('[data-testid="grid"]').evaluate((c) => c.dataset.room.split('x').map(Number));
      // Square cells: the map's side is set by the tighter of the two.
      const side = Math.min(roomW, roomH);
      assert.ok(v.rect.width <= roomW + 0.5 && v.rect.height <= roomH + 0.5, `inside the room: ${v.rect.width}x${v.rect.height} in ${roomW}x${roomH}`);
      assert.ok(v.rect.height >= side - 1, `fills the room: ${v.rect.height} px of ${side}`);
      await assertMarkersShown(page, 'fitted');
      assert.equal(await page.locator('[data-testid="status"]').textContent(), 'found');
      assert.ok((await colourCount(page, PATH_LINE_RGB)) >= 100, 'the path is drawn');
      await screenshot(page, `zoom-fit-512-${width}x${height}`);
      // The + button zooms in from the fitted size, and − comes back to it.
      await page.locator('[data-testid="zoom-in"]').click();
      await nextFrame(page);
      assert.ok((await view(page)).cs > v.cs, 'zoomed in');
      for (let i = 0; i < 3; i++) if (await page.locator('[data-testid="zoom-out"]').isEnabled()) await page.locator('[data-testid="zoom-out"]').click();
      await nextFrame(page);
      assert.equal((await view(page)).cs, v.cs, 'zoomed out to the fitted size');
      await done(page);
    });
  }

  test('no zoom buttons over the 5x5 example’s large cells until a key zooms in', async () => {
    const page = await open(env, 'map=course-5x5&present=1', { width: 1366, height: 768 });
    await nextFrame(page);
    const fit = await view(page);
    assert.ok(fit.cs >= 40 && fit.cs < 96, `large cells that could still zoom: ${fit.cs}`);
    assert.equal(await page.locator('[data-testid="zoom-in"]').isVisible(), false, 'the buttons would cover the corner cells');
    await page.locator('[data-testid="grid"]').focus();
    await page.keyboard.press('+');
    await nextFrame(page);
    assert.ok((await view(page)).cs > fit.cs, 'zoomed in');
    assert.equal(await page.locator('[data-testid="zoom-out"]').isVisible(), true, 'zoomed in, the buttons come to zoom out');
    await done(page);
  });

  test('the wheel zooms about the pointer, and the start and goal stay on screen', async () => {
    const [page, fit] = await openFitted(env, 'map=AR0011SR&algo=astar&step=3000');
    assert.equal(fit.w, 512);
    await assertMarkersShown(page, 'fitted');
    const at = pointOf(fit, ...fit.start);
    await page.mouse.move(at.x, at.y);
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -100);
    await nextFrame(page);
    const zoomed = await view(page);
    assert.ok(zoomed.cs >= 4 * fit.cs, `zoomed in: ${fit.cs} -> ${zoomed.cs} px a cell`);
    assert.deepEqual(cellUnder(zoomed, at.x, at.y), fit.start, 'the start is still under the pointer');
    // The goal is out of view now: it is drawn pinned to the edge.
    const goal = pointOf(zoomed, ...zoomed.goal);
    assert.ok(goal.x > zoomed.rect.x + zoomed.rect.width || goal.y > zoomed.rect.y + zoomed.rect.height, 'the goal lies out of view');
    await assertMarkersShown(page, 'zoomed on the start');
    await screenshot(page, 'zoom-512-wheel');
    // Out again, a notch at a time, to the fitted view and no further.
    for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 100);
    await nextFrame(page);
    const back = await view(page);
    assert.equal(back.cs, fit.cs);
    assert.deepEqual([back.ox, back.oy], [fit.ox, fit.oy]);
    await done(page);
  });

  test('keys zoom and pan without stepping, 0 fits, the Fit button too', async () => {
    const [page, fit] = await openFitted(env, 'map=AR0011SR&algo=astar&step=3000');
    const steps = await page.locator('[data-testid="steps"]').textContent();
    await page.locator('[data-testid="grid"]').focus();
    let last = fit;
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('+');
      await nextFrame(page);
      const v = await view(page);
      assert.ok(v.cs > last.cs, `+ zooms in: ${last.cs} -> ${v.cs}`);
      last = v;
    }
    await page.keyboard.press('Alt+ArrowRight');
    await page.keyboard.press('Alt+ArrowDown');
    await nextFrame(page);
    const panned = await view(page);
    assert.equal(panned.cs, last.cs);
    assert.ok(panned.ox < last.ox && panned.oy < last.oy, `Alt+arrows pan right and down: (${last.ox}, ${last.oy}) -> (${panned.ox}, ${panned.oy})`);
    assert.equal(await page.locator('[data-testid="steps"]').textContent(), steps, 'the arrows with Alt did not step the search');
    await assertMarkersShown(page, 'zoomed and panned by keys');
    await page.keyboard.press('-');
    await nextFrame(page);
    assert.ok((await view(page)).cs < panned.cs, '- zooms out');
    await page.keyboard.press('0');
    await nextFrame(page);
    const fitted = await view(page);
    assert.deepEqual([fitted.cs, fitted.ox, fitted.oy], [fit.cs, fit.ox, fit.oy], '0 shows the whole map');
    await page.keyboard.press('+');
    await page.locator('[data-testid="zoom-fit"]').click();
    await nextFrame(page);
    assert.equal((await view(page)).cs, fit.cs, 'the Fit button shows the whole map');
    // Zoomed in about the middle, the start is out of view; the keyboard's cell cursor (it
    // starts on the start) brings the view with it, cell by cell.
    await page.locator('[data-testid="grid"]').focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('+');
    await nextFrame(page);
    const inView = (v, [x, y]) => {
      const p = pointOf(v, x, y);
      return p.x > v.rect.x && p.y > v.rect.y && p.x < v.rect.x + v.rect.width && p.y < v.rect.y + v.rect.height;
    };
    assert.ok(!inView(await view(page), fit.start), 'the start is out of view');
    await page.keyboard.press('Shift+ArrowRight');
    await nextFrame(page);
    assert.ok(inView(await view(page), fit.start), 'the cursor on the start brought it into view');
    for (let i = 0; i < 60; i++) await page.keyboard.press('Shift+ArrowDown');
    await nextFrame(page);
    const cursor = (await page.locator('[data-testid="cursor"]').textContent()).match(/\((\d+),(\d+)\)/).slice(1).map(Number);
    assert.deepEqual(cursor, [fit.start[0], fit.start[1] + 60]);
    assert.ok(inView(await view(page), cursor), `the view followed the cursor to (${cursor})`);
    await done(page);
  });

  test('two touch pointers spreading apart zoom in', async () => {
    const [page, fit] = await openFitted(env, 'map=AR0011SR');
    await page.locator('[data-testid="grid"]').evaluate((canvas) => {
      const r = canvas.getBoundingClientRect();
      const cx = r.x + r.width / 2;
      const cy = r.y + r.height / 2;
      const send = (type, id, x, y) =>
        canvas.dispatchEvent(new PointerEvent(type, { pointerId: id, pointerType: 'touch', isPrimary: id === 1, clientX: x, clientY: y, bubbles: true, cancelable: true }));
      send('pointerdown', 1, cx - 20, cy);
      send('pointerdown', 2, cx + 20, cy);
      for (let k = 1; k <= 10; k++) {
        send('pointermove', 1, cx - 20 - 8 * k, cy);
        send('pointermove', 2, cx + 20 + 8 * k, cy);
      }
      send('pointerup', 1, cx - 100, cy);
      send('pointerup', 2, cx + 100, cy);
    });
    await nextFrame(page);
    const pinched = await view(page);
    // The fingers went from 40 to 200 px apart: five times the cell size, as whole pixels.
    assert.equal(pinched.cs, Math.floor(fit.cs * 5), `pinched: ${fit.cs} -> ${pinched.cs}`);
    await done(page);
  });

  test('a click at a zoomed and panned position paints the cell under the pointer', async () => {
    const [page, fit] = await openFitted(env, 'map=AR0011SR');
    await page.mouse.move(fit.rect.x + fit.rect.width * 0.6, fit.rect.y + fit.rect.height * 0.55);
    for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -100);
    await page.locator('[data-testid="grid"]').focus();
    await page.keyboard.press('Alt+ArrowLeft');
    await nextFrame(page);
    const v = await view(page);
    assert.ok(v.cs > fit.cs && (v.ox !== 0 || v.oy !== 0), 'zoomed and panned');
    // A pointer position over ground, not on an end, whose unzoomed cell is another one.
    const lab = (x, y) => page.evaluate(([x, y]) => window.pathlab.lab.cell(x, y), [x, y]);
    let chosen = null;
    for (let fy = 0.3; fy < 0.8 && !chosen; fy += 0.05) {
      for (let fx = 0.2; fx < 0.8 && !chosen; fx += 0.05) {
        const px = v.rect.x + v.rect.width * fx;
        const py = v.rect.y + v.rect.height * fy;
        const [x, y] = cellUnder(v, px, py);
        const naive = cellUnder(fit, px, py);
        const end = (p) => (p[0] === x && p[1] === y);
        if ((await lab(x, y)) !== 1 || end(v.start) || end(v.goal) || (naive[0] === x && naive[1] === y)) continue;
        chosen = { px, py, x, y, naive, naiveBefore: await lab(...naive) };
      }
    }
    assert.ok(chosen, 'a ground cell in view');
    await page.mouse.move(chosen.px, chosen.py);
    await page.mouse.down();
    await page.mouse.up();
    await nextFrame(page);
    assert.equal(await lab(chosen.x, chosen.y), 0, `cell (${chosen.x},${chosen.y}) under the pointer became a wall`);
    assert.equal(await lab(...chosen.naive), chosen.naiveBefore, 'the cell the unzoomed view would put there is unchanged');
    assert.equal((await view(page)).cs, v.cs, 'painting did not change the view');
    await done(page);
  });

  // 1024 and 2048 fit at 1/2 and 1/4 pixel a cell; 700 and 400 at sizes between whole pixels
  // (about 0.7 and 1.2), which the fitted view uses rather than shrink to half its room.
  for (const size of [1024, 2048, 700, 400]) {
    test(`a ${size} x ${size} map of one-cell stripes draws without moiré`, async () => {
      const page = await open(env, 'map=wall-gap', { width: 1440, height: 900 });
      await page.locator('[data-testid="load-file"]').setInputFiles({ name: `stripes-${size}.map`, mimeType: 'text/plain', buffer: Buffer.from(stripes(size, size)) });
      await page.waitForFunction((size) => document.querySelector('[data-testid="grid"]').dataset.width === String(size), size, { timeout: 20000 });
      await nextFrame(page);
      await nextFrame(page);
      const v = await view(page);
      if (size >= 1024) assert.ok(v.cs < 1, `cells are under a pixel: ${v.cs}`);
      else assert.ok(!Number.isInteger(v.cs) && !Number.isInteger(1 / v.cs), `cells are not whole pixels: ${v.cs}`);
      // The reference colours, as the legend shows them.
      const colour = (key) =>
        page.locator(`.pl-swatch-${key}`).evaluate((e) => getComputedStyle(e).backgroundColor.match(/\d+/g).slice(0, 3).map(Number));
      const wall = await colour('wall');
      const ground = await colour('ground');
      const rows = await page.locator('[data-testid="grid"]').evaluate((canvas) => {
        const ctx = canvas.getContext('2d');
        return [0.3, 0.5, 0.7].map((f) => {
          const y = Math.round(canvas.height * f);
          return { y, data: [...ctx.getImageData(0, y, canvas.width, 1).data] };
        });
      });
      // Canvas pixel i covers cells [i c, (i + 1) c) of the row: its colour is their average.
      const c = v.w / v.W;
      const wallShare = (a, b) => {
        let walls = 0;
        for (let x = Math.floor(a); x < Math.ceil(b); x++) {
          const overlap = Math.min(b, x + 1) - Math.max(a, x);
          if (x % 2 === 0 && x < v.w) walls += overlap;
        }
        return walls / (b - a);
      };
      const ends = [pointOf(v, ...v.start), pointOf(v, ...v.goal)].map((p) => [(p.x - v.rect.x) * (v.W / v.rect.width), (p.y - v.rect.y) * (v.W / v.rect.width)]);
      let worst = 0;
      let checked = 0;
      for (const { y, data } of rows) {
        for (let i = 0; i + 1 < v.W; i++) {
          if (ends.some(([ex, ey]) => Math.abs(ex - i) < 30 && Math.abs(ey - y) < 30)) continue;
          const t = wallShare(i * c, Math.min(v.w, (i + 1) * c));
          for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(data[4 * i + k] - (wall[k] * t + ground[k] * (1 - t))));
          checked++;
        }
      }
      assert.ok(checked > v.W, `${checked} pixels checked`);
      const contrast = Math.max(...[0, 1, 2].map((k) => Math.abs(wall[k] - ground[k])));
      assert.ok(worst <= 6, `every pixel is within 6 of the average of its cells (worst ${worst}, wall to ground ${contrast})`);
      await screenshot(page, `zoom-stripes-${size}`);
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }
});
