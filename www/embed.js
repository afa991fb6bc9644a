// Embedding Pathlab in a course page. "Copy embed code" (in the panel) opens a dialog with the
// <iframe> code of what the page shows now: the preset by name, or the map itself (`grid=`)
// once it was edited, generated or opened from a file, with every search setting, `embed=1`
// and a size that fits the grid and its controls. Options: lock editing (`lock=1`), start at
// the current step (`step=N`), high-contrast colours (`contrast=1`).
//
// The code is built from parts that cannot carry markup: the URL by URLSearchParams (every
// value percent-encoded), width and height as checked whole numbers, and the URL and title as
// double-quoted attribute values with & < > " ' escaped. The page shows it in a textarea's
// value, never as HTML.
//
// `lock=1` (attachLock): the grid still steps, plays and shows cells, but presses on the grid,
// keys that edit it (access.js), dropped files and the map, search and edit controls do
// nothing except say that editing is locked.

import { el } from './dom.js';
import { DEFAULTS } from './config.js';
import { shareLink, MAX_LINK } from './persist.js';
import { addressText, quote } from './values.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there).
 * @typedef {Pick<import('./page-context.js').PageContext, 'canvas' | 'config' | 'lab' | 'links' | 'mapName' | 'mapTitle' | 'memory' | 'messages' | 'quiz' | 'root' | 'say' | 'switches' | 'syncSettings' | 'ui'>} EmbedContext
 */

/** What a locked page says when someone tries to edit. */
export const LOCKED_TEXT =
  'Editing is locked in this example: you can step, play and run the search, but not paint, move the start or goal, or change the map or algorithm.';

/** The iframe sizes the dialog accepts, in CSS pixels. */
export const FRAME_SIZE = Object.freeze({ min: 200, max: 4000 });

/** The longest URL put in embed code: browsers refuse longer iframe addresses. */
export const MAX_EMBED_URL = 2_000_000;

/** `text` escaped for a double- or single-quoted HTML attribute value. */
export function escapeAttribute(text) {
  return String(text)
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** Where the lecturer's site address is kept in this browser, between visits. */
const SITE_KEY = 'pathlab-embed-site';

/** The folder this page was loaded from: the site address the embed code uses unless told another. */
export function ownSite() {
  return new URL('./', import.meta.url).href;
}

/**
 * Reads a site address typed in the embed dialog: the public address of the folder holding
 * Pathlab's pages (README, "Host it for your course"). Returns `{ site, page }` (the folder and
 * its index.html, as URLs) or `{ error }` naming the problem. A page's own address is taken
 * as its folder; query and fragment are dropped.
 * @param {string} text
 * @returns {{ site: URL, page: URL, error: null } | { site: null, page: null, error: string }}
 */
export function readSite(text) {
  const raw = String(text ?? '').trim();
  let url;
  try {
    url = new URL(raw);
  } catch {
    return { site: null, page: null, error: `The site address ${quote(raw)} is not a whole web address: write it as the page shows it, for example https://www.example.edu/ai-games/pathlab/.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { site: null, page: null, error: `The site address must start with https:// or http://, not ${quote(url.protocol)}.` };
  }
  if (url.username || url.password) return { site: null, page: null, error: 'The site address must not carry a user name or password.' };
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname = /\.html?$/i.test(url.pathname) ? url.pathname.replace(/[^/]*$/, '') : `${url.pathname}/`;
  return { site: url, page: new URL('index.html', url), error: null };
}

/** True when `url` names this computer only (localhost, 127.x.x.x, ::1, 0.0.0.0). */
export function isLocalAddress(url) {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1' || host === '0.0.0.0';
}

/** What the dialog says when the code points at this computer only. */
export const LOCAL_WARNING =
  'Warning: this address only works on this computer, so students who open the course page will see an error in the frame. Host the pages (README, "Host it for your course") and make the code there, or write the site\'s public address above.';

/** True for a whole number of CSS pixels the embed code accepts. */
export function validFrameSize(value) {
  return Number.isInteger(value) && value >= FRAME_SIZE.min && value <= FRAME_SIZE.max;
}

/**
 * A frame size for a `w` x `h` grid: 720 px wide (narrower for tall maps, so the grid is at
 * most 600 px high), and high enough for the grid, the step controls and the read-outs of
 * the embedded layout (pathlab.js keeps 96 px under the grid; narrow frames wrap the
 * controls onto a second line).
 */
export function frameSize(w, h) {
  const pad = 14;
  let width = 720;
  let grid = ((width - pad) * h) / w;
  if (grid > 600) {
    grid = 600;
    width = Math.max(360, Math.round((grid * w) / h) + pad);
  }
  // Below the grid: the step controls, the timeline and the read-outs.
  let height = Math.round(grid) + 156;
  if (width < 560) height += 48;
  const clamp = (v) => Math.min(FRAME_SIZE.max, Math.max(FRAME_SIZE.min, Math.round(v)));
  return { width: clamp(width), height: clamp(height) };
}

/**
 * The <iframe> code for `url`. Throws when `width` or `height` is not a whole number of
 * pixels from FRAME_SIZE.min to FRAME_SIZE.max.
 */
export function iframeCode({ url, width, height, title }) {
  for (const [name, value] of [['width', width], ['height', height]]) {
    if (!validFrameSize(value)) {
      throw new Error(`the ${name} must be a whole number of pixels from ${FRAME_SIZE.min} to ${FRAME_SIZE.max}`);
    }
  }
  return `<iframe src="${escapeAttribute(url)}" width="${width}" height="${height}" title="${escapeAttribute(title)}" style="max-width: 100%; border: 1px solid #d9d7cf; border-radius: 8px;" loading="lazy"></iframe>`;
}

/**
 * The address of the embedded example: the share link of what `app` shows (persist.js) with
 * `embed=1` and the chosen options. Returns `{ url }` or `{ error }`.
 * @param {EmbedContext} app
 */
export function embedUrl(app, base, { lock = false, step = 0, contrast = false } = {}) {
  const { url, error } = shareLink(app, base);
  if (error) return { error };
  const link = new URL(url);
  const params = link.searchParams;
  if (app.config.speed !== DEFAULTS.speed) params.set('speed', String(app.config.speed));
  if (Number.isInteger(step) && step > 0) params.set('step', String(step));
  params.set('embed', '1');
  if (lock) params.set('lock', '1');
  if (contrast) params.set('contrast', '1');
  // A map that makes the address long rides in the fragment, which no server sees.
  const text = addressText(link);
  if (text.length > MAX_EMBED_URL) {
    return { error: `The embed code would be ${text.length.toLocaleString('en')} characters long, more than browsers take in an address. Put the map in a file next to the course page and use map=FILE.map instead.` };
  }
  return { url: text };
}

/**
 * Says that editing is locked (once in a row) and returns true when `app` is locked.
 * @param {Pick<import('./page-context.js').PageContext, 'config' | 'messages' | 'say'>} app
 */
export function refuseLocked(app) {
  if (!app.config.lock) return false;
  if (app.messages.at(-1) !== LOCKED_TEXT) app.say(LOCKED_TEXT);
  return true;
}

/**
 * Enforces `lock=1` on `app`: presses on the grid, dropped files, and the controls that
 * change the map, the search or the edit tools are refused with a message. The controls stay
 * focusable (marked aria-disabled), so a screen reader still reads the settings.
 * @param {EmbedContext} app
 */
function attachLock(app) {
  if (!app.config.lock) return () => {};
  const root = app.root;
  const ui = app.ui;
  root.classList.add('pl-locked');
  const areas = [ui.map.closest('.pl-map-controls'), ui.algo.closest('section'), ui.editSection].filter(Boolean);
  // Viewing aids stay free (the contrast switch, added to the header later, is never locked).
  const free = (control) => ['contrast', 'embed-code'].includes(control.dataset.testid);
  const locked = new Set(areas.flatMap((area) => [...area.querySelectorAll('input, select, button, textarea')]).filter((c) => !free(c)));
  for (const control of locked) control.setAttribute('aria-disabled', 'true');
  ui.editSection.prepend(el('p', { class: 'pl-hint pl-locked-note', testid: 'locked-note', text: LOCKED_TEXT }));

  const isLocked = (target) => target === app.canvas || locked.has(target) || [...locked].some((c) => c.labels && [...c.labels].includes(target));
  const hasFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');
  const stop = (event) => {
    event.preventDefault();
    event.stopPropagation();
  };

  function onPress(event) {
    const target = event.target;
    if (target === app.canvas) {
      // Hidden from the editor (edit.js) but not prevented, so a click still focuses the grid
      // for its keys.
      if (event.type !== 'pointerdown' || (event.pointerType === 'mouse' && event.button !== 0)) return;
      event.stopPropagation();
      refuseLocked(app);
    } else if (locked.has(target) || (target instanceof Element && target.closest('label') && isLocked(target.closest('label')))) {
      stop(event);
      if (event.type !== 'mousedown') refuseLocked(app);
    }
  }
  function onClick(event) {
    const control = event.target instanceof Element ? event.target.closest('input, select, button, textarea, label') : null;
    if (control && isLocked(control)) {
      stop(event);
      refuseLocked(app);
    }
  }
  function onKey(event) {
    if (!locked.has(event.target) || ['Tab', 'Escape', 'Shift'].includes(event.key)) return;
    stop(event);
    refuseLocked(app);
  }
  function onChange(event) {
    if (!locked.has(event.target)) return;
    event.stopPropagation();
    // A value that changed anyway (autofill, a script) is put back.
    app.syncSettings();
    if (app.mapName) ui.map.value = app.mapName;
  }
  function onDrag(event) {
    if (!hasFiles(event)) return;
    // The drop is taken (the browser does not leave the page for the file) and refused.
    stop(event);
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'none';
    if (event.type === 'drop') refuseLocked(app);
  }

  /** @type {Array<[string, (event: any) => void]>} */
  const listeners = [
    ['pointerdown', onPress],
    ['mousedown', onPress],
    ['click', onClick],
    ['keydown', onKey],
    ['beforeinput', onKey],
    ['change', onChange],
    ['input', onChange],
    ['dragenter', onDrag],
    ['dragover', onDrag],
    ['drop', onDrag],
  ];
  for (const [type, fn] of listeners) root.addEventListener(type, fn, true);
  return () => {
    for (const [type, fn] of listeners) root.removeEventListener(type, fn, true);
  };
}

/**
 * The algorithm's label as the page's select shows it.
 * @param {EmbedContext} app
 */
function algorithmLabel(app) {
  const select = app.ui.algo;
  return select.selectedOptions?.[0]?.textContent || select.value;
}

/**
 * The "Copy embed code" button, its panel section and its dialog, on every page (attachEmbed
 * here for the square grid, space-keep.js for graphs and hexes); the caller places `section`
 * and `dialog`. `spec`: `hint` (under the section's heading), `lockLabel`, `dialogHint`,
 * `initial` (the frame size before the dialog first opens), `frame()` (the size it opens with),
 * `link({ lock, step, contrast, page })` (`{ url }` or `{ error }`; `page` is the URL of index.html on
 * the site the lecturer named, by default where this page came from), `title()` (the iframe's title) and
 * `note(url, code)` (what the dialog says under good code). Returns `{ section, dialog, destroy() }`.
 * @param {Pick<import('./page-context.js').PageContext, 'lab' | 'root'>} app
 */
export function embedDialog(app, spec) {
  const id = (name) => `pl-${name}-${Math.random().toString(36).slice(2, 8)}`;

  const open = el('button', {
    type: 'button', testid: 'embed-code', class: 'pl-btn pl-small pl-primary', text: 'Copy embed code',
    title: 'Code for an iframe that shows this example in a course page', 'aria-haspopup': 'dialog',
  });
  const section = el(
    'section',
    { class: 'pl-section pl-embed-section' },
    el('h2', { text: 'Embed in a course page' }),
    el('p', { class: 'pl-hint', text: spec.hint }),
    open,
  );

  const check = (testid, label) => {
    const box = el('input', { type: 'checkbox', testid });
    return [box, el('label', { class: 'pl-check' }, box, el('span', { text: label }))];
  };
  const [lock, lockField] = check('embed-lock', spec.lockLabel);
  const [atStep, stepField] = check('embed-step', 'Start at the current step');
  const [contrast, contrastField] = check('embed-contrast', 'High-contrast colours');
  const size = (testid, label) => {
    const input = el('input', {
      type: 'number', testid, min: String(FRAME_SIZE.min), max: String(FRAME_SIZE.max), step: '1', inputmode: 'numeric',
    });
    return [input, el('label', { class: 'pl-size-field' }, el('span', { text: label }), input)];
  };
  const [width, widthField] = size('embed-width', 'Width (px)');
  const [height, heightField] = size('embed-height', 'Height (px)');
  const siteId = id('embed-site');
  const site = el('input', {
    id: siteId, type: 'url', testid: 'embed-site', class: 'pl-embed-site', spellcheck: 'false', autocomplete: 'url',
    title: 'The public address of the folder that holds these pages on your course site',
  });
  const siteField = el(
    'div',
    { class: 'pl-site-field' },
    el('label', { for: siteId, text: 'Site address (where the pages are hosted)' }),
    site,
  );
  const warning = el('p', { testid: 'embed-warning', class: 'pl-embed-warning', role: 'status', hidden: true });
  const codeId = id('embed-code');
  const code = el('textarea', {
    id: codeId, testid: 'embed-snippet', class: 'pl-embed-snippet', readonly: true, rows: '6', spellcheck: 'false',
  });
  const status = el('p', { testid: 'embed-status', class: 'pl-hint', 'aria-live': 'polite' });
  const copy = el('button', { type: 'button', testid: 'embed-copy', class: 'pl-btn pl-small pl-primary', text: 'Copy' });
  const close = el('button', { type: 'button', testid: 'embed-close', class: 'pl-btn pl-small', text: 'Close' });
  const titleId = id('embed-title');
  const dialog = el(
    'dialog',
    { class: 'pl-dialog', testid: 'embed-dialog', 'aria-labelledby': titleId },
    el('h2', { id: titleId, text: 'Embed this example' }),
    el('p', { class: 'pl-hint', text: spec.dialogHint }),
    lockField,
    stepField,
    contrastField,
    el('div', { class: 'pl-row pl-size' }, widthField, el('span', { 'aria-hidden': 'true', text: '×' }), heightField),
    siteField,
    el('label', { class: 'pl-code-label', for: codeId, text: 'Embed code' }),
    code,
    warning,
    status,
    el('div', { class: 'pl-row' }, copy, close),
  );

  let current = { ...spec.initial };

  /** Builds the code from the options; on a problem, says what and keeps the last good code. */
  function build() {
    for (const [input, key] of [[width, 'width'], [height, 'height']]) {
      const raw = input.value.trim();
      const value = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
      if (validFrameSize(value)) {
        current[key] = value;
        input.removeAttribute('aria-invalid');
      } else {
        input.setAttribute('aria-invalid', 'true');
        status.textContent = `The ${key} must be a whole number of pixels from ${FRAME_SIZE.min} to ${FRAME_SIZE.max}; keeping ${current[key]}.`;
        input.value = String(current[key]);
        return false;
      }
    }
    const where = readSite(site.value);
    if (where.error !== null) {
      site.setAttribute('aria-invalid', 'true');
      status.textContent = `${where.error} The code below is unchanged.`;
      return false;
    }
    site.removeAttribute('aria-invalid');
    remember(where.site.href);
    const step = atStep.checked ? app.lab.steps : 0;
    const { url, error } = spec.link({ lock: lock.checked, step, contrast: contrast.checked, page: where.page });
    if (error) {
      code.value = '';
      warning.hidden = true;
      status.textContent = error;
      return false;
    }
    code.value = iframeCode({ url, width: current.width, height: current.height, title: spec.title() });
    warning.hidden = !isLocalAddress(where.site);
    warning.textContent = warning.hidden ? '' : LOCAL_WARNING;
    status.textContent = spec.note(url, code.value);
    return true;
  }

  /** Keeps a site address other than the page's own for the next visit (when storage works). */
  function remember(href) {
    try {
      if (href === ownSite()) localStorage.removeItem(SITE_KEY);
      else localStorage.setItem(SITE_KEY, href);
    } catch {
      // Storage may be off (private windows, embedded pages): the address lasts for this visit.
    }
  }

  /** The site address to start from: the one kept from an earlier visit, else this page's. */
  function keptSite() {
    try {
      const kept = localStorage.getItem(SITE_KEY);
      if (kept && readSite(kept).error === null) return kept;
    } catch {
      // As above.
    }
    return ownSite();
  }

  async function copyCode() {
    if (!code.value) return;
    try {
      await navigator.clipboard.writeText(code.value);
      status.textContent = `${status.textContent} Copied to the clipboard.`.trim();
    } catch {
      code.focus();
      code.select();
      status.textContent = `${status.textContent} The browser did not allow copying: the code is selected, press Ctrl+C (⌘C) to copy it.`.trim();
    }
  }

  open.addEventListener('click', () => {
    const steps = app.lab.steps;
    stepField.querySelector('span').textContent = `Start at the current step (step ${steps})`;
    atStep.disabled = steps === 0;
    if (steps === 0) atStep.checked = false;
    contrast.checked = app.root.classList.contains('pl-contrast');
    current = spec.frame();
    width.value = String(current.width);
    height.value = String(current.height);
    if (!site.value) site.value = keptSite();
    const ok = build();
    if (!dialog.open) dialog.showModal();
    code.focus();
    code.select();
    if (ok) copyCode();
  });
  for (const input of [lock, atStep, contrast, width, height, site]) {
    input.addEventListener('change', () => {
      if (build()) copyCode();
    });
  }
  copy.addEventListener('click', copyCode);
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => open.focus());

  return {
    section,
    dialog,
    destroy() {
      if (dialog.open) dialog.close();
    },
  };
}

/**
 * Adds "Copy embed code" and its dialog to the panel, and enforces `lock=1`.
 * Returns `{ destroy() }`.
 * @param {EmbedContext} app
 */
export function attachEmbed(app) {
  const ui = app.ui;
  const detachLock = attachLock(app);
  const embed = embedDialog(app, {
    hint: 'An iframe with this map, these settings and only the grid and step controls.',
    lockLabel: 'Lock editing: students can step and play, but not paint or change the map or algorithm',
    dialogHint: 'Paste the code into the HTML of a course page. It opens with this map and these settings, showing the grid and the step controls.',
    initial: { width: 720, height: 480 },
    frame: () => frameSize(app.lab.width, app.lab.height),
    link: (options) => embedUrl(app, options.page, options),
    title: () => `Pathlab: ${algorithmLabel(app)} on ${app.mapTitle || app.mapName || 'a grid'}`,
    note: (url, code) => (url.length > MAX_LINK
      ? `The code is ${code.length.toLocaleString('en')} characters long, because it carries the map itself; some course platforms cut long code.`
      : ''),
  });
  const after = ui.editSection.parentElement?.querySelector('.pl-share') ?? ui.editSection;
  after.after(embed.section);
  app.root.append(embed.dialog);

  return {
    destroy() {
      detachLock();
      embed.destroy();
    },
  };
}
