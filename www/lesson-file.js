// Reading a lesson file (lessons/NAME.json or lessons/NAME.md): a title, an optional source,
// and pages, each with its text and its page configuration (the URL's keys) and the panels
// folded on it. Nothing here touches the DOM: readLesson returns the lesson or throws an Error
// whose message names the lesson and the page and key (or the line) that is wrong, and the
// player (lesson.js) shows it as text.
//
// JSON:      {"title": "...", "source": "...", "pages": [{"text": "...", "config": {"map": "course-5x5", "step": 3}, "folded": ["Legend"]}]}
// Markdown:  each page starts with a block of `key: value` lines between two lines of `---`
//            (its configuration; `folded: Legend, Cell` for the folded panels; the first
//            block may also give `title:` and `source:`), then its text, up to the next `---`.

import { KEYS, readConfig } from './config.js';
import { escaped, quote } from './values.js';

/** The keys of a lesson, of a page, and the URL keys a page may not set (the player's own). */
export const LESSON_KEYS = ['title', 'source', 'pages'];
export const PAGE_KEYS = ['text', 'config', 'folded'];
const NOT_ON_A_PAGE = ['embed', 'grid', 'graph'];

/** The most pages, and characters of text on a page, a lesson may have. */
export const MAX_PAGES = 100;
export const MAX_TEXT = 20_000;

/** A lesson's name as `lesson=` gives it: letters, digits and dashes. */
export function isLessonName(name) {
  return typeof name === 'string' && /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(name);
}

/** The 1-based line and column of character `offset` in `text`. */
function lineOf(text, offset) {
  const before = text.slice(0, Math.max(0, offset));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** JSON.parse, with a syntax error's line and column named. */
function parseJson(text, where) {
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = String(e.message);
    const lc = /line (\d+) column (\d+)/.exec(message);
    const pos = /position (\d+)/.exec(message);
    const place = lc ? { line: Number(lc[1]), column: Number(lc[2]) } : pos ? lineOf(text, Number(pos[1])) : lineOf(text, text.length);
    // The engine's words, without its place (given as line and column) or its quote of the text.
    const words = message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+/, '').replace(/, ".*" is not valid JSON$/s, '');
    const detail = escaped(words, 120);
    throw new Error(`${where}, line ${place.line}, column ${place.column}: not valid JSON (${detail}).`);
  }
}

/**
 * Splits a Markdown lesson into the same object a JSON lesson is, keeping the line of each
 * key (`lines`: page index to key to line) for the messages.
 */
function parseMarkdown(text, where) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length && lines[i].trim() === '') i++;
  if (lines[i]?.trim() !== '---') throw new Error(`${where}, line ${i + 1}: a Markdown lesson starts with a line of three dashes (---), then the first page's settings.`);
  /** @type {any} */
  const lesson = { pages: [] };
  /** @type {Record<string, number>[]} */
  const keyLines = [];
  while (i < lines.length && lines[i].trim() === '---') {
    /** @type {{ config: Record<string, string>, text: string, folded?: string[] }} */
    const page = { config: {}, text: '' };
    /** @type {Record<string, number>} */
    const at = {};
    i++;
    for (; ; i++) {
      if (i >= lines.length) throw new Error(`${where}, line ${i}: page ${lesson.pages.length + 1}'s settings have no closing line of three dashes (---).`);
      const line = lines[i];
      if (line.trim() === '---') break;
      if (line.trim() === '' || line.trim().startsWith('#')) continue;
      const m = /^\s*([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*?)\s*$/.exec(line);
      if (!m) throw new Error(`${where}, line ${i + 1}: expected a setting as "key: value", got ${quote(line.trim().slice(0, 60))}.`);
      const [, key, value] = m;
      if ((key === 'title' || key === 'source') && lesson.pages.length === 0) lesson[key] = value;
      else if (key === 'folded') page.folded = value === '' ? [] : value.split(',').map((s) => s.trim());
      else page.config[key] = value;
      at[key] = i + 1;
    }
    i++;
    const body = [];
    while (i < lines.length && lines[i].trim() !== '---') body.push(lines[i++]);
    page.text = body.join('\n').trim();
    lesson.pages.push(page);
    keyLines.push(at);
  }
  return { lesson, keyLines };
}

/**
 * Reads lesson `name` from its file's `text` (`format`: `json` or `md`). `known`: the names the
 * core accepts (as readConfig takes them). Returns `{ title, source, pages }` with each page
 * `{ text, config, folded }`; throws an Error naming the page and the key, or the line.
 * @param {string} text
 * @param {{ name: string, format: 'json' | 'md', known: any }} options
 */
export function readLesson(text, { name, format, known }) {
  const file = `lessons/${name}.${format}`;
  const where = `Lesson ${quote(file)}`;
  /** @type {any} */
  let lesson;
  /** @type {Record<string, number>[]} */
  let keyLines = [];
  if (format === 'md') ({ lesson, keyLines } = parseMarkdown(text, where));
  else lesson = parseJson(text, where);

  if (!lesson || typeof lesson !== 'object' || Array.isArray(lesson)) throw new Error(`${where}: expected an object with ${LESSON_KEYS.join(', ')}.`);
  for (const key of Object.keys(lesson)) {
    if (!LESSON_KEYS.includes(key)) throw new Error(`${where}: unknown key ${quote(key)} (a lesson has ${LESSON_KEYS.join(', ')}).`);
  }
  for (const key of ['title', 'source']) {
    if (lesson[key] !== undefined && (typeof lesson[key] !== 'string' || lesson[key].length > 300)) {
      throw new Error(`${where}, key ${quote(key)}: expected text of at most 300 characters.`);
    }
  }
  const pages = lesson.pages;
  if (!Array.isArray(pages) || pages.length === 0 || pages.length > MAX_PAGES) {
    throw new Error(`${where}, key "pages": expected a list of 1 to ${MAX_PAGES} pages.`);
  }
  const out = pages.map((page, index) => {
    const n = index + 1;
    const here = (key) => `${where}, page ${n}, key ${quote(key)}${keyLines[index]?.[key] ? ` (line ${keyLines[index][key]})` : ''}`;
    if (!page || typeof page !== 'object' || Array.isArray(page)) throw new Error(`${where}, page ${n}: expected an object with ${PAGE_KEYS.join(', ')}.`);
    for (const key of Object.keys(page)) {
      if (!PAGE_KEYS.includes(key)) throw new Error(`${here(key)}: not a key of a page (a page has ${PAGE_KEYS.join(', ')}).`);
    }
    if (typeof page.text !== 'string' || page.text.length > MAX_TEXT) throw new Error(`${here('text')}: expected the page's text, at most ${MAX_TEXT} characters.`);
    const config = page.config ?? {};
    if (typeof config !== 'object' || Array.isArray(config) || config === null) throw new Error(`${here('config')}: expected an object of URL keys and values.`);
    for (const [key, value] of Object.entries(config)) {
      if (!KEYS.includes(key) || NOT_ON_A_PAGE.includes(key)) {
        const allowed = KEYS.filter((k) => !NOT_ON_A_PAGE.includes(k)).join(', ');
        throw new Error(`${here(key)}: not a key a lesson page may set (known: ${allowed}).`);
      }
      const plain = ['string', 'number', 'boolean'].includes(typeof value) || (Array.isArray(value) && value.every((v) => typeof v === 'number' || typeof v === 'string'));
      if (!plain) throw new Error(`${here(key)}: expected text, a number or true/false.`);
    }
    const { messages } = readConfig(config, known);
    if (messages.length) {
      const m = /^Parameter "([^"]+)": (.*)$/.exec(messages[0]);
      // The page's words without what the page would fall back to: a lesson stops instead.
      const problem = m ? m[2].replace(/[.;] (showing|using|starting at|no quiz|keeping)\b[^;]*$/i, '.') : messages[0];
      throw new Error(m ? `${here(m[1])}: ${problem}` : `${where}, page ${n}: ${problem}`);
    }
    const folded = page.folded ?? [];
    if (!Array.isArray(folded) || !folded.every((f) => typeof f === 'string' && f.length > 0 && f.length <= 40)) {
      throw new Error(`${here('folded')}: expected a list of panel names (their headings, e.g. "Legend").`);
    }
    return { text: page.text, config, folded };
  });
  return { title: lesson.title ?? name, source: lesson.source ?? '', pages: out };
}
