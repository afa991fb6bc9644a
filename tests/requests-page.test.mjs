// The path-request page in real Chromium: after a burst every agent waits, and frame by frame
// the queue shrinks while no frame spends more than its budget (and none leaves budget unused
// while requests wait); answers are served and waits measured; the queue table lists the
// open requests in the order of service; the controls and URL settings work, bad URL values
// give specific messages and are never inserted as HTML; embed mode shows the map and controls
// only. Screenshots go to /tmp/requests-*.png.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, openPage, text, withBrowser } from './support/browser.mjs';

/** Opens requests.html with `query` and waits until the page has mounted and shows frame 1+. */
function openRequests(env, query = '', { width = 1400, height = 1000 } = {}) {
  return openPage(env, 'requests.html', query, { app: 'requestlab', readout: 'frame', width, height });
}

/** Reads a numeric read-out. */
async function number(page, id) {
  const t = await text(page, id);
  assert.match(t, /^\d+(\.\d+)?$/, `${id} is a number: ${JSON.stringify(t)}`);
  return Number(t);
}

/** Pauses the page if it is playing. */
async function pause(page) {
  const play = page.locator('[data-testid="play"]');
  if ((await play.getAttribute('aria-pressed')) === 'true') await play.click();
  assert.equal(await play.getAttribute('aria-pressed'), 'false');
}

/** Checks that the queue table lists the open requests in the order the core serves them. */
async function checkQueueTable(page) {
  const rows = await page.locator('[data-testid="queue"] tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.children].map((td) => td.textContent)),
  );
  const core = await page.evaluate(() => window.requestlab.requests.queue());
  assert.ok(core.length > 0, 'requests are waiting');
  assert.equal(rows.length, Math.min(14, core.length));
  assert.equal(core.length, await number(page, 'queued'));
  rows.forEach((row, i) => {
    assert.deepEqual(row, [String(core[i].id), String(core[i].urgency), core[i].effective.toFixed(1), String(core[i].expanded), String(core[i].age)]);
  });
  for (let i = 1; i < core.length; i++) {
    assert.ok(core[i - 1].effective >= core[i].effective, 'highest effective urgency first');
  }
  assert.ok(core.every((r) => r.status === 'queued' || r.status === 'searching'));
  assert.ok(core.some((r) => r.status === 'searching') || core.every((r) => r.expanded === 0));
}

describe('path-request page', () => {
  const env = withBrowser();

  test('after a burst the queue shrinks frame by frame within the budget, and answers are served', async () => {
    const budget = 40;
    const agents = 30;
    const page = await openRequests(env, `budget=${budget}&agents=${agents}&seed=3`);
    await pause(page);
    assert.equal(await number(page, 'budget'), budget);
    assert.equal(await text(page, 'message'), '');
    // Reset: the agents stand where the seed puts them, so the frames below replay exactly.
    await page.locator('[data-testid="reset"]').click();
    const served0 = await number(page, 'served');
    assert.equal(served0, 0);
    await page.locator('[data-testid="burst"]').click();
    assert.equal(await number(page, 'queued'), agents, 'every agent waits after the burst');
    const frame0 = await number(page, 'frame');
    const queued = [agents];
    for (let k = 1; k <= 40; k++) {
      await page.locator('[data-testid="step"]').click();
      assert.equal(await number(page, 'frame'), frame0 + k, 'one click is one frame');
      const spent = await number(page, 'spent');
      const q = await number(page, 'queued');
      assert.ok(spent <= budget, `frame ${frame0 + k} spent ${spent} of ${budget}`);
      if (q > 0) assert.equal(spent, budget, `frame ${frame0 + k} left budget unused with ${q} waiting`);
      queued.push(q);
      if (k === 10) {
        await checkQueueTable(page);
        await page.screenshot({ path: '/tmp/requests-burst.png', fullPage: true });
      }
    }
    assert.ok(queued[10] < queued[0] && queued[40] < queued[10], `the queue falls: ${queued.join(' ')}`);
    console.log(`# queued after the burst, frame by frame: ${queued.join(' ')}`);
    const served = await number(page, 'served');
    assert.ok(served >= served0 + agents - queued[40], `served ${served}, from ${served0}`);
    const mean = await number(page, 'mean-wait');
    const max = await number(page, 'max-wait');
    assert.ok(mean >= 1 && max >= mean, `mean wait ${mean}, max ${max}`);

    // Let it play a little so that walkers and paths show, then look at it.
    const frame = await number(page, 'frame');
    await page.locator('[data-testid="play"]').click();
    await page.waitForFunction((f) => Number(document.querySelector('[data-testid="frame"]').textContent) >= f + 20, frame);
    await pause(page);
    await nextFrame(page);
    await page.screenshot({ path: '/tmp/requests-walking.png', fullPage: true });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('budget, aging and agent controls change the run and the URL', async () => {
    const page = await openRequests(env, 'agents=12&budget=100');
    await pause(page);
    const slider = page.locator('[data-testid="budget-input"]');
    await slider.fill('300');
    await nextFrame(page);
    assert.equal(await number(page, 'budget'), 300);
    assert.equal(await page.evaluate(() => window.requestlab.requests.budget), 300);
    assert.match(page.url(), /budget=300/);
    const aging = page.locator('[data-testid="aging"]');
    assert.equal(await aging.isChecked(), true);
    await aging.uncheck();
    assert.equal(await page.evaluate(() => window.requestlab.requests.agingRate), 0);
    assert.match(page.url(), /aging=0/);
    const count = page.locator('[data-testid="agent-count"]');
    await count.fill('25');
    await count.press('Enter');
    await nextFrame(page);
    assert.equal(await page.evaluate(() => window.requestlab.app.agents.length), 25);
    assert.equal(await number(page, 'frame'), 0, 'a new agent count starts again');
    await page.locator('[data-testid="step"]').click();
    const noPath = await page.evaluate(() => window.requestlab.app.noPath);
    assert.equal((await number(page, 'queued')) + (await number(page, 'served')) + noPath, 25, 'each agent asked once');
    assert.ok((await number(page, 'spent')) <= 300);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('bad URL values give specific messages, fall back to defaults and are never HTML', async () => {
    const query = new URLSearchParams({
      budget: 'lots',
      agents: '-3',
      aging: 'maybe',
      seed: '1e3',
      embed: '2',
      colour: 'red',
      map: '<img src=x onerror=alert(1)>',
    }).toString();
    const page = await openRequests(env, query);
    const message = await text(page, 'message');
    for (const expected of [
      'Parameter "budget": expected a whole number of A* steps per frame from 0 to 100000, got "lots"; using 150.',
      'Parameter "agents": expected a whole number of agents from 0 to 2000, got "-3"; using 40.',
      'Parameter "aging": expected 0 or 1, got "maybe"; using 1.',
      'Parameter "seed"',
      'Parameter "embed"',
      'Parameter "colour": is not a setting of this page',
      'Parameter "map": "<img src=x onerror=alert(1)>" is neither a preset name',
    ]) {
      assert.ok(message.includes(expected), `message has ${expected}: ${message}`);
    }
    assert.equal(await page.locator('img').count(), 0, 'nothing from the URL became HTML');
    assert.equal(await number(page, 'budget'), 150);
    assert.equal(await page.evaluate(() => window.requestlab.app.agents.length), 40);
    assert.equal(await page.locator('[data-testid="map"]').inputValue(), 'arena');
    assert.deepEqual(page.errors, []);
    await page.close();

    const missing = await openRequests(env, 'map=no-such-map');
    assert.match(await text(missing, 'message'), /Parameter "map": "no-such-map" is not a preset .*Showing arena instead/);
    assert.equal(await missing.locator('[data-testid="map"]').inputValue(), 'arena');
    await missing.close();
  });

  test('another preset and embed mode: the map and its controls only', async () => {
    const page = await openRequests(env, 'map=maze-small&agents=8&embed=1', { width: 700, height: 700 });
    assert.equal(await page.locator('[data-testid="grid"]').getAttribute('data-width'), '21');
    assert.equal(await page.locator('header').isVisible(), false);
    assert.equal(await page.locator('[data-testid="queue"]').isVisible(), false);
    for (const id of ['grid', 'play', 'step', 'burst', 'queued', 'spent']) {
      assert.ok(await page.locator(`[data-testid="${id}"]`).isVisible(), `${id} is shown`);
    }
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="served"]').textContent) > 0, null, {
      timeout: 15000,
    });
    await page.screenshot({ path: '/tmp/requests-embed.png' });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the path-finding page links to this page', async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.base}index.html`);
    assert.equal(await page.locator('a[href="requests.html"]').count(), 1);
    await page.close();
  });
});
