// The exact any-angle optimum on the square-grid page, under the path of an any-angle search
// (Theta*, Lazy Theta*, A* with smoothing): warnings.js loads this module on the first
// any-angle result it shows, so neither the first paint nor a page without such a result
// carries it. The optimum (A* on the visibility graph of the walls' corners) comes from the
// spaces' wasm module (pkg/pathlab_spaces.js, loaded here); the line is drawn dashed on a
// canvas laid over the grid's (it takes no clicks), and a sentence under the read-outs says
// how much longer the search's path is.

import { anyAngleOptimum } from './pkg/pathlab_spaces.js';
import { loadSpaces } from './space-load.js';
import { el } from './dom.js';
import { formatCost } from './page-app.js';

/** The dashed line's colour (as the navmesh view's optimum). */
const COLOUR = 'rgba(90, 90, 90, 0.85)';

/**
 * Attaches the optimum line to `app` (the grid page) with its sentence in `box` (the warnings).
 * Returns `{ show(key, cost), hide(), destroy() }`: `show` computes the optimum for the map,
 * ends and diagonal rule (once per `key`) and sets it against `cost`.
 */
export async function attachOptimumLine(app, box) {
  await loadSpaces();
  const note = el('p', { class: 'pl-warnings-reference', testid: 'any-angle-optimum', hidden: true });
  box.append(note);
  const overlay = el('canvas', { class: 'pl-optimum-overlay', 'aria-hidden': 'true' });
  overlay.style.position = 'absolute';
  overlay.style.pointerEvents = 'none';
  const wrap = app.canvas.parentElement;
  if (wrap && getComputedStyle(wrap).position === 'static') wrap.style.position = 'relative';
  wrap?.append(overlay);
  let optimum = { key: '', length: null, points: [] };
  let visible = false;

  function draw() {
    const canvas = app.canvas;
    const lab = app.lab;
    overlay.hidden = !visible || optimum.points.length < 4;
    if (overlay.hidden || !lab) return;
    const dpr = window.devicePixelRatio || 1;
    const w = canvas.clientWidth;
    const h = canvas.clientHeight;
    overlay.style.left = `${canvas.offsetLeft + canvas.clientLeft}px`;
    overlay.style.top = `${canvas.offsetTop + canvas.clientTop}px`;
    overlay.style.width = `${w}px`;
    overlay.style.height = `${h}px`;
    overlay.width = Math.round(w * dpr);
    overlay.height = Math.round(h * dpr);
    const ctx = /** @type {CanvasRenderingContext2D} */ (overlay.getContext('2d'));
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const sx = w / lab.width;
    const sy = h / lab.height;
    const width = Math.max(2, Math.min(6, sx * 0.12));
    ctx.strokeStyle = COLOUR;
    ctx.lineWidth = width;
    ctx.lineCap = 'round';
    ctx.setLineDash([2 * width, 1.5 * width]);
    ctx.beginPath();
    for (let i = 0; i < optimum.points.length; i += 2) {
      const x = optimum.points[i] * sx;
      const y = optimum.points[i + 1] * sy;
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }
  const resize = new ResizeObserver(draw);
  resize.observe(app.canvas);

  return {
    show(key, cost) {
      const lab = app.lab;
      if (optimum.key !== key) {
        optimum = { key, length: null, points: [] };
        try {
          const cells = new Uint8Array(app.memory.buffer, lab.cellsPtr(), lab.width * lab.height).slice();
          const s = lab.settings();
          const found = anyAngleOptimum(
            lab.width, lab.height, cells, s.diagonal,
            Int32Array.of(2 * lab.startX + 1, 2 * lab.startY + 1), Int32Array.of(2 * lab.goalX + 1, 2 * lab.goalY + 1),
          );
          // Under integer costs (10 a straight move) the any-angle searches report lengths times 10.
          const scale = s.costs === 'integer' ? 10 : 1;
          if (found.length > 0) optimum = { key, length: found[0] * scale, points: [...found.slice(1)] };
        } catch (e) {
          note.textContent = `No exact any-angle optimum here: ${e.message}.`;
          note.hidden = false;
          visible = false;
          draw();
          return;
        }
      }
      visible = optimum.length !== null;
      note.hidden = !visible;
      if (visible) {
        const best = /** @type {number} */ (optimum.length);
        const longer = Math.abs(cost - best) < 1e-9 ? 0 : (100 * (cost - best)) / best;
        note.replaceChildren(
          el('strong', { text: `Optimal any-angle: ${formatCost(best)}` }),
          ` (A* on the visibility graph of the walls’ corners, dashed on the map). This path is ${longer.toFixed(1)}% longer.`,
        );
        note.dataset.optimal = String(best);
        note.dataset.longer = longer.toFixed(3);
      }
      draw();
    },
    hide() {
      visible = false;
      note.hidden = true;
      draw();
    },
    destroy() {
      resize.disconnect();
      overlay.remove();
      note.remove();
    },
  };
}
