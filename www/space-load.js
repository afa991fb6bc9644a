// What the pages of the lazily loaded spaces (space-view.js: hexes and graphs; navmesh-view.js:
// the navmesh and the corner graph) load the same way: the spaces' wasm module, space.css,
// the preset index, and grid map files read by the core's own parsers.

import initSpaces from './pkg/pathlab_spaces.js';
import { Lab } from './pkg/pathlab_wasm.js';
import { el } from './dom.js';

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
