// The timeline scrubber in real Chromium: scrubbing to step k shows exactly what pressing Step
// k times from the reset shows (every read-out, the cell read-out of a probe cell, the
// narration, the open list and the pseudocode highlight); dragging and clicking the scrubber
// like a person lands on a step that matches too; its keys (space, arrows, Page Up/Down,
// Home, End) work from it as on the grid, and typing in other inputs does not step; on a
// 512 x 512 map the whole run is found in the background and any step matches a plain replay;
// an edit makes the timeline find the new run's length.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cellCentre, drag, nextFrame, open, screenshot, start, text, withBrowser } from './support/browser.mjs';

const TIMELINE = '[data-testid="timeline"]';

/** Everything a person reads on the page after a step. */
async function snapshot(page) {
  await nextFrame(page);
  return page.evaluate(() => {
    const q = (id) => document.querySelector(`[data-testid="${id}"]`);
    return {
      steps: q('steps').textContent,
      status: q('status').textContent,
      expanded: q('expanded').textContent,
      open: q('open').textContent,
      cost: q('cost').dataset.value,
      cell: q('cell-info').textContent,
      narration: q('narration').textContent,
      openList: [...q('open-list').querySelectorAll('tbody tr')].map((r) => r.textContent),
      pseudocode: q('pseudocode').dataset.active,
      timeline: q('timeline').value,
    };
  });
}

/** The number of steps the whole run takes, once the page has found it. */
async function total(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid="timeline-total"]').dataset.total !== '', null, {
    timeout: 20000,
  });
  return Number(await page.locator('[data-testid="timeline-total"]').getAttribute('data-total'));
}

/** Puts the mouse over cell (x, y) (the probe for the cell read-out) and the focus on the grid. */
async function probe(page, x, y) {
  const p = await cellCentre(page, x, y);
  await page.mouse.move(p.x, p.y);
  await page.locator('[data-testid="grid"]').focus();
  await nextFrame(page);
}

/** Presses Home then ArrowRight k times on the grid: k steps from the reset. */
async function stepFromReset(page, k) {
  await page.locator('[data-testid="grid"]').focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < k; i++) await page.keyboard.press('ArrowRight');
  return snapshot(page);
}

describe('timeline', () => {
  const env = withBrowser();

  test('scrubbing to step k shows what k presses of Step show, forward and back', async () => {
    const query = 'map=wall-gap&algo=astar&diagonal=no-corner-cutting&costs=integer';
    const stepped = await open(env, query);
    const scrubbed = await open(env, query);
    const steps = await total(scrubbed);
    assert.ok(steps > 30, `the run takes ${steps} steps`);
    // The probe: a cell the search improves at step 9 (g 68 → 54 via (8,6)).
    await probe(stepped, 8, 5);
    await probe(scrubbed, 8, 5);
    for (const k of [9, 23, 4, 0, steps - 1, steps, 10, 1]) {
      const want = await stepFromReset(stepped, k);
      await scrubbed.locator(TIMELINE).fill(String(k));
      const got = await snapshot(scrubbed);
      assert.deepEqual(got, want, `step ${k}`);
      assert.match(got.cell, /^cell\(8,5\)/, 'the cell read-out shows the probe');
      assert.equal(got.timeline, String(k));
      assert.equal(await text(scrubbed, 'timeline-total'), `${k} / ${steps}`);
    }
    // The last step found the goal: the scrubber's end is the run's end.
    await scrubbed.locator(TIMELINE).fill(String(steps));
    assert.equal((await snapshot(scrubbed)).status, 'found');
    assert.deepEqual(stepped.errors, []);
    assert.deepEqual(scrubbed.errors, []);
    await stepped.close();
    await scrubbed.close();
  });

  test('dragging and clicking the scrubber with the mouse lands on a matching step', async () => {
    const query = 'map=u-trap&algo=astar&diagonal=never&heuristic=manhattan&costs=integer';
    const page = await open(env, query);
    const reference = await open(env, query);
    const steps = await total(page);
    const box = await page.locator(TIMELINE).boundingBox();
    const y = box.y + box.height / 2;
    // Drag the thumb from the left end past the right end: the end of the run.
    await page.mouse.move(box.x + 4, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, y, { steps: 10 });
    await page.mouse.move(box.x + box.width + 20, y, { steps: 10 });
    await page.mouse.up();
    let got = await snapshot(page);
    assert.equal(got.timeline, String(steps));
    assert.equal(got.status, 'found');
    // Click about a third of the way along: whatever step that is, it matches k presses.
    await page.mouse.click(box.x + box.width / 3, y);
    got = await snapshot(page);
    const k = Number(got.timeline);
    assert.ok(k > steps / 5 && k < steps / 2, `clicked at a third: step ${k} of ${steps}`);
    await reference.locator('[data-testid="grid"]').focus();
    const want = await stepFromReset(reference, k);
    // The mouse was never over the grid on either page: the cell read-outs are both empty.
    assert.deepEqual(got, want);
    await screenshot(page, 'timeline-u-trap');
    assert.deepEqual(page.errors, []);
    await page.close();
    await reference.close();
  });

  test('the keys work from the scrubber and the grid, and not while typing elsewhere', async () => {
    const page = await open(env, 'map=wall-gap&algo=dijkstra');
    const steps = await total(page);
    const timeline = page.locator(TIMELINE);
    await timeline.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    assert.equal((await snapshot(page)).timeline, '3');
    assert.equal(await text(page, 'expanded'), '3');
    await page.keyboard.press('ArrowLeft');
    assert.equal((await snapshot(page)).expanded, '2');
    await page.keyboard.press('PageUp');
    assert.equal((await snapshot(page)).timeline, String(2 + Math.round(steps / 10)));
    await page.keyboard.press('PageDown');
    assert.equal((await snapshot(page)).timeline, '2');
    await page.keyboard.press('End');
    let s = await snapshot(page);
    assert.equal(s.status, 'found');
    assert.equal(s.timeline, String(steps));
    await page.keyboard.press('Home');
    s = await snapshot(page);
    assert.equal(s.status, 'ready');
    assert.equal(s.timeline, '0');
    // Space plays from the scrubber, and pauses.
    await page.keyboard.press(' ');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="expanded"]').textContent) >= 2);
    assert.equal(await page.locator('[data-testid="play"]').getAttribute('aria-pressed'), 'true');
    await page.keyboard.press(' ');
    assert.equal(await page.locator('[data-testid="play"]').getAttribute('aria-pressed'), 'false');
    const paused = (await snapshot(page)).timeline;
    await page.waitForTimeout(300);
    assert.equal((await snapshot(page)).timeline, paused, 'paused');
    assert.equal(await timeline.evaluate((e) => document.activeElement === e), true, 'the focus stays on the scrubber');

    // The grid has the same keys.
    await page.locator('[data-testid="grid"]').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal((await snapshot(page)).timeline, '2');
    await page.keyboard.press('End');
    assert.equal((await snapshot(page)).status, 'found');
    await page.keyboard.press('ArrowLeft');
    assert.equal((await snapshot(page)).timeline, String(steps - 1));

    // Typing in the weight box or moving the speed slider does not step. (Choosing A* re-runs
    // the finished search to A*'s end.)
    await page.locator('[data-testid="algo"]').selectOption('astar');
    const there = (await snapshot(page)).timeline;
    const weight = page.locator('[data-testid="weight"]');
    await weight.fill('');
    await weight.type('1.5');
    await weight.press('ArrowLeft');
    await weight.press('Home');
    await weight.press('End');
    assert.equal((await snapshot(page)).timeline, there, 'no step, back or run while typing a weight');
    // Leaving the box applies weight 1.5, which re-runs weighted A* to its end.
    await page.locator('[data-testid="speed"]').focus();
    const weighted = (await snapshot(page)).timeline;
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press(' ');
    s = await snapshot(page);
    assert.equal(s.timeline, weighted, 'no step, back or play from the speed slider');
    assert.equal(await page.locator('[data-testid="play"]').getAttribute('aria-pressed'), 'false');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('on a 512 x 512 map the whole run is found, and any step matches a plain replay', async () => {
    const page = await open(env, 'map=AR0011SR&algo=dijkstra');
    const steps = await total(page);
    const plain = await page.evaluate(async () => {
      // The same problem in a second search, stepped plainly from step 0 (no checkpoints).
      const { Lab } = await import('./pkg/pathlab_wasm.js');
      const lab = new Lab(4, 4);
      lab.loadMovingAi(await (await fetch('maps/movingai/AR0011SR.map')).text());
      const shown = window.pathlab.lab.settings();
      lab.setAlgorithm(shown.algo);
      lab.setStart(...shown.start);
      lab.setGoal(...shown.goal);
      lab.run();
      const end = { steps: lab.steps, cost: lab.cost };
      const at = {};
      for (const k of [end.steps - 1, Math.floor(end.steps / 2), 7]) {
        lab.reset();
        lab.advance(k);
        at[k] = { expanded: String(lab.expanded), open: String(lab.openCount) };
      }
      lab.free();
      return { end, at };
    });
    assert.equal(steps, plain.end.steps);
    assert.ok(steps > 100000, `a run of ${steps} steps`);
    for (const [k, want] of Object.entries(plain.at)) {
      await page.locator(TIMELINE).fill(k);
      const got = await snapshot(page);
      assert.equal(got.timeline, k);
      assert.deepEqual({ expanded: got.expanded, open: got.open }, want, `step ${k}`);
    }
    await page.locator(TIMELINE).focus();
    await page.keyboard.press('End');
    const end = await snapshot(page);
    assert.equal(end.status, 'found');
    assert.equal(Number(end.cost), plain.end.cost);
    assert.ok(Number(await page.evaluate(() => window.pathlab.lab.checkpoints)) > 0);
    await screenshot(page, 'timeline-ar0011sr');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('after painting a wall the timeline finds the new run', async () => {
    const page = await open(env, 'map=wall-gap&algo=astar');
    const before = await total(page);
    await page.locator(TIMELINE).fill('5');
    // Close the gap in the wall (column 10, row 2): now there is no path.
    await drag(page, [[10, 2], [10, 2]]);
    await page.waitForFunction((n) => {
      const t = document.querySelector('[data-testid="timeline-total"]').dataset.total;
      return t !== '' && Number(t) !== n;
    }, before);
    const after = await total(page);
    await page.locator(TIMELINE).focus();
    await page.keyboard.press('End');
    const s = await snapshot(page);
    assert.equal(s.status, 'no-path');
    assert.equal(s.timeline, String(after));
    assert.equal(await text(page, 'timeline-total'), `${after} / ${after}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
