// Playing a lesson (`index.html?lesson=NAME&page=N`): the lesson's title, the page's text and
// Back / Next over the page itself, which is mounted afresh for each lesson page with that
// page's configuration. The page number goes in the address (the `pathlab-lesson` event, which
// main.js writes into it), so a lesson page can be shared by link; `embed=1` embeds it.
//
// The text is a small Markdown subset (paragraphs, `- ` lists, `#` headings, **bold**, *em*,
// `code`) built as DOM nodes with textContent: nothing from a lesson file is ever markup.
// Loaded only for `lesson=` (pathlab.js mount).

import { el } from './dom.js';
import { quote, text as textOf } from './values.js';
import { isLessonName, readLesson } from './lesson-file.js';
import { knownNames } from './config.js';
import { FOLDED_KEY } from './present.js';
import { names } from './pkg/pathlab_wasm.js';

/** Where the lessons live: beside the page, as the maps do. */
const LESSONS = new URL('./lessons/', import.meta.url);

/**
 * Inline marks of the subset: **bold**, *em*, `code`. A star after a letter or a digit opens
 * nothing, so "A* and IDA*" stay as written.
 */
const INLINE = /(?<![\w*])\*\*(?!\s)([^*]+?)\*\*|(?<![\w*])\*(?![\s*])([^*]+?)(?<!\s)\*(?![\w*])|`([^`]+)`/g;

/** One line of text with its inline marks, as nodes. */
function inline(line) {
  const nodes = [];
  let last = 0;
  for (const m of line.matchAll(INLINE)) {
    if (m.index > last) nodes.push(line.slice(last, m.index));
    if (m[1] !== undefined) nodes.push(el('strong', { text: m[1] }));
    else if (m[2] !== undefined) nodes.push(el('em', { text: m[2] }));
    else nodes.push(el('code', { text: m[3] }));
    last = m.index + m[0].length;
  }
  if (last < line.length) nodes.push(line.slice(last));
  return nodes;
}

/**
 * A page's text as nodes: blocks split by blank lines; a block of `- ` lines is a list, a
 * `#` line a heading, anything else a paragraph.
 * @param {string} source
 */
export function renderText(source) {
  const blocks = source.replace(/\r\n?/g, '\n').split(/\n\s*\n/).map((b) => b.trim()).filter(Boolean);
  return blocks.map((block) => {
    const lines = block.split('\n').map((l) => l.trim());
    if (lines.every((l) => /^[-*] /.test(l))) return el('ul', {}, ...lines.map((l) => el('li', {}, ...inline(l.slice(2)))));
    const heading = /^#{1,6} (.*)$/.exec(lines[0]);
    if (heading && lines.length === 1) return el('h3', {}, ...inline(heading[1]));
    return el('p', {}, ...inline(lines.join(' ')));
  });
}

/** Fetches lesson `name`: its JSON file, else its Markdown file; `{ text, format }`. */
async function fetchLesson(name) {
  for (const format of /** @type {const} */ (['json', 'md'])) {
    let response;
    try {
      response = await fetch(new URL(`${name}.${format}`, LESSONS));
    } catch (e) {
      throw new Error(`Lesson ${quote(name)} could not be fetched (${e.message}).`);
    }
    if (response.ok) return { text: await response.text(), format };
    if (response.status !== 404) throw new Error(`Lesson ${quote(name)} could not be loaded (HTTP ${response.status}).`);
  }
  throw new Error(`There is no lesson ${quote(name)}: neither lessons/${name}.json nor lessons/${name}.md is on the site.`);
}

/**
 * Plays the lesson `raw.lesson` in `element`, from page `raw.page` (1-based). `mount` is
 * pathlab.js's, which builds each page. Resolves to a handle like mount's, with `page` and
 * `go(n)`.
 * @param {HTMLElement} element
 * @param {Record<string, unknown>} raw
 * @param {(element: HTMLElement, config: object) => Promise<any>} mount
 */
export async function playLesson(element, raw, mount) {
  const name = textOf(raw.lesson);
  const embed = ['1', 'true'].includes(textOf(raw.embed ?? '').toLowerCase()) || raw.embed === true;
  const ui = {
    title: el('h2', { class: 'pl-lesson-title', testid: 'lesson-title' }),
    number: el('span', { class: 'pl-lesson-number', testid: 'lesson-page', 'aria-live': 'polite' }),
    text: el('div', { class: 'pl-lesson-text', testid: 'lesson-text' }),
    back: el('button', { type: 'button', class: 'pl-btn', testid: 'lesson-back', text: '← Back' }),
    next: el('button', { type: 'button', class: 'pl-btn pl-primary', testid: 'lesson-next', text: 'Next →' }),
    error: el('p', { class: 'pl-fatal', testid: 'lesson-error', role: 'alert', hidden: true }),
  };
  const bar = el(
    'section',
    { class: 'pl-lesson', testid: 'lesson', 'aria-label': 'Lesson' },
    el('div', { class: 'pl-lesson-head' }, ui.title, el('nav', { class: 'pl-lesson-nav' }, ui.back, ui.number, ui.next)),
    ui.text,
    ui.error,
  );
  const host = el('div', { class: 'pl-lesson-page' });
  element.classList.add('pl-lesson-root');
  element.replaceChildren(bar, host);
  /** @type {any} */
  let shown = null;
  const stop = (message) => {
    ui.error.textContent = message;
    ui.error.hidden = false;
    ui.back.disabled = ui.next.disabled = true;
    shown?.destroy();
    shown = null;
    host.replaceChildren();
  };

  /** @type {{ title: string, source: string, pages: any[] } | null} */
  let lesson = null;
  let page = 1;
  let going = Promise.resolve();

  const show = async (n) => {
    if (!lesson) return;
    page = Math.min(Math.max(1, n), lesson.pages.length);
    const current = lesson.pages[page - 1];
    ui.number.textContent = `Page ${page} of ${lesson.pages.length}`;
    ui.text.replaceChildren(...renderText(current.text));
    ui.back.disabled = page === 1;
    ui.next.disabled = page === lesson.pages.length;
    element.dispatchEvent(new CustomEvent('pathlab-lesson', { detail: { lesson: name, page, embed } }));
    try {
      window.sessionStorage.setItem(FOLDED_KEY, JSON.stringify(current.folded));
    } catch {
      // Without storage the panels stay as they are.
    }
    shown?.destroy();
    shown = null;
    host.replaceChildren();
    const config = { ...current.config };
    if (embed) config.embed = '1';
    shown = await mount(host, config);
    if (!embed) {
      const missing = current.folded.filter((f) => !host.querySelector(`[data-testid="fold-${f.toLowerCase().replace(/[^a-z0-9]+/g, '-')}"]`));
      if (missing.length) stop(`Lesson ${quote(`lessons/${name}`)}, page ${page}, key "folded": no panel called ${missing.map(quote).join(', ')} on this page.`);
    }
  };
  const go = (n) => (going = going.then(() => show(n)).catch((e) => stop(e.message)));
  ui.back.addEventListener('click', () => go(page - 1));
  ui.next.addEventListener('click', () => go(page + 1));

  if (!isLessonName(name)) {
    stop(`Parameter "lesson": ${quote(name)} is not a lesson name (letters, digits, - and _; the file lessons/NAME.json or .md).`);
  } else {
    try {
      const { text, format } = await fetchLesson(name);
      const known = knownNames(names);
      lesson = readLesson(text, { name, format, known });
      ui.title.textContent = lesson.title;
      if (lesson.source) ui.title.title = `From: ${lesson.source}`;
      const wanted = raw.page === undefined ? 1 : Number(textOf(raw.page));
      if (!Number.isInteger(wanted) || wanted < 1 || wanted > lesson.pages.length) {
        ui.error.textContent = `Parameter "page": expected a page from 1 to ${lesson.pages.length}, got ${quote(textOf(raw.page))}; showing page 1.`;
        ui.error.hidden = false;
        await go(1);
      } else await go(wanted);
    } catch (e) {
      stop(e.message);
    }
  }
  return {
    get lab() {
      return shown?.lab ?? null;
    },
    get page() {
      return page;
    },
    go,
    config: () => shown?.config() ?? null,
    destroy: () => {
      shown?.destroy();
      element.replaceChildren();
    },
  };
}
