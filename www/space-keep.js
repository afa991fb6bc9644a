// Keeping and embedding on the graph and hex views (space-view.js), as persist.js and embed.js
// do for the square grid.
//
// Saving: the user's own graph or hexes (edited, new, or opened from a file or a link; not an
// unedited preset) with its start, goal and search settings are saved in localStorage a moment
// after each change, one entry per space under STORAGE_KEY, and come back when the page opens
// on that space without a map in its URL (no map=, graph= or grid=). "Forget saved map" removes
// the entry. Storage that is full or turned off gives a message and the page goes on without it.
// Embedded pages (embed=1) neither save nor restore. A saved entry that cannot be read any more
// is named in a message, removed, and the usual first map is shown.
//
// Embedding: "Copy embed code" opens a dialog with the <iframe> code of what the view shows
// now (embed.js's iframeCode: the URL and title escaped as attribute values), with the same
// options as the grid page's (lock, start at the current step, high contrast, size) and the
// same data-testid hooks. The code is shown in a textarea's value, never as markup.

import { el } from './dom.js';
import { DEFAULTS, toQuery } from './config.js';
import { quote } from './values.js';
import { decodeGrid, encodeGrid } from './share.js';
import { FRAME_SIZE, MAX_EMBED_URL, iframeCode, validFrameSize } from './embed.js';

/** The localStorage key of the saved graph and hexes: `{ graph: {...}, hex: {...} }`. */
export const SPACE_STORAGE_KEY = 'pathlab.spaces.v1';
/** Milliseconds after the last change before saving. */
const SAVE_DELAY = 400;
/** The largest graph file or hex text saved (characters). */
const MAX_SAVED = 2_000_000;

function storage() {
  let store;
  try {
    store = window.localStorage;
  } catch (e) {
    throw new Error(`this browser does not let the page use its storage (${e.name})`);
  }
  if (!store) throw new Error('this browser has no storage for pages');
  return store;
}

function reason(e) {
  if (e?.name === 'QuotaExceededError' || e?.code === 22) return "the browser's storage for this page is full";
  if (e?.name === 'SecurityError') return 'the browser does not let the page use its storage';
  return e?.message ?? String(e);
}

/** Everything saved, by space; an empty object when nothing (or nothing readable) is. */
function readAll() {
  const raw = storage().getItem(SPACE_STORAGE_KEY);
  if (raw === null) return {};
  const all = JSON.parse(raw);
  return all && typeof all === 'object' && !Array.isArray(all) ? all : {};
}

/**
 * Wires saving and the embed dialog into the SpaceApp `app`; `share` is the panel's Share
 * section, where the Forget button and the saved state go. Returns `{ restore(), start(),
 * destroy() }`: `restore` shows the saved graph or hexes before the first paint (true when it
 * did), `start` turns autosave on once the page has loaded.
 */
export function attachSpaceKeeping(app, share) {
  const graph = app.space === 'graph';
  const embed = Boolean(app.config.embed);
  let armed = false;
  let timer = 0;
  const what = graph ? 'graph' : 'map of hexes';

  // ---- saving ----
  const forget = el('button', {
    type: 'button', testid: 'forget', class: 'pl-btn pl-small', text: 'Forget saved map',
    title: `Remove the ${what} saved in this browser`,
  });
  const state = el('p', { testid: 'saved-state', class: 'pl-hint', 'aria-live': 'polite' });
  if (!embed) share.append(el('div', { class: 'pl-row' }, forget), state);

  function saved() {
    try {
      return readAll()[app.space] ?? null;
    } catch {
      return null;
    }
  }

  function showState() {
    const entry = saved();
    forget.disabled = !entry;
    state.textContent = entry
      ? `Your ${what} ${entry.title ? `“${String(entry.title).slice(0, 80)}” ` : ''}is saved in this browser and comes back when the page opens without a map in its link.`
      : `Your own ${what} (edited, new or opened from a file) is saved in this browser as you work.`;
  }

  function write(entry) {
    const store = storage();
    let all;
    try {
      all = readAll();
    } catch {
      all = {};
    }
    if (entry) all[app.space] = entry;
    else delete all[app.space];
    if (Object.keys(all).length) store.setItem(SPACE_STORAGE_KEY, JSON.stringify(all));
    else store.removeItem(SPACE_STORAGE_KEY);
  }

  /** The shown space in its saved form, or null for an unedited preset. */
  function current() {
    if (app.mapName !== null) return null;
    const lab = app.lab;
    const labels = app.labels();
    const entry = {
      title: app.mapTitle ?? '',
      algo: lab.algorithm,
      heuristic: graph ? lab.heuristicName : lab.heuristicName === 'zero' ? 'zero' : 'hex',
      weight: lab.weight,
    };
    if (graph) {
      entry.graph = lab.toJson();
      entry.start = labels[lab.start];
      entry.goal = labels[lab.goal];
    } else {
      const grid = app.gridNow();
      entry.grid = encodeGrid(grid);
      entry.start = grid.start;
      entry.goal = grid.goal;
      entry.layout = lab.layout;
    }
    return entry;
  }

  function save() {
    timer = 0;
    if (!armed || embed || !app.lab) return;
    const entry = current();
    if (!entry) return;
    try {
      const size = (entry.graph ?? entry.grid ?? '').length;
      if (size > MAX_SAVED) throw new Error(`it is ${size.toLocaleString('en')} characters long, over ${MAX_SAVED.toLocaleString('en')}`);
      write(entry);
    } catch (e) {
      app.say(`Your ${what} could not be saved in this browser: ${reason(e)}. It is still shown; export it as a file to keep it.`);
    }
    showState();
  }

  const onChange = () => {
    if (!armed || embed) return;
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY);
  };
  app.root.addEventListener('pathlab-change', onChange);

  forget.addEventListener('click', () => {
    clearTimeout(timer);
    try {
      write(null);
      app.narrate(`Forgot the ${what} saved in this browser; the page shows it until you leave.`);
    } catch (e) {
      app.say(`The saved ${what} could not be removed: ${reason(e)}.`);
    }
    showState();
  });

  /** Shows the saved space when the link names none; true when it did. */
  function restore() {
    const c = app.config;
    if (embed || c.map !== null || c.graph || c.grid) return false;
    let entry;
    try {
      entry = readAll()[app.space] ?? null;
    } catch (e) {
      app.say(`The ${what} saved in this browser cannot be read (${reason(e)}); showing the first preset.`);
      return false;
    }
    if (!entry || typeof entry !== 'object') return false;
    const title = typeof entry.title === 'string' && entry.title ? entry.title.slice(0, 300) : `Your ${what}`;
    try {
      if (graph) {
        if (typeof entry.graph !== 'string') throw new Error('it holds no graph');
        app.useGraph(entry.graph, { name: null, title });
        for (const key of ['start', 'goal']) {
          if (typeof entry[key] !== 'string' || c[key] !== null) continue;
          try {
            const node = app.lab.nodeById(entry[key]);
            if (key === 'start') app.lab.setStart(node);
            else app.lab.setGoal(node);
          } catch (e) {
            app.say(`The saved ${key} ${quote(entry[key])} cannot be used: ${e.message}.`);
          }
        }
      } else {
        if (typeof entry.grid !== 'string') throw new Error('it holds no hexes');
        const grid = decodeGrid(entry.grid);
        const layout = entry.layout === 'flat' || entry.layout === 'pointy' ? entry.layout : null;
        app.useHex(
          { ...grid, start: Array.isArray(entry.start) ? entry.start : null, goal: Array.isArray(entry.goal) ? entry.goal : null },
          { name: null, title, layout: c.layout ?? layout },
        );
      }
    } catch (e) {
      app.say(`The ${what} saved in this browser cannot be shown (${e.message}); it was removed, and the first preset is shown.`);
      try {
        write(null);
      } catch {
        // Storage that cannot be written was named when it was read.
      }
      return false;
    }
    // Settings the link does not name come back as they were saved.
    if (c.algo === DEFAULTS.algo && typeof entry.algo === 'string') c.algo = entry.algo;
    if ((c.heuristic === DEFAULTS.heuristic || c.heuristic === null) && typeof entry.heuristic === 'string') c.heuristic = entry.heuristic;
    if (c.weight === DEFAULTS.weight && Number.isFinite(entry.weight)) c.weight = entry.weight;
    app.narrate(`Your ${what} from the last visit, saved in this browser.`);
    return true;
  }

  // ---- embedding ----
  const id = (name) => `pl-${name}-${Math.random().toString(36).slice(2, 8)}`;
  const openButton = el('button', {
    type: 'button', testid: 'embed-code', class: 'pl-btn pl-small pl-primary', text: 'Copy embed code',
    title: 'Code for an iframe that shows this example in a course page', 'aria-haspopup': 'dialog',
  });
  const section = el(
    'section',
    { class: 'pl-section pl-embed-section' },
    el('h2', { text: 'Embed in a course page' }),
    el('p', { class: 'pl-hint', text: `An iframe with this ${what}, these settings and only the ${graph ? 'graph' : 'hexes'} and step controls.` }),
    openButton,
  );
  if (!embed) share.after(section);
  const check = (testid, label) => {
    const box = el('input', { type: 'checkbox', testid });
    return [box, el('label', { class: 'pl-check' }, box, el('span', { text: label }))];
  };
  const [lock, lockField] = check('embed-lock', `Lock editing: students can step and play, but not edit the ${graph ? 'graph' : 'hexes'} or change the algorithm`);
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
  const codeId = id('embed-code');
  const code = el('textarea', { id: codeId, testid: 'embed-snippet', class: 'pl-embed-snippet', readonly: true, rows: '6', spellcheck: 'false' });
  const status = el('p', { testid: 'embed-status', class: 'pl-hint', 'aria-live': 'polite' });
  const copy = el('button', { type: 'button', testid: 'embed-copy', class: 'pl-btn pl-small pl-primary', text: 'Copy' });
  const close = el('button', { type: 'button', testid: 'embed-close', class: 'pl-btn pl-small', text: 'Close' });
  const titleId = id('embed-title');
  const dialog = el(
    'dialog',
    { class: 'pl-dialog', testid: 'embed-dialog', 'aria-labelledby': titleId },
    el('h2', { id: titleId, text: 'Embed this example' }),
    el('p', { class: 'pl-hint', text: `Paste the code into the HTML of a course page. It opens with this ${what} and these settings, showing the ${graph ? 'graph' : 'hexes'} and the step controls.` }),
    lockField,
    stepField,
    contrastField,
    el('div', { class: 'pl-row pl-size' }, widthField, el('span', { 'aria-hidden': 'true', text: '×' }), heightField),
    el('label', { class: 'pl-code-label', for: codeId, text: 'Embed code' }),
    code,
    status,
    el('div', { class: 'pl-row' }, copy, close),
  );
  if (!embed) app.root.append(dialog);
  let frame = { width: 720, height: 520 };

  /** The embedded example's address: `{ url }` or `{ error }`. */
  function embedUrl() {
    const config = app.currentConfig();
    if (!config.map && !config.graph && !config.grid) {
      return { error: `This ${what} is too large to go in a link: export it as a file, put it next to the course page and use map=FILE instead.` };
    }
    const params = new URLSearchParams(toQuery({ ...config, embed: false, lock: false, contrast: false }));
    if (atStep.checked && app.lab.steps > 0) params.set('step', String(app.lab.steps));
    params.set('embed', '1');
    if (lock.checked) params.set('lock', '1');
    if (contrast.checked) params.set('contrast', '1');
    const url = new URL('./index.html', import.meta.url);
    url.search = params.toString().replaceAll('%2C', ',');
    const text = url.toString();
    if (text.length > MAX_EMBED_URL) return { error: `The embed code would be ${text.length.toLocaleString('en')} characters long, more than browsers take in an address.` };
    return { url: text };
  }

  function build() {
    for (const [input, key] of [[width, 'width'], [height, 'height']]) {
      const raw = input.value.trim();
      const value = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
      if (validFrameSize(value)) {
        frame[key] = value;
        input.removeAttribute('aria-invalid');
      } else {
        input.setAttribute('aria-invalid', 'true');
        status.textContent = `The ${key} must be a whole number of pixels from ${FRAME_SIZE.min} to ${FRAME_SIZE.max}; keeping ${frame[key]}.`;
        input.value = String(frame[key]);
        return false;
      }
    }
    const { url, error } = embedUrl();
    if (error) {
      code.value = '';
      status.textContent = error;
      return false;
    }
    const algo = app.algoLabel(app.lab.algorithm);
    const title = `Pathlab: ${algo} on ${app.mapTitle || app.mapName || (graph ? 'a graph' : 'hex tiles')}`;
    code.value = iframeCode({ url, width: frame.width, height: frame.height, title });
    status.textContent = '';
    return true;
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

  openButton.addEventListener('click', () => {
    const steps = app.lab.steps;
    stepField.querySelector('span').textContent = `Start at the current step (step ${steps})`;
    atStep.disabled = steps === 0;
    if (steps === 0) atStep.checked = false;
    contrast.checked = app.root.classList.contains('pl-contrast');
    // The canvas's shape, 720 px wide, with room for the step controls and read-outs.
    const c = app.canvas;
    const aspect = c.clientWidth ? c.clientHeight / c.clientWidth : 0.6;
    const clamp = (v) => Math.min(FRAME_SIZE.max, Math.max(FRAME_SIZE.min, Math.round(v)));
    frame = { width: 720, height: clamp(Math.min(600, 706 * aspect) + 170) };
    width.value = String(frame.width);
    height.value = String(frame.height);
    const ok = build();
    if (!dialog.open) dialog.showModal();
    code.focus();
    code.select();
    if (ok) copyCode();
  });
  for (const input of [lock, atStep, contrast, width, height]) {
    input.addEventListener('change', () => {
      if (build()) copyCode();
    });
  }
  copy.addEventListener('click', copyCode);
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => openButton.focus());

  return {
    restore,
    start() {
      armed = !embed;
      if (!embed) {
        showState();
        // A graph or hexes from a link or the storage is the user's own: kept from the start.
        if (app.mapName === null) save();
      }
    },
    destroy() {
      clearTimeout(timer);
      if (armed && app.lab && app.mapName === null) save();
      armed = false;
      app.root.removeEventListener('pathlab-change', onChange);
      if (dialog.open) dialog.close();
      dialog.remove();
      section.remove();
    },
  };
}
