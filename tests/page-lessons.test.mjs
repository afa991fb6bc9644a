// Worked examples, the quiz and lessons, in real Chromium.
// - Each worked-example preset (maps/presets.json with settings and explain) loads its settings
//   and shows its explanation, and the page's numbers equal hand calculations written here
//   (and the tests' reference Dijkstra where a cost is the optimum).
// - The quiz: a right click scores, a wrong click explains with the open list.
// - A lesson plays page by page, each page showing its configuration, and a page is reached by
//   link; a malformed lesson stops naming the page and the key, or the line; HTML in a lesson's
//   text stays text.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, cellCentre, nextFrame, open, screenshot, text, withBrowser } from './support/browser.mjs';
import { cheapest, distances, readCourse } from './support/dijkstra.mjs';

const testid = (page, id) => page.locator(`[data-testid="${id}"]`);

/** The cost the page shows once the search has run to the end. */
async function runCost(page) {
  await testid(page, 'run').click();
  await nextFrame(page);
  assert.equal(await text(page, 'status'), 'found');
  return Number(await testid(page, 'cost').getAttribute('data-value'));
}

/** The settings the page runs with. */
const settings = (page) => page.evaluate(() => window.pathlab.lab.settings());

/** Opens index.html?QUERY with lesson files served from `files` (name -> text) instead of the site. */
async function openLesson(env, query, files = {}, { width = 1400, height = 1000 } = {}) {
  const page = await env.browser.newPage({ viewport: { width, height } });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(`pageerror: ${e.message}`));
  for (const [name, body] of Object.entries(files)) {
    await page.route(`**/lessons/${name}`, (route) => route.fulfill({ status: 200, contentType: 'text/plain', body }));
  }
  await page.goto(`${env.base}index.html?${query}`);
  await page.waitForFunction(
    () => document.querySelector('[data-testid="lesson-error"]:not([hidden])') || document.querySelector('[data-testid="status"]')?.textContent,
    null,
    { timeout: 15000 },
  );
  return page;
}

/** Waits until the lesson shows page `n` and its page has mounted. */
async function onPage(page, n, total) {
  await page.waitForFunction(
    (want) => window.pathlab?.lab && document.querySelector('[data-testid="lesson-page"]')?.textContent === want && document.querySelector('[data-testid="status"]')?.textContent,
    `Page ${n} of ${total}`,
  );
  await nextFrame(page);
}

const KNOWN_5X5 = { start: [3, 1], goal: [0, 3] };

/**
 * Runs compare mode to the end; each pane's { expanded, cost } by algorithm, with the reference
 * Dijkstra's cost on the map file and the number of cells closer to the start than the goal
 * (`nearer`) and no farther (`within`): Dijkstra must expand every cell nearer and none beyond.
 */
async function comparedRuns(page, file) {
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-pane"]').length >= 2);
  await testid(page, 'compare-run').click();
  await nextFrame(page);
  const panes = await page.locator('[data-testid="compare-pane"]').evaluateAll((nodes) =>
    nodes.map((n) => [n.dataset.algo, {
      status: n.querySelector('[data-testid="compare-status"]').textContent,
      expanded: Number(n.querySelector('[data-testid="compare-expanded"]').textContent.replace(/,/g, '')),
      cost: Number(n.querySelector('[data-testid="compare-cost"]').dataset.value),
    }]),
  );
  const { diagonal } = await settings(page);
  const map = readCourse(readFileSync(join(ROOT, 'maps', file), 'utf8'));
  const optimum = cheapest(map, map.start, map.goal, { diagonal });
  const dist = distances(map, [map.start], { diagonal });
  const nearer = dist.filter((d) => d < optimum - 1e-9).length;
  const within = dist.filter((d) => d <= optimum + 1e-9).length;
  return { runs: Object.fromEntries(panes), optimum, nearer, within, map };
}

describe('worked examples as printed', () => {
  const env = withBrowser();

  test('the 5x5 example under each setting gives the hand-worked cost, and the explanation gives the same numbers', async () => {
    const map = readCourse(readFileSync(join(ROOT, 'maps', 'course-5x5.txt'), 'utf8'));
    assert.deepEqual([map.start, map.goal], [KNOWN_5X5.start, KNOWN_5X5.goal]);
    // Worked by hand on the printed map (A at column 3 row 1, B at column 0 row 3, walls at
    // (2,1), (2,2), (3,2)); 10 straight, 14 diagonal.
    const cases = [
      // Over the top: three diagonals past the wall's corners, one step down; round the
      // bottom: two diagonals and three straight steps. Manhattan (x10) overestimates and
      // A* takes the bottom.
      { name: 'course-5x5-tutorial', heuristic: 'manhattan', diagonal: 'always', cost: 14 + 14 + 10 + 10 + 10, optimum: 14 + 14 + 14 + 10 },
      { name: 'course-5x5-octile', heuristic: 'octile', diagonal: 'always', cost: 14 + 14 + 14 + 10, optimum: 14 + 14 + 14 + 10 },
      // Four-way: up 1, left 3, down 3 (or right 1, down 2, left 4): 7 steps.
      { name: 'course-5x5-four-way', heuristic: 'manhattan', diagonal: 'never', cost: 7 * 10, optimum: 7 * 10 },
      // No corner cutting: up, left, left, diagonal down-left, down, down.
      { name: 'course-5x5-no-corner-cutting', heuristic: 'octile', diagonal: 'no-corner-cutting', cost: 10 + 10 + 10 + 14 + 10 + 10, optimum: 10 + 10 + 10 + 14 + 10 + 10 },
    ];
    for (const c of cases) {
      const page = await open(env, `map=${c.name}`);
      const s = await settings(page);
      assert.deepEqual([s.algo, s.heuristic, s.diagonal, s.costs], ['astar', c.heuristic, c.diagonal, 'integer'], c.name);
      assert.equal(await runCost(page), c.cost, c.name);
      assert.equal(cheapest(map, map.start, map.goal, { diagonal: c.diagonal, costs: 'integer' }), c.optimum, `${c.name}: the reference Dijkstra agrees with the hand optimum`);
      const explain = await text(page, 'explain');
      for (const n of new Set([c.cost, c.optimum])) assert.match(explain, new RegExp(`\\b${n}\\b`), `${c.name} explains ${n}`);
      assert.match(explain, /Path-Finding and Crowd Management/);
      if (c.name === 'course-5x5-tutorial') {
        assert.match(explain, /14 \+ 14 \+ 10 \+ 10 \+ 10 = 58/);
        for (const [w, h] of [[1366, 768], [1920, 1080]]) {
          await page.setViewportSize({ width: w, height: h });
          await nextFrame(page);
          await screenshot(page, `lessons-explain-${w}`);
        }
      }
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  });

  test('choosing a worked example from the map menu brings its settings and its explanation', async () => {
    const page = await open(env, 'map=wall-gap&algo=dijkstra');
    assert.equal(await testid(page, 'explain').count(), 0, 'a plain preset has no explanation');
    await testid(page, 'map').selectOption('course-5x5-tutorial');
    await page.waitForFunction(() => document.querySelector('[data-testid="explain"]'));
    await nextFrame(page);
    const s = await settings(page);
    assert.deepEqual([s.algo, s.heuristic, s.diagonal], ['astar', 'manhattan', 'always']);
    assert.equal(await runCost(page), 58);
    assert.match(page.url(), /map=course-5x5-tutorial/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('keys in the URL win over the settings a preset brings', async () => {
    const page = await open(env, 'map=course-5x5-tutorial&heuristic=octile');
    const s = await settings(page);
    assert.deepEqual([s.heuristic, s.diagonal], ['octile', 'always']);
    assert.equal(await runCost(page), 52);
    await page.close();
  });

  test('the C trap: crash and turn loops inside the C; the explanation measures the C as the map draws it', async () => {
    const rows = readFileSync(join(ROOT, 'maps', 'c-trap.txt'), 'utf8').trim().split('\n').slice(2);
    const across = [...rows[4]].filter((c) => c === '1').length;
    const arm = rows.filter((r) => r[5] === '1').length;
    assert.deepEqual([across, arm], [10, 5], 'the hand count of the map file');
    const page = await open(env, 'map=c-trap-crash');
    assert.equal((await settings(page)).algo, 'crash-turn');
    await testid(page, 'run').click();
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'no-path');
    const explain = await text(page, 'explain');
    assert.match(explain, new RegExp(`wall ${across} cells wide`));
    assert.match(explain, new RegExp(`${arm} cells down`));
    assert.match(explain, /Tactics/);
    await page.close();
  });

  test("the thesis's comparison: four searches on 400 cells, with the thesis's own averages", async () => {
    const map = readCourse(readFileSync(join(ROOT, 'maps', 'thesis-400.txt'), 'utf8'));
    assert.equal(map.width * map.height, 400);
    const page = await open(env, 'map=thesis-400');
    const { runs, optimum, nearer, within } = await comparedRuns(page, 'thesis-400.txt');
    assert.deepEqual(Object.keys(runs), ['dijkstra', 'astar', 'theta', 'lrta']);
    for (const algo of ['dijkstra', 'astar']) assert.ok(Math.abs(runs[algo].cost - optimum) < 1e-9, `${algo} ${runs[algo].cost}, reference ${optimum}`);
    assert.ok(runs.dijkstra.expanded >= nearer && runs.dijkstra.expanded <= within, `Dijkstra expanded ${runs.dijkstra.expanded}, reference ${nearer} to ${within}`);
    assert.ok(runs.astar.expanded < runs.dijkstra.expanded / 2, `A* ${runs.astar.expanded}, Dijkstra ${runs.dijkstra.expanded}`);
    const explain = await text(page, 'explain');
    // The thesis's table: Dijkstra 292, A* 64, Theta* 291, LRTA* 104 nodes expanded per 400.
    for (const [algo, n] of [['Dijkstra', 292], ['A\\*', 64], ['Theta\\*', 291], ['LRTA\\*', 104]]) {
      assert.match(explain, new RegExp(`${algo} ${n}`));
    }
    assert.match(explain, /Multi-Agent Systems/);
    assert.match(explain, /400 cells/);
    await page.close();
  });

  test('the maze example compares Dijkstra with A*, and the graph examples give the printed costs', async () => {
    const maze = await open(env, 'map=maze-compare');
    const { runs, optimum, nearer, within, map } = await comparedRuns(maze, 'maze-corridor.txt');
    // By hand: six corridors of 15 cells joined by five gaps; the way runs 14 cells along each
    // corridor and 10 rows down: 6 x 14 + 10 = 94 moves, through all 6 x 15 + 5 = 95 cells.
    assert.equal(map.open.filter(Boolean).length, 6 * 15 + 5);
    assert.equal(optimum, 6 * 14 + 10);
    for (const algo of ['dijkstra', 'astar']) assert.equal(runs[algo].cost, optimum, algo);
    assert.ok(runs.dijkstra.expanded >= nearer && runs.dijkstra.expanded <= within, `Dijkstra expanded ${runs.dijkstra.expanded}, reference ${nearer} to ${within}`);
    // The heuristic saves nothing here: A* expands as many cells as Dijkstra.
    assert.equal(runs.astar.expanded, runs.dijkstra.expanded);
    const explain = await text(maze, 'explain');
    for (const n of ['6 x 14 \\+ 10 = 94', 'guesses 10 moves', '95 open cells']) assert.match(explain, new RegExp(n));
    assert.match(explain, /slides/);
    await maze.close();
    // B-C-A-E = 4 + 2 + 5 on the slides' graph; A-D-E-F = 9 + 2 + 3 in the book's matrix.
    for (const [name, cost] of [['slides-5', 4 + 2 + 5], ['course-matrix', 9 + 2 + 3]]) {
      const page = await open(env, `space=graph&map=${name}`);
      await testid(page, 'run').click();
      await nextFrame(page);
      assert.equal(Number(await testid(page, 'cost').getAttribute('data-value')), cost, name);
      assert.match(await text(page, 'explain'), new RegExp(`= ${cost}\\b|${cost} \\(`), name);
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  });
});

describe('predict the next step', () => {
  const env = withBrowser();

  test('expand: a right click scores, a wrong click explains with the open list', async () => {
    const page = await open(env, 'map=course-5x5-octile&quiz=expand');
    await testid(page, 'quiz').waitFor();
    // Before any step the open list holds the start alone: A, at (3, 1) in the data file.
    let p = await cellCentre(page, ...KNOWN_5X5.start);
    await page.mouse.click(p.x, p.y);
    assert.equal(await testid(page, 'quiz-feedback').getAttribute('data-result'), 'right');
    assert.equal(await text(page, 'quiz-score'), 'Score: 1 of 1');
    // A wall is never on the open list.
    p = await cellCentre(page, 2, 1);
    await page.mouse.click(p.x, p.y);
    const feedback = await text(page, 'quiz-feedback');
    assert.equal(await testid(page, 'quiz-feedback').getAttribute('data-result'), 'wrong');
    assert.match(feedback, /\(2, 1\) is not on the open list/);
    assert.match(feedback, /f = \d+ \+ \d+ = \d+/);
    assert.equal(await text(page, 'quiz-score'), 'Score: 1 of 2');
    assert.equal(await page.locator('[data-testid="cell-info"]').count(), 1);
    // The clicks answered; they painted no wall.
    assert.equal(await page.evaluate(() => window.pathlab.lab.cell(3, 0)), 1);
    assert.match(page.url(), /quiz=expand/);
    for (const [w, h] of [[1366, 768], [1920, 1080]]) {
      await page.setViewportSize({ width: w, height: h });
      await nextFrame(page);
      await screenshot(page, `lessons-quiz-${w}`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("path: the path's first move from A is the diagonal up-left, (2, 0), as worked by hand", async () => {
    const page = await open(env, 'map=course-5x5-octile');
    await testid(page, 'quiz-toggle').click();
    await testid(page, 'quiz').waitFor();
    await testid(page, 'quiz-mode').selectOption('path');
    let p = await cellCentre(page, 4, 2);
    await page.mouse.click(p.x, p.y);
    assert.equal(await testid(page, 'quiz-feedback').getAttribute('data-result'), 'wrong');
    assert.match(await text(page, 'quiz-feedback'), /goes to \(2, 0\)/);
    p = await cellCentre(page, 2, 0);
    await page.mouse.click(p.x, p.y);
    assert.equal(await testid(page, 'quiz-feedback').getAttribute('data-result'), 'right');
    assert.equal(await text(page, 'quiz-score'), 'Score: 1 of 2');
    await page.close();
  });
});

describe('lessons', () => {
  const env = withBrowser();
  const lesson = JSON.parse(readFileSync(join(ROOT, 'lessons', 'astar-5x5.json'), 'utf8'));

  test('a lesson plays page by page, each page showing its configuration, with its page in the address', async () => {
    const page = await openLesson(env, 'lesson=astar-5x5');
    const total = lesson.pages.length;
    assert.equal(await text(page, 'lesson-title'), lesson.title);
    for (let n = 1; n <= total; n++) {
      if (n > 1) await testid(page, 'lesson-next').click();
      await onPage(page, n, total);
      const want = lesson.pages[n - 1].config;
      assert.match(page.url(), new RegExp(`lesson=astar-5x5&page=${n}$`));
      const s = await settings(page);
      const mapName = await testid(page, 'map').inputValue();
      assert.equal(mapName, want.map, `page ${n}: map`);
      for (const key of ['algo', 'heuristic', 'diagonal', 'costs']) {
        if (want[key]) assert.equal(s[key], want[key], `page ${n}: ${key}`);
      }
      const steps = await page.evaluate(() => window.pathlab.lab.steps);
      // At the page's step, or at the end where the search ends sooner.
      const ended = ['found', 'no-path'].includes(await text(page, 'status'));
      assert.ok(steps === (want.step ?? 0) || (ended && steps < want.step), `page ${n}: step ${steps}, wanted ${want.step}`);
      assert.equal(await testid(page, 'quiz').isVisible(), want.quiz === 'expand', `page ${n}: quiz`);
      const folded = await page.locator('.pl-folded').count();
      assert.equal(folded > 0, Boolean(lesson.pages[n - 1].folded?.length), `page ${n}: folded panels`);
      if (n === 2) {
        // The subset's marks: bold where the file says **...**, and the star of "A*" kept.
        assert.match(await text(page, 'lesson-text'), /A\* keeps an open list/);
        assert.deepEqual(await page.locator('[data-testid="lesson-text"] strong').allTextContents(), ['open list', 'closed list']);
        for (const [w, h] of [[1366, 768], [1920, 1080]]) {
          await page.setViewportSize({ width: w, height: h });
          await nextFrame(page);
          await screenshot(page, `lessons-page-${w}`);
        }
      }
    }
    assert.equal(await testid(page, 'lesson-next').isDisabled(), true);
    await testid(page, 'lesson-back').click();
    await onPage(page, total - 1, total);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a lesson page opens from its link', async () => {
    const page = await openLesson(env, 'lesson=astar-5x5&page=5');
    await onPage(page, 5, lesson.pages.length);
    assert.equal(await testid(page, 'map').inputValue(), 'course-5x5-tutorial');
    // The page's step is past the end: the search has found its path, 14 + 14 + 10 + 10 + 10.
    assert.equal(await text(page, 'status'), 'found');
    assert.equal(Number(await testid(page, 'cost').getAttribute('data-value')), 58);
    assert.match(await text(page, 'lesson-text'), /58/);
    await page.close();
  });

  test('a malformed lesson stops with a message naming the page and the key, or the line', async () => {
    const good = (config) => ({ text: 'A page.', config });
    const cases = [
      // A missing comma at the end of line 3.
      ['syntax.json', '{\n  "title": "x",\n  "pages": []\n  "more": 1\n}', /lessons\/syntax\.json", line 4, column \d+: not valid JSON/],
      ['unknown-page-key.json', JSON.stringify({ pages: [good({}), { text: 'x', colour: 'red' }] }), /page 2, key "colour": not a key of a page/],
      ['unknown-url-key.json', JSON.stringify({ pages: [good({ map: 'course-5x5', speeed: 3 })] }), /page 1, key "speeed": not a key a lesson page may set/],
      ['bad-value.json', JSON.stringify({ pages: [good({}), good({}), good({ algo: 'astarr' })] }), /page 3, key "algo": unknown algorithm "astarr"/],
      ['bad-step.json', JSON.stringify({ pages: [good({ step: -2 })] }), /page 1, key "step"/],
      ['no-pages.json', JSON.stringify({ title: 'x' }), /key "pages": expected a list/],
    ];
    for (const [file, body, want] of cases) {
      const page = await openLesson(env, `lesson=${file.replace('.json', '')}`, { [file]: body });
      const message = await text(page, 'lesson-error');
      assert.match(message, want, file);
      assert.equal(await testid(page, 'grid').count(), 0, `${file}: no page is shown`);
      await page.close();
    }
  });

  test('a Markdown lesson plays, and a bad setting in it names its page, key and line', async () => {
    const md = '---\ntitle: Two pages\nmap: course-5x5\nalgo: dijkstra\n---\nFirst *page*.\n\n---\nmap: course-5x5\nstep: 2\n---\nSecond page.\n';
    const page = await openLesson(env, 'lesson=two', { 'two.json': '', 'two.md': md }, {});
    // two.json is served empty, which is not JSON: the JSON file wins and says so.
    assert.match(await text(page, 'lesson-error'), /line 1/);
    await page.close();
    const md2 = await openLesson(env, 'lesson=md-two', { 'md-two.md': md });
    await onPage(md2, 1, 2);
    assert.equal(await text(md2, 'lesson-title'), 'Two pages');
    assert.equal((await settings(md2)).algo, 'dijkstra');
    assert.equal(await md2.locator('[data-testid="lesson-text"] em').textContent(), 'page');
    await testid(md2, 'lesson-next').click();
    await onPage(md2, 2, 2);
    assert.equal(await md2.evaluate(() => window.pathlab.lab.steps), 2);
    await md2.close();
    const bad = await openLesson(env, 'lesson=md-bad', { 'md-bad.md': md.replace('step: 2', 'step: two') });
    assert.match(await text(bad, 'lesson-error'), /page 2, key "step" \(line 10\)/);
    await bad.close();
  });

  test('HTML and script in a lesson text are shown as text', async () => {
    const hostile = '<img src=x onerror="window.hacked=1"> <script>window.hacked=2</script> **bold** <b>not bold</b>';
    const page = await openLesson(env, 'lesson=hostile', { 'hostile.json': JSON.stringify({ title: '<i>t</i>', pages: [{ text: hostile, config: { map: 'course-5x5' } }] }) });
    await onPage(page, 1, 1);
    const box = testid(page, 'lesson-text');
    assert.match(await box.textContent(), /<img src=x onerror="window.hacked=1">/);
    assert.match(await box.textContent(), /<script>window.hacked=2<\/script>/);
    assert.equal(await box.locator('img, script, b').count(), 0);
    assert.equal(await box.locator('strong').textContent(), 'bold');
    assert.equal(await text(page, 'lesson-title'), '<i>t</i>');
    assert.equal(await page.evaluate(() => window.hacked), undefined);
    await page.close();
  });
});
