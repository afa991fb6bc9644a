// The panels under the grid in real Chromium: the open list's first row is the cell the next
// step expands (for A*, Dijkstra, BFS, DFS, greedy, JPS and Theta*); a neighbour whose g
// improves is highlighted in the step it happens, with its old and new g and the parent, and
// the narration says the same; the A* narration's f = g + h matches an independent Dijkstra
// and the heuristic worked by hand; the pseudocode highlight follows the kind of step (start,
// expanding, found, no path) through stepping, back and scrubbing, for every algorithm on the
// menu; the closed list opens and its cells can be shown on the grid. Screenshots of the
// panels are saved to tests/artifacts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, drag, nextFrame, open, screenshot, start, text, withBrowser } from './support/browser.mjs';
import { cheapest, readCourse } from './support/dijkstra.mjs';

const maps = (file) => readFileSync(join(ROOT, 'maps', file), 'utf8');

async function click(page, id, times = 1) {
  for (let i = 0; i < times; i++) await page.locator(`[data-testid="${id}"]`).click();
  await nextFrame(page);
}

/** The open list as the page shows it: rows of {x, y, g, key, classes, note}. */
async function openRows(page) {
  await nextFrame(page);
  return page.locator('[data-testid="open-list"] tbody tr').evaluateAll((rows) =>
    rows.map((r) => ({
      x: Number(r.dataset.x),
      y: Number(r.dataset.y),
      g: Number(r.dataset.g),
      key: Number(r.dataset.key),
      classes: r.className,
      note: r.querySelector('.pl-note').textContent,
    })),
  );
}

/** The tags and texts of the highlighted pseudocode lines. */
async function highlighted(page) {
  await nextFrame(page);
  return page.locator('[data-testid="pseudocode"] li').evaluateAll((lines) =>
    lines
      .filter((li) => li.classList.contains('pl-active'))
      .map((li) => ({ tag: li.dataset.tag, current: li.getAttribute('aria-current'), text: li.textContent })),
  );
}

const tags = (lines) => lines.map((l) => l.tag).sort().join(' ');

describe('panels', () => {
  const env = withBrowser();

  test('the first row of the open list is the cell the next step expands', async () => {
    for (const [algo, map, extra] of [
      ['astar', 'maze-small', ''],
      ['dijkstra', 'maze-small', ''],
      ['bfs', 'wall-gap', ''],
      ['dfs', 'u-trap', ''],
      ['greedy', 'u-trap', ''],
      ['jps', 'u-trap', ''],
      ['theta', 'maze-small', ''],
      ['astar', 'mud-field', '&diagonal=never&heuristic=manhattan'],
    ]) {
      const page = await open(env, `map=${map}&algo=${algo}${extra}`);
      for (let i = 0; i < 15; i++) {
        const rows = await openRows(page);
        assert.ok(rows.length > 0, `${algo} step ${i}: the list has rows`);
        const first = rows[0];
        assert.match(first.classes, /pl-next/, `${algo} step ${i}: the first row is marked`);
        assert.match(first.note, /^next/);
        assert.ok(rows.slice(1).every((r) => !r.classes.includes('pl-next')));
        await click(page, 'step');
        const after = await page.evaluate(([x, y]) => {
          const lab = window.pathlab.lab;
          return { last: lab.lastStep(), state: lab.cellInfo(x, y).state, goal: [lab.goalX, lab.goalY] };
        }, [first.x, first.y]);
        if (after.last.kind === 'found') {
          assert.deepEqual([first.x, first.y], after.goal, `${algo} step ${i + 1}: found the goal listed first`);
          break;
        }
        assert.deepEqual(after.last.expanded, [first.x, first.y], `${algo} step ${i + 1}`);
        assert.equal(after.state, 'current');
        assert.ok((await text(page, 'narration')).includes(`expanded (${first.x},${first.y})`));
      }
      assert.deepEqual(page.errors, [], algo);
      await page.close();
    }
  });

  test('an improvement is highlighted in the step it happens, and narrated', async () => {
    // u-trap, A* with Manhattan and 4-way moves, 10/14 costs: at step 14 the search expands
    // (4,8), next to the start (3,8), and finds a cheaper way to (5,8), opened earlier from
    // the other side.
    const course = readCourse(maps('u-trap.txt'));
    const page = await open(env, 'map=u-trap&algo=astar&diagonal=never&heuristic=manhattan&costs=integer');
    await click(page, 'step', 13);
    let rows = await openRows(page);
    assert.ok(rows.every((r) => !r.classes.includes('pl-improved')), 'nothing improved at step 13');
    const before = rows.find((r) => r.x === 5 && r.y === 8);
    assert.equal(before?.g, 40, '(5,8) waits with g 40');
    await click(page, 'step');
    rows = await openRows(page);
    const row = rows.find((r) => r.x === 5 && r.y === 8);
    assert.match(row.classes, /pl-improved/);
    // With its lower f it is now the next cell as well.
    assert.equal(row.note, 'next · g 40 → 20 via (4,8)');
    assert.equal(rows[0], row);
    // The new g is the cheapest cost to (5,8): two straight moves from the start.
    assert.equal(row.g, cheapest(course, course.start, [5, 8], { diagonal: 'never', costs: 'integer' }));
    assert.equal(row.g, 20);
    // f = g + h with h the Manhattan distance to the goal (21,7) in tens: 10 × (16 + 1).
    assert.equal(row.key, 20 + 10 * (16 + 1));
    const narration = await text(page, 'narration');
    assert.ok(narration.startsWith('Step 14: expanded (4,8): f = 190 = g 10 + h 180;'), narration);
    assert.ok(narration.includes('(5,8) improved g 40 → 20 via (4,8)'), narration);
    await page.locator('.pl-study').screenshot({ path: join(ROOT, 'tests', 'artifacts', 'panels-improvement.png') });
    await screenshot(page, 'panels-u-trap-step-14');
    await click(page, 'step');
    rows = await openRows(page);
    assert.ok(rows.every((r) => !(r.x === 5 && r.y === 8 && r.classes.includes('pl-improved'))), 'only in its step');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("A*'s narration reads f = g + h with the cheapest g and the hand-worked h", async () => {
    const course = readCourse(maps('u-trap.txt'));
    const page = await open(env, 'map=u-trap&algo=astar&diagonal=never&heuristic=manhattan&costs=integer');
    for (let i = 1; i <= 30; i++) {
      await click(page, 'step');
      const said = await text(page, 'narration');
      const m = said.match(/^Step (\d+): expanded \((\d+),(\d+)\): f = (\d+) = g (\d+) \+ h (\d+)[;.]/);
      assert.ok(m, said);
      const [step, x, y, f, g, h] = m.slice(1).map(Number);
      assert.equal(step, i);
      assert.equal(g, cheapest(course, course.start, [x, y], { diagonal: 'never', costs: 'integer' }), `g of (${x},${y})`);
      assert.equal(h, 10 * (Math.abs(x - course.goal[0]) + Math.abs(y - course.goal[1])), `h of (${x},${y})`);
      assert.equal(f, g + h);
      // Every neighbour opened is listed with its g, which the open list shows too.
      for (const [, ox, oy, og] of said.matchAll(/\((\d+),(\d+)\) with g (\d+)/g)) {
        const row = (await openRows(page)).find((r) => r.x === Number(ox) && r.y === Number(oy));
        if (row) assert.equal(row.g, Number(og));
      }
    }
    assert.equal(await page.locator('[data-testid="narration"]').getAttribute('aria-live'), 'polite');
    await page.close();
  });

  test('the pseudocode highlight follows the kind of step', async () => {
    const page = await open(env, 'map=course-5x5&algo=astar&heuristic=manhattan&diagonal=never');
    let lines = await highlighted(page);
    assert.equal(tags(lines), 'init', 'step 0: the set-up line');
    assert.ok(lines.every((l) => l.current === 'step'));
    await click(page, 'step');
    lines = await highlighted(page);
    assert.equal(tags(lines), 'close cost each open pop', 'an expansion that opened neighbours');
    assert.ok(lines.find((l) => l.tag === 'pop').text.includes('lowest f'));
    await click(page, 'run');
    lines = await highlighted(page);
    assert.equal(tags(lines), 'goal pop', 'the step that found the goal');
    assert.equal(await page.locator('[data-testid="pseudocode"] [aria-current="step"]').count(), 2);
    await click(page, 'back');
    lines = await highlighted(page);
    assert.ok(lines.some((l) => l.tag === 'close') && !lines.some((l) => l.tag === 'goal'), 'back: an expansion again');
    await page.locator('[data-testid="timeline"]').fill('0');
    assert.equal(tags(await highlighted(page)), 'init', 'scrubbed to step 0');
    await page.locator('[data-testid="timeline"]').fill('3');
    assert.ok((await highlighted(page)).some((l) => l.tag === 'pop'), 'scrubbed to step 3');
    await page.close();

    // No path: close the gap in the wall, then run to the end.
    const blocked = await open(env, 'map=wall-gap&algo=bfs');
    await drag(blocked, [[10, 2], [10, 2]]);
    await click(blocked, 'run');
    assert.equal(await text(blocked, 'status'), 'no-path');
    assert.equal(tags(await highlighted(blocked)), 'loop nopath');
    assert.deepEqual(blocked.errors, []);
    await blocked.close();
  });

  test('every algorithm on the menu has pseudocode that follows its steps', async () => {
    const page = await open(env, 'map=maze-small');
    const algos = await page.locator('[data-testid="algo"] option').evaluateAll((o) => o.map((e) => e.value));
    assert.ok(algos.length >= 12, algos.join());
    for (const algo of algos) {
      await page.locator('[data-testid="algo"]').selectOption(algo);
      await click(page, 'reset');
      const count = await page.locator('[data-testid="pseudocode"] li').count();
      assert.ok(count >= 8 && count <= 16, `${algo}: ${count} lines`);
      const title = await page.locator('.pl-code-box h2').textContent();
      assert.match(title, /^Pseudocode: /);
      const atStart = tags(await highlighted(page));
      assert.ok(atStart.length > 0, `${algo}: the set-up is highlighted`);
      await click(page, 'step', 3);
      const stepping = tags(await highlighted(page));
      assert.ok(stepping.length > 0, `${algo}: a step is highlighted`);
      assert.notEqual(stepping, atStart, `${algo}: stepping moves the highlight`);
      await click(page, 'run');
      const end = tags(await highlighted(page));
      assert.ok(end.length > 0 && end !== stepping, `${algo}: the end is highlighted (${end})`);
      if (['jps', 'bi-astar', 'ida', 'theta'].includes(algo)) {
        await page.locator('[data-testid="timeline"]').fill('4');
        await page.locator('.pl-study').screenshot({ path: join(ROOT, 'tests', 'artifacts', `panels-${algo}.png`) });
      }
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('D* Lite: a planning step highlights the repair line, a move the move and sense lines', async () => {
    // A step that expands a cell raises the expanded count; a move leaves it as it was.
    const page = await open(env, 'algo=dstar-lite&map=course-5x5');
    let plans = 0;
    let moves = 0;
    for (let i = 0; i < 40 && (await text(page, 'status')) === 'searching' || i === 0; i++) {
      const before = Number(await text(page, 'expanded'));
      await click(page, 'step');
      if ((await text(page, 'status')) !== 'searching') break;
      const after = Number(await text(page, 'expanded'));
      const lit = tags(await highlighted(page));
      if (after > before) {
        plans += 1;
        assert.equal(lit, 'plan', `step ${i + 1} expanded a cell`);
      } else {
        moves += 1;
        assert.equal(lit, 'loop move sense', `step ${i + 1} moved the agent`);
      }
    }
    assert.ok(plans > 0 && moves > 0, `${plans} planning steps, ${moves} moves`);
    assert.equal(tags(await highlighted(page)), 'done');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the closed list opens, counts the expanded cells and shows them on the grid', async () => {
    const page = await open(env, 'map=wall-gap&algo=astar');
    await click(page, 'step', 6);
    const summary = page.locator('[data-testid="closed-list"] summary');
    assert.equal(await summary.textContent(), `Closed list: ${await text(page, 'expanded')} cells`);
    await summary.click();
    await nextFrame(page);
    const items = page.locator('[data-testid="closed-list"] li button');
    assert.equal(await items.count(), 6);
    const label = await items.nth(2).textContent();
    const [, x, y] = label.match(/^\((\d+),(\d+)\)/);
    await items.nth(2).click();
    await nextFrame(page);
    assert.match(await text(page, 'cell-info'), new RegExp(`^cell\\(${x},${y}\\).*closed`));
    // An open-list row's cell button shows that cell too.
    const rowButton = page.locator('[data-testid="open-list"] tbody tr').first().locator('button');
    const cell = await rowButton.textContent();
    await rowButton.click();
    await nextFrame(page);
    assert.ok((await text(page, 'cell-info')).startsWith(`cell${cell}`));
    await click(page, 'run');
    // At the goal the list holds the expanded cells and the goal, which the heading names apart
    // (taken off the open list, not expanded: the README's rule).
    assert.equal(
      await summary.textContent(),
      `Closed list: ${await text(page, 'expanded')} expanded cells, then the goal (taken off the open list, not expanded)`,
    );
    assert.equal(await page.evaluate(() => window.pathlab.lab.closedList(0).count), Number(await text(page, 'expanded')) + 1);
    await screenshot(page, 'panels-closed-list');
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
