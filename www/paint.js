// The grid painter. Each paint reads the Lab's per-cell buffers through typed-array views built
// on the wasm memory at that moment (never kept: memory may grow between calls), turns cells
// and states into one pixel per cell through a lookup table, scales that image up without
// smoothing (whole pixels per cell; a cell size between whole pixels, as a large map's fitted
// view has, averages the cells under each pixel by area: no moiré), and draws
// the path, markers and (on small grids) numbers and parent arrows on top, shifted by the
// view's (ox, oy) (zoom.js); the start and goal are pinned to the edge when out of view.
// Cell values and states are named by the wasm module's Terrain and CellState.

import { CellState, Terrain } from './pkg/pathlab_wasm.js';
import { PALETTE, HIGH_CONTRAST } from './palette.js';

export { PALETTE, HIGH_CONTRAST };

/**
 * How each overlay line and mark kind is drawn, and its legend label. Kinds are the names
 * the wasm layer gives (`Lab.overlay()`), so a new algorithm's overlay needs no new code here.
 */
export const OVERLAY_STYLE = {
  lines: {
    scan: { color: 'rgba(0, 114, 178, 0.55)', width: 1.5, dash: [4, 3], label: 'jump scan (nothing found)' },
    'scan-hit': { color: '#0072b2', width: 2.5, dash: [], label: 'jump scan to a jump point' },
    sight: { color: '#009e73', width: 1.5, dash: [], label: 'line of sight: clear' },
    blocked: { color: '#d55e00', width: 1.5, dash: [3, 3], label: 'line of sight: blocked' },
    rewire: { color: '#cc79a7', width: 3, dash: [], label: 'new parent (rewired)' },
    'raw-path': { color: 'rgba(47, 53, 66, 0.7)', width: 2, dash: [6, 4], label: 'path before smoothing' },
    trail: { color: '#d55e00', width: 2.5, dash: [], label: 'where the agent walked' },
    abstract: { color: 'rgba(86, 180, 233, 0.55)', width: 1, dash: [], label: 'abstract edge (between entrances)' },
    'abstract-path': { color: '#0072b2', width: 3, dash: [6, 4], label: 'abstract path, before refining' },
    heading: { color: 'rgba(0, 158, 115, 0.8)', width: 1.5, dash: [5, 4], label: 'straight line to the goal' },
  },
  marks: {
    forced: { color: '#d55e00', shape: 'ring', label: 'forced neighbour' },
    'jump-point': { color: '#0072b2', shape: 'diamond', label: 'jump point added' },
    meeting: { color: '#cc79a7', shape: 'star', label: 'where the frontiers meet' },
    stack: { color: '#2f3542', shape: 'dot', label: 'on the recursion stack' },
    agent: { color: '#d55e00', shape: 'agent', label: 'the agent' },
    entrance: { color: '#0072b2', shape: 'diamond', small: true, label: 'cluster entrance' },
    inconsistent: { color: '#cc79a7', shape: 'ring', small: true, label: 'g ≠ rhs: to be repaired' },
    discovered: { color: '#d55e00', shape: 'cross', label: 'wall the agent just saw' },
    revisited: { color: '#2f3542', shape: 'dot', label: 'stood on more than once' },
    'known-wall': { color: '#0072b2', shape: 'cross', small: true, label: 'wall the agent has seen (its mental map)' },
    junction: { color: '#009e73', shape: 'diamond', label: 'junction with an untried way (where it backs up to)' },
  },
  boxes: {
    cluster: { color: 'rgba(0, 114, 178, 0.45)', width: 1.5, dash: [], label: 'cluster' },
    sensor: { color: '#d55e00', width: 2, dash: [4, 3], label: 'what the agent can see' },
    lookahead: { color: '#009e73', width: 2, dash: [2, 3], label: 'look-ahead' },
  },
};

/** The legend, in the order shown; the page styles each swatch by its key. `only` lists the
 * algorithms (space-separated) an item is shown for. */
export const LEGEND = [
  { key: 'ground', label: 'ground', color: PALETTE.ground },
  { key: 'wall', label: 'wall', color: PALETTE.wall },
  { key: 'mud', label: 'mud (×3)', color: PALETTE.mud },
  { key: 'water', label: 'water (×5)', color: PALETTE.water },
  { key: 'open', label: 'open', color: PALETTE.open },
  { key: 'closed', label: 'closed', color: PALETTE.closed },
  { key: 'current', label: 'current', color: PALETTE.current },
  { key: 'path', label: 'path', color: PALETTE.path },
  { key: 'start', label: 'start', color: PALETTE.start },
  { key: 'goal', label: 'goal', color: PALETTE.goal },
  { key: 'openBack', label: 'open (backward)', color: PALETTE.openBack, only: 'bi-astar' },
  { key: 'closedBack', label: 'closed (backward)', color: PALETTE.closedBack, only: 'bi-astar' },
  { key: 'heat', label: 'learned h: low → high', color: 'linear-gradient(90deg, #fcfdbf, #b73779, #000004)', only: 'lrta rta' },
];

/**
 * What the painter draws for some algorithms only (paint-extras.js: overlays, LRTA*'s learned h,
 * JPS+'s jump distances), given by the page once the first grid is painted (useExtras).
 * @type {typeof import('./paint-extras.js') | null}
 */
let extras = null;

/** Gives every painter the drawing of paint-extras.js (`module`), from the next paint on. */
export function useExtras(module) {
  extras = module;
}

/** The parents' "none". */
const NO_PARENT = 0xffffffff;

export function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function mix(a, b, t) {
  return a.map((v, i) => Math.round(v * (1 - t) + b[i] * t));
}

/** Terrain colour of a cell value: wall, ground, mud up to water's cost, then water. */
function terrainColor(value, palette) {
  if (value === Terrain.Wall) return rgb(palette.wall);
  if (value === Terrain.Ground) return rgb(palette.ground);
  return rgb(value < Terrain.Water ? palette.mud : palette.water);
}

/** The colour of each search state but unseen, by CellState value (the spaces' painters use it too). */
export function stateColours(palette) {
  return {
    [CellState.Open]: palette.open,
    [CellState.Closed]: palette.closed,
    [CellState.Current]: palette.current,
    [CellState.Path]: palette.path,
    [CellState.OpenBack]: palette.openBack,
    [CellState.ClosedBack]: palette.closedBack,
  };
}

/** A table from (cell value << 3 | state) to a little-endian RGBA pixel. */
function buildLookup(palette) {
  const lut = new Uint32Array(256 * 8);
  const states = stateColours(palette);
  for (let value = 0; value < 256; value++) {
    const base = terrainColor(value, palette);
    for (let state = 0; state < 8; state++) {
      let c = base;
      if (value !== Terrain.Wall && states[state]) {
        // On terrain the state colour is mixed with the terrain so both stay readable.
        c = value === Terrain.Ground ? rgb(states[state]) : mix(rgb(states[state]), base, 0.45);
      }
      lut[(value << 3) | state] = (255 << 24) | (c[2] << 16) | (c[1] << 8) | c[0];
    }
  }
  return lut;
}

/** Inks terrain marks (the grid's and the hexes'): mud's dots filled, water's waves stroked `width` wide. */
export function inkTerrain(ctx, mud, water, width) {
  ctx.fillStyle = 'rgba(47, 53, 66, 0.42)';
  ctx.fill(mud);
  ctx.strokeStyle = 'rgba(255, 255, 255, 0.75)';
  ctx.lineWidth = width;
  ctx.lineCap = 'round';
  ctx.stroke(water);
}

/** Inks parent arrows (the grid's and the spaces'): shafts `lines` stroked `width` wide, `heads` filled. */
export function inkArrows(ctx, lines, heads, width) {
  ctx.strokeStyle = 'rgba(31, 36, 48, 0.6)';
  ctx.fillStyle = 'rgba(31, 36, 48, 0.6)';
  ctx.lineWidth = width;
  ctx.lineCap = 'round';
  ctx.stroke(lines);
  ctx.fill(heads);
}

/**
 * Draws the start (circle) or goal (diamond) marker of radius `r` at (x, y) with its letter, on
 * every page (Painter here; space-paint.js's painters). `style` is how it scales: `diamond` (the
 * diamond's half-diagonal per r), `line` and `minLine` (its white outline), `text` (the
 * letter's size per r) and `minText` (the smallest r that gets a letter).
 */
export function drawMarker(ctx, x, y, r, colour, letter, shape, style) {
  ctx.beginPath();
  if (shape === 'circle') {
    ctx.arc(x, y, r, 0, Math.PI * 2);
  } else {
    const d = r * style.diamond;
    ctx.moveTo(x, y - d);
    ctx.lineTo(x + d, y);
    ctx.lineTo(x, y + d);
    ctx.lineTo(x - d, y);
    ctx.closePath();
  }
  ctx.fillStyle = colour;
  ctx.fill();
  ctx.lineWidth = Math.max(style.minLine, r * style.line);
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
  if (r >= style.minText) {
    ctx.fillStyle = '#ffffff';
    ctx.font = `700 ${Math.round(r * style.text)}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(letter, x, y + r * 0.06);
  }
}

/** The cell size (device pixels) to draw at for `px`: whole pixels, or 1/k (k cells a pixel), at most `px`. */
export function cellSize(px) {
  return px >= 1 ? Math.floor(px) : 1 / Math.ceil(1 / px - 1e-9);
}

/** A fitted cell size whose whole-pixel size (cellSize) would lose more room than this share
 * is drawn at its exact size instead, resampled by area (zoom.js's shrink): a 512-cell map in
 * 490 pixels fills them instead of 256. */
const FIT_LOSS = 0.1;

/**
 * The cell size (device pixels) that fits `px` pixels of room a cell: cellSize's whole pixels
 * (or 1/k), crisp, when they lose little room or cells are large enough to show grid lines;
 * else `px` itself, fractional, so that a large map fills its box.
 */
export function fitSize(px) {
  const clean = cellSize(px);
  return clean >= 6 || clean >= px * (1 - FIT_LOSS) ? clean : px;
}

/** True when cells of `cs` device pixels are drawn as whole pixels each (no resampling). */
export function wholePixels(cs) {
  return cs >= 1 && Number.isInteger(cs);
}

/** A number for a cell label: whole numbers as they are, others to one decimal. */
function short(v) {
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

export class Painter {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d', { alpha: false });
    this.setPalette(PALETTE);
    this.image = null;
    this.off = null;
    this.cellPx = 1;
    // The fitted cell size (resize), and where the map's top-left is on the canvas (zoom.js).
    this.fitPx = 1;
    this.ox = 0;
    this.oy = 0;
    // zoom.js's hooks: after a resize, over a paint, and a map under a pixel a cell.
    /** @type {(() => void) | null} */
    this.onResize = null;
    /** @type {(() => void) | null} */
    this.after = null;
    /** @type {((pixels: Uint32Array, w: number, h: number, rows: number[] | null) => CanvasImageSource) | null} */
    this.shrink = null;
    this.dpr = 1;
  }

  /** Paints with `palette` (PALETTE or HIGH_CONTRAST) from the next paint on. */
  setPalette(palette) {
    this.palette = palette;
    this.lut = buildLookup(palette);
    // Numbers go in white on state colours too dark for black text (relative luminance).
    const lum = (hex) => rgb(hex).reduce((sum, v, k) => {
      const c = v / 255;
      return sum + [0.2126, 0.7152, 0.0722][k] * (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    }, 0);
    const states = { [CellState.Unseen]: palette.ground, ...stateColours(palette) };
    this.lightText = [];
    for (const [s, c] of Object.entries(states)) this.lightText[Number(s)] = Number(s) === CellState.Current || lum(c) < 0.18;
  }

  /**
   * Sizes the canvas for a w x h grid to fit `maxCssWidth` x `maxCssHeight` CSS pixels with
   * square cells of `fitSize`, so that every cell takes the same share of the screen.
   */
  resize(w, h, maxCssWidth, maxCssHeight, dpr) {
    let cellPx = fitSize(Math.max(0.25, Math.min(maxCssWidth / w, maxCssHeight / h)) * dpr);
    const fractional = cellPx !== cellSize(cellPx);
    // A fractional size fills the room to the last whole pixel, and never past it: the map's
    // side along the tighter axis is then exactly a whole number of pixels.
    if (fractional) {
      const n = maxCssWidth / w <= maxCssHeight / h ? w : h;
      cellPx = Math.floor(cellPx * n + 1e-6) / n;
    }
    const edge = fractional ? (v) => Math.floor(v + 1e-6) : Math.round;
    const width = Math.max(1, edge(cellPx * w));
    const height = Math.max(1, edge(cellPx * h));
    if (this.canvas.width !== width) this.canvas.width = width;
    if (this.canvas.height !== height) this.canvas.height = height;
    this.canvas.style.width = `${width / dpr}px`;
    this.canvas.style.height = `${height / dpr}px`;
    // The room it was given (CSS pixels), for tests and tools: the fitted map fills it.
    this.canvas.dataset.room = `${Math.floor(maxCssWidth)}x${Math.floor(maxCssHeight)}`;
    this.cellPx = this.fitPx = cellPx;
    this.ox = this.oy = 0;
    this.dpr = dpr;
    this.onResize?.();
  }

  /** Cell under a pointer event: integer `x`, `y` and fractional `fx`, `fy` in cells (at any zoom). */
  cellAt(event) {
    const rect = this.canvas.getBoundingClientRect();
    const scale = this.canvas.width / rect.width / this.cellPx;
    const fx = (event.clientX - rect.left) * scale - this.ox / this.cellPx;
    const fy = (event.clientY - rect.top) * scale - this.oy / this.cellPx;
    return { x: Math.floor(fx), y: Math.floor(fy), fx, fy };
  }

  /** The cells in view: [x0, y0, x1, y1), within a w x h map. */
  inView(w, h) {
    const cs = this.cellPx;
    const x0 = Math.max(0, Math.floor(-this.ox / cs));
    const y0 = Math.max(0, Math.floor(-this.oy / cs));
    return [x0, y0, Math.min(w, Math.ceil((this.canvas.width - this.ox) / cs)), Math.min(h, Math.ceil((this.canvas.height - this.oy) / cs))];
  }

  /** True when cells are large enough to print g, h and f. */
  numbersShown(n) {
    return this.cellPx >= 52 * this.dpr && n <= 4096;
  }

  /** Radius of the start and goal markers, in cells: small beside numbers, never tiny. */
  markerRadius(n = 0) {
    if (n && this.numbersShown(n)) return 0.2;
    return Math.max(0.4, (10 * this.dpr) / this.cellPx);
  }

  /**
   * Paints the Lab. `view` = { hover: {x, y} | null, algo, weight, layers: [{ under(painter), over(painter) }] }.
   */
  paint(lab, memory, view) {
    const { ctx } = this;
    const w = lab.width;
    const h = lab.height;
    const n = w * h;
    const cs = this.cellPx;
    const numbers = this.numbersShown(n);
    const arrows = cs >= 22 * this.dpr && n <= 16384;
    const usesH = view.usesHeuristic ?? (view.algo === 'astar' || view.algo === 'greedy');
    this.cellCount = n;

    // Pointers first (hPtr may allocate), then the views on the memory as it is now.
    const hPtr = numbers && usesH ? lab.hPtr() : 0;
    const buffer = memory.buffer;
    this.memoryBuffer = buffer;
    const cells = new Uint8Array(buffer, lab.cellsPtr(), n);
    const states = new Uint8Array(buffer, lab.statesPtr(), n);
    const pathLength = lab.pathLength;
    const path = new Uint32Array(buffer, lab.pathPtr(), pathLength);

    if (!this.image || this.image.width !== w || this.image.height !== h) {
      this.image = new ImageData(w, h);
      this.off = document.createElement('canvas');
      this.off.width = w;
      this.off.height = h;
      this.seen = null;
    }
    const pixels = new Uint32Array(this.image.data.buffer);
    const rows = this.fillPixels(cells, states, pixels, w, n, Boolean(view.heat || view.fog));
    if (view.heat) extras?.heat(this, lab, n, cells, states, pixels);
    if (view.fog) extras?.fog(this, lab, n, pixels);
    if (rows) this.off.getContext('2d').putImageData(this.image, 0, 0, 0, rows[0], w, rows[1] - rows[0]);
    ctx.setTransform(1, 0, 0, 1, this.ox, this.oy);
    // Cells that are not whole pixels (under a pixel a cell, or a fitted size between whole
    // pixels): zoom.js's shrink averages the cells under each pixel (until it comes, smoothing).
    const shrink = !wholePixels(cs) && this.shrink;
    ctx.imageSmoothingEnabled = !wholePixels(cs) && !shrink;
    if (shrink) ctx.drawImage(shrink(pixels, w, h, rows), 0, 0);
    else ctx.drawImage(this.off, 0, 0, w, h, 0, 0, w * cs, h * cs);

    if (cs >= 6) this.gridLines(w, h);
    if (cs >= 8) this.terrainMarks(w, h, cells);
    // Layers of deferred modules (links.js: heights under the numbers, teleports over the path).
    for (const layer of view.layers ?? []) layer.under?.(this);
    if (arrows || numbers) {
      const g = new Float64Array(buffer, lab.gPtr(), n);
      const parents = new Uint32Array(buffer, lab.parentsPtr(), n);
      if (arrows) this.parentArrows(w, n, states, parents, numbers);
      if (numbers && !lab.cellTablePerCell()) {
        const hv = hPtr ? new Float64Array(buffer, hPtr, n) : null;
        this.cellNumbers(w, n, states, g, hv, view);
      }
    }
    if (numbers) extras?.cellTable(this, lab, w, n);
    if (view.overlay) extras?.overlay(this, view.overlay);
    if (pathLength > 1) this.pathLine(w, path);
    for (const layer of view.layers ?? []) layer.over?.(this);
    if (view.hover && view.hover.x < w && view.hover.y < h) this.hoverBox(view.hover);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    this.after?.();
    this.marker(lab.startX, lab.startY, this.palette.start, 'S', 'circle');
    this.marker(lab.goalX, lab.goalY, this.palette.goal, 'G', 'diamond');
  }

  /**
   * Turns cells and states into pixels through the lookup table. Only cells whose value or
   * state changed since the last paint are looked up again, four at a time (a search step
   * changes a handful of cells, a 1024 x 1024 map has a million); `all` redoes every cell.
   * Returns the rows [first, end) that changed, or null when none did.
   */
  fillPixels(cells, states, pixels, w, n, all) {
    const lut = this.lut;
    const seen = this.seen;
    const aligned = cells.byteOffset % 4 === 0 && states.byteOffset % 4 === 0;
    if (all || !aligned || !seen || seen.lut !== lut || seen.cells.length !== n) {
      for (let i = 0; i < n; i++) pixels[i] = lut[(cells[i] << 3) | (states[i] & 7)];
      // After a heat map (drawn over these pixels) the next paint redoes every cell too.
      this.seen = all ? null : { lut, cells: cells.slice(), states: states.slice() };
      return n ? [0, n / w] : null;
    }
    const words = n >>> 2;
    const c32 = new Uint32Array(cells.buffer, cells.byteOffset, words);
    const s32 = new Uint32Array(states.buffer, states.byteOffset, words);
    const seenCells = new Uint32Array(seen.cells.buffer, 0, words);
    const seenStates = new Uint32Array(seen.states.buffer, 0, words);
    let first = n;
    let last = -1;
    for (let k = 0; k < words; k++) {
      if (c32[k] === seenCells[k] && s32[k] === seenStates[k]) continue;
      seenCells[k] = c32[k];
      seenStates[k] = s32[k];
      const i = k << 2;
      for (let j = i; j < i + 4; j++) pixels[j] = lut[(cells[j] << 3) | (states[j] & 7)];
      if (first === n) first = i;
      last = i + 3;
    }
    for (let i = words << 2; i < n; i++) {
      if (cells[i] === seen.cells[i] && states[i] === seen.states[i]) continue;
      seen.cells[i] = cells[i];
      seen.states[i] = states[i];
      pixels[i] = lut[(cells[i] << 3) | (states[i] & 7)];
      if (first === n) first = i;
      last = i;
    }
    return last < 0 ? null : [Math.floor(first / w), Math.floor(last / w) + 1];
  }

  gridLines(w, h) {
    const { ctx } = this;
    const cs = this.cellPx;
    const [x0, y0, x1, y1] = this.inView(w, h);
    ctx.beginPath();
    for (let x = Math.max(1, x0); x < x1; x++) {
      const px = Math.round(x * cs) + 0.5;
      ctx.moveTo(px, y0 * cs);
      ctx.lineTo(px, y1 * cs);
    }
    for (let y = Math.max(1, y0); y < y1; y++) {
      const py = Math.round(y * cs) + 0.5;
      ctx.moveTo(x0 * cs, py);
      ctx.lineTo(x1 * cs, py);
    }
    ctx.strokeStyle = this.palette.gridLine;
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  /**
   * An arrow from each reached cell's centre towards its parent, as in the course's figures.
   * `short` keeps it clear of the numbers in the corners.
   */
  parentArrows(w, n, states, parents, short) {
    const { ctx } = this;
    const cs = this.cellPx;
    const from = short ? 0.02 : 0.08;
    const tip = short ? 0.24 : 0.38;
    const head = short ? 0.07 : 0.1;
    const lines = new Path2D();
    const heads = new Path2D();
    for (let i = 0; i < n; i++) {
      const p = parents[i];
      if (p === NO_PARENT || states[i] === CellState.Unseen) continue;
      const x = (i % w) + 0.5;
      const y = Math.floor(i / w) + 0.5;
      let dx = (p % w) + 0.5 - x;
      let dy = Math.floor(p / w) + 0.5 - y;
      const len = Math.hypot(dx, dy);
      dx /= len;
      dy /= len;
      const tx = (x + dx * tip) * cs;
      const ty = (y + dy * tip) * cs;
      const bx = tx - dx * head * cs;
      const by = ty - dy * head * cs;
      lines.moveTo((x + dx * from) * cs, (y + dy * from) * cs);
      lines.lineTo(bx, by);
      heads.moveTo(tx, ty);
      heads.lineTo(bx - dy * head * 0.6 * cs, by + dx * head * 0.6 * cs);
      heads.lineTo(bx + dy * head * 0.6 * cs, by - dx * head * 0.6 * cs);
      heads.closePath();
    }
    inkArrows(ctx, lines, heads, Math.max(1, cs * 0.03));
  }

  /** Marks on terrain cells in view, so mud and water read without colour and under the search's: dots and waves. */
  terrainMarks(w, h, cells) {
    const { ctx } = this;
    const cs = this.cellPx;
    const mud = new Path2D();
    const water = new Path2D();
    const r = Math.max(0.8, cs * 0.045);
    const [x0, y0, x1, y1] = this.inView(w, h);
    for (let i = y0 * w + x0; i < (y1 - 1) * w + x1; i++) {
      const v = cells[i];
      if (v < 2 || i % w < x0 || i % w >= x1) continue;
      const x = (i % w) * cs;
      const y = Math.floor(i / w) * cs;
      if (v < 5) {
        for (const [u, t] of [[0.28, 0.3], [0.72, 0.42], [0.4, 0.72]]) {
          mud.moveTo(x + u * cs + r, y + t * cs);
          mud.arc(x + u * cs, y + t * cs, r, 0, Math.PI * 2);
        }
      } else {
        for (const t of [0.36, 0.66]) {
          water.moveTo(x + 0.2 * cs, y + t * cs);
          water.quadraticCurveTo(x + 0.35 * cs, y + (t - 0.1) * cs, x + 0.5 * cs, y + t * cs);
          water.quadraticCurveTo(x + 0.65 * cs, y + (t + 0.1) * cs, x + 0.8 * cs, y + t * cs);
        }
      }
    }
    inkTerrain(ctx, mud, water, Math.max(1, cs * 0.04));
  }

  /** g, h and f in the corners of each reached cell, as in the course's worked examples. */
  cellNumbers(w, n, states, g, hv, view) {
    const { ctx } = this;
    const cs = this.cellPx;
    const pad = cs * 0.07;
    const big = Math.round(cs * 0.22);
    const small = Math.round(cs * 0.16);
    for (let i = 0; i < n; i++) {
      const s = states[i];
      if (s === CellState.Unseen || !Number.isFinite(g[i])) continue;
      const x = (i % w) * cs;
      const y = Math.floor(i / w) * cs;
      ctx.fillStyle = this.lightText[s] ? '#ffffff' : this.palette.text;
      let key = g[i];
      if (hv && view.algo === 'astar') key = g[i] + view.weight * hv[i];
      else if (hv) key = hv[i];
      ctx.font = `600 ${big}px system-ui, sans-serif`;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(short(key), x + pad, y + pad);
      if (!hv) continue;
      ctx.font = `${small}px system-ui, sans-serif`;
      ctx.textBaseline = 'bottom';
      ctx.fillText(`g ${short(g[i])}`, x + pad, y + cs - pad);
      ctx.textAlign = 'right';
      ctx.fillText(`h ${short(hv[i])}`, x + cs - pad, y + cs - pad);
    }
  }









  pathLine(w, path) {
    const { ctx } = this;
    const cs = this.cellPx;
    const width = Math.min(7 * this.dpr, Math.max(2.5 * this.dpr, cs * 0.16));
    ctx.beginPath();
    for (let k = 0; k < path.length; k++) {
      const i = path[k];
      const x = ((i % w) + 0.5) * cs;
      const y = (Math.floor(i / w) + 0.5) * cs;
      if (k === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
    ctx.lineWidth = width + 2.5 * this.dpr;
    ctx.stroke();
    ctx.strokeStyle = this.palette.pathLine;
    ctx.lineWidth = width;
    ctx.stroke();
  }

  /** The start or goal marker, on screen coordinates, pinned to the edge when out of view. */
  marker(cx, cy, color, letter, shape) {
    const cs = this.cellPx;
    const r = this.markerRadius(this.cellCount) * cs;
    const { width, height } = this.canvas;
    const pin = (v, o, size) => Math.min(Math.max(v * cs + o, Math.min(r, size / 2)), Math.max(size - r, size / 2));
    drawMarker(this.ctx, pin(cx + 0.5, this.ox, width), pin(cy + 0.5, this.oy, height), r, color, letter, shape, {
      diamond: 1.12, minLine: 1.5 * this.dpr, line: 0.12, minText: 7 * this.dpr, text: 1.05,
    });
  }

  hoverBox({ x, y }) {
    const { ctx } = this;
    const cs = this.cellPx;
    const size = Math.max(cs, 8 * this.dpr);
    const px = (x + 0.5) * cs - size / 2;
    const py = (y + 0.5) * cs - size / 2;
    // A dark ring inside a light one, so the box shows on walls and on ground alike.
    const line = Math.max(2, cs * 0.05);
    ctx.lineWidth = line;
    ctx.strokeStyle = '#ffffff';
    ctx.strokeRect(px + line / 2, py + line / 2, size - line, size - line);
    ctx.strokeStyle = this.palette.hover;
    ctx.strokeRect(px + line * 1.5, py + line * 1.5, size - line * 3, size - line * 3);
  }
}
