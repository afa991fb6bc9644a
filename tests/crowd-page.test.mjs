// The crowd page in real Chromium, for EVERY scene the core registers (read from the wasm
// module itself, so scenes added later are covered without editing this file): the scene runs
// from its URL, `steps` advances, the metrics table shows the same values as an independent
// copy of the scene replayed to the same step, a click on an agent (found from the frame's
// positions) selects it and its overlay is counted, every point action performs by mouse and
// by keyboard and shows its sentence, every slider and select reaches the scene, and a scene
// with a "method" choice compares one pane per method in sync. In the bunkers scene, cheap wall
// breaks flag exactly the cells an independent Dijkstra (support/dijkstra.mjs) finds dearer, and
// exact breaks and a recompute leave none. Bad URL values give visible messages and the page
// still runs. Screenshots go to tests/artifacts/crowd-*.png.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, openCrowd, screenshot, text, withBrowser } from './support/browser.mjs';
import { crowdScenes, pauseAndStep, replay, shownMetrics, stepsReach } from './support/crowd.mjs';
import { distances } from './support/dijkstra.mjs';

const SCENES = crowdScenes();

async function number(page, id) {
  const t = await text(page, id);
  assert.match(t, /^-?\d+(\.\d+)?$/, `${id} is a number: ${JSON.stringify(t)}`);
  return Number(t);
}

/**
 * The metrics of an independent copy of the scene, replayed in Node (a new CrowdScene from the
 * live scene's name, agent count asked for, seed and parameters, with `overrides`) after
 * `steps` steps, formatted as the table formats them.
 */
async function replayedMetrics(page, steps, overrides = {}) {
  const live = await page.evaluate(() => {
    const s = window.crowdlab.scene;
    return { name: s.name, agents: s.agentsAsked, seed: s.seed, params: Object.fromEntries(s.params().map((p) => [p.name, p.value])) };
  });
  return replay(live.name, live.agents, live.seed, { ...live.params, ...overrides }, steps);
}

/** Waits until the steps read-out shows more than `n`. */
function stepsPass(page, n) {
  return stepsReach(page, n + 1, 20000);
}

/** Page coordinates of world point (x, y) on a canvas, scrolled into view first. */
async function screenPoint(page, testid, x, y) {
  const canvas = page.locator(`[data-testid="${testid}"]`);
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const size = await page.evaluate(() => ({ w: window.crowdlab.scene.width, h: window.crowdlab.scene.height }));
  return { x: box.x + (x / size.w) * box.width, y: box.y + (y / size.h) * box.height };
}

/** The agents of the current frame (positions, radii) read from the wasm views. */
function agents(page) {
  return page.evaluate(() => {
    const v = window.crowdlab.app.views();
    return Array.from(v.x, (x, i) => ({ i, x, y: v.y[i], r: v.radius[i] }));
  });
}

/** An open cell's centre near the middle of the world (walls refuse most actions). */
function openPoint(page) {
  return page.evaluate(() => {
    const s = window.crowdlab.scene;
    const cells = new Uint8Array(window.crowdlab.app.wasm.memory.buffer, s.cellsPtr(), s.gridWidth * s.gridHeight);
    const cx = s.gridWidth / 2;
    const cy = s.gridHeight / 2;
    let best = null;
    for (let y = 0; y < s.gridHeight; y++) {
      for (let x = 0; x < s.gridWidth; x++) {
        if (cells[y * s.gridWidth + x] === 0) continue;
        const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
        if (!best || d < best.d) best = { d, x: (x + 0.5) * s.cellSize, y: (y + 0.5) * s.cellSize };
      }
    }
    return best;
  });
}

describe('crowd page', () => {
  const env = withBrowser();

  test('the registry lists at least one scene, each with a name and a title', () => {
    assert.ok(SCENES.length >= 1);
    for (const s of SCENES) {
      assert.match(s.name, /^[a-z][a-z0-9-]*$/);
      assert.ok(s.title.length > 0);
    }
  });

  for (const { name, title } of SCENES) {
    // One page per scene, checked in turn: the run from its URL (first, while it still plays
    // from the start), a click on an agent, compare mode, and last the actions and parameters,
    // which change the scene.
    describe(name, () => {
      /** @type {any} */
      let page;
      before(async () => {
        page = await openCrowd(env, `scene=${name}&seed=3`);
      });
      after(async () => {
        await page?.close();
      });

      test(`${name}: runs from its URL, steps advance and the metrics match an independent replay`, async () => {
        assert.equal(await page.locator('[data-testid="scene"]').inputValue(), name);
        assert.equal(await text(page, 'scene-title'), title);
        assert.equal(await text(page, 'message'), '', 'a good URL gives no message');
        assert.equal(await page.locator('[data-testid="play"]').getAttribute('aria-pressed'), 'true');
        await stepsReach(page, 20, 20000);
        // Steps advance while playing (a timeout here fails the test).
        await stepsPass(page, await number(page, 'steps'));

        // Reset (paused) shows step 0; the metrics table then matches a fresh copy at step 0.
        await pauseAndStep(page);
        assert.equal(await number(page, 'agents'), await page.evaluate(() => window.crowdlab.scene.count), "the read-out shows the scene's agent count");
        await page.locator('[data-testid="reset"]').click();
        await nextFrame(page);
        assert.equal(await number(page, 'steps'), 0);
        const atStart = await shownMetrics(page);
        assert.ok(Object.keys(atStart).length > 0, 'the metrics table has rows');
        assert.deepEqual(atStart, await replayedMetrics(page, 0));

        // Play a while, then compare with a copy replayed to the same step.
        await page.locator('[data-testid="play"]').click();
        await stepsPass(page, 40);
        await pauseAndStep(page);
        const steps = await number(page, 'steps');
        assert.ok(steps > 20, `played ${steps} steps`);
        const later = await shownMetrics(page);
        const replayed = await replayedMetrics(page, steps);
        assert.deepEqual(later, replayed, `the table shows the run's metrics at step ${steps}`);
        // Where the run's metrics moved (by the replay), the table moved with them.
        const moved = Object.keys(replayed).filter((k) => replayed[k] !== atStart[k]);
        for (const k of moved) assert.notEqual(later[k], atStart[k], `metric ${k} updates`);
        await screenshot(page, `crowd-${name}`);
        assert.deepEqual(page.errors, []);
      });

      test(`${name}: clicking an agent selects it and its overlay is drawn and counted`, async () => {
        await pauseAndStep(page);
        const list = await agents(page);
        assert.ok(list.length > 0, 'the scene has agents');
        // The agent farthest from every other is the one a click must find; only agents wholly
        // inside the world count (cars drive off one edge before coming back at the other, and
        // how far they have gone depends on how many frames played before the pause).
        const size = await page.evaluate(() => ({ w: window.crowdlab.scene.width, h: window.crowdlab.scene.height }));
        const inside = list.filter((a) => a.x >= a.r && a.y >= a.r && a.x <= size.w - a.r && a.y <= size.h - a.r);
        assert.ok(inside.length > 0, 'some agent is wholly inside the world');
        let target = inside[0];
        let bestGap = -1;
        for (const a of inside) {
          let gap = Infinity;
          for (const b of list) if (b !== a) gap = Math.min(gap, Math.hypot(a.x - b.x, a.y - b.y) - b.r);
          if (gap > bestGap) {
            bestGap = gap;
            target = a;
          }
        }
        await page.locator('[data-testid="tool-select"]').click();
        const p = await screenPoint(page, 'world', target.x, target.y);
        await page.mouse.click(p.x, p.y);
        await nextFrame(page);
        assert.equal(await page.locator('[data-testid="selected"]').getAttribute('data-index'), String(target.i));
        assert.match(await text(page, 'selected'), new RegExp(`^Agent ${target.i} \\(`));
        // The overlay counts are those of the selected agent's frame, read straight from wasm.
        const truth = await page.evaluate((i) => {
          const v = window.crowdlab.app.views(window.crowdlab.scene, i);
          return { lines: v.lineInk.length, circles: v.circleInk.length, polygons: v.polygonInk.length };
        }, target.i);
        const counts = page.locator('[data-testid="overlay-counts"]');
        assert.equal(await counts.getAttribute('data-lines'), String(truth.lines));
        assert.equal(await counts.getAttribute('data-circles'), String(truth.circles));
        assert.equal(await counts.getAttribute('data-polygons'), String(truth.polygons));
        // Every ink drawn has a legend entry.
        const inks = await page.evaluate(() => [...window.crowdlab.app.painter.drawn.inks].map((v) => window.crowdlab.app.inks[v]));
        for (const ink of inks) assert.equal(await page.locator(`[data-testid="ink-${ink}"]`).count(), 1, `legend for ${ink}`);
        await screenshot(page, `crowd-${name}-selected`);
        // Escape on the focused world clears the selection.
        await page.locator('[data-testid="world"]').focus();
        await page.keyboard.press('Escape');
        await nextFrame(page);
        assert.equal(await page.locator('[data-testid="selected"]').getAttribute('data-index'), '');
        assert.deepEqual(page.errors, []);
      });

      test(`${name}: compare mode shows one pane per method, stepped in sync`, async (t) => {
        const method = await page.evaluate(() => window.crowdlab.scene.params().find((p) => p.name === 'method' && p.choices.length > 1));
        if (!method) {
          assert.equal(await page.locator('[data-testid="compare"]').isHidden(), true, 'no compare button without a method choice');
          t.skip('this scene has no "method" choice');
          return;
        }
        await page.locator('[data-testid="compare"]').click();
        assert.equal(await page.locator('[data-testid="compare"]').getAttribute('aria-pressed'), 'true');
        assert.equal(await page.locator('[data-testid="compare-panes"] figure').count(), method.choices.length);
        for (const choice of method.choices) assert.ok(await page.locator(`[data-testid="pane-${choice}"]`).isVisible());
        assert.ok(await page.locator('[data-testid="world"]').isHidden());
        assert.ok(await page.locator('[data-testid="param-method"]').isDisabled(), 'each pane has its own method');
        // The earlier checks left the page paused: play until the panes have taken a few steps.
        await page.locator('[data-testid="play"]').click();
        await stepsPass(page, 5);
        await pauseAndStep(page);
        const steps = await page.evaluate(() => window.crowdlab.app.compare.panes.map((p) => p.scene.steps));
        assert.ok(steps[0] > 1 && steps.every((s) => s === steps[0]), `in sync: ${steps}`);
        assert.equal(await number(page, 'steps'), steps[0]);
        // One column per method; each copy runs its own method.
        const methods = await page.evaluate(() =>
          window.crowdlab.app.compare.panes.map((p) => p.scene.params().find((q) => q.name === 'method').value),
        );
        assert.deepEqual(methods, method.choices.map((_, i) => i));
        // Each column shows its own method's run: an independent copy replayed with that method.
        for (const [i, choice] of method.choices.entries()) {
          const truth = await replayedMetrics(page, steps[0], { method: i });
          for (const [m, value] of Object.entries(truth)) {
            assert.equal(await text(page, `compare-${m}-${choice}`), value, `${m} of ${choice}`);
          }
        }
        assert.ok(await page.locator('[data-testid="metrics"]').isHidden(), 'the single-run table gives way');
        await screenshot(page, `crowd-${name}-compare`);
        await page.locator('[data-testid="compare"]').click();
        assert.ok(await page.locator('[data-testid="compare-panes"]').isHidden());
        assert.ok(await page.locator('[data-testid="world"]').isVisible());
        assert.deepEqual(page.errors, []);
      });

      test(`${name}: every action works by mouse and keyboard; every parameter reaches the scene`, async () => {
        await pauseAndStep(page);
        const actions = await page.evaluate(() => window.crowdlab.scene.actions());
        for (const action of actions) {
          await page.locator(`[data-testid="tool-${action.name}"]`).click();
          assert.equal(await page.locator(`[data-testid="tool-${action.name}"]`).getAttribute('aria-pressed'), 'true');
          const point = await openPoint(page);
          const p = await screenPoint(page, 'world', point.x, point.y);
          await page.evaluate(() => {
            document.querySelector('[data-testid="action-message"]').textContent = '';
          });
          await page.mouse.click(p.x, p.y);
          await nextFrame(page);
          const said = await text(page, 'action-message');
          assert.ok(said.length > 0, `${action.name} says what happened`);
          // The keyboard: the cursor starts mid-world, moves a cell, Enter acts there.
          await page.evaluate(() => {
            document.querySelector('[data-testid="action-message"]').textContent = '';
          });
          await page.locator('[data-testid="world"]').focus();
          await page.keyboard.press('ArrowLeft');
          await page.keyboard.press('Enter');
          await nextFrame(page);
          assert.ok((await text(page, 'action-message')).length > 0, `${action.name} by keyboard`);
          await screenshot(page, `crowd-${name}-${action.name}`);
        }
        // Sliders by keyboard (End: the maximum), selects by choosing the last option.
        const params = await page.evaluate(() => window.crowdlab.scene.params());
        for (const p of params) {
          const control = page.locator(`[data-testid="param-${p.name}"]`);
          if (p.choices.length) {
            await control.selectOption(String(p.choices.length - 1));
            const now = await page.evaluate((n) => window.crowdlab.scene.params().find((q) => q.name === n).value, p.name);
            assert.equal(now, p.choices.length - 1, `${p.name} reaches the scene`);
          } else {
            await control.focus();
            await page.keyboard.press('End');
            const now = await page.evaluate((n) => window.crowdlab.scene.params().find((q) => q.name === n).value, p.name);
            assert.ok(Math.abs(now - p.max) <= Math.max(1e-6, p.step), `${p.name} is at its maximum ${p.max}: ${now}`);
          }
        }
        if (params.length) assert.match(page.url(), /p\./, 'changed parameters go into the URL');
        assert.deepEqual(page.errors, []);
      });
    });
  }

  /** The bunkers scene as drawn now: grid cells, distance layer, cell marks, standing bunkers. */
  function bunkerState(page) {
    return page.evaluate(() => {
      const { app, scene } = window.crowdlab;
      const v = app.views(scene, -1);
      const w = scene.gridWidth;
      const h = scene.gridHeight;
      const cell = scene.cellSize;
      const cells = Array.from(new Uint8Array(app.wasm.memory.buffer, scene.cellsPtr(), w * h));
      const ink = (name) => app.inks.indexOf(name);
      const bunkers = [];
      for (let k = 0; k < v.circleInk.length; k++) {
        if (v.circleInk[k] === ink('goal')) bunkers.push([Math.floor(v.circles[3 * k] / cell), Math.floor(v.circles[3 * k + 1] / cell)]);
      }
      const marks = Array.from(v.cellMarks);
      return {
        w, h, cell, cells, bunkers,
        layer: Array.from(v.layer),
        flagged: marks.flatMap((m, i) => (m === ink('suboptimal') ? [i] : [])),
        building: marks.some((m) => m === ink('wavefront')),
      };
    });
  }

  /** Cells whose shown distance is dearer than an independent Dijkstra's, and cheaper ones. */
  function againstReference(state) {
    const map = { width: state.w, height: state.h, open: state.cells.map((c) => c !== 0), terrain: state.cells };
    const truth = distances(map, state.bunkers);
    const dearer = [];
    const cheaper = [];
    state.layer.forEach((d, i) => {
      if (!map.open[i] || !Number.isFinite(truth[i])) return;
      const tol = 1e-3 * Math.max(1, truth[i]);
      if (d < 0 || d > truth[i] + tol) dearer.push(i);
      else if (d < truth[i] - tol) cheaper.push(i);
    });
    return { dearer, cheaper };
  }

  test('bunkers: cheap wall breaks flag exactly the cells an independent Dijkstra finds dearer; recompute clears them; exact breaks leave none', async () => {
    const page = await openCrowd(env, 'scene=bunkers&seed=3&p.update=cheap');
    // The page plays: wait until the build's wavefront is gone.
    let state = await bunkerState(page);
    for (let k = 0; k < 150 && state.building; k++) {
      await page.waitForTimeout(200);
      state = await bunkerState(page);
    }
    await pauseAndStep(page);
    state = await bunkerState(page);
    assert.equal(state.building, false, 'the field is built');
    assert.ok(state.bunkers.length >= 2, `${state.bunkers.length} bunkers standing`);
    assert.deepEqual(againstReference(state), { dearer: [], cheaper: [] }, 'the built field is the reference');
    // Walls between two open cells (left and right, or above and below), broken one by one.
    const open = (x, y) => x >= 0 && y >= 0 && x < state.w && y < state.h && state.cells[y * state.w + x] !== 0;
    const walls = [];
    for (let y = 1; y < state.h - 1; y++) {
      for (let x = 1; x < state.w - 1; x++) {
        if (!open(x, y) && ((open(x - 1, y) && open(x + 1, y)) || (open(x, y - 1) && open(x, y + 1)))) walls.push([x, y]);
      }
    }
    await page.locator('[data-testid="tool-break-wall"]').click();
    let broken = 0;
    for (const [x, y] of walls) {
      const p = await screenPoint(page, 'world', (x + 0.5) * state.cell, (y + 0.5) * state.cell);
      await page.mouse.click(p.x, p.y);
      await nextFrame(page);
      broken += 1;
      state = await bunkerState(page);
      assert.notEqual(state.cells[y * state.w + x], 0, `(${x},${y}) is open after the click`);
      const { dearer, cheaper } = againstReference(state);
      assert.deepEqual(cheaper, [], 'no cell is shown cheaper than it is');
      assert.deepEqual(state.flagged, dearer, `after ${broken} breaks the flagged cells are the dearer ones`);
      assert.equal(await number(page, 'metric-suboptimal'), dearer.length);
      if (dearer.length > 0 && broken >= 3) break;
    }
    assert.ok(state.flagged.length > 0, `some cheap break left cells dearer (${broken} walls broken)`);
    assert.equal(await page.locator('[data-testid="ink-suboptimal"]').count(), 1, 'the legend names the flag');
    await screenshot(page, 'crowd-bunkers-cheap-flags');
    // Recompute: no flags, and the field is the reference again.
    await page.locator('[data-testid="tool-recompute"]').click();
    const c = await screenPoint(page, 'world', state.cell * 1.5, state.cell * 1.5);
    await page.mouse.click(c.x, c.y);
    await nextFrame(page);
    state = await bunkerState(page);
    assert.deepEqual(state.flagged, []);
    assert.equal(await number(page, 'metric-suboptimal'), 0);
    assert.deepEqual(againstReference(state), { dearer: [], cheaper: [] }, 'recomputed field is the reference');
    // Exact breaks from here on: never a flag, always the reference.
    await page.locator('[data-testid="param-update"]').selectOption('exact');
    await page.locator('[data-testid="tool-break-wall"]').click();
    for (const [x, y] of walls.slice(broken, broken + 5)) {
      const p = await screenPoint(page, 'world', (x + 0.5) * state.cell, (y + 0.5) * state.cell);
      await page.mouse.click(p.x, p.y);
      await nextFrame(page);
      state = await bunkerState(page);
      assert.deepEqual(state.flagged, []);
      assert.deepEqual(againstReference(state), { dearer: [], cheaper: [] }, `exact break at (${x},${y})`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('bad URL values give visible messages, are shown as text, and the page still runs', async () => {
    const page = await openCrowd(env, 'scene=%3Cscript%3Ealert(1)%3C%2Fscript%3E&agents=-5&seed=x&p.x=NaN&embed=maybe&colour=red');
    const message = await text(page, 'message');
    assert.match(message, /Parameter "scene": unknown scene "<script>alert\(1\)<\/script>"/);
    assert.match(message, /Parameter "agents": expected a whole number/);
    assert.match(message, /Parameter "seed"/);
    assert.match(message, /Parameter "p.x": expected a number/);
    assert.match(message, /Parameter "embed"/);
    assert.match(message, /Parameter "colour": is not a setting/);
    assert.equal(await page.locator('[data-testid="message"] script').count(), 0, 'never inserted as HTML');
    assert.equal(await page.locator('[data-testid="scene"]').inputValue(), SCENES[0].name);
    // The default scene runs (a timeout here fails the test).
    await stepsPass(page, await number(page, 'steps'));
    await screenshot(page, 'crowd-bad-url');
    assert.deepEqual(page.errors, []);
    await page.close();

    const huge = await openCrowd(env, `scene=${SCENES[0].name}&agents=1e9&p.nosuchparam=3`);
    const said = await text(huge, 'message');
    assert.match(said, /Parameter "agents": expected a whole number of agents from 0 to 100000, got "1e9"/);
    assert.match(said, /Parameter "p.nosuchparam": the \S+ scene has no parameter "nosuchparam"/);
    // A count the page accepts but the scene does not: the scene's own limit applies, and says so.
    const clamped = await openCrowd(env, 'scene=circle&agents=100000');
    const note = (await text(clamped, 'message')).match(/Agents: the .+ scene takes (\d+) agents when asked for 100000 \(its own limits\)/);
    assert.ok(note, await text(clamped, 'message'));
    assert.equal(await number(clamped, 'agents'), Number(note[1]), 'the read-out shows the count the message gives');
    assert.ok(Number(note[1]) < 100000);
    assert.deepEqual(clamped.errors, []);
    await clamped.close();
    const over = await openCrowd(env, 'agents=1000000000');
    assert.match(await text(over, 'message'), /over the limit of 100000/);
    // A bad seed typed into the field is refused with a message; the seed stays.
    await over.locator('[data-testid="seed"]').fill('-3');
    await over.locator('[data-testid="seed"]').press('Enter');
    assert.match(await text(over, 'message'), /Seed: expected a whole number/);
    assert.equal(await over.locator('[data-testid="seed"]').inputValue(), '1');
    assert.deepEqual([...huge.errors, ...over.errors], []);
    await huge.close();
    await over.close();
  });

  test('the keyboard plays, steps and resets; embed mode shows only the world', async () => {
    const page = await openCrowd(env, `scene=${SCENES[0].name}`);
    await page.locator('[data-testid="reset"]').focus();
    await page.locator('[data-testid="world"]').focus();
    await page.keyboard.press(' ');
    assert.equal(await page.locator('[data-testid="play"]').getAttribute('aria-pressed'), 'false');
    await page.keyboard.press('Home');
    await nextFrame(page);
    assert.equal(await number(page, 'steps'), 0);
    // Anywhere on the page but the world (where arrows move the cursor): → steps.
    await page.locator('[data-testid="nav-boids"]').focus();
    await page.keyboard.press('ArrowRight');
    await nextFrame(page);
    assert.equal(await number(page, 'steps'), 1);
    const target = await page.locator('[data-testid="step"]').boundingBox();
    assert.ok(target.height >= 40, `buttons are touch-sized: ${target.height}px`);
    await page.close();

    const embed = await openCrowd(env, `scene=${SCENES[0].name}&embed=1`, { width: 700, height: 600 });
    assert.ok(await embed.locator('[data-testid="world"]').isVisible());
    assert.ok(await embed.locator('[data-testid="metrics"]').isHidden());
    assert.ok(await embed.locator('[data-testid="scene"]').isHidden());
    await screenshot(embed, 'crowd-embed');
    assert.deepEqual(embed.errors, []);
    await embed.close();
  });

  test('the path-finding and boid pages link to the crowd page', async () => {
    const page = await env.browser.newPage();
    for (const from of ['index.html', 'boids.html']) {
      await page.goto(`${env.base}${from}`);
      const link = page.locator('a[href="crowd.html"]').first();
      await link.waitFor({ timeout: 20000 });
      assert.ok(await link.isVisible(), `${from} links to crowd.html`);
    }
    await page.close();
  });
});
