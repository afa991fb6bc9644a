// Every shipped lesson (lessons/*.json and lessons/*.md), played in real Chromium from its link
// (`index.html?lesson=NAME`) and walked page by page with Next: each page shows the lesson's
// title, its own number and text, mounts the grid page with its configuration, and gives no
// lesson error (a key or value the reader refuses stops the lesson with one), no message on the
// page and no page or console error. This guards against a lesson that stops part of the way
// (the heuristics lesson once stopped at its skeleton page: the reader did not know the
// open-list kinds). The page count, title and each page's first line are read from the files
// here, independently of the page's reader.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, nextFrame, text, watchErrors, withBrowser } from './support/browser.mjs';

const LESSONS = join(ROOT, 'lessons');

/**
 * A lesson file's title and each page's first line of text. JSON: the object's `title` and
 * `pages[].text`. Markdown: each page is a block of `key: value` lines between two `---`
 * lines (the first block holds `title:`), then its text up to the next `---`.
 */
function readShipped(file) {
  const source = readFileSync(join(LESSONS, file), 'utf8');
  if (file.endsWith('.json')) {
    const lesson = JSON.parse(source);
    return { title: lesson.title, firsts: lesson.pages.map((p) => firstLine(p.text)) };
  }
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const fences = lines.flatMap((l, i) => (l.trim() === '---' ? [i] : []));
  assert.equal(fences.length % 2, 0, `${file}: the --- lines pair up`);
  const title = lines.slice(fences[0] + 1, fences[1]).find((l) => l.startsWith('title:'))?.slice('title:'.length).trim();
  const firsts = [];
  for (let k = 1; k < fences.length; k += 2) {
    const end = fences[k + 1] ?? lines.length;
    firsts.push(firstLine(lines.slice(fences[k] + 1, end).join('\n')));
  }
  return { title, firsts };
}

/** The first non-blank line of a page's text, without a heading's #s. */
function firstLine(source) {
  return source.split('\n').map((l) => l.trim()).find(Boolean).replace(/^#+\s*/, '');
}

/** Text compared without the inline marks (*, `) and with spaces collapsed. */
const plain = (s) => s.replace(/[*`]/g, '').replace(/\s+/g, ' ').trim();

/** The lesson's error line, or '' while it is hidden. */
function lessonError(page) {
  return page.evaluate(() => {
    const e = document.querySelector('[data-testid="lesson-error"]');
    return e && !e.hidden ? e.textContent : '';
  });
}

/**
 * Waits until page `n` of `total` is shown and mounted, or the lesson has stopped with an
 * error; fails naming the page errors when neither comes.
 */
async function reach(page, n, total, where) {
  try {
    await page.waitForFunction(
      (want) =>
        document.querySelector('[data-testid="lesson-error"]:not([hidden])') ||
        (window.pathlab?.lab && document.querySelector('[data-testid="lesson-page"]')?.textContent === want && document.querySelector('[data-testid="status"]')?.textContent),
      `Page ${n} of ${total}`,
      { timeout: 20000 },
    );
  } catch (e) {
    assert.fail(`${where} was not shown (${[...page.errors, e.message].join('; ')})`);
  }
  await nextFrame(page);
}

/**
 * Serves lessons/ itself for the site's lessons/ (build-wasm.sh copies it to www/lessons, which
 * may be older than the files): the files as shipped are what is played.
 */
function serveLessons(page) {
  return page.route('**/lessons/*', (route) => {
    const file = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop());
    if (!FILES.includes(file)) return route.fulfill({ status: 404, body: '' });
    return route.fulfill({ status: 200, contentType: 'text/plain', body: readFileSync(join(LESSONS, file), 'utf8') });
  });
}

const FILES = readdirSync(LESSONS).filter((f) => /\.(json|md)$/.test(f)).sort();

describe('every shipped lesson plays to its last page', () => {
  const env = withBrowser();

  test('lessons/ holds lessons of both formats', () => {
    assert.ok(FILES.some((f) => f.endsWith('.json')) && FILES.some((f) => f.endsWith('.md')), FILES.join(', '));
  });

  for (const file of FILES) {
    const name = file.replace(/\.(json|md)$/, '');
    test(`${file}: every page loads with its title and text, and nothing is refused`, async () => {
      const { title, firsts } = readShipped(file);
      const total = firsts.length;
      assert.ok(total >= 1 && title, `${file} has a title and pages`);
      // The reader asks for NAME.json before NAME.md: for a Markdown lesson that one is not there.
      const absent = (m) => file.endsWith('.md') && m.location().url.endsWith(`/lessons/${name}.json`);
      const page = watchErrors(await env.browser.newPage({ viewport: { width: 1400, height: 1000 } }), absent);
      await serveLessons(page);
      await page.goto(`${env.base}index.html?lesson=${name}`);
      for (let n = 1; n <= total; n++) {
        const where = `${file}, page ${n}`;
        if (n > 1) await page.locator('[data-testid="lesson-next"]').click();
        await reach(page, n, total, where);
        assert.equal(await lessonError(page), '', `${where}: the lesson stopped`);
        assert.equal(await text(page, 'lesson-page'), `Page ${n} of ${total}`, where);
        assert.equal(await text(page, 'lesson-title'), title, where);
        assert.ok(plain(await text(page, 'lesson-text')).includes(plain(firsts[n - 1])), `${where} shows its text: ${firsts[n - 1]}`);
        assert.match(page.url(), new RegExp(`lesson=${name}&page=${n}$`), where);
        assert.equal(await page.locator('[data-testid="grid"]').count(), 1, `${where}: the page is mounted`);
        const said = await page.locator('[data-testid="message"]').allTextContents();
        assert.equal(said.join(' ').trim(), '', `${where}: a setting was refused or explained`);
        assert.deepEqual(page.errors, [], where);
      }
      assert.equal(await page.locator('[data-testid="lesson-next"]').isDisabled(), true, `${file}: the last page has no Next`);
      await page.close();
    });
  }
});
