// What the pages of the lazily loaded spaces (space-view.js: hexes and graphs; navmesh-view.js:
// the navmesh and the corner graph) share: loading the spaces' wasm module, space.css, the
// preset index and grid map files (read by the core's own parsers), and the page parts they
// build and tear down the same way (canvas, legend, sizing, stopping).

import initSpaces, { statusName } from './pkg/pathlab_spaces.js';
import { Lab } from './pkg/pathlab_wasm.js';
import { controls, el, options } from './dom.js';
import { SPACES } from './config.js';
import { SearchPage, searchInputs, selectMaker } from './page-app.js';
import { HIGH_CONTRAST, PALETTE } from './paint.js';
import { SPACE_LABELS } from './pathlab.js';

/** Where the presets live: next to this module, so an embedding page may sit anywhere. */
export const MAPS = new URL('./maps/', import.meta.url);

/** Loads and starts the spaces' wasm module (pathlab_spaces) once per page; resolves to its exports. */
let spacesReady = null;
export function loadSpaces() {
  spacesReady ??= initSpaces();
  return spacesReady;
}

/** Loads space.css once per page; resolves when it applies (or failed to load). */
let styleReady = null;
export function loadStyle() {
  styleReady ??= new Promise((resolve) => {
    const href = new URL('./space.css', import.meta.url).href;
    if ([.../** @type {NodeListOf<HTMLLinkElement>} */ (document.querySelectorAll('link[rel="stylesheet"]'))].some((l) => l.href === href)) {
      resolve();
      return;
    }
    const link = el('link', { rel: 'stylesheet', href });
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => resolve());
    document.head.append(link);
  });
  return styleReady;
}

/** The preset index: grid presets (`presets`) and graph presets (`graphs`). */
export async function loadIndex() {
  const response = await fetch(new URL('presets.json', MAPS));
  if (!response.ok) throw new Error(`the preset list maps/presets.json could not be loaded (HTTP ${response.status})`);
  const index = await response.json();
  const valid = (p) => typeof p?.name === 'string' && typeof p?.file === 'string';
  return {
    presets: (Array.isArray(index?.presets) ? index.presets : []).filter(valid),
    graphs: (Array.isArray(index?.graphs) ? index.graphs : []).filter(valid),
  };
}

/**
 * A grid map's cells as the hex view takes them: `{ width, height, cells, start, goal }`,
 * read by the core's own parsers (a Lab used once), with a preset's terrain and ends applied.
 */
export function readGridMap(memory, text, format, preset) {
  const lab = new Lab(2, 2);
  try {
    if (format === 'movingai') lab.loadMovingAi(text);
    else lab.loadCourse(text);
    return gridOf(memory, lab, preset);
  } finally {
    lab.free();
  }
}

function gridOf(memory, lab, preset) {
  const width = lab.width;
  const height = lab.height;
  const cells = new Uint8Array(memory.buffer, lab.cellsPtr(), width * height).slice();
  const out = { width, height, cells, start: [lab.startX, lab.startY], goal: [lab.goalX, lab.goalY] };
  if (preset) {
    for (const r of Array.isArray(preset.terrain) ? preset.terrain : []) {
      for (let y = r.y; y < Math.min(height, r.y + r.h); y++) {
        for (let x = r.x; x < Math.min(width, r.x + r.w); x++) out.cells[y * width + x] = r.value;
      }
    }
    if (Array.isArray(preset.start)) out.start = preset.start;
    if (Array.isArray(preset.goal)) out.goal = preset.goal;
  }
  return out;
}

// ---- page parts the space views share ------------------------------------------------------

/**
 * Starts a space view (`page`: a SpaceApp or NavApp): the spaces' module and space.css, then
 * the preset index into `page.index` (a failure is said on the page), and fills the map select
 * with `pick(index)`'s presets.
 */
export async function startSpacePage(page, pick) {
  const [spaces] = await Promise.all([loadSpaces(), loadStyle()]);
  page.spaceMemory = spaces.memory;
  try {
    page.index = await loadIndex();
  } catch (e) {
    page.say(e.message);
  }
  const list = pick(page.index);
  options(page.ui.map, list.map((p) => p.name), Object.fromEntries(list.map((p) => [p.name, p.title ?? p.name])));
  return list;
}

/**
 * The controls every space view makes first, kept in a new `page.ui`: the message hooks, the
 * speed and weight inputs, the space select on `page.space`, and the map select (`mapLabel`).
 * Sets the page's canvas (`data-testid="grid"`, focusable, read out as `label`); returns the
 * `ui` with dom.js's `button`, `readout` and page-app.js's `select` makers for it.
 */
export function spaceControls(page, label, mapLabel) {
  /** @type {Record<string, any>} */
  const ui = {};
  page.ui = ui;
  ui.message = page.notes.list;
  ui.messageBox = page.notes.box;
  searchInputs(ui, page.config.speed);
  ui.space = el('select', { testid: 'space', 'aria-label': 'Space' });
  options(ui.space, SPACES, SPACE_LABELS);
  ui.space.value = page.space;
  ui.map = el('select', { testid: 'map', 'aria-label': mapLabel });
  page.canvas = el('canvas', { testid: 'grid', class: 'pl-canvas', tabindex: '0', 'data-space': page.space, 'aria-label': label });
  return { ui, ...controls(ui), select: selectMaker(ui) };
}

/** The legend: `[key, label, colour]` items, each with its swatch. */
export function legendList(items) {
  return el(
    'ul',
    { class: 'pl-legend', testid: 'legend' },
    ...items.map(([key, label, colour]) =>
      el('li', {}, el('span', { class: `pl-swatch pl-swatch-${key}`, style: `--swatch: ${colour}` }), label)),
  );
}

/**
 * Sizes `page.painter` to the canvas's box (`page.ui.wrap`) and what is left of the window
 * above `below` pixels (at least `floor`); does nothing when the size is the same unless `force`.
 */
export function fitPainter(page, below, floor, force) {
  const wrap = page.ui.wrap;
  const width = wrap.clientWidth;
  if (!width || !page.lab) return;
  const top = wrap.getBoundingClientRect().top + window.scrollY;
  const maxHeight = Math.max(floor, window.innerHeight - Math.min(top, 200) - below);
  const dpr = window.devicePixelRatio || 1;
  const key = `${width}x${maxHeight}@${dpr}`;
  if (key === page.lastSize && !force) return;
  page.lastSize = key;
  page.painter.resize(width, maxHeight, dpr);
  page.dirty = true;
}

/**
 * What every view on the spaces' module starts with (space-view.js's graphs and hexes,
 * navmesh-view.js's navmesh and corners): its space, no lab until the module is loaded, the
 * index of presets and graphs, and the palette (high contrast with `contrast`).
 */
export class SpacePage extends SearchPage {
  constructor(root, memory, known, config) {
    super(root, memory, known, config, statusName);
    this.space = config.space;
    this.lab = null;
    /**
     * The spaces' wasm memory, once start() has loaded the module.
     * @type {any}
     */
    this.spaceMemory = null;
    this.index = { presets: [], graphs: [] };
    this.palette = config.contrast ? HIGH_CONTRAST : PALETTE;
    /**
     * The view's canvas (made by spaceControls).
     * @type {HTMLCanvasElement}
     */
    this.canvas = null;
  }
}

/** What every space view undoes when it goes: the frame loop, listeners, its DOM and its lab. */
export function stopSpacePage(page) {
  page.stopLoop();
  page.setPlaying(false);
  page.resizeObserver.disconnect();
  window.removeEventListener('resize', page.onWindowResize);
  page.root.removeEventListener('keydown', page.onKey);
  page.root.classList.remove('pl-space', `pl-space-${page.space}`);
  page.root.replaceChildren();
  page.lab?.free();
  page.lab = null;
}
