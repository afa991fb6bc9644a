// Painting any crowd scene on a 2D canvas from the views of its Frame (see crates/pathlab-core/
// src/crowd/scene.rs): a cached image of the grid (ground, terrain, walls; one pixel per cell,
// scaled up), the heat layer, cell marks, per-cell direction arrows (only when a cell is at
// least MIN_ARROW_CELL CSS pixels wide; a finer grid would be a smear), overlay polygons,
// circles and lines by Ink, then the agents coloured by kind (discs with a heading tick when
// they are big enough on screen, triangles otherwise) and the selected agent's highlight.
// Colours come from Okabe and Ito's palette (paint.js PALETTE and the boid species colours).

import { WorldView } from './world-view.js';
import { PALETTE } from './palette.js';
import { SPECIES_COLOURS } from './boids-draw.js';

/** Kind colours: the boid species' four, then the rest of Okabe and Ito's palette. */
export const KIND_COLOURS = [...SPECIES_COLOURS, '#e69f00', '#56b4e9', '#f0e442', '#000000'];

/**
 * How each ink is drawn, by the core's ink name: colour, dash (lines), width (CSS px), fill
 * (alpha for polygons, circles and cell marks), outline (cell marks also get a frame). Inks
 * added to the core later get FALLBACK.
 */
export const INK_STYLES = {
  velocity: { colour: '#0072b2', width: 2, arrow: true },
  preferred: { colour: '#56b4e9', width: 2, dash: [5, 4], arrow: true },
  chosen: { colour: '#009e73', width: 3, arrow: true },
  cone: { colour: '#d55e00', width: 1, fill: 0.16 },
  'half-plane': { colour: '#cc79a7', width: 2 },
  reach: { colour: '#5b6473', width: 1, dash: [3, 3] },
  goal: { colour: '#e69f00', width: 2.5, fill: 0.3 },
  route: { colour: '#009e73', width: 2, dash: [6, 4] },
  slot: { colour: '#0072b2', width: 1.5, dash: [2, 3], fill: 0.12 },
  link: { colour: '#6b6b6b', width: 1 },
  wavefront: { colour: '#56b4e9', width: 2, fill: 0.45 },
  // Cell flags stand out from the heat scale (yellow to dark red): purple and green, outlined.
  suboptimal: { colour: '#cc79a7', width: 2, fill: 0.75, outline: true },
  changed: { colour: '#009e73', width: 2, fill: 0.5, outline: true },
  nest: { colour: '#cc79a7', width: 2, fill: 0.3 },
  stop: { colour: '#d55e00', width: 3, fill: 0.55 },
  go: { colour: '#009e73', width: 3, fill: 0.55 },
  zone: { colour: '#e69f00', width: 1.5, dash: [4, 4], fill: 0.18 },
  caution: { colour: '#e69f00', width: 3, fill: 0.55 },
  body: { colour: '#d55e00', width: 1.5, fill: 0.45 },
};

const FALLBACK = ['#000000', '#e69f00', '#56b4e9', '#009e73', '#0072b2', '#d55e00', '#cc79a7'];

/** The style of ink `value` whose name is `name`. */
export function inkStyle(name, value) {
  return INK_STYLES[name] ?? { colour: FALLBACK[value % FALLBACK.length], width: 1.5, fill: 0.25 };
}

/** The heat layer's colour scale, low to high (a sequential scale readable in grey too). */
export const HEAT_STOPS = [
  [255, 247, 214],
  [240, 228, 66],
  [230, 159, 0],
  [213, 94, 0],
  [96, 30, 60],
];

/** The CSS gradient of the heat scale, for the legend. */
export const HEAT_GRADIENT = `linear-gradient(90deg, ${HEAT_STOPS.map((c) => `rgb(${c.join(', ')})`).join(', ')})`;

/** Cells narrower than this many CSS pixels get no direction arrows. */
export const MIN_ARROW_CELL = 12;

/** The steps (dx, dy) of directions 0-7 (the core's flow order: N, E, S, W, NE, SE, SW, NW). */
const STEPS = [[0, -1], [1, 0], [0, 1], [-1, 0], [1, -1], [1, 1], [-1, 1], [-1, -1]];

function rgb(hex) {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

const WALL = rgb(PALETTE.wall);
const GROUND = rgb(PALETTE.ground);
const MUD = rgb(PALETTE.mud);

/** The heat colour of t in [0, 1]. */
function heat(t) {
  const x = Math.min(1, Math.max(0, t)) * (HEAT_STOPS.length - 1);
  const i = Math.min(HEAT_STOPS.length - 2, Math.floor(x));
  const f = x - i;
  const a = HEAT_STOPS[i];
  const b = HEAT_STOPS[i + 1];
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

/** A 32-bit FNV-1a hash of bytes, to notice a grid that changed. */
function hashBytes(bytes) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

export class CrowdPainter extends WorldView {
  constructor(canvas) {
    super(canvas);
    this.gridImage = document.createElement('canvas');
    this.gridKey = '';
    this.heatImage = document.createElement('canvas');
    this.marksImage = document.createElement('canvas');
    /** What the last frame drew, for the legend and the tests. */
    this.drawn = { arrows: false, inks: new Set(), lines: 0, circles: 0, polygons: 0, marks: 0 };
  }

  /** Redraws the cached grid image when the cells changed (0 wall, 1 ground, more: terrain). */
  updateGrid(cells, gw, gh) {
    const key = `${gw}x${gh}:${hashBytes(cells)}`;
    if (key === this.gridKey) return;
    this.gridKey = key;
    let maxCost = 1;
    for (let i = 0; i < cells.length; i++) if (cells[i] > maxCost) maxCost = cells[i];
    this.gridImage.width = gw;
    this.gridImage.height = gh;
    const g = this.gridImage.getContext('2d');
    const image = g.createImageData(gw, gh);
    const px = image.data;
    for (let i = 0; i < gw * gh; i++) {
      const v = cells[i];
      // Terrain from ground towards mud brown with its cost.
      const c = v === 0 ? WALL : v === 1 ? GROUND : GROUND.map((q, k) => q + (MUD[k] - q) * (0.35 + (0.65 * (v - 1)) / Math.max(1, maxCost - 1)));
      px.set([c[0], c[1], c[2], 255], i * 4);
    }
    g.putImageData(image, 0, 0);
  }

  /** A gw x gh image of per-cell values painted by `colour(value) -> [r, g, b, a] | null`. */
  cellImage(canvas, values, gw, gh, colour) {
    canvas.width = gw;
    canvas.height = gh;
    const g = canvas.getContext('2d');
    const image = g.createImageData(gw, gh);
    const px = image.data;
    for (let i = 0; i < gw * gh; i++) {
      const c = colour(values[i]);
      if (c) px.set(c, i * 4);
    }
    g.putImageData(image, 0, 0);
    return canvas;
  }

  /**
   * Paints a frame. `s` holds: width, height (world units), gridWidth, gridHeight, cellSize,
   * cells (Uint8Array view), the frame's views by field name (x, y, hx, hy, radius, kind,
   * layer, directions, cellMarks, lines, lineInk, circles, circleInk, polygonPoints,
   * polygonLen, polygonInk), layerMax, inks (names by value), selected (index or -1),
   * cursor ({x, y} world point or null).
   */
  frame(s) {
    const ctx = this.ctx;
    const k = this.scale;
    const W = this.canvas.width;
    const H = this.canvas.height;
    const gw = s.gridWidth;
    const gh = s.gridHeight;
    const drawn = { arrows: false, inks: new Set(), lines: 0, circles: 0, polygons: 0, marks: 0 };
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.fillStyle = PALETTE.ground;
    ctx.fillRect(0, 0, W, H);
    this.updateGrid(s.cells, gw, gh);
    const cellPx = s.cellSize * k;
    const gridW = gw * cellPx;
    const gridH = gh * cellPx;
    ctx.drawImage(this.gridImage, 0, 0, gridW, gridH);

    // Heat layer (walls stay dark: they are drawn again over it).
    if (s.layer.length === gw * gh && s.layerMax > 0) {
      const max = s.layerMax;
      this.cellImage(this.heatImage, s.layer, gw, gh, (v) => {
        if (!Number.isFinite(v)) return null;
        const c = heat(v / max);
        return [c[0], c[1], c[2], 190];
      });
      ctx.drawImage(this.heatImage, 0, 0, gridW, gridH);
      this.cellImage(this.marksImage, s.cells, gw, gh, (v) => (v === 0 ? [WALL[0], WALL[1], WALL[2], 255] : null));
      ctx.drawImage(this.marksImage, 0, 0, gridW, gridH);
    }

    // Cell marks.
    if (s.cellMarks.length === gw * gh) {
      const seen = new Set();
      this.cellImage(this.marksImage, s.cellMarks, gw, gh, (v) => {
        if (v === 0) return null;
        seen.add(v);
        const st = inkStyle(s.inks[v], v);
        return [...rgb(st.colour), Math.round(255 * (st.fill ?? 0.4))];
      });
      ctx.drawImage(this.marksImage, 0, 0, gridW, gridH);
      // Inks with `outline` also get a frame on each cell, when cells are big enough to see it.
      const framed = [...seen].filter((v) => inkStyle(s.inks[v], v).outline);
      if (framed.length && cellPx / this.dpr >= 6) {
        ctx.lineWidth = 2 * this.dpr;
        for (let i = 0; i < s.cellMarks.length; i++) {
          const v = s.cellMarks[i];
          if (v === 0 || !framed.includes(v)) continue;
          ctx.strokeStyle = inkStyle(s.inks[v], v).colour;
          ctx.strokeRect((i % gw) * cellPx + this.dpr, Math.floor(i / gw) * cellPx + this.dpr, cellPx - 2 * this.dpr, cellPx - 2 * this.dpr);
        }
      }
      for (const v of seen) drawn.inks.add(v);
      drawn.marks = seen.size;
    }

    // Direction arrows, only when a cell is big enough on screen.
    if (s.directions.length === gw * gh && cellPx / this.dpr >= MIN_ARROW_CELL) {
      drawn.arrows = true;
      ctx.strokeStyle = 'rgba(31, 36, 48, 0.55)';
      ctx.lineWidth = Math.max(1, this.dpr);
      ctx.beginPath();
      const len = cellPx * 0.34;
      for (let cy = 0; cy < gh; cy++) {
        for (let cx = 0; cx < gw; cx++) {
          const d = s.directions[cy * gw + cx];
          if (d > 7) continue;
          const [dx, dy] = STEPS[d];
          const n = Math.hypot(dx, dy);
          const ux = dx / n;
          const uy = dy / n;
          const x = (cx + 0.5) * cellPx;
          const y = (cy + 0.5) * cellPx;
          const tx = x + ux * len;
          const ty = y + uy * len;
          ctx.moveTo(x - ux * len, y - uy * len);
          ctx.lineTo(tx, ty);
          const head = len * 0.55;
          ctx.moveTo(tx, ty);
          ctx.lineTo(tx - head * (ux * 0.8 - uy * 0.55), ty - head * (uy * 0.8 + ux * 0.55));
          ctx.moveTo(tx, ty);
          ctx.lineTo(tx - head * (ux * 0.8 + uy * 0.55), ty - head * (uy * 0.8 - ux * 0.55));
        }
      }
      ctx.stroke();
    }

    // Polygons.
    let at = 0;
    for (let p = 0; p < s.polygonLen.length; p++) {
      const n = s.polygonLen[p];
      const v = s.polygonInk[p];
      if (n >= 3 && 2 * (at + n) <= s.polygonPoints.length) {
        const st = inkStyle(s.inks[v], v);
        ctx.beginPath();
        ctx.moveTo(s.polygonPoints[2 * at] * k, s.polygonPoints[2 * at + 1] * k);
        for (let i = 1; i < n; i++) ctx.lineTo(s.polygonPoints[2 * (at + i)] * k, s.polygonPoints[2 * (at + i) + 1] * k);
        ctx.closePath();
        this.fillAndStroke(st, st.fill ?? 0.2);
        drawn.inks.add(v);
        drawn.polygons += 1;
      }
      at += n;
    }

    // Circles.
    for (let c = 0; c < s.circleInk.length && 3 * c + 2 < s.circles.length; c++) {
      const v = s.circleInk[c];
      const st = inkStyle(s.inks[v], v);
      ctx.beginPath();
      ctx.arc(s.circles[3 * c] * k, s.circles[3 * c + 1] * k, Math.max(0, s.circles[3 * c + 2] * k), 0, Math.PI * 2);
      const filled = v === inkValue(s.inks, 'goal') || v === inkValue(s.inks, 'nest') || v === inkValue(s.inks, 'zone');
      this.fillAndStroke(st, filled ? st.fill : 0);
      drawn.inks.add(v);
      drawn.circles += 1;
    }

    this.agents(s);

    // Lines over the agents: the selected agent's velocities must stay visible.
    for (let l = 0; l < s.lineInk.length && 4 * l + 3 < s.lines.length; l++) {
      const v = s.lineInk[l];
      const st = inkStyle(s.inks[v], v);
      const x0 = s.lines[4 * l] * k;
      const y0 = s.lines[4 * l + 1] * k;
      const x1 = s.lines[4 * l + 2] * k;
      const y1 = s.lines[4 * l + 3] * k;
      ctx.beginPath();
      ctx.moveTo(x0, y0);
      ctx.lineTo(x1, y1);
      const len = Math.hypot(x1 - x0, y1 - y0);
      if (st.arrow && len > 4 * this.dpr) {
        const ux = (x1 - x0) / len;
        const uy = (y1 - y0) / len;
        const head = Math.min(8 * this.dpr, len * 0.4);
        ctx.moveTo(x1, y1);
        ctx.lineTo(x1 - head * (ux * 0.85 - uy * 0.5), y1 - head * (uy * 0.85 + ux * 0.5));
        ctx.moveTo(x1, y1);
        ctx.lineTo(x1 - head * (ux * 0.85 + uy * 0.5), y1 - head * (uy * 0.85 - ux * 0.5));
      }
      this.stroke(st);
      drawn.inks.add(v);
      drawn.lines += 1;
    }

    // The keyboard cursor.
    if (s.cursor) {
      const r = Math.max(cellPx / 2, 8 * this.dpr);
      ctx.strokeStyle = PALETTE.hover;
      ctx.lineWidth = 2 * this.dpr;
      ctx.setLineDash([4 * this.dpr, 3 * this.dpr]);
      ctx.strokeRect(s.cursor.x * k - r, s.cursor.y * k - r, 2 * r, 2 * r);
      ctx.setLineDash([]);
    }
    this.drawn = drawn;
  }

  /** Fills the current path in the ink's colour at opacity `alpha` (not at all at 0), then strokes it. */
  fillAndStroke(st, alpha) {
    const ctx = this.ctx;
    if (alpha) {
      ctx.globalAlpha = alpha;
      ctx.fillStyle = st.colour;
      ctx.fill();
      ctx.globalAlpha = 1;
    }
    this.stroke(st);
  }

  stroke(st) {
    const ctx = this.ctx;
    ctx.strokeStyle = st.colour;
    ctx.lineWidth = Math.max(1, (st.width ?? 1.5) * this.dpr);
    ctx.setLineDash(st.dash ? st.dash.map((d) => d * this.dpr) : []);
    ctx.stroke();
    ctx.setLineDash([]);
  }

  /** Every agent, batched by kind: a disc with a heading tick, or a triangle when small. */
  agents(s) {
    const ctx = this.ctx;
    const k = this.scale;
    const n = s.x.length;
    const minR = 2.5 * this.dpr;
    const kinds = new Map();
    for (let i = 0; i < n; i++) {
      const kind = s.kind[i];
      if (!kinds.has(kind)) kinds.set(kind, []);
      kinds.get(kind).push(i);
    }
    for (const [kind, list] of kinds) {
      const colour = KIND_COLOURS[kind % KIND_COLOURS.length];
      const discs = new Path2D();
      const ticks = new Path2D();
      const tris = new Path2D();
      for (const i of list) {
        const x = s.x[i] * k;
        const y = s.y[i] * k;
        if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
        const r = s.radius[i] * k;
        const ux = s.hx[i];
        const uy = s.hy[i];
        if (r >= 4 * this.dpr) {
          discs.moveTo(x + r, y);
          discs.arc(x, y, r, 0, Math.PI * 2);
          ticks.moveTo(x, y);
          ticks.lineTo(x + ux * r, y + uy * r);
        } else {
          const len = Math.max(minR, r) * 1.5;
          tris.moveTo(x + ux * len, y + uy * len);
          tris.lineTo(x - ux * len * 0.7 - uy * len * 0.6, y - uy * len * 0.7 + ux * len * 0.6);
          tris.lineTo(x - ux * len * 0.7 + uy * len * 0.6, y - uy * len * 0.7 - ux * len * 0.6);
          tris.closePath();
        }
      }
      ctx.fillStyle = colour;
      ctx.globalAlpha = 0.85;
      ctx.fill(discs);
      ctx.globalAlpha = 1;
      ctx.fill(tris);
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = Math.max(1, 1.5 * this.dpr);
      ctx.stroke(ticks);
    }
    const sel = s.selected;
    if (sel >= 0 && sel < n) {
      const x = s.x[sel] * k;
      const y = s.y[sel] * k;
      const r = Math.max(s.radius[sel] * k, minR * 1.5) + 4 * this.dpr;
      ctx.strokeStyle = '#000000';
      ctx.lineWidth = 2.5 * this.dpr;
      ctx.beginPath();
      ctx.arc(x, y, r, 0, Math.PI * 2);
      ctx.stroke();
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 1 * this.dpr;
      ctx.beginPath();
      ctx.arc(x, y, r + 2 * this.dpr, 0, Math.PI * 2);
      ctx.stroke();
    }
  }
}

/** The value of ink `name` (or -1). */
export function inkValue(inks, name) {
  return inks.indexOf(name);
}

/** The heat colour of `t` in [0, 1] as CSS, for tests and legends. */
export function heatColour(t) {
  const c = heat(t).map(Math.round);
  return `rgb(${c.join(', ')})`;
}
