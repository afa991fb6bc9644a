// Zoom and pan on the square grid, for maps larger than the canvas. The canvas keeps the size
// the page gave it (the fitted view, pathlab.js layout()); zooming draws the map larger inside
// it and panning moves it about. paint.js draws at the painter's `cellPx` (device pixels per
// cell: whole pixels, or 1/k when k cells share a pixel, or for the fitted view of a large map
// the size that fills its box, drawn by area averages, so no zoom draws a moiré) shifted by
// `ox`, `oy`; its `cellAt` maps a pointer to a cell at any zoom, so painting and the Cell panel
// need nothing more.
//
// Wheel (about the pointer; Shift+wheel pans), a pinch of two fingers (and their drag pans),
// the middle mouse button's drag, keys on the grid (+ and - zoom about the middle, 0 fits,
// Alt+arrows or Ctrl+arrows pan: plain and Shift+arrows are the page's and access.js's), the
// −, + and Fit buttons over the grid, and a minimap in the corner while zoomed in: a click or
// drag there shows that part. The canvas says its view in data-cell-px, data-ox and data-oy
// (device pixels), for tests and tools.

import { el } from './dom.js';
import { cellSize } from './paint.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there).
 * @typedef {Pick<import('./page-context.js').PageContext, 'canvas' | 'hover' | 'lab' | 'painter' | 'touch' | 'ui'>} ZoomContext
 */

/** The largest cell the zoom goes to, in CSS pixels. */
export const MAX_CELL_CSS = 96;

/** Fitted cells at least this large (CSS pixels) need no zoom buttons over them. */
const BUTTONS_BELOW_CSS = 40;

/** The zoom keys, in words: added to the grid's description for screen readers (access.js). */
export const ZOOM_KEYS = 'Plus and minus zoom, 0 shows the whole map, Alt with the arrows pans.';

/** Wheel travel (pixels) for one zoom step: a mouse wheel's notch. */
const WHEEL_STEP = 100;

/**
 * The next cell size up from `cs` (device pixels): 1/k to 1/(k-1), then whole pixels, growing by
 * about half; from a fitted size between those (fitSize in paint.js), the next of them above it.
 */
export function zoomIn(cs) {
  if (cs < 1) return 1 / (Math.ceil(1 / cs - 1e-9) - 1);
  return cs < 4 ? Math.floor(cs + 1e-9) + 1 : Math.floor(cs * 1.5);
}

/** The next cell size down from `cs`. */
export function zoomOut(cs) {
  if (cs <= 1) return 1 / (Math.round(1 / cs) + 1);
  return cs <= 4 ? cs - 1 : cellSize(cs / 1.5);
}

/**
 * For each output pixel along an axis of `n` cells drawn at `cs` device pixels a cell (`out`
 * pixels in all): the first cell it covers, and the share of the pixel each covered cell takes
 * (an area weight; the shares of a pixel add to 1, the last pixel's counting only cells that
 * exist). Returns { first: Int32Array, count: Int32Array, at: Int32Array, weight: Float32Array }
 * with pixel i's cells at at[first[i] .. first[i] + count[i]).
 */
function coverage(n, cs, out) {
  const first = new Int32Array(out);
  const count = new Int32Array(out);
  const at = [];
  const weight = [];
  for (let i = 0; i < out; i++) {
    const a = i / cs;
    const b = Math.min(n, (i + 1) / cs);
    first[i] = at.length;
    const shares = [];
    for (let x = Math.floor(a); x < Math.min(n, Math.ceil(b)); x++) {
      const share = Math.min(b, x + 1) - Math.max(a, x);
      if (share > 1e-9) {
        at.push(x);
        shares.push(share);
      }
    }
    const total = shares.reduce((sum, v) => sum + v, 0) || 1;
    for (const v of shares) weight.push(v / total);
    count[i] = shares.length;
  }
  return { first, count, at: Int32Array.from(at), weight: Float32Array.from(weight) };
}

/**
 * The painter's `shrink` for `painter`: the map at a cell size that is not a whole number of
 * pixels (1/k when k cells share a pixel, or a fitted size between whole pixels such as 0.96 or
 * 1.4), each canvas pixel the area average of the cells under it, so that no pattern of cells
 * draws a moiré and none vanishes; only the pixels of the changed `rows` are done again.
 * @param {import('./paint.js').Painter} painter
 */
export function shrinker(painter) {
  let s = null;
  return (pixels, w, h, rows) => {
    const cs = painter.cellPx;
    const sw = Math.max(1, Math.round(w * cs));
    const sh = Math.max(1, Math.round(h * cs));
    if (!s || s.cs !== cs || s.w !== w || s.h !== h || s.source !== painter.image) {
      s = {
        cs, w, h, source: painter.image, image: new ImageData(sw, sh), canvas: document.createElement('canvas'),
        xs: coverage(w, cs, sw), ys: coverage(h, cs, sh), acc: new Float32Array(3 * sw),
      };
      s.canvas.width = sw;
      s.canvas.height = sh;
      rows = [0, h];
    }
    if (!rows) return s.canvas;
    const out = new Uint32Array(s.image.data.buffer);
    const { xs, ys, acc } = s;
    const y0 = Math.max(0, Math.floor(rows[0] * cs) - 1);
    const y1 = Math.min(sh, Math.ceil(rows[1] * cs) + 1);
    for (let oy = y0; oy < y1; oy++) {
      acc.fill(0);
      for (let j = ys.first[oy], jEnd = j + ys.count[oy]; j < jEnd; j++) {
        const row = ys.at[j] * w;
        const wy = ys.weight[j];
        for (let ox = 0; ox < sw; ox++) {
          let r = 0;
          let g = 0;
          let b = 0;
          for (let k = xs.first[ox], kEnd = k + xs.count[ox]; k < kEnd; k++) {
            const p = pixels[row + xs.at[k]];
            const wx = xs.weight[k];
            r += (p & 255) * wx;
            g += ((p >> 8) & 255) * wx;
            b += ((p >> 16) & 255) * wx;
          }
          acc[3 * ox] += r * wy;
          acc[3 * ox + 1] += g * wy;
          acc[3 * ox + 2] += b * wy;
        }
      }
      for (let ox = 0, i = oy * sw; ox < sw; ox++, i++) {
        out[i] = (255 << 24) | (Math.round(acc[3 * ox + 2]) << 16) | (Math.round(acc[3 * ox + 1]) << 8) | Math.round(acc[3 * ox]);
      }
    }
    s.canvas.getContext('2d').putImageData(s.image, 0, 0, 0, y0, sw, y1 - y0);
    return s.canvas;
  };
}

/**
 * Wires zoom and pan onto the grid page `app`. Returns `{ zoomTo(cs, px, py), panBy(dx, dy),
 * fit(), destroy() }` (sizes and positions in device pixels of the canvas).
 * @param {ZoomContext} app
 */
export function attachZoom(app) {
  const canvas = app.canvas;
  const painter = app.painter;
  const wrap = app.ui.wrap;
  const button = (testid, text, label, title) =>
    el('button', { type: 'button', testid, class: 'pl-btn pl-small pl-zoom-btn', text, title, 'aria-label': label });
  const out = button('zoom-out', '−', 'Zoom out', 'Zoom out (-)');
  const into = button('zoom-in', '+', 'Zoom in', 'Zoom in (+)');
  const fitButton = button('zoom-fit', 'Fit', 'Fit the whole map', 'Show the whole map (0)');
  const bar = el('div', { class: 'pl-zoom', role: 'toolbar', 'aria-label': 'Zoom' }, out, into, fitButton);
  // The buttons sit over the canvas's top-right corner: the canvas goes in a box that holds both.
  const box = el('div', { class: 'pl-canvas-box' });
  canvas.replaceWith(box);
  box.append(canvas, bar);
  painter.shrink = shrinker(painter);
  const help = document.getElementById(canvas.getAttribute('aria-describedby') ?? '');
  if (help) help.textContent += ` ${ZOOM_KEYS}`;
  const shortcuts = canvas.getAttribute('aria-keyshortcuts');
  if (shortcuts) canvas.setAttribute('aria-keyshortcuts', `${shortcuts} + - 0 Alt+ArrowUp Alt+ArrowDown Alt+ArrowLeft Alt+ArrowRight`);
  /** What the last zoom kept, to keep it when the canvas is laid out again for the same map. */
  let kept = null;

  const size = () => ({ w: app.lab.width, h: app.lab.height, W: canvas.width, H: canvas.height });
  const maxCell = () => Math.max(painter.fitPx, cellSize(MAX_CELL_CSS * painter.dpr));
  const zoomed = () => painter.cellPx > painter.fitPx;

  /** Keeps the map over the whole canvas (or centred when it is smaller), and says the view. */
  function clamp() {
    const { w, h, W, H } = size();
    const cs = painter.cellPx;
    const fitAxis = (o, mapPx, view) => (mapPx <= view ? Math.round((view - mapPx) / 2) : Math.round(Math.min(0, Math.max(view - mapPx, o))));
    painter.ox = fitAxis(painter.ox, w * cs, W);
    painter.oy = fitAxis(painter.oy, h * cs, H);
    canvas.dataset.cellPx = String(cs);
    canvas.dataset.ox = String(painter.ox);
    canvas.dataset.oy = String(painter.oy);
    // No buttons where the map cannot zoom, over a canvas too small to hold them, or over a
    // small map whose cells are large already (they would hide its corner cells' numbers);
    // once zoomed in by keys, they are there to come back.
    const small = !zoomed() && painter.fitPx >= BUTTONS_BELOW_CSS * painter.dpr;
    bar.hidden = maxCell() <= painter.fitPx || small || canvas.offsetWidth < 160 || canvas.offsetHeight < 90;
    out.disabled = !zoomed();
    into.disabled = painter.cellPx >= maxCell();
    fitButton.disabled = !zoomed();
    kept = zoomed() ? { w, h, cs, cx: (W / 2 - painter.ox) / cs, cy: (H / 2 - painter.oy) / cs } : null;
    app.touch();
  }

  /** Zooms to cell size `cs` keeping the map point under canvas pixel (px, py) where it is. */
  function zoomTo(cs, px = canvas.width / 2, py = canvas.height / 2) {
    const next = Math.min(maxCell(), Math.max(painter.fitPx, cs));
    const fx = (px - painter.ox) / painter.cellPx;
    const fy = (py - painter.oy) / painter.cellPx;
    painter.cellPx = next;
    painter.ox = px - fx * next;
    painter.oy = py - fy * next;
    clamp();
  }

  function panBy(dx, dy) {
    painter.ox += dx;
    painter.oy += dy;
    clamp();
  }

  function fit() {
    zoomTo(painter.fitPx);
  }

  /** Shows map cell (fx, fy) in the middle of the canvas. */
  function centreOn(fx, fy) {
    painter.ox = canvas.width / 2 - fx * painter.cellPx;
    painter.oy = canvas.height / 2 - fy * painter.cellPx;
    clamp();
  }

  /** Pans just enough to show cell `cell` whole (the keyboard's cell cursor, access.js). */
  function follow(cell) {
    if (!cell || !zoomed()) return;
    const cs = painter.cellPx;
    const into = (at, size) => (at < 0 ? -at : at + cs > size ? size - at - cs : 0);
    const dx = into(cell.x * cs + painter.ox, canvas.width);
    const dy = into(cell.y * cs + painter.oy, canvas.height);
    if (dx || dy) panBy(dx, dy);
  }

  /** Canvas device pixels of a pointer or wheel event. */
  function canvasPoint(event) {
    const rect = canvas.getBoundingClientRect();
    return [((event.clientX - rect.left) * canvas.width) / rect.width, ((event.clientY - rect.top) * canvas.height) / rect.height];
  }

  // A layout for the same map keeps the zoom and what was in the middle.
  painter.onResize = () => {
    const k = kept;
    const { w, h } = size();
    if (k && k.w === w && k.h === h) {
      painter.cellPx = Math.min(maxCell(), Math.max(painter.fitPx, k.cs));
      centreOn(k.cx, k.cy);
    } else {
      clamp();
    }
  };

  // ---- the minimap, drawn by the painter after the rest while zoomed in ----------------------

  /** The minimap's box on the canvas: [x, y, width, height], device pixels. */
  function miniBox() {
    const { w, h, W, H } = size();
    const side = Math.max(72 * painter.dpr, Math.min(W, H) * 0.24);
    const scale = side / Math.max(w, h);
    const mw = Math.max(8, Math.round(w * scale));
    const mh = Math.max(8, Math.round(h * scale));
    const pad = 8 * painter.dpr;
    return [W - mw - pad, H - mh - pad, mw, mh];
  }

  painter.after = () => {
    if (!zoomed() || !painter.off) return;
    const { ctx } = painter;
    const { w, h, W, H } = size();
    const [x, y, mw, mh] = miniBox();
    ctx.save();
    ctx.fillStyle = 'rgba(255, 255, 255, 0.9)';
    ctx.fillRect(x - 3, y - 3, mw + 6, mh + 6);
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(painter.off, 0, 0, w, h, x, y, mw, mh);
    const cs = painter.cellPx;
    const sx = mw / w;
    const sy = mh / h;
    ctx.lineWidth = 2 * painter.dpr;
    ctx.strokeStyle = '#d55e00';
    ctx.strokeRect(x + (-painter.ox / cs) * sx, y + (-painter.oy / cs) * sy, (W / cs) * sx, (H / cs) * sy);
    ctx.strokeStyle = 'rgba(31, 36, 48, 0.6)';
    ctx.lineWidth = 1;
    ctx.strokeRect(x - 0.5, y - 0.5, mw + 1, mh + 1);
    ctx.restore();
  };

  /** The map cell at canvas pixel (px, py) when that is on the minimap, else null. */
  function onMinimap(px, py) {
    if (!zoomed()) return null;
    const { w, h } = size();
    const [x, y, mw, mh] = miniBox();
    if (px < x || py < y || px > x + mw || py > y + mh) return null;
    return [((px - x) / mw) * w, ((py - y) / mh) * h];
  }

  // ---- input --------------------------------------------------------------------------------

  let wheel = 0;
  function onWheel(event) {
    if (maxCell() <= painter.fitPx) return;
    event.preventDefault();
    const scale = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1;
    if (event.shiftKey) {
      panBy(-(event.deltaX || event.deltaY) * scale, 0);
      return;
    }
    wheel += event.deltaY * scale;
    const [px, py] = canvasPoint(event);
    while (Math.abs(wheel) >= WHEEL_STEP) {
      const inward = wheel < 0;
      wheel -= Math.sign(wheel) * WHEEL_STEP;
      zoomTo(inward ? zoomIn(painter.cellPx) : zoomOut(painter.cellPx), px, py);
    }
  }

  function onKey(event) {
    const key = event.key;
    // Shift+arrows move access.js's cell cursor: the view follows it.
    if (event.shiftKey && key.startsWith('Arrow')) {
      queueMicrotask(() => follow(app.hover));
      return;
    }
    let action = null;
    if ((event.altKey || event.ctrlKey) && !event.metaKey && !event.shiftKey && key.startsWith('Arrow')) {
      const step = Math.round(Math.min(canvas.width, canvas.height) / 4);
      const d = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[key];
      if (d) action = () => panBy(d[0], d[1]);
    } else if (!event.altKey && !event.ctrlKey && !event.metaKey) {
      if (key === '+' || key === '=') action = () => zoomTo(zoomIn(painter.cellPx));
      else if (key === '-' || key === '_') action = () => zoomTo(zoomOut(painter.cellPx));
      else if (key === '0') action = fit;
    }
    if (!action) return;
    event.preventDefault();
    event.stopPropagation();
    action();
  }

  /** Pointers held on the canvas (touch) and the gesture they make: a pinch, or a middle-button or minimap drag. */
  const touches = new Map();
  let gesture = null;

  function onDown(event) {
    if (event.target !== canvas) return;
    const [px, py] = canvasPoint(event);
    if (event.pointerType === 'touch') touches.set(event.pointerId, [px, py]);
    const mini = event.button === 0 ? onMinimap(px, py) : null;
    if (mini) {
      gesture = { kind: 'minimap', id: event.pointerId };
      centreOn(mini[0], mini[1]);
    } else if (event.pointerType === 'mouse' && event.button === 1) {
      gesture = { kind: 'pan', id: event.pointerId, last: [px, py] };
    } else if (touches.size === 2) {
      const [a, b] = [...touches.values()];
      gesture = { kind: 'pinch', dist: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, cs: painter.cellPx, mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] };
    } else {
      return;
    }
    // Not a paint stroke: the editor (edit.js, links.js) does not see it.
    event.preventDefault();
    event.stopPropagation();
    try {
      canvas.setPointerCapture(event.pointerId);
    } catch {
      // A synthetic pointer cannot be captured; the gesture still works over the canvas.
    }
  }

  function onMove(event) {
    const [px, py] = canvasPoint(event);
    if (touches.has(event.pointerId)) touches.set(event.pointerId, [px, py]);
    if (!gesture) return;
    if (gesture.kind === 'pinch' && touches.has(event.pointerId)) {
      const [a, b] = [...touches.values()];
      if (!a || !b) return;
      const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const ratio = Math.hypot(a[0] - b[0], a[1] - b[1]) / gesture.dist;
      panBy(mid[0] - gesture.mid[0], mid[1] - gesture.mid[1]);
      gesture.mid = mid;
      const target = cellSize(gesture.cs * ratio);
      if (target !== painter.cellPx) zoomTo(target, mid[0], mid[1]);
    } else if (gesture.kind === 'pan' && event.pointerId === gesture.id) {
      panBy(px - gesture.last[0], py - gesture.last[1]);
      gesture.last = [px, py];
    } else if (gesture.kind === 'minimap' && event.pointerId === gesture.id) {
      const [x, y, mw, mh] = miniBox();
      const { w, h } = size();
      centreOn(((px - x) / mw) * w, ((py - y) / mh) * h);
    } else {
      return;
    }
    event.stopPropagation();
  }

  function onUp(event) {
    touches.delete(event.pointerId);
    if (!gesture) return;
    if (gesture.kind === 'pinch' ? touches.size === 0 : event.pointerId === gesture.id) gesture = null;
  }

  const listeners = [
    [canvas, 'wheel', onWheel, { passive: false }],
    [canvas, 'keydown', onKey, false],
    [wrap, 'pointerdown', onDown, true],
    [wrap, 'pointermove', onMove, true],
    [wrap, 'pointerup', onUp, true],
    [wrap, 'pointercancel', onUp, true],
  ];
  for (const [target, type, fn, options] of listeners) target.addEventListener(type, fn, options);
  out.addEventListener('click', () => zoomTo(zoomOut(painter.cellPx)));
  into.addEventListener('click', () => zoomTo(zoomIn(painter.cellPx)));
  fitButton.addEventListener('click', fit);
  clamp();

  return {
    zoomTo,
    panBy,
    fit,
    destroy() {
      for (const [target, type, fn, options] of listeners) target.removeEventListener(type, fn, options);
      painter.onResize = null;
      painter.after = null;
      painter.shrink = null;
      box.replaceWith(canvas);
    },
  };
}
