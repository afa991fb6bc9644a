// Embedding in real Chromium: "Copy embed code" gives an <iframe> that a course page (made
// here with page.setContent) shows with the same map, algorithm and step as the page it came
// from, cell by cell; an edited map travels in the code itself (grid=); lock=1 leaves the map,
// start, goal and settings as they were whatever is dragged, pressed or dropped, and says so;
// hostile values in the URL, in mount() and in a file name are shown as text and escaped in
// the code, never run as HTML.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, nextFrame, open, screenshot, start, text } from './support/browser.mjs';
import { readPage, shownAndCheapest } from './support/dijkstra.mjs';

const testid = (where, id) => where.locator(`[data-testid="${id}"]`);

/** Every cell's terrain value and search state, read through the Lab's cellInfo. */
function cellsAndStates(where) {
  return where.evaluate(() => {
    const lab = window.pathlab.lab;
    const out = [];
    for (let y = 0; y < lab.height; y++) {
      for (let x = 0; x < lab.width; x++) out.push(`${lab.cell(x, y)}:${lab.cellInfo(x, y).state}`);
    }
    return out;
  });
}

/** Opens the embed dialog, sets the options and returns the code shown. */
async function embedCode(page, { lock = false, step = false } = {}) {
  await testid(page, 'embed-code').click();
  await testid(page, 'embed-dialog').waitFor({ state: 'visible' });
  if (lock) await testid(page, 'embed-lock').check();
  if (step) await testid(page, 'embed-step').check();
  const code = await testid(page, 'embed-snippet').inputValue();
  await testid(page, 'embed-close').click();
  return code;
}

/** The attributes of the one element the code makes, parsed by the browser's HTML parser. */
function parseCode(page, code) {
  return page.evaluate((html) => {
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const all = [...doc.head.querySelectorAll('*'), ...doc.body.querySelectorAll('*')];
    const frame = doc.querySelector('iframe');
    return {
      tags: all.map((e) => e.tagName.toLowerCase()),
      attributes: frame ? Object.fromEntries([...frame.attributes].map((a) => [a.name, a.value])) : null,
    };
  }, code);
}

/** A course page holding `code`; resolves to { host, frame } once Pathlab has mounted inside. */
async function coursePage(context, code) {
  const host = await context.newPage({ viewport: { width: 1000, height: 900 } });
  host.errors = [];
  host.on('pageerror', (e) => host.errors.push(`pageerror: ${e.message}`));
  host.on('dialog', (d) => {
    host.errors.push(`dialog: ${d.message()}`);
    d.dismiss();
  });
  await host.setContent(`<!doctype html><html lang="en"><head><title>Week 3: A*</title></head><body><h1>Week 3: A*</h1><p>Step through the example.</p>${code}</body></html>`);
  const frame = host.frames().find((f) => f !== host.mainFrame());
  assert.ok(frame, 'the course page has an iframe');
  await frame.waitForFunction(
    () => window.pathlab && document.querySelector('[data-testid="status"]')?.textContent !== '',
    null,
    { timeout: 15000 },
  );
  await nextFrame(frame);
  return { host, frame };
}

/** Page coordinates of cell (x, y) of the grid inside `frame`. */
async function cellIn(frame, x, y) {
  const canvas = testid(frame, 'grid');
  const box = await canvas.boundingBox();
  const w = Number(await canvas.getAttribute('data-width'));
  const h = Number(await canvas.getAttribute('data-height'));
  return { x: box.x + ((x + 0.5) * box.width) / w, y: box.y + ((y + 0.5) * box.height) / h };
}

async function dragIn(host, frame, cells) {
  const first = await cellIn(frame, ...cells[0]);
  await host.mouse.move(first.x, first.y);
  await host.mouse.down();
  for (const cell of cells.slice(1)) {
    const p = await cellIn(frame, ...cell);
    await host.mouse.move(p.x, p.y, { steps: 8 });
  }
  await host.mouse.up();
  await nextFrame(frame);
}

describe('embedding', () => {
  let env;
  let context;
  before(async () => {
    env = await start();
    context = await env.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.base.replace(/\/$/, '') });
  });
  after(async () => {
    await context?.close();
    await env?.close();
  });

  async function openHere(query) {
    const page = await context.newPage();
    page.errors = [];
    page.on('pageerror', (e) => page.errors.push(`pageerror: ${e.message}`));
    await page.goto(`${env.base}index.html?${query}`);
    await page.waitForFunction(() => window.pathlab && document.querySelector('[data-testid="status"]')?.textContent !== '');
    return page;
  }

  test('the code shows the same map, algorithm and step in a course page, cell by cell', async () => {
    const page = await openHere('map=wall-gap&algo=dijkstra&diagonal=never&heuristic=manhattan');
    for (let k = 0; k < 9; k++) await testid(page, 'step').click();
    await nextFrame(page);
    assert.equal(await text(page, 'expanded'), '9');
    const want = await cellsAndStates(page);
    const code = await embedCode(page, { step: true });

    // The clipboard holds what the dialog shows.
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
    const { tags, attributes } = await parseCode(page, code);
    assert.deepEqual(tags, ['iframe'], 'the code is one iframe and nothing else');
    const src = new URL(attributes.src);
    assert.equal(src.searchParams.get('embed'), '1');
    assert.equal(src.searchParams.get('map'), 'wall-gap');
    assert.equal(src.searchParams.get('algo'), 'dijkstra');
    assert.equal(src.searchParams.get('step'), '9');
    assert.equal(src.searchParams.get('lock'), null);
    assert.match(attributes.title, /Dijkstra/);
    assert.ok(Number(attributes.width) >= 300 && Number(attributes.height) >= 200, `${attributes.width} x ${attributes.height}`);

    const { host, frame } = await coursePage(context, code);
    assert.equal(await text(frame, 'expanded'), '9');
    assert.equal(await text(frame, 'status'), 'searching');
    assert.equal(await testid(frame, 'algo').inputValue(), 'dijkstra');
    assert.equal(await frame.evaluate(() => window.pathlab.config().map), 'wall-gap');
    assert.deepEqual(await cellsAndStates(frame), want, 'every cell has the same value and state as on the page');
    // Embedded: the grid and step controls, no panel; the suggested size fits without scrolling.
    assert.equal(await testid(frame, 'algo').isVisible(), false);
    assert.equal(await testid(frame, 'step').isVisible(), true);
    const fit = await frame.evaluate(() => ({
      scrollW: document.documentElement.scrollWidth,
      scrollH: document.documentElement.scrollHeight,
      w: innerWidth,
      h: innerHeight,
    }));
    assert.ok(fit.scrollW <= fit.w && fit.scrollH <= fit.h, `the frame scrolls: ${JSON.stringify(fit)}`);
    // The embedded page steps on from there.
    await testid(frame, 'step').click();
    await nextFrame(frame);
    assert.equal(await text(frame, 'expanded'), '10');
    await screenshot(host, 'embed-course-page');
    assert.deepEqual([...page.errors, ...host.errors], []);
    await host.close();
    await page.close();
  });

  test('an edited map travels in the code as grid= and runs to the same optimum', async () => {
    const page = await openHere('map=wall-gap');
    // Close the only gap (column 10, row 2) and open a new one at row 9.
    const centre = async (x, y) => {
      const canvas = testid(page, 'grid');
      const box = await canvas.boundingBox();
      return { x: box.x + ((x + 0.5) * box.width) / 20, y: box.y + ((y + 0.5) * box.height) / 12 };
    };
    for (const [x, y] of [[10, 2], [10, 9]]) {
      const p = await centre(x, y);
      await page.mouse.click(p.x, p.y);
    }
    await nextFrame(page);
    assert.equal(await page.evaluate(() => window.pathlab.lab.cell(10, 2)), 0);
    assert.equal(await page.evaluate(() => window.pathlab.lab.cell(10, 9)), 1);
    const code = await embedCode(page);
    const src = new URL((await parseCode(page, code)).attributes.src);
    assert.equal(src.searchParams.get('map'), null, 'an edited map is not named by its preset');
    assert.match(src.searchParams.get('grid'), /^20\.12\./);

    const { host, frame } = await coursePage(context, code);
    const mine = await readPage(page);
    const theirs = await readPage(frame);
    assert.deepEqual(theirs.terrain, mine.terrain);
    await testid(frame, 'run').click();
    await nextFrame(frame);
    assert.equal(await text(frame, 'status'), 'found');
    const { shown, cheapest } = await shownAndCheapest(frame);
    assert.ok(Math.abs(shown - cheapest) < 1e-9, `embedded ${shown}, reference ${cheapest}`);
    assert.deepEqual([...page.errors, ...host.errors], []);
    await host.close();
    await page.close();
  });

  test('a map too big for a short address rides in the fragment: the server takes the request and the frame shows the map', async () => {
    // One wall makes the 512 x 512 preset the user's own map: the code carries all its cells.
    const page = await openHere('map=AR0011SR');
    const cell = () => page.evaluate(() => window.pathlab.lab.cell(40, 40));
    const before = await cell();
    const box = await testid(page, 'grid').boundingBox();
    await page.mouse.click(box.x + (40.5 * box.width) / 512, box.y + (40.5 * box.height) / 512);
    await nextFrame(page);
    const painted = await cell();
    assert.notEqual(painted, before, 'the click painted the cell');
    const code = await embedCode(page);
    const src = new URL((await parseCode(page, code)).attributes.src);
    assert.equal(src.searchParams.get('grid'), null, 'the map is not in the query');
    assert.match(new URLSearchParams(src.hash.slice(1)).get('grid'), /^512\.512\./);
    const sent = `${src.pathname}${src.search}`;
    assert.ok(sent.length < 8000, `the request line carries ${sent.length} characters`);
    // What a server sees: the address without its fragment, which this server answers.
    const response = await page.evaluate(async (url) => (await fetch(url)).status, src.href);
    assert.equal(response, 200);
    const { host, frame } = await coursePage(context, code);
    assert.equal(await frame.evaluate(() => window.pathlab.lab.cell(40, 40)), painted, 'the edit came along');
    assert.deepEqual(
      await frame.evaluate(() => [window.pathlab.lab.width, window.pathlab.lab.height]),
      [512, 512],
    );
    assert.deepEqual([...page.errors, ...host.errors], []);
    await host.close();
    await page.close();
  });

  /** The README's own iframe example, pointed at the test server, with lock=1 added. */
  function readmeCode() {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const code = readme.match(/<iframe src="https:\/\/your-host\/pathlab\/[^]*?<\/iframe>/)?.[0];
    assert.ok(code, "the README shows an iframe example at https://your-host/pathlab/");
    return code.replace('https://your-host/pathlab/', env.base).replace('embed=1', 'embed=1&amp;lock=1');
  }

  for (const query of ['map=course-5x5&algo=astar', 'map=wall-gap&algo=astar', 'map=u-trap&algo=dijkstra', 'README']) {
    test(`the frame size shows the grid and every control without scrolling, locked and with the lock message up (${query === 'README' ? "the README's example" : `the dialog's size, ${query}`})`, async () => {
      let code;
      if (query === 'README') {
        code = readmeCode();
      } else {
        const page = await openHere(query);
        code = await embedCode(page, { lock: true });
        await page.close();
      }
      const { host, frame } = await coursePage(context, code);
      const { width, height } = (await parseCode(host, code)).attributes;
      assert.equal(await host.locator('iframe').evaluate((f) => [f.width, f.height].join('x')), `${width}x${height}`);
      // The lock message is the tallest state of the embedded layout.
      await dragIn(host, frame, [[0, 0], [1, 1]]);
      assert.ok(await testid(frame, 'message').isVisible(), 'the lock message is up');
      const outside = await frame.evaluate((ids) => {
        const w = document.documentElement.clientWidth;
        const h = document.documentElement.clientHeight;
        const out = [];
        for (const id of ids) {
          const e = document.querySelector(`[data-testid="${id}"]`);
          if (!e) { out.push(`${id}: missing`); continue; }
          const r = e.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) out.push(`${id}: not shown`);
          else if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5) {
            out.push(`${id}: ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)} in ${w}x${h}`);
          }
        }
        if (document.scrollingElement.scrollHeight > h + 1) out.push(`the page scrolls: ${document.scrollingElement.scrollHeight} > ${h}`);
        return out;
      }, ['grid', 'reset', 'step', 'play', 'run', 'timeline', 'status', 'expanded', 'cost', 'message']);
      await screenshot(host, `embed-fit-${query === 'README' ? 'readme' : query.split('&')[0].slice(4)}`);
      assert.deepEqual(outside, [], 'everything fits in the frame');
      assert.deepEqual(host.errors, []);
      await host.close();
    });
  }

  test('lock=1: drags, keys and drops change nothing, and the page says editing is locked', async () => {
    const page = await openHere('map=wall-gap&algo=astar');
    const code = await embedCode(page, { lock: true });
    assert.equal(new URL((await parseCode(page, code)).attributes.src).searchParams.get('lock'), '1');
    await page.close();

    const { host, frame } = await coursePage(context, code);
    const before = await cellsAndStates(frame);
    const ends = async () => [await testid(frame, 'grid').getAttribute('data-start'), await testid(frame, 'grid').getAttribute('data-goal')];
    const endsBefore = await ends();
    assert.equal(await testid(frame, 'message').isVisible(), false);
    // A wall across the open ground, a drag on the wall (erase), and the start marker dragged.
    await dragIn(host, frame, [[2, 2], [8, 9]]);
    await dragIn(host, frame, [[10, 5], [10, 8]]);
    const [sx, sy] = endsBefore[0].split(',').map(Number);
    await dragIn(host, frame, [[sx, sy], [sx + 2, sy - 3]]);
    // The grid's keys: a cursor, Enter to paint, S to move the start there.
    await testid(frame, 'grid').focus();
    for (const key of ['Shift+ArrowUp', 'Shift+ArrowUp', 'Enter', 's']) await host.keyboard.press(key);
    // A map file dropped on the grid.
    await frame.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(['type octile\nheight 2\nwidth 3\nmap\n...\n...\n'], 'tiny.map', { type: 'text/plain' }));
      const grid = document.querySelector('[data-testid="grid"]');
      for (const type of ['dragenter', 'dragover', 'drop']) {
        grid.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
      }
    });
    await frame.waitForTimeout(200);
    await nextFrame(frame);
    assert.equal(await frame.evaluate(() => window.pathlab.lab.width), 20, 'the dropped map was not opened');
    assert.deepEqual(await cellsAndStates(frame), before, 'no cell changed');
    assert.deepEqual(await ends(), endsBefore, 'start and goal stayed');
    assert.ok(await testid(frame, 'message').isVisible());
    assert.match(await text(frame, 'message'), /editing is locked/i);
    // Stepping is not editing.
    await host.keyboard.press('ArrowRight');
    await testid(frame, 'step').click();
    await nextFrame(frame);
    assert.equal(await text(frame, 'expanded'), '2');
    await screenshot(host, 'embed-locked');
    assert.deepEqual(host.errors, []);
    await host.close();
  });

  test('lock=1 on the full page: the map, search and edit controls refuse, stepping works', async () => {
    const page = await openHere('map=wall-gap&algo=astar&lock=1');
    const before = await cellsAndStates(page);
    await testid(page, 'algo').focus();
    await page.keyboard.press('ArrowDown');
    // Forced: Playwright waits for aria-disabled controls to become enabled; a person just clicks.
    await testid(page, 'clear').click({ force: true });
    await testid(page, 'generate').click({ force: true });
    await testid(page, 'map').click({ force: true });
    await page.keyboard.press('Escape');
    await nextFrame(page);
    assert.equal(await testid(page, 'algo').inputValue(), 'astar');
    assert.equal(await page.evaluate(() => window.pathlab.lab.settings().algo), 'astar');
    assert.equal(await page.evaluate(() => window.pathlab.config().map), 'wall-gap');
    assert.deepEqual(await cellsAndStates(page), before);
    assert.match(await text(page, 'message'), /editing is locked/i);
    assert.equal(await testid(page, 'algo').getAttribute('aria-disabled'), 'true');
    assert.match(page.url(), /lock=1/, 'the URL keeps the lock');
    await testid(page, 'run').click();
    await nextFrame(page);
    assert.equal(await text(page, 'status'), 'found');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a bad lock value is named, and the page stays unlocked', async () => {
    const page = await open(env, 'map=wall-gap&lock=yes');
    assert.match(await text(page, 'message'), /Parameter "lock": expected 1 .* got "yes"; editing stays unlocked/);
    const p = await page.evaluate(() => window.pathlab.lab.cell(3, 3));
    assert.equal(p, 1);
    const canvas = await testid(page, 'grid').boundingBox();
    await page.mouse.click(canvas.x + (3.5 * canvas.width) / 20, canvas.y + (3.5 * canvas.height) / 12);
    await nextFrame(page);
    assert.equal(await page.evaluate(() => window.pathlab.lab.cell(3, 3)), 0, 'painting works');
    await page.close();
  });

  test('hostile values in the URL and in mount() are shown as text, never as HTML', async () => {
    const hostile = {
      map: '<img src=x onerror="window.__pwned=1">',
      algo: '<script>window.__pwned=2</script>',
      start: '"><svg onload="window.__pwned=3">',
      lock: '<b onmouseover="window.__pwned=4">1</b>',
      contrast: '<i>1</i>',
      step: '99999999999999',
      grid: '99999.99999.AAAA',
      speed: '1e9',
    };
    const page = await open(env, new URLSearchParams(hostile).toString());
    const message = await text(page, 'message');
    for (const key of ['map', 'algo', 'start', 'lock', 'contrast', 'step', 'grid', 'speed']) {
      assert.match(message, new RegExp(`Parameter "${key}"`), `a message names ${key}`);
    }
    assert.ok(message.includes('<script>window.__pwned=2</script>'), 'the value is shown as text');
    const injected = await page.evaluate(() => ({
      pwned: window.__pwned,
      tags: [...document.querySelectorAll('#app img, #app script, #app svg, #app b, #app i')].length,
    }));
    assert.deepEqual(injected, { pwned: undefined, tags: 0 });
    assert.equal(await page.evaluate(() => window.pathlab.lab.width), 20, 'the absurd grid was refused');

    // The module API takes the same values.
    const mounted = await page.evaluate(async (config) => {
      const { mount } = await import('./pathlab.js');
      const div = document.createElement('div');
      document.body.append(div);
      const handle = await mount(div, { ...config, embed: '<u>1</u>', weight: 'Infinity' });
      await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
      const out = {
        pwned: window.__pwned,
        tags: [...div.querySelectorAll('img, script, svg, b, i, u')].length,
        message: div.querySelector('[data-testid="message"]').textContent,
        locked: div.classList.contains('pl-locked'),
      };
      handle.destroy();
      return out;
    }, hostile);
    assert.equal(mounted.pwned, undefined);
    assert.equal(mounted.tags, 0);
    assert.equal(mounted.locked, false, 'a bad lock value does not lock');
    assert.ok(mounted.message.includes('<img src=x onerror='), 'the value is shown as text');
    assert.match(mounted.message, /Parameter "embed"/);
    assert.match(mounted.message, /Parameter "weight"/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('code made on this computer warns that students cannot reach it; a public site address takes its place, is kept for the next visit, and a bad one is refused', async () => {
    const page = await openHere('map=course-5x5&algo=astar');
    await testid(page, 'embed-code').click();
    await testid(page, 'embed-dialog').waitFor({ state: 'visible' });
    const src = async () => new URL((await parseCode(page, await testid(page, 'embed-snippet').inputValue())).attributes.src);
    // The test server is 127.0.0.1: the code points there, and the dialog says it will not work for students.
    assert.equal((await src()).origin, new URL(env.base).origin);
    assert.equal(await testid(page, 'embed-site').inputValue(), env.base);
    assert.ok(await testid(page, 'embed-warning').isVisible(), 'the localhost warning shows');
    assert.match(await text(page, 'embed-warning'), /only works on this computer/);

    const setSite = async (value) => {
      await testid(page, 'embed-site').fill(value);
      await testid(page, 'embed-site').dispatchEvent('change');
    };
    await setSite('https://www.example.edu/ai-games/pathlab/week3.html?x=1#y');
    const hosted = await src();
    assert.equal(`${hosted.origin}${hosted.pathname}`, 'https://www.example.edu/ai-games/pathlab/index.html');
    assert.equal(hosted.searchParams.get('map'), 'course-5x5');
    assert.equal(hosted.searchParams.get('embed'), '1');
    assert.equal(hosted.searchParams.get('x'), null, "the address's own query is dropped");
    assert.ok(!(await testid(page, 'embed-warning').isVisible()), 'no warning for a public address');

    for (const bad of ['javascript:alert(1)', 'www.example.edu/pathlab', 'ftp://example.edu/p/', 'https://user:pw@example.edu/p/']) {
      await setSite(bad);
      assert.match(await text(page, 'embed-status'), /site address/i, `${bad} is named as a bad site address`);
      assert.equal(await testid(page, 'embed-site').getAttribute('aria-invalid'), 'true');
      assert.equal((await src()).origin, 'https://www.example.edu', `${bad} leaves the code as it was`);
    }
    await testid(page, 'embed-close').click();

    // The next visit starts from the address given last.
    const again = await openHere('map=course-5x5');
    await testid(again, 'embed-code').click();
    assert.equal(await testid(again, 'embed-site').inputValue(), 'https://www.example.edu/ai-games/pathlab/');
    assert.equal(new URL((await parseCode(again, await testid(again, 'embed-snippet').inputValue())).attributes.src).origin, 'https://www.example.edu');
    // Back to this computer's own address: it is forgotten, and the warning returns.
    await testid(again, 'embed-site').fill(env.base);
    await testid(again, 'embed-site').dispatchEvent('change');
    assert.ok(await testid(again, 'embed-warning').isVisible());
    assert.equal(await again.evaluate(() => localStorage.getItem('pathlab-embed-site')), null);
    await testid(again, 'embed-close').click();
    assert.deepEqual([...page.errors, ...again.errors], []);
    await page.close();
    await again.close();
  });

  test('a hostile file name is escaped in the code; absurd frame sizes are refused', async () => {
    const page = await openHere('map=wall-gap');
    const name = '"><img src=x onerror="window.__pwned=5">&amp;\'.map';
    await testid(page, 'load-file').setInputFiles({
      name,
      mimeType: 'text/plain',
      buffer: Buffer.from('type octile\nheight 4\nwidth 6\nmap\n......\n.@@@@.\n......\n......\n'),
    });
    await page.waitForFunction(() => window.pathlab.lab.width === 6);
    await testid(page, 'embed-code').click();
    const size = async () => [await testid(page, 'embed-width').inputValue(), await testid(page, 'embed-height').inputValue()];
    const good = await size();
    const code = await testid(page, 'embed-snippet').inputValue();
    assert.ok(!code.includes('<img'), 'no raw markup in the code');
    const { tags, attributes } = await parseCode(page, code);
    assert.deepEqual(tags, ['iframe']);
    assert.ok(attributes.title.endsWith(name), `the title is the name, exactly: ${attributes.title}`);
    assert.ok(new URL(attributes.src).searchParams.get('grid'), 'a file map travels as grid=');

    for (const bad of ['99999999', '1e3', '-5', '12.5', '100"><script>window.__pwned=6</script>']) {
      await page.evaluate((value) => {
        const input = document.querySelector('[data-testid="embed-width"]');
        input.value = value;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      }, bad);
      assert.match(await text(page, 'embed-status'), /width must be a whole number of pixels from 200 to 4000/);
      const after = await parseCode(page, await testid(page, 'embed-snippet').inputValue());
      assert.equal(after.attributes.width, good[0], `${bad} is refused`);
    }
    await testid(page, 'embed-height').fill('300');
    await testid(page, 'embed-height').dispatchEvent('change');
    assert.equal((await parseCode(page, await testid(page, 'embed-snippet').inputValue())).attributes.height, '300');
    await screenshot(page, 'embed-dialog');
    const finalCode = await testid(page, 'embed-snippet').inputValue();
    await testid(page, 'embed-close').click();

    const { host, frame } = await coursePage(context, finalCode);
    assert.equal(await frame.evaluate(() => window.pathlab.lab.width), 6);
    const pwned = [await host.evaluate(() => window.__pwned), await frame.evaluate(() => window.__pwned)];
    assert.deepEqual(pwned, [undefined, undefined]);
    assert.equal(await host.locator('img').count(), 0);
    assert.deepEqual([...page.errors, ...host.errors], []);
    await host.close();
    await page.close();
  });
});
