// Accessibility and reach in real Chromium:
// - axe-core (injected from node_modules) finds no serious or critical violation on the
//   path-finding page (full, embedded, locked, high contrast, with the embed dialog open),
//   the boid page, the crowd page (each also with its plot panel open) and the path-request
//   page;
// - Tab reaches every control, and each shows a focus ring (outline) when it has focus;
// - the grid works from the keyboard: arrows step, Shift+arrows move a cell cursor, Enter
//   paints, S moves the start; the search after keyboard edits costs what an independent
//   Dijkstra gives;
// - high contrast (`contrast`) repaints walls black on white and stays on through the URL;
//   both palettes keep the search states apart for normal vision and the three kinds of
//   colour blindness (Machado et al. 2009 simulation, CIELAB distance), and the
//   high-contrast states stand out from the ground by 3:1;
// - on a phone (375 x 667, touch) nothing overflows sideways, the grid fits and every button
//   is at least 44 x 44 px; on projectors (1920 x 1080, 2560 x 1440) the grid uses the space.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, nextFrame, open, openBoids, openCrowd, screenshot, start, text, withBrowser } from './support/browser.mjs';
import { cheapest, readPage } from './support/dijkstra.mjs';
import { samplesReach } from './support/plot.mjs';
import { PALETTE, HIGH_CONTRAST } from '../www/paint.js';

const AXE = join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');
const testid = (page, id) => page.locator(`[data-testid="${id}"]`);

/** axe's serious and critical violations on the page as it is, in short form. */
async function axeProblems(page) {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => (await window.axe.run(document)).violations);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

// ---- colour science for the palette checks (independent of paint.js) -------------------------

const channels = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
const linear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const luminance = (hex) => {
  const [r, g, b] = channels(hex).map(linear);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrastRatio = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};
/** Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB. */
const VISION = {
  normal: null,
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
};
function lab(hex, matrix) {
  let rgb = channels(hex).map(linear);
  if (matrix) rgb = matrix.map((row) => Math.min(1, Math.max(0, row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2])));
  const [r, g, b] = rgb;
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}
const distance = (a, b, matrix) => {
  const [p, q] = [lab(a, matrix), lab(b, matrix)];
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
};

/** The closest pair of `keys` of `palette` under any of the four visions. */
function closestPair(palette, keys) {
  let worst = { d: Infinity };
  for (let i = 0; i < keys.length; i++) {
    for (let j = i + 1; j < keys.length; j++) {
      for (const [vision, matrix] of Object.entries(VISION)) {
        const d = distance(palette[keys[i]], palette[keys[j]], matrix);
        if (d < worst.d) worst = { d, pair: `${keys[i]}/${keys[j]}`, vision };
      }
    }
  }
  return worst;
}

// ---- keyboard ---------------------------------------------------------------------------------

/** Tabs through the page from the top; for each stop: what it is and whether a ring shows. */
async function tabStops(page, limit = 150) {
  await page.evaluate(() => document.activeElement?.blur());
  const stops = [];
  for (let k = 0; k < limit; k++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const e = document.activeElement;
      if (!e || e === document.body) return null;
      if (!e.dataset.tabMark) e.dataset.tabMark = String(Math.random()).slice(2);
      // An invisible input (the file picker) shows its focus on its label.
      const shown = getComputedStyle(e).opacity === '0' ? e.closest('label') : e;
      const style = getComputedStyle(shown);
      return {
        mark: e.dataset.tabMark,
        name: `${e.tagName.toLowerCase()}${e.dataset.testid ? `[${e.dataset.testid}]` : ''} ${(e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 30)}`,
        ring: style.outlineStyle !== 'none' ? parseFloat(style.outlineWidth) : 0,
        focusVisible: e.matches(':focus-visible'),
      };
    });
    if (!stop || stops.some((s) => s.mark === stop.mark)) break;
    stops.push(stop);
  }
  return stops;
}

/** Every control a person can see and use on the page. */
function visibleControls(page) {
  return page.evaluate(() => {
    const all = [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')];
    return all
      .filter((e) => !e.disabled && !e.closest('[hidden], dialog:not([open])'))
      .filter((e) => {
        const box = (getComputedStyle(e).opacity === '0' ? e.closest('label') ?? e : e).getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(e).visibility !== 'hidden';
      })
      .map((e) => {
        if (!e.dataset.tabMark) e.dataset.tabMark = String(Math.random()).slice(2);
        return { mark: e.dataset.tabMark, name: `${e.tagName.toLowerCase()}${e.dataset.testid ? `[${e.dataset.testid}]` : ''}` };
      });
  });
}

describe('accessibility and reach', () => {
  const env = withBrowser();

  test('axe finds no serious or critical problem on any page or mode', async () => {
    const found = {};
    const check = async (name, page) => {
      found[name] = await axeProblems(page);
      await page.close();
    };
    await check('path-finding', await open(env, 'map=wall-gap&step=12'));
    await check('path-finding, embedded', await open(env, 'map=course-5x5&embed=1&step=3'));
    await check('path-finding, locked', await open(env, 'map=wall-gap&lock=1&contrast=1'));
    const messages = await open(env, 'map=wall-gap&algo=nope&speed=0');
    assert.ok(await testid(messages, 'message').isVisible());
    await check('path-finding, with messages', messages);
    const dialog = await open(env, 'map=wall-gap');
    await testid(dialog, 'embed-code').click();
    await check('path-finding, embed dialog open', dialog);
    await check('boids', await openBoids(env, 'agents=200'));
    await check('boids, embedded', await openBoids(env, 'agents=200&embed=1'));
    // The plot panel open, with a few samples drawn, on both agent pages.
    const plotted = async (page, app) => {
      await testid(page, 'plot-canvas').waitFor({ state: 'visible' });
      await samplesReach(page, app, 3);
      return page;
    };
    await check('boids, plot open', await plotted(await openBoids(env, 'agents=200&plot=1'), 'boidlab'));
    await check('crowd', await openCrowd(env, 'scene=street-paths&agents=20'));
    await check('crowd, plot open', await plotted(await openCrowd(env, 'scene=bunkers&seed=5&plot=1'), 'crowdlab'));
    const requests = await env.browser.newPage();
    await requests.goto(`${env.base}requests.html`);
    await requests.waitForFunction(() => document.querySelector('canvas'));
    await requests.waitForTimeout(500);
    await check('path requests', requests);
    assert.deepEqual(found, Object.fromEntries(Object.keys(found).map((k) => [k, []])));
  });

  for (const [mode, query] of [['full page', 'map=wall-gap'], ['embedded', 'map=wall-gap&embed=1']]) {
    test(`Tab reaches every control of the ${mode}, and each shows a focus ring`, async () => {
      const page = await open(env, query);
      const stops = await tabStops(page);
      const controls = await visibleControls(page);
      const reached = new Set(stops.map((s) => s.mark));
      const missed = controls.filter((c) => !reached.has(c.mark)).map((c) => c.name);
      assert.deepEqual(missed, [], 'controls Tab never reaches');
      const unringed = stops.filter((s) => !(s.ring >= 2 && s.focusVisible)).map((s) => `${s.name}: ${s.ring}px`);
      assert.deepEqual(unringed, [], 'focused controls without a visible ring');
      assert.ok(stops.length >= (mode === 'embedded' ? 6 : 30), `${stops.length} stops`);
      await page.close();
    });
  }

  test('the grid works from the keyboard: step, cursor, paint, move the start', async () => {
    const page = await open(env, 'map=wall-gap&diagonal=never&heuristic=manhattan');
    // Tab to the grid, as a keyboard user would.
    let onGrid = false;
    for (let k = 0; k < 40 && !onGrid; k++) {
      await page.keyboard.press('Tab');
      onGrid = await page.evaluate(() => document.activeElement?.dataset.testid === 'grid');
    }
    assert.ok(onGrid, 'Tab reaches the grid');
    assert.match(await page.evaluate(() => document.getElementById(document.activeElement.getAttribute('aria-describedby')).textContent), /Shift with the arrows/);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await nextFrame(page);
    assert.equal(await text(page, 'expanded'), '2', 'arrows still step');

    const [sx, sy] = (await testid(page, 'grid').getAttribute('data-start')).split(',').map(Number);
    // The cursor appears on the start; three to the right and one up, then paint.
    await page.keyboard.press('Shift+ArrowRight');
    assert.match(await text(page, 'cursor'), new RegExp(`Cell \\(${sx},${sy}\\).*the start`));
    for (const key of ['Shift+ArrowRight', 'Shift+ArrowRight', 'Shift+ArrowRight', 'Shift+ArrowUp']) await page.keyboard.press(key);
    await nextFrame(page);
    assert.equal(await text(page, 'expanded'), '2', 'moving the cursor does not step');
    assert.match(await text(page, 'cursor'), new RegExp(`Cell \\(${sx + 3},${sy - 1}\\): ground`));
    await page.keyboard.press('Enter');
    await nextFrame(page);
    assert.equal(await page.evaluate(([x, y]) => window.pathlab.lab.cell(x, y), [sx + 3, sy - 1]), 0, 'Enter painted a wall');
    assert.match(await text(page, 'cursor'), /: wall/);
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(([x, y]) => window.pathlab.lab.cell(x, y), [sx + 3, sy - 1]), 1, 'Enter on a wall erases');
    // A wall of three cells across the row, by keyboard.
    await page.keyboard.press('Enter');
    for (const key of ['Shift+ArrowDown', 'Enter', 'Shift+ArrowDown', 'Enter']) await page.keyboard.press(key);
    for (let dy = -1; dy <= 1; dy++) {
      assert.equal(await page.evaluate(([x, y]) => window.pathlab.lab.cell(x, y), [sx + 3, sy + dy]), 0, `wall at (${sx + 3},${sy + dy})`);
    }
    // S puts the start on the cursor's left neighbour.
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('s');
    await nextFrame(page);
    assert.equal(await testid(page, 'grid').getAttribute('data-start'), `${sx + 2},${sy + 1}`);
    await page.keyboard.press('End');
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    const map = await readPage(page);
    const want = cheapest(map, [sx + 2, sy + 1], (await testid(page, 'grid').getAttribute('data-goal')).split(',').map(Number), { diagonal: 'never' });
    assert.equal(Number(await testid(page, 'cost').getAttribute('data-value')), want);
    await page.keyboard.press('Escape');
    assert.equal(await text(page, 'cursor'), '');
    await screenshot(page, 'a11y-keyboard-edit');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('high contrast paints walls black on white and stays on through the URL', async () => {
    const page = await open(env, 'map=wall-gap');
    const pixel = (x, y) => page.evaluate(([x, y]) => {
      const canvas = document.querySelector('[data-testid="grid"]');
      const w = Number(canvas.dataset.width);
      const h = Number(canvas.dataset.height);
      // A point inside the cell, clear of grid lines and markers.
      const px = Math.floor(((x + 0.3) * canvas.width) / w);
      const py = Math.floor(((y + 0.3) * canvas.height) / h);
      const [r, g, b] = canvas.getContext('2d').getImageData(px, py, 1, 1).data;
      return `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
    }, [x, y]);
    assert.equal(await pixel(10, 5), PALETTE.wall);
    assert.equal(await testid(page, 'contrast').getAttribute('aria-pressed'), 'false');
    await testid(page, 'contrast').click();
    await nextFrame(page);
    assert.equal(await testid(page, 'contrast').getAttribute('aria-pressed'), 'true');
    assert.equal(await pixel(10, 5), '#000000');
    assert.equal(await pixel(1, 1), '#ffffff');
    for (let k = 0; k < 6; k++) await testid(page, 'step').click();
    await nextFrame(page);
    const states = await page.evaluate(() => {
      const lab = window.pathlab.lab;
      const out = {};
      const end = (x, y) => (x === lab.startX && y === lab.startY) || (x === lab.goalX && y === lab.goalY);
      for (let y = 0; y < lab.height; y++) {
        for (let x = 0; x < lab.width; x++) if (!end(x, y)) out[lab.cellInfo(x, y).state] ??= [x, y];
      }
      return out;
    });
    assert.ok(states.open && states.closed, JSON.stringify(states));
    assert.equal(await pixel(...states.open), HIGH_CONTRAST.open);
    assert.equal(await pixel(...states.closed), HIGH_CONTRAST.closed);
    assert.match(page.url(), /contrast=1/);
    await screenshot(page, 'a11y-contrast');
    await page.reload();
    await page.waitForFunction(() => window.pathlab);
    await nextFrame(page);
    assert.equal(await testid(page, 'contrast').getAttribute('aria-pressed'), 'true');
    assert.equal(await pixel(10, 5), '#000000');
    await testid(page, 'contrast').click();
    await nextFrame(page);
    assert.equal(await pixel(10, 5), PALETTE.wall);
    assert.doesNotMatch(page.url(), /contrast=1/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the system\'s "more contrast" setting turns high contrast on unless the URL says otherwise', async () => {
    const context = await env.browser.newContext({ contrast: 'more' });
    const pressed = async (query) => {
      const page = await context.newPage();
      await page.goto(`${env.base}index.html?${query}`);
      await page.waitForFunction(() => window.pathlab);
      const value = await testid(page, 'contrast').getAttribute('aria-pressed');
      await page.close();
      return value;
    };
    assert.equal(await pressed('map=wall-gap'), 'true');
    assert.equal(await pressed('map=wall-gap&contrast=0'), 'false');
    await context.close();
  });

  test('both palettes keep the states apart for normal vision and the three colour blindnesses', () => {
    const states = ['ground', 'wall', 'open', 'closed', 'current', 'path'];
    for (const [name, palette] of [['usual', PALETTE], ['high contrast', HIGH_CONTRAST]]) {
      const worst = closestPair(palette, states);
      assert.ok(worst.d >= 19, `${name}: ${worst.pair} only ${worst.d.toFixed(1)} apart for ${worst.vision}`);
    }
    // The backward frontier of bidirectional A* against the forward one.
    for (const [a, b] of [['open', 'openBack'], ['closed', 'closedBack'], ['openBack', 'closedBack']]) {
      const worst = closestPair(HIGH_CONTRAST, [a, b]);
      assert.ok(worst.d >= 20, `high contrast: ${worst.pair} only ${worst.d.toFixed(1)} apart for ${worst.vision}`);
    }
    const hc = HIGH_CONTRAST;
    assert.ok(contrastRatio(hc.wall, hc.ground) >= 15);
    for (const key of ['open', 'closed', 'current']) {
      assert.ok(contrastRatio(hc[key], hc.ground) >= 3, `${key} against the ground: ${contrastRatio(hc[key], hc.ground).toFixed(2)}`);
    }
    // The numbers on cells: black on light states, white on the current cell.
    for (const key of ['open', 'closed', 'path', 'openBack']) assert.ok(contrastRatio(hc[key], '#000000') >= 4.5, key);
    assert.ok(contrastRatio(hc.current, '#ffffff') >= 4.5);
    // The usual palette's walls and current cell stand out from the ground too.
    for (const key of ['wall', 'current']) assert.ok(contrastRatio(PALETTE[key], PALETTE.ground) >= 3, key);
  });

  test('a phone: nothing overflows, the grid fits, buttons are 44 px touch targets', async () => {
    const context = await env.browser.newContext({ viewport: { width: 375, height: 667 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    for (const query of ['map=wall-gap', 'map=arena', 'map=wall-gap&embed=1']) {
      const page = await context.newPage();
      await page.goto(`${env.base}index.html?${query}`);
      await page.waitForFunction(() => window.pathlab && document.querySelector('[data-testid="status"]')?.textContent !== '');
      await nextFrame(page);
      const m = await page.evaluate(() => {
        const grid = document.querySelector('[data-testid="grid"]').getBoundingClientRect();
        const small = [...document.querySelectorAll('button, select, .pl-file')]
          .filter((e) => !e.closest('[hidden], dialog:not([open])'))
          .map((e) => ({ e, box: e.getBoundingClientRect() }))
          .filter(({ box }) => box.width > 0)
          .filter(({ box }) => box.width < 44 || box.height < 44)
          .map(({ e, box }) => `${e.dataset.testid ?? e.className}: ${box.width.toFixed(0)}x${box.height.toFixed(0)}`);
        return {
          coarse: matchMedia('(pointer: coarse)').matches,
          scrollWidth: document.documentElement.scrollWidth,
          width: innerWidth,
          grid: [grid.left, grid.right],
          small,
        };
      });
      assert.ok(m.coarse, 'the phone reports a coarse pointer');
      assert.ok(m.scrollWidth <= m.width, `${query}: the page is ${m.scrollWidth} px wide on a ${m.width} px screen`);
      assert.ok(m.grid[0] >= 0 && m.grid[1] <= m.width, `${query}: the grid spans ${m.grid}`);
      // Wide maps take the width; square ones stop where the step controls would leave the screen.
      assert.ok(m.grid[1] - m.grid[0] >= 0.75 * m.width, `${query}: the grid uses the width (${m.grid})`);
      assert.deepEqual(m.small, [], `${query}: touch targets under 44 px`);
      await screenshot(page, `a11y-phone-${query.replace(/[^a-z0-9]+/g, '-')}`);
      await page.close();
    }
    await context.close();
  });

  for (const [width, height] of [[1920, 1080], [2560, 1440]]) {
    test(`a ${width} x ${height} projector: the grid uses the space, controls stay on screen`, async () => {
      for (const query of ['map=wall-gap', 'map=arena', 'map=wall-gap&embed=1']) {
        const page = await open(env, query, { width, height });
        await nextFrame(page);
        const m = await page.evaluate(() => {
          const box = (id) => document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
          const wrap = document.querySelector('.pl-grid-wrap').getBoundingClientRect();
          return { grid: box('grid').toJSON(), step: box('step').toJSON(), wrap: wrap.toJSON(), scrollWidth: document.documentElement.scrollWidth };
        });
        const usedWidth = m.grid.width / m.wrap.width;
        const usedHeight = m.grid.height / height;
        assert.ok(m.scrollWidth <= width, `${query}: ${m.scrollWidth} px wide`);
        assert.ok(usedWidth >= 0.9 || usedHeight >= 0.6, `${query}: the grid is ${m.grid.width.toFixed(0)} x ${m.grid.height.toFixed(0)} in a ${m.wrap.width.toFixed(0)} px column`);
        assert.ok(m.step.bottom <= height, `${query}: Step is below the screen (${m.step.bottom})`);
        if (!query.includes('embed')) assert.ok(m.wrap.width >= 0.6 * width, `${query}: the grid's column is ${m.wrap.width} of ${width} px`);
        await screenshot(page, `a11y-${width}-${query.replace(/[^a-z0-9]+/g, '-')}`);
        await page.close();
      }
    });
  }
});
