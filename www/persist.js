// Keeping and sharing a map. The user's own map (edited, generated, resized, opened from a
// file or a link) and the settings are saved in localStorage a moment after each change, and
// come back when the page opens without a map in its URL. A share link carries the map itself
// (`grid=`, see share.js) with the settings, so it opens the same map, start, goal and search
// anywhere; an unedited preset is shared by name. Storage that is full or turned off gives a
// message and the page goes on without it. Embedded pages (embed=1) neither save nor restore.
// On a shared classroom machine the last visitor's work is not restored silently: a banner says
// what came back and offers "Start fresh", one click back to the default map and settings
// (which also forgets the saved ones).

import { el } from './dom.js';
import { readConfig, toQuery, SWITCHES } from './config.js';
import { quote } from './values.js';
import { decodeGrid, encodeGrid } from './share.js';
import { readCells } from './editor.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there).
 * @typedef {Pick<import('./page-context.js').PageContext, 'config' | 'known' | 'lab' | 'links' | 'mapName' | 'mapTitle' | 'memory' | 'narrate' | 'quiz' | 'root' | 'say' | 'showNewMap' | 'switches' | 'ui'>} PersistContext
 */

/** The localStorage key of the saved map and settings. */
export const STORAGE_KEY = 'pathlab.saved.v1';
/** Milliseconds after the last change before saving. */
export const SAVE_DELAY = 400;
/** The longest share link offered, in characters; longer ones break in mail and chat. */
export const MAX_LINK = 8000;

/** The settings saved and shared with a map. */
const SETTINGS = ['algo', 'heuristic', 'diagonal', 'costs', 'weight', 'lookahead', 'sensor', 'cluster', 'hand', 'fog', 'seed'];

/** localStorage, or a thrown Error saying why it cannot be used. */
export function storage() {
  let store;
  try {
    store = window.localStorage;
  } catch (e) {
    throw new Error(`this browser does not let the page use its storage (${e.name})`);
  }
  if (!store) throw new Error('this browser has no storage for pages');
  return store;
}

/** " (saved DATE)" for a saved record's ISO time, or "" when it has none that reads. */
function savedWhen(iso) {
  const date = typeof iso === 'string' ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return '';
  return ` (saved ${date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })})`;
}

/**
 * ", W x H" for the shown map, unless its title says so already.
 * @param {Pick<import('./page-context.js').PageContext, 'lab' | 'mapTitle'>} app
 */
function sizeOf(app) {
  const size = `${app.lab.width} x ${app.lab.height}`;
  return app.mapTitle?.includes(size) ? '' : `, ${size}`;
}

/** Why a write failed, in words. */
export function reason(e) {
  if (e?.name === 'QuotaExceededError' || e?.code === 22) return "the browser's storage for this page is full";
  if (e?.name === 'SecurityError') return 'the browser does not let the page use its storage';
  return e?.message ?? String(e);
}

/**
 * The current settings of `app.lab`, by the URL's names, with the search's switches that are
 * away from their defaults (switches.js).
 * @param {Pick<import('./page-context.js').PageContext, 'lab' | 'switches'>} app
 */
function currentSettings(app) {
  const s = app.lab.settings();
  return { ...Object.fromEntries(SETTINGS.map((k) => [k, s[k]])), ...app.switches?.config() };
}

/**
 * The shown map in its saved form: `{ grid, start, goal, title }`.
 * @param {PersistContext} app
 */
function currentMap(app) {
  const lab = app.lab;
  return {
    grid: encodeGrid({ width: lab.width, height: lab.height, cells: readCells(app) }),
    start: [lab.startX, lab.startY],
    goal: [lab.goalX, lab.goalY],
    title: app.mapTitle ?? '',
  };
}

/**
 * Replaces the map with `grid` ({ width, height, cells }) and moves the ends to `start` and
 * `goal` where they can go (a message otherwise). Throws, keeping the map, when the Lab refuses.
 * @param {PersistContext} app
 */
function loadGrid(app, grid, start, goal, title, what) {
  app.lab.loadCells(grid.width, grid.height, grid.cells);
  for (const [which, p] of [['start', start], ['goal', goal]]) {
    if (p === undefined || p === null) continue;
    // Two whole numbers inside the map: anything else (a huge number, a fraction, a string)
    // would be turned into some cell on its way into wasm, so it is refused here.
    const cell = Array.isArray(p) && p.length === 2 && p.every((v, i) => Number.isInteger(v) && v >= 0 && v < (i === 0 ? grid.width : grid.height));
    if (!cell) {
      const shown = Array.isArray(p) ? p.map(String).join(',') : String(p);
      app.say(`The ${which} ${quote(shown)} of the ${what} is not a cell of its ${grid.width} x ${grid.height} map; the ${which} is left where the map puts it.`);
      continue;
    }
    try {
      if (which === 'start') app.lab.setStart(p[0], p[1]);
      else app.lab.setGoal(p[0], p[1]);
    } catch (e) {
      app.say(`The ${which} ${quote(p.join(','))} of the ${what} cannot be used: ${e.message}.`);
    }
  }
  app.showNewMap(title, 'load');
}

/**
 * The part of the page a share link reads (page-context.js).
 * @typedef {Pick<import('./page-context.js').PageContext, 'lab' | 'links' | 'mapName' | 'memory' | 'quiz' | 'switches'>} ShareContext
 */

/**
 * The link that opens the shown map with its settings: `{ url }` or `{ error }`.
 * @param {ShareContext} app
 */
export function shareLink(app, base) {
  const s = app.lab.settings();
  // The quiz goes along too: a link can ask its question.
  const config = { ...currentSettings(app), ...app.links?.config(), quiz: app.quiz?.mode ?? null, start: s.start, goal: s.goal };
  if (app.mapName) {
    config.map = app.mapName;
  } else {
    try {
      config.grid = encodeGrid({ width: app.lab.width, height: app.lab.height, cells: readCells(app) });
    } catch (e) {
      return { error: `This map cannot go in a link: ${e.message}.` };
    }
  }
  // Every setting is written out, defaults too, so the link does not depend on them.
  const params = new URLSearchParams(toQuery(config));
  for (const key of SETTINGS) params.set(key, String(config[key]));
  if (config.grid) params.set('grid', config.grid);
  const url = new URL(base);
  url.search = params.toString().replaceAll('%2C', ',');
  url.hash = '';
  return { url: url.toString() };
}

/**
 * Wires saving, restoring and sharing. Returns `{ restore(config), start(), destroy() }`:
 * `restore` loads the map of a share link or the saved one before the page's first paint,
 * `start` turns autosave on once the page has loaded.
 * @param {PersistContext} app
 */
export function attachPersistence(app) {
  const ui = app.ui;
  const embed = Boolean(app.config.embed);
  let armed = false;
  let timer = 0;
  /** @type {HTMLElement | null} */
  let banner = null;

  const share = el('button', {
    type: 'button', testid: 'share', class: 'pl-btn pl-small pl-primary', text: 'Make a share link',
    title: 'A link that opens this map with these settings',
  });
  const url = el('input', {
    type: 'text', testid: 'share-url', readonly: true, class: 'pl-share-url', placeholder: 'the link appears here',
    'aria-label': 'Share link', spellcheck: 'false',
  });
  const copy = el('button', { type: 'button', testid: 'copy-share', class: 'pl-btn pl-small', text: 'Copy', disabled: true });
  const forget = el('button', {
    type: 'button', testid: 'forget', class: 'pl-btn pl-small', text: 'Forget saved map',
    title: 'Remove the map and settings saved in this browser',
  });
  const state = el('p', { testid: 'saved-state', class: 'pl-hint', 'aria-live': 'polite' });
  const section = el(
    'section',
    { class: 'pl-section pl-share' },
    el('h2', { text: 'Share and keep' }),
    share,
    el('div', { class: 'pl-row pl-share-row' }, url, copy),
    forget,
    state,
  );
  // After the Files section (files.js), or else after Edit.
  (ui.editSection.parentElement?.querySelector('.pl-files') ?? ui.editSection).after(section);

  function readSaved() {
    const text = storage().getItem(STORAGE_KEY);
    if (text === null) return null;
    const saved = JSON.parse(text);
    if (!saved || typeof saved !== 'object' || saved.version !== 1) throw new Error('it is not a map Pathlab saved');
    return saved;
  }

  function save() {
    timer = 0;
    if (!armed || embed) return;
    try {
      const store = storage();
      let map = null;
      if (app.mapName) {
        // A preset as it came is not saved over the user's own map.
        try {
          map = readSaved()?.map ?? null;
        } catch {
          map = null;
        }
      } else {
        map = currentMap(app);
      }
      const record = { version: 1, saved: new Date().toISOString(), map, settings: currentSettings(app), speed: app.config.speed };
      store.setItem(STORAGE_KEY, JSON.stringify(record));
      state.textContent = map ? 'Your map is saved in this browser.' : '';
    } catch (e) {
      // Said after each failed save: the action before it cleared the last one (messages
      // replace each other), so it never piles up.
      app.say(`Your map could not be saved in this browser: ${reason(e)}. Export it as a file to keep it.`);
      state.textContent = 'Not saved.';
    }
  }

  function schedule() {
    if (!armed || embed) return;
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY);
  }

  function flush() {
    if (timer) {
      clearTimeout(timer);
      save();
    }
  }

  function restore(config) {
    if (config.grid) {
      try {
        loadGrid(app, config.grid, null, null, 'Shared map', 'link');
        return true;
      } catch (e) {
        app.say(`Parameter "grid": the map in the link cannot be used: ${e.message}. Showing the default map instead.`);
        return false;
      }
    }
    if (config.map !== null || embed) return false;
    let saved;
    try {
      saved = readSaved();
    } catch (e) {
      app.say(`The map saved in this browser cannot be read (${e.message}); showing the default map. “Forget saved map” removes it.`);
      return false;
    }
    if (!saved) return false;
    // Saved settings fill in whatever the URL does not give, checked like URL values.
    const given = new Set(config.given ?? []);
    const raw = { ...(saved.settings && typeof saved.settings === 'object' ? saved.settings : {}) };
    if (saved.speed !== undefined) raw.speed = saved.speed;
    for (const key of Object.keys(raw)) if (!SETTINGS.includes(key) && !SWITCHES.includes(key) && key !== 'speed') delete raw[key];
    const { config: checked, messages } = readConfig(raw, app.known);
    for (const m of messages) app.say(`Saved settings: ${m}`);
    let settings = 0;
    for (const key of [...SETTINGS, ...SWITCHES, 'speed']) {
      if (key in raw && !given.has(key)) {
        config[key] = checked[key];
        settings += 1;
      }
    }
    const when = savedWhen(saved.saved);
    if (!saved.map) {
      if (settings) offerFreshStart(`The settings this browser kept from the last visit${when} were restored.`);
      return false;
    }
    try {
      const grid = decodeGrid(String(saved.map.grid));
      const title = typeof saved.map.title === 'string' && saved.map.title ? saved.map.title.slice(0, 120) : 'Saved map';
      loadGrid(app, grid, saved.map.start, saved.map.goal, title, 'saved map');
    } catch (e) {
      app.say(`The map saved in this browser cannot be used (${e.message}); showing the default map. “Forget saved map” removes it.`);
      return false;
    }
    state.textContent = 'Your saved map was restored.';
    app.narrate('Restored the map saved in this browser.');
    offerFreshStart(
      `The map this browser kept from the last visit${when} was restored: “${app.mapTitle}”${sizeOf(app)}${settings ? ', with its settings' : ''}.`,
    );
    return true;
  }

  /**
   * Shows what was restored, with "Start fresh" (forget it and show the default map and
   * settings) and "Keep it" (hide the banner).
   */
  function offerFreshStart(text) {
    banner?.remove();
    const fresh = el('button', {
      type: 'button', testid: 'start-fresh', class: 'pl-btn pl-small pl-primary', text: 'Start fresh',
      title: 'Forget the saved map and settings and show the default map',
    });
    const keep = el('button', { type: 'button', testid: 'keep-saved', class: 'pl-btn pl-small', text: 'Keep it' });
    banner = el('div', { class: 'pl-restored pl-full', testid: 'restored', role: 'status' }, el('p', { text }), fresh, keep);
    ui.messageBox.after(banner);
    keep.addEventListener('click', () => {
      banner?.remove();
      banner = null;
    });
    fresh.addEventListener('click', () => {
      clearTimeout(timer);
      timer = 0;
      armed = false;
      try {
        storage().removeItem(STORAGE_KEY);
      } catch (e) {
        app.say(`The saved map could not be removed: ${reason(e)}.`);
      }
      banner?.remove();
      banner = null;
      // The page is built again from the default configuration (mount() in pathlab.js), as a
      // visit without a saved map would be; viewing aids stay.
      const detail = { space: 'grid' };
      if (app.config.contrast) detail.contrast = true;
      app.root.dispatchEvent(new CustomEvent('pathlab-space', { detail }));
    });
  }

  share.addEventListener('click', () => {
    const base = new URL('./index.html', import.meta.url);
    const { url: link, error } = shareLink(app, base);
    if (error) {
      url.value = '';
      copy.disabled = true;
      app.say(error);
      return;
    }
    if (link.length > MAX_LINK) {
      url.value = '';
      copy.disabled = true;
      app.say(`A link to this map would be ${link.length.toLocaleString('en')} characters long, over ${MAX_LINK.toLocaleString('en')}: too long for mail and chat to carry whole. Export the map as a file instead (Files: course file or MovingAI .map).`);
      return;
    }
    url.value = link;
    copy.disabled = false;
    url.focus();
    url.select();
    app.narrate(`The share link (${link.length} characters) opens this map with these settings.`);
  });

  copy.addEventListener('click', async () => {
    if (!url.value) return;
    try {
      await navigator.clipboard.writeText(url.value);
      app.narrate('Copied the share link.');
    } catch {
      url.focus();
      url.select();
      app.narrate('The browser did not allow copying: the link is selected, press Ctrl+C (⌘C) to copy it.');
    }
  });

  forget.addEventListener('click', () => {
    clearTimeout(timer);
    timer = 0;
    try {
      storage().removeItem(STORAGE_KEY);
      state.textContent = 'Nothing is saved in this browser now.';
      app.narrate('Forgot the saved map and settings; the page opens the default map next time, until you edit again.');
    } catch (e) {
      app.say(`The saved map could not be removed: ${reason(e)}.`);
    }
  });

  const onChange = () => {
    // A link made before a change no longer shows what is on the page.
    if (url.value) {
      url.value = '';
      copy.disabled = true;
    }
    schedule();
  };
  app.root.addEventListener('pathlab-edit', onChange);
  app.root.addEventListener('pathlab-change', onChange);
  window.addEventListener('pagehide', flush);
  if (embed) section.hidden = true;

  return {
    restore,
    start() {
      armed = true;
    },
    flush,
    destroy() {
      flush();
      armed = false;
      banner?.remove();
      app.root.removeEventListener('pathlab-edit', onChange);
      app.root.removeEventListener('pathlab-change', onChange);
      window.removeEventListener('pagehide', flush);
    },
  };
}
