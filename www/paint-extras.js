// What the grid painter (paint.js) draws for some algorithms only: the overlay of a step (jump
// scans, lines of sight, marks, boxes), LRTA*'s learned h as a heat map, and JPS+'s jump
// distances. The page loads it after the first grid and gives it to the painters (useExtras),
// so the first paint does without it; every function draws with `painter`'s context and cell size.

import { CellState, Terrain } from './pkg/pathlab_wasm.js';
import { OVERLAY_STYLE, mix, rgb } from './paint.js';

/** Heat-map colours from low to high (light yellow to dark purple; readable for common colour-vision types). */
export const HEAT = ['#fcfdbf', '#fc8961', '#b73779', '#51127c', '#000004'];

/**
 * Tints unvisited open cells by the algorithm's per-cell values (LRTA*'s learned h), from
 * light for low to dark for high; cells the agent stood on keep their state colour.
 */
export function heat(painter, lab, n, cells, states, pixels) {
  const ptr = lab.cellValuesPtr();
  if (!ptr) return;
  const values = new Float64Array(painter.memoryBuffer, ptr, n);
  let max = 0;
  for (let i = 0; i < n; i++) if (cells[i] !== Terrain.Wall && Number.isFinite(values[i]) && values[i] > max) max = values[i];
  if (max <= 0) return;
  const stops = HEAT.map(rgb);
  const ground = rgb(painter.palette.ground);
  for (let i = 0; i < n; i++) {
    if (cells[i] === Terrain.Wall || states[i] !== CellState.Unseen || !Number.isFinite(values[i])) continue;
    const t = Math.min(1, values[i] / max) * (stops.length - 1);
    const k = Math.min(stops.length - 2, Math.floor(t));
    const c = mix(mix(stops[k], stops[k + 1], t - k), ground, 0.35);
    pixels[i] = (255 << 24) | (c[2] << 16) | (c[1] << 8) | c[0];
  }
}

/** The colour of the fog over the cells a walking agent has not seen yet. */
export const FOG = '#8a8f98';

/**
 * Greys the cells the agent has not seen (`Lab.sensedPtr()`: 0 not seen), walls and ground
 * alike, so that only what it knows stands out.
 */
export function fog(painter, lab, n, pixels) {
  const ptr = lab.sensedPtr();
  if (!ptr) return;
  const sensed = new Uint8Array(painter.memoryBuffer, ptr, n);
  const grey = rgb(FOG);
  for (let i = 0; i < n; i++) {
    if (sensed[i] !== 0) continue;
    const p = pixels[i];
    const c = mix([p & 255, (p >> 8) & 255, (p >> 16) & 255], grey, 0.75);
    pixels[i] = (255 << 24) | (c[2] << 16) | (c[1] << 8) | c[0];
  }
}

/** Draws an overlay from `Lab.overlay()`: boxes, lines between cell centres, then marks. */
export function overlay(painter, { lines, marks, boxes = [] }) {
  const { ctx } = painter;
  const cs = painter.cellPx;
  const px = (v) => (v + 0.5) * cs;
  ctx.save();
  for (const [x0, y0, x1, y1, kind] of boxes) {
    const style = OVERLAY_STYLE.boxes[kind];
    if (!style) continue;
    ctx.setLineDash(style.dash.map((d) => d * painter.dpr));
    ctx.strokeStyle = style.color;
    ctx.lineWidth = style.width * painter.dpr;
    ctx.strokeRect(x0 * cs + 1, y0 * cs + 1, (x1 - x0 + 1) * cs - 2, (y1 - y0 + 1) * cs - 2);
  }
  ctx.lineCap = 'round';
  for (const [x0, y0, x1, y1, kind] of lines) {
    const style = OVERLAY_STYLE.lines[kind];
    if (!style) continue;
    ctx.beginPath();
    ctx.moveTo(px(x0), px(y0));
    ctx.lineTo(px(x1), px(y1));
    ctx.setLineDash(style.dash.map((d) => d * painter.dpr));
    ctx.strokeStyle = style.color;
    ctx.lineWidth = style.width * painter.dpr;
    ctx.stroke();
  }
  ctx.setLineDash([]);
  const r = Math.max(3 * painter.dpr, cs * 0.28);
  for (const [x, y, kind] of marks) {
    const style = OVERLAY_STYLE.marks[kind];
    if (!style) continue;
    mark(painter, px(x), px(y), style.small ? r * 0.6 : r, style);
  }
  ctx.restore();
}

/** One overlay mark centred at (cx, cy) pixels. */
export function mark(painter, cx, cy, r, { color, shape }) {
  const { ctx } = painter;
  ctx.beginPath();
  if (shape === 'cross') {
    ctx.moveTo(cx - r, cy - r);
    ctx.lineTo(cx + r, cy + r);
    ctx.moveTo(cx + r, cy - r);
    ctx.lineTo(cx - r, cy + r);
    ctx.strokeStyle = color;
    ctx.lineWidth = Math.max(2 * painter.dpr, r * 0.35);
    ctx.stroke();
    return;
  }
  if (shape === 'agent') {
    ctx.arc(cx, cy, r * 1.15, 0, Math.PI * 2);
    ctx.fillStyle = color;
    ctx.fill();
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = Math.max(2 * painter.dpr, r * 0.25);
    ctx.stroke();
    return;
  }
  if (shape === 'diamond') {
    ctx.moveTo(cx, cy - r);
    ctx.lineTo(cx + r, cy);
    ctx.lineTo(cx, cy + r);
    ctx.lineTo(cx - r, cy);
    ctx.closePath();
  } else if (shape === 'star') {
    for (let k = 0; k < 10; k++) {
      const a = (Math.PI * k) / 5 - Math.PI / 2;
      const rr = k % 2 ? r * 0.45 : r * 1.1;
      ctx.lineTo(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
    }
    ctx.closePath();
  } else {
    ctx.arc(cx, cy, shape === 'dot' ? r * 0.45 : r, 0, Math.PI * 2);
  }
  if (shape === 'ring') {
    ctx.strokeStyle = color;
    ctx.lineWidth = Math.max(2 * painter.dpr, r * 0.3);
    ctx.stroke();
  } else {
    ctx.fillStyle = color;
    ctx.fill();
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.85)';
    ctx.lineWidth = painter.dpr;
    ctx.stroke();
  }
}

/**
 * Per-cell numbers the algorithm keeps, such as JPS+'s jump distances, written around the
 * edge of each open cell in the direction they stand for (N, NE, E, SE, S, SW, W, NW).
 */
export function cellTable(painter, lab, w, n) {
  const per = lab.cellTablePerCell();
  if (per !== 8) return;
  const values = new Int32Array(painter.memoryBuffer, lab.cellTablePtr(), n * per);
  const cells = new Uint8Array(painter.memoryBuffer, lab.cellsPtr(), n);
  const { ctx } = painter;
  const cs = painter.cellPx;
  const offsets = [[0, -1], [1, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1]];
  ctx.save();
  ctx.font = `${Math.round(cs * 0.15)}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let i = 0; i < n; i++) {
    if (cells[i] === Terrain.Wall) continue;
    const cx = ((i % w) + 0.5) * cs;
    const cy = (Math.floor(i / w) + 0.5) * cs;
    for (let d = 0; d < 8; d++) {
      const v = values[i * 8 + d];
      ctx.fillStyle = v > 0 ? '#0072b2' : 'rgba(47, 53, 66, 0.55)';
      ctx.fillText(String(v), cx + offsets[d][0] * cs * 0.36, cy + offsets[d][1] * cs * 0.36);
    }
  }
  ctx.restore();
}
