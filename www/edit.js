// Live editing on the grid with pointer events (mouse, pen and touch alike): a drag paints the
// brush (walls by default) along the pointer's track, one Lab.paintLine call per segment; a drag
// that starts on a wall, or on a cell already of the brush's kind, erases back to ground; a drag
// that starts on the start or goal marker moves it. Every edit re-runs the search to the step
// it stood at (the wasm layer does that), and the next frame shows the result.
// The Inspect tool (brush null) only selects cells for the Cell panel; with a brush a finger's
// tap selects too (a finger cannot hover) and only a finger that moves on paints.

import { listen } from './dom.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there).
 * @typedef {Pick<import('./page-context.js').PageContext, 'brush' | 'canvas' | 'edited' | 'lab' | 'painter' | 'refused' | 'select' | 'setHover'>} EditingContext
 */

const GROUND = 1;
const WALL = 0;

/**
 * Wires editing onto `app.canvas`. `app` provides: lab, painter, brush() (the cell value to
 * paint, or null for the Inspect tool), setHover(cell | null), select(cell) (the cell the Cell
 * panel reads), edited(what), refused(text). Returns a function that unhooks it.
 * @param {EditingContext} app
 */
export function attachEditing(app) {
  const canvas = app.canvas;
  let drag = null;

  const inside = (c) => c.x >= 0 && c.y >= 0 && c.x < app.lab.width && c.y < app.lab.height;
  const clamp = (c) => ({
    x: Math.min(app.lab.width - 1, Math.max(0, c.x)),
    y: Math.min(app.lab.height - 1, Math.max(0, c.y)),
  });

  /** "start" or "goal" when the pointer is on that marker (the nearer one wins). */
  function markerAt(c) {
    const lab = app.lab;
    const r = app.painter.markerRadius(app.lab.width * app.lab.height);
    let best = null;
    let bestD = Infinity;
    for (const [which, x, y] of [['start', lab.startX, lab.startY], ['goal', lab.goalX, lab.goalY]]) {
      const d = Math.hypot(c.fx - (x + 0.5), c.fy - (y + 0.5));
      if (d <= Math.max(r, 0.5) * 1.15 && d < bestD) {
        best = which;
        bestD = d;
      }
    }
    return best;
  }

  function moveMarker(which, c) {
    const lab = app.lab;
    const other = which === 'start' ? [lab.goalX, lab.goalY] : [lab.startX, lab.startY];
    const here = which === 'start' ? [lab.startX, lab.startY] : [lab.goalX, lab.goalY];
    if ((c.x === here[0] && c.y === here[1]) || (c.x === other[0] && c.y === other[1])) return;
    if (lab.cell(c.x, c.y) === WALL) {
      drag.blocked = true;
      return;
    }
    drag.blocked = false;
    if (which === 'start') lab.setStart(c.x, c.y);
    else lab.setGoal(c.x, c.y);
    app.edited(which);
  }

  function onDown(event) {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    if (drag) return;
    const c = app.painter.cellAt(event);
    if (!inside(c)) return;
    event.preventDefault();
    try {
      canvas.setPointerCapture(event.pointerId);
    } catch {
      // A synthetic event has no active pointer to capture; the drag still works inside.
    }
    app.setHover(c);
    const brush = app.brush();
    if (brush === null) {
      drag = { id: event.pointerId, mode: 'inspect', last: c, moved: false };
      app.select(c);
      return;
    }
    const marker = markerAt(c);
    if (marker) {
      drag = { id: event.pointerId, mode: marker, last: c, blocked: false, moved: false };
      canvas.classList.add('pl-dragging');
      return;
    }
    const under = app.lab.cell(c.x, c.y);
    const value = under === WALL || under === brush ? GROUND : brush;
    if (event.pointerType === 'touch') {
      // A tap reads the cell; the stroke starts once the finger reaches another cell.
      drag = { id: event.pointerId, mode: 'tap', value, last: c, moved: false };
      return;
    }
    drag = { id: event.pointerId, mode: 'paint', value, last: c, moved: false };
    if (paint(c, c, value) > 0) app.edited(value === GROUND ? 'erase' : 'paint');
  }

  /** Paints one drag segment; a value the algorithm refuses is reported and paints nothing. */
  function paint(from, to, value) {
    try {
      return app.lab.paintLine(from.x, from.y, to.x, to.y, value);
    } catch (error) {
      app.refused(error.message);
      return 0;
    }
  }

  function onMove(event) {
    const c = app.painter.cellAt(event);
    if (!drag) {
      app.setHover(inside(c) ? c : null);
      canvas.style.cursor = inside(c) && markerAt(c) ? 'grab' : '';
      return;
    }
    if (event.pointerId !== drag.id) return;
    const to = clamp(c);
    if (to.x === drag.last.x && to.y === drag.last.y) return;
    app.setHover(to);
    drag.moved = true;
    if (drag.mode === 'inspect') {
      app.select(to);
    } else if (drag.mode === 'tap') {
      drag.mode = 'paint';
      if (paint(drag.last, to, drag.value) > 0) app.edited(drag.value === GROUND ? 'erase' : 'paint');
    } else if (drag.mode === 'paint') {
      if (paint(drag.last, to, drag.value) > 0) {
        app.edited(drag.value === GROUND ? 'erase' : 'paint');
      }
    } else {
      moveMarker(drag.mode, to);
    }
    drag.last = to;
  }

  function onUp(event) {
    if (!drag || event.pointerId !== drag.id) return;
    if (drag.blocked) {
      app.refused(`The ${drag.mode} cannot go on a wall; it stays where it was.`);
    } else if (!drag.moved && drag.mode !== 'paint' && event.type === 'pointerup') {
      // A tap, or a marker let go where it was: the Cell panel reads the cell.
      app.select(drag.last);
    }
    drag = null;
    canvas.classList.remove('pl-dragging');
    if (canvas.hasPointerCapture(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
  }

  function onLeave() {
    if (!drag) app.setHover(null);
  }

  return listen(canvas, { pointerdown: onDown, pointermove: onMove, pointerup: onUp, pointercancel: onUp, pointerleave: onLeave });
}
