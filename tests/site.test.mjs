// The static site for course hosting, in real Chromium: scripts/build-site.sh copies the pages
// into a folder of their own, a plain static server serves that folder under a sub-path (as a
// course's web space would), and a course page on another origin embeds the path-finding page
// in an iframe. Every page must load from there with nothing missing and every request must
// stay under the site's own path; the embedded search must find the cheapest path (checked
// against the reference Dijkstra of the tests, not against the page).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../scripts/serve.mjs';
import { CHROMIUM, ROOT, launchArgs, nextFrame, screenshot, text } from './support/browser.mjs';
import { shownAndCheapest } from './support/dijkstra.mjs';

const testid = (where, id) => where.locator(`[data-testid="${id}"]`);

/** Records what a page asks for and what goes wrong in it. */
function watch(page) {
  page.errors = [];
  page.requests = [];
  page.on('pageerror', (e) => page.errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') page.errors.push(`console: ${m.text()}`);
  });
  page.on('request', (r) => page.requests.push(r.url()));
  page.on('response', (r) => {
    if (r.status() >= 400) page.errors.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  return page;
}

describe('the static site', () => {
  let work;
  let siteServer;
  let courseServer;
  let browser;
  let site;
  let course;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'pathlab-site-'));
    const folder = join(work, 'web', 'courses', 'ai-games', 'pathlab');
    // The site is built from what the test command's wasm build left in www/.
    execFileSync(join(ROOT, 'scripts', 'build-site.sh'), ['--prebuilt', folder], { stdio: 'pipe' });
    siteServer = await serve(join(work, 'web'), 0);
    site = `http://127.0.0.1:${siteServer.address().port}/courses/ai-games/pathlab/`;

    const coursePages = join(work, 'course');
    execFileSync('mkdir', ['-p', coursePages]);
    const src = `${site}index.html?map=course-5x5&algo=astar&diagonal=never&embed=1&lock=1`;
    writeFileSync(
      join(coursePages, 'week3.html'),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Week 3: A*</title></head><body><h1>Week 3: A*</h1><iframe src="${src}" width="560" height="600" title="A* on the 5x5 example"></iframe></body></html>`,
    );
    const lesson = `${site}index.html?lesson=astar-5x5&embed=1`;
    writeFileSync(
      join(coursePages, 'week4.html'),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Week 4: a lesson</title></head><body><h1>Week 4</h1><iframe src="${lesson}" width="700" height="820" title="Lesson: A* on the 5x5 example"></iframe></body></html>`,
    );
    courseServer = await serve(coursePages, 0);
    course = `http://127.0.0.1:${courseServer.address().port}/`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: launchArgs(),
    });
  });

  after(async () => {
    await browser?.close();
    await new Promise((ok) => (siteServer ? siteServer.close(ok) : ok()));
    await new Promise((ok) => (courseServer ? courseServer.close(ok) : ok()));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('the folder holds the pages, the wasm modules and the maps, and no type declarations', () => {
    const folder = join(work, 'web', 'courses', 'ai-games', 'pathlab');
    for (const page of ['index.html', 'boids.html', 'crowd.html', 'requests.html']) {
      assert.ok(existsSync(join(folder, page)), `${page} is in the site`);
    }
    const pkg = readdirSync(join(folder, 'pkg'));
    for (const module of ['pathlab_wasm', 'pathlab_searches', 'pathlab_world', 'pathlab_crowd', 'pathlab_spaces']) {
      assert.ok(pkg.includes(`${module}_bg.wasm`) && pkg.includes(`${module}.js`), `${module} is in pkg/`);
    }
    assert.ok(existsSync(join(folder, 'maps', 'presets.json')));
    for (const lesson of ['astar-5x5.json', 'heuristics.md', 'jps.json']) assert.ok(existsSync(join(folder, 'lessons', lesson)), `${lesson} is in the site`);
    assert.deepEqual(readdirSync(folder).filter((f) => f.endsWith('.d.ts')), []);
  });

  test('refuses to empty a folder it did not make', () => {
    const other = join(work, 'someone-else');
    execFileSync('mkdir', ['-p', other]);
    writeFileSync(join(other, 'notes.txt'), 'keep me');
    assert.throws(
      () => execFileSync(join(ROOT, 'scripts', 'build-site.sh'), ['--prebuilt', other], { stdio: 'pipe' }),
      (e) => e.status === 2 && /not made by build-site\.sh/.test(String(e.stderr)),
    );
    assert.ok(existsSync(join(other, 'notes.txt')), 'the folder was left as it was');
  });

  test('a course page on another origin embeds the path-finding page, which finds the cheapest path', async () => {
    const host = watch(await browser.newPage({ viewport: { width: 1000, height: 800 } }));
    await host.goto(`${course}week3.html`);
    const frame = host.frames().find((f) => f !== host.mainFrame());
    assert.ok(frame, 'the course page has an iframe');
    watch(frame.page());
    await frame.waitForFunction(
      () => window.pathlab && document.querySelector('[data-testid="status"]')?.textContent !== '',
      null,
      { timeout: 15000 },
    );
    assert.notEqual(new URL(frame.url()).origin, new URL(host.url()).origin, 'the frame is on another origin');
    await testid(frame, 'run').click();
    await nextFrame(frame);
    assert.equal(await text(frame, 'status'), 'found');
    const { shown, cheapest, map } = await shownAndCheapest(frame);
    assert.deepEqual([map.width, map.height], [5, 5], 'the 5x5 preset came from the site folder');
    assert.ok(Math.abs(shown - cheapest) < 1e-9, `embedded ${shown}, reference ${cheapest}`);
    const stray = host.requests.filter((u) => !u.startsWith(site) && !u.startsWith(course));
    assert.deepEqual(stray, [], 'every request stays on the site or the course page');
    assert.deepEqual(host.errors, []);
    await host.close();
  });

  test('a course page embeds a lesson with one iframe: its pages play inside the frame', async () => {
    const host = watch(await browser.newPage({ viewport: { width: 1000, height: 900 } }));
    await host.goto(`${course}week4.html`);
    const frame = host.frames().find((f) => f !== host.mainFrame());
    assert.ok(frame, 'the course page has an iframe');
    const onPage = (want) => frame.waitForFunction(
      (w) => window.pathlab?.lab && document.querySelector('[data-testid="lesson-page"]')?.textContent === w && document.querySelector('[data-testid="status"]')?.textContent,
      want,
      { timeout: 15000 },
    );
    await onPage('Page 1 of 6');
    assert.match(await text(frame, 'lesson-title'), /5 x 5/);
    await testid(frame, 'lesson-next').click();
    await onPage('Page 2 of 6');
    assert.equal(await frame.evaluate(() => window.pathlab.lab.steps), 1);
    assert.match(frame.url(), /lesson=astar-5x5&page=2&embed=1$/);
    assert.ok(await testid(frame, 'grid').isVisible());
    await screenshot(host, 'site-lesson-embed');
    const stray = host.requests.filter((u) => !u.startsWith(site) && !u.startsWith(course));
    assert.deepEqual(stray, [], 'every request stays on the site or the course page');
    assert.deepEqual(host.errors, []);
    await host.close();
  });

  for (const [name, ready] of [
    ['index.html?space=graph', () => document.querySelector('[data-testid="grid"]')?.dataset.space === 'graph' && document.querySelector('[data-testid="status"]')?.textContent !== ''],
    ['index.html?space=navmesh&map=tutorial-3x3', () => document.querySelector('canvas[data-space="navmesh"]') && document.querySelector('[data-testid="phase"]')?.textContent !== ''],
    ['boids.html', () => window.boidlab && document.querySelector('[data-testid="agents"]')?.textContent !== ''],
    ['crowd.html', () => window.crowdlab && document.querySelector('[data-testid="steps"]')?.textContent !== ''],
    ['requests.html', () => window.requestlab && document.querySelector('[data-testid="frame"]')?.textContent !== ''],
  ]) {
    test(`${name} loads from the sub-path with every file found`, async () => {
      const page = watch(await browser.newPage({ viewport: { width: 1280, height: 800 } }));
      await page.goto(`${site}${name}`);
      await page.waitForFunction(ready, null, { timeout: 30000 });
      await nextFrame(page);
      const outside = page.requests.filter((u) => !u.startsWith(site) && !u.startsWith('data:') && !u.startsWith('blob:'));
      assert.deepEqual(outside, [], 'no request leaves the site folder');
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }
});
