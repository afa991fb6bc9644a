// The lessons issue's switches end to end, in real Chromium:
// - every switch of the grid page (the skeleton's plug-ins, re-opening, IDA*'s threshold rule,
//   the neighbour order, the heuristic check, the quiz), set with the page's own controls,
//   survives a reload and comes back from a share link opened in a fresh browser;
// - the skeleton's open-list panel says what orders it (a queue, a stack, or a·g + b·h with
//   the chosen a and b);
// - on a graph, costs on the links or on the nodes: the hill-costs preset costs 6 through the
//   marsh on the links and 3 over the hill on the nodes (worked by hand in its explanation),
//   and the choice survives a reload and a share link;
// - the navmesh's funnel quiz: a click far from the next corner is explained from the
//   funnel's sides, a click on it (worked by hand: the wall's end) scores.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshPage, nextFrame, open, screenshot, text, visit, withBrowser } from './support/browser.mjs';
import { encodeGrid } from '../www/share.js';

const testid = (page, id) => page.locator(`[data-testid="${id}"]`);

/** A fresh browser context (its own storage) at 1366 x 768. */
const fresh = (env) => freshPage(env, { viewport: { width: 1366, height: 768 } });

/** Runs the search from step 0 to its end; returns the cost read-out as a number. */
async function costAtEnd(page) {
  if (await testid(page, 'reset').isEnabled()) await testid(page, 'reset').click();
  await testid(page, 'run').click();
  await page.waitForFunction(() => ['found', 'no-path'].includes(document.querySelector('[data-testid="status"]')?.textContent ?? ''));
  await nextFrame(page);
  return Number(await testid(page, 'cost').getAttribute('data-value'));
}

/** What the grid page shows of every switch: the Lab's settings and the controls. */
async function switchesShown(page) {
  const s = await page.evaluate(() => window.pathlab.lab.settings());
  return {
    algo: s.algo, list: s.list, ga: s.ga, hb: s.hb, gcount: s.gcount, reopen: s.reopen, threshold: s.threshold, order: s.order,
    hcheck: await testid(page, 'hcheck').isChecked(),
    quiz: (await testid(page, 'quiz').count()) > 0 && (await testid(page, 'quiz').isVisible()) ? await testid(page, 'quiz-mode').inputValue() : null,
  };
}

describe('the lessons switches', () => {
  const env = withBrowser();

  test('every grid switch set with the controls survives a reload and a share link', async () => {
    const { context, page } = await fresh(env);
    await visit(page, `${env.base}index.html?map=maze-small`);
    // IDA*'s threshold rule first (its field shows for IDA* only), then the skeleton's.
    await testid(page, 'algo').selectOption('ida');
    await testid(page, 'threshold').selectOption('plus-one');
    await testid(page, 'algo').selectOption('template');
    await testid(page, 'list').selectOption('priority');
    await testid(page, 'ga').fill('2');
    await testid(page, 'ga').dispatchEvent('change');
    await testid(page, 'hb').fill('0.5');
    await testid(page, 'hb').dispatchEvent('change');
    await testid(page, 'gcount').selectOption('edges');
    await testid(page, 'reopen').check();
    await testid(page, 'order').fill('wsen');
    await testid(page, 'order').dispatchEvent('change');
    await testid(page, 'hcheck').check();
    await testid(page, 'quiz-toggle').click();
    await testid(page, 'quiz').waitFor();
    const want = { algo: 'template', list: 'priority', ga: 2, hb: 0.5, gcount: 'edges', reopen: true, threshold: 'plus-one', order: 'wsen', hcheck: true, quiz: 'expand' };
    assert.deepEqual(await switchesShown(page), want);

    await page.reload();
    await page.waitForFunction(() => window.pathlab && document.querySelector('[data-testid="quiz"]'));
    await nextFrame(page);
    assert.deepEqual(await switchesShown(page), want, `after a reload of ${page.url()}`);

    await testid(page, 'share').click();
    const link = await testid(page, 'share-url').inputValue();
    assert.ok(link.includes('order=wsen') && link.includes('threshold=plus-one'), link);
    await context.close();
    const other = await fresh(env);
    await visit(other.page, link);
    await other.page.locator('[data-testid="quiz"]').waitFor();
    assert.deepEqual(await switchesShown(other.page), want, `from the share link ${link}`);
    assert.equal(await other.page.locator('[data-testid="message"]').isVisible(), false);
    assert.deepEqual([...page.errors, ...other.page.errors], []);
    await other.context.close();
  });

  test('the skeleton’s open list says what orders it: a queue, a stack, or a·g + b·h with its a and b', async () => {
    const page = await open(env, 'map=course-5x5&algo=template&ga=1&hb=1.5&step=2', { width: 1366, height: 768 });
    const caption = testid(page, 'open-caption');
    const heading = page.locator('.pl-open-box h2');
    const saysOrder = (words) => page.waitForFunction((w) => document.querySelector('[data-testid="open-caption"]')?.textContent.includes(w), words);
    await saysOrder('lowest f = 1·g + 1.5·h first; ties: higher 1·g, then first opened');
    assert.equal(await heading.textContent(), 'Open list: priority');
    assert.equal(await page.locator('[data-testid="open-list"] thead th').nth(4).textContent(), 'f = 1·g + 1.5·h');
    await screenshot(page, 'skeleton-open-list-1366');
    await testid(page, 'list').selectOption('stack');
    await saysOrder('a stack: last in, first out');
    assert.equal(await heading.textContent(), 'Open list: stack');
    await testid(page, 'list').selectOption('queue');
    await saysOrder('a queue: first in, first out');
    assert.match(await caption.textContent(), /^\d+ cells?, a queue: first in, first out\./);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the hill graph costs 6 with the costs on the links and 3 on the nodes; the choice survives a reload and a link', async () => {
    const { context, page } = await fresh(env);
    await visit(page, `${env.base}index.html?space=graph&map=hill-costs`);
    const path = () => page.evaluate(() => {
      const lab = window.pathlab.lab;
      const ids = lab.labels();
      return [...lab.path()].map((n) => ids[n]).join('-');
    });
    // The explanation names the lecture and its numbers.
    assert.match(await text(page, 'explain'), /on the links.*3 \+ 3 = 6.*2 \+ 1 = 3/s);
    assert.match(await text(page, 'explain'), /Steering and grid path-finding/);
    assert.equal(await testid(page, 'costs-on').inputValue(), 'links');
    assert.equal(await costAtEnd(page), 6);
    assert.equal(await path(), 'A-marsh-B');
    await screenshot(page, 'hill-costs-links-1366');
    await testid(page, 'costs-on').selectOption('nodes');
    assert.equal(await costAtEnd(page), 3);
    assert.equal(await path(), 'A-hill-B');
    await screenshot(page, 'hill-costs-nodes-1366');
    // The hill's weight set to 9 in its form: over the hill now costs 9 + 1, the marsh 4 + 1.
    const hill = await page.evaluate(() => window.pathlab.view.nodePoint('hill'));
    await page.mouse.click(hill.x, hill.y);
    await nextFrame(page);
    await testid(page, 'node-cost').fill('9');
    await testid(page, 'node-cost').dispatchEvent('change');
    assert.equal(await costAtEnd(page), 5);
    assert.equal(await path(), 'A-marsh-B');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await nextFrame(page);
    await screenshot(page, 'hill-costs-nodes-1920');

    await page.reload();
    await page.waitForFunction(() => window.pathlab && document.querySelector('[data-testid="costs-on"]'));
    assert.equal(await testid(page, 'costs-on').inputValue(), 'nodes');
    assert.equal(await costAtEnd(page), 5);
    await testid(page, 'share').click();
    const link = await testid(page, 'share-url').inputValue();
    assert.match(link, /costs-on=nodes/);
    await context.close();
    const other = await fresh(env);
    await visit(other.page, link);
    assert.equal(await testid(other.page, 'costs-on').inputValue(), 'nodes');
    assert.equal(await costAtEnd(other.page), 5);
    // With the costs back on the links, the edited weight changes nothing: 6 again.
    await testid(other.page, 'costs-on').selectOption('links');
    assert.equal(await costAtEnd(other.page), 6);
    assert.deepEqual([...page.errors, ...other.page.errors], []);
    await other.context.close();
  });

  test('the funnel quiz: a wrong click is explained from the funnel’s sides, the next corner scores', async () => {
    // Four columns, three rows; a wall along the middle row but its last cell. From the cell
    // (0, 0) to the cell (0, 2), centres (0.5, 0.5) and (0.5, 2.5), the string must go round
    // the wall's end: by hand, it bends first at the wall's corner (3, 1), then at (3, 2).
    const cells = Uint8Array.from([1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1]);
    const grid = encodeGrid({ width: 4, height: 3, cells });
    const page = await open(env, `space=navmesh&grid=${grid}&start=0,0&goal=0,2&quiz=apex`, { width: 1366, height: 768 });
    await testid(page, 'quiz').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="phase"]')?.textContent === 'funnel');
    const clickAt = async (x, y) => {
      const canvas = testid(page, 'grid');
      const box = await canvas.boundingBox();
      const scale = Number(await canvas.getAttribute('data-scale'));
      const [ox, oy] = (await canvas.getAttribute('data-origin')).split(',').map(Number);
      await page.mouse.click(box.x + ox + x * scale, box.y + oy + y * scale);
      await nextFrame(page);
    };
    const feedback = testid(page, 'quiz-feedback');
    await clickAt(0.5, 1.5);
    assert.equal(await feedback.getAttribute('data-result'), 'wrong');
    assert.match(await feedback.textContent(), /^Not quite: \(0\.5, 1\.5\) is \d+\.\d\d cells from the next corner\. The funnel's apex is at \(0\.5, 0\.5\); its left (side runs to \(.*\), its right side to \(.*\)|and right sides have not opened yet).*\(3, 1\)/);
    assert.equal(await text(page, 'quiz-score'), 'Score: 0 of 1');
    await screenshot(page, 'navmesh-quiz-wrong-1366');
    await clickAt(3, 1);
    assert.equal(await feedback.getAttribute('data-result'), 'right');
    assert.equal(await text(page, 'quiz-score'), 'Score: 1 of 2');
    await clickAt(3, 2);
    assert.equal(await feedback.getAttribute('data-result'), 'right');
    assert.equal(await testid(page, 'grid').getAttribute('data-path'), '(0.5, 0.5) (3, 1) (3, 2)');
    await screenshot(page, 'navmesh-quiz-right-1366');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await nextFrame(page);
    await screenshot(page, 'navmesh-quiz-1920');
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
