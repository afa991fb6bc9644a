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
// now: embed.js's embedDialog, as on the grid page (the URL and title escaped as attribute
// values; the same options: lock, start at the current step, high contrast, size; the same
// data-testid hooks). The code is shown in a textarea's value, never as markup.

import { el } from './dom.js';
import { DEFAULTS, toQuery } from './config.js';
import { quote } from './values.js';
import { decodeGrid, encodeGrid } from './share.js';
import { FRAME_SIZE, MAX_EMBED_URL, embedDialog } from './embed.js';
import { reason, SAVE_DELAY, storage } from './persist.js';

/** The localStorage key of the saved graph and hexes: `{ graph: {...}, hex: {...} }`. */
export const SPACE_STORAGE_KEY = 'pathlab.spaces.v1';
/** The largest graph file or hex text saved (characters). */
const MAX_SAVED = 2_000_000;

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
      entry['costs-on'] = lab.costsOn;
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
    if (graph && c['costs-on'] === null && (entry['costs-on'] === 'links' || entry['costs-on'] === 'nodes')) c['costs-on'] = entry['costs-on'];
    app.narrate(`Your ${what} from the last visit, saved in this browser.`);
    return true;
  }

  // ---- embedding ----
  const view = graph ? 'graph' : 'hexes';
  const embedding = embedDialog(app, {
    hint: `An iframe with this ${what}, these settings and only the ${view} and step controls.`,
    lockLabel: `Lock editing: students can step and play, but not edit the ${view} or change the algorithm`,
    dialogHint: `Paste the code into the HTML of a course page. It opens with this ${what} and these settings, showing the ${view} and the step controls.`,
    initial: { width: 720, height: 520 },
    frame() {
      // The canvas's shape, 720 px wide, with room for the step controls and read-outs.
      const c = app.canvas;
      const aspect = c.clientWidth ? c.clientHeight / c.clientWidth : 0.6;
      const clamp = (v) => Math.min(FRAME_SIZE.max, Math.max(FRAME_SIZE.min, Math.round(v)));
      return { width: 720, height: clamp(Math.min(600, 706 * aspect) + 170) };
    },
    link: embedUrl,
    title: () => `Pathlab: ${app.algoLabel(app.lab.algorithm)} on ${app.mapTitle || app.mapName || (graph ? 'a graph' : 'hex tiles')}`,
    note: () => '',
  });
  const { section, dialog } = embedding;
  if (!embed) share.after(section);
  if (!embed) app.root.append(dialog);

  /** The embedded example's address: `{ url }` or `{ error }`. */
  function embedUrl({ lock, step, contrast, page }) {
    const config = app.currentConfig();
    if (!config.map && !config.graph && !config.grid) {
      return { error: `This ${what} is too large to go in a link: export it as a file, put it next to the course page and use map=FILE instead.` };
    }
    const params = new URLSearchParams(toQuery({ ...config, embed: false, lock: false, contrast: false }));
    if (step > 0) params.set('step', String(step));
    params.set('embed', '1');
    if (lock) params.set('lock', '1');
    if (contrast) params.set('contrast', '1');
    const url = new URL(page);
    url.search = params.toString().replaceAll('%2C', ',');
    const text = url.toString();
    if (text.length > MAX_EMBED_URL) return { error: `The embed code would be ${text.length.toLocaleString('en')} characters long, more than browsers take in an address.` };
    return { url: text };
  }

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
      embedding.destroy();
      dialog.remove();
      section.remove();
    },
  };
}
