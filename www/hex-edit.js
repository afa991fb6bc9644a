// Painting hex tiles with pointer events, as on the square grid (edit.js): a drag paints the
// brush (walls by default) along the pointer's track; a drag that starts on a wall, or on a
// hex already of the brush's kind, erases back to ground; a drag that starts on the start or
// goal marker moves it. Every edit re-runs the search to the step it stood at (the wasm layer
// does that). The Inspect tool (brush null), and any press on a locked page, only selects the
// hex for the Hex panel (g, h, f and parent): mouse, pen and a finger's tap alike.

import { listen } from './dom.js';

const GROUND = 1;
const WALL = 0;

/**
 * Wires hex editing onto `app.canvas`. `app` provides: lab (a SpaceLab on hexes), painter (a
 * HexPainter), cells() (the hex values now), brush() (the value to paint, or null for the
 * Inspect tool), config (its `lock`), setHover(index | null), setCursor(index) (the hex the Hex panel reads when
 * nothing is pointed at), edited(what, text), refused(text), locked(). Returns a function that
 * unhooks it.
 */
export function attachHexEditing(app) {
  const canvas = app.canvas;
  let drag = null;

  const local = (event) => {
    const rect = canvas.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  };
  /** The hex under (px, py) CSS pixels on the canvas, or null. */
  const hexAt = (px, py) => {
    const [x, y] = app.painter.toWorld(px, py);
    const i = app.lab.hexAt(x, y);
    return i === undefined || i === null ? null : i;
  };

  /** "start" or "goal" when (px, py) is on that marker. */
  function markerAt(px, py) {
    const r = Math.max(app.painter.markerRadius(), app.painter.scale * 0.8);
    let best = null;
    let bestD = Infinity;
    for (const which of ['start', 'goal']) {
      const [x, y] = app.centre(which === 'start' ? app.lab.start : app.lab.goal);
      const d = Math.hypot(px - x, py - y);
      if (d <= r && d < bestD) {
        best = which;
        bestD = d;
      }
    }
    return best;
  }

  function paint(indices, value) {
    try {
      return app.lab.paintHex(Uint32Array.from(indices), value);
    } catch (e) {
      app.refused(e.message ?? String(e));
      return 0;
    }
  }

  /** The hexes along the segment between two points (CSS pixels), a few samples per hex. */
  function along(x0, y0, x1, y1) {
    const stepPx = Math.max(1, app.painter.scale * 0.3);
    const n = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / stepPx));
    const out = new Set();
    for (let k = 1; k <= n; k++) {
      const i = hexAt(x0 + ((x1 - x0) * k) / n, y0 + ((y1 - y0) * k) / n);
      if (i !== null) out.add(i);
    }
    return [...out];
  }

  function moveMarker(which, i) {
    const lab = app.lab;
    if (i === lab.start || i === lab.goal) return;
    if (app.cells()[i] === WALL) {
      drag.blocked = true;
      return;
    }
    drag.blocked = false;
    try {
      if (which === 'start') lab.setStart(i);
      else lab.setGoal(i);
    } catch (e) {
      app.refused(e.message ?? String(e));
      return;
    }
    app.edited(which, `Moved the ${which}; the search re-ran to step ${lab.steps}.`);
  }

  function onDown(event) {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    if (drag) return;
    const [px, py] = local(event);
    const i = hexAt(px, py);
    if (i === null) return;
    event.preventDefault();
    canvas.focus({ preventScroll: true });
    try {
      canvas.setPointerCapture(event.pointerId);
    } catch {
      // A synthetic event has no pointer to capture.
    }
    const brush = app.brush();
    if (brush === null || app.config.lock) {
      drag = { id: event.pointerId, mode: 'inspect', x: px, y: py };
      app.setCursor(i);
      return;
    }
    app.setHover(i);
    const marker = markerAt(px, py);
    if (marker) {
      drag = { id: event.pointerId, mode: marker, x: px, y: py, blocked: false };
      canvas.classList.add('pl-dragging');
      return;
    }
    const under = app.cells()[i];
    const value = under === WALL || under === brush ? GROUND : brush;
    drag = { id: event.pointerId, mode: 'paint', value, x: px, y: py };
    if (paint([i], value) > 0) app.edited(value === GROUND ? 'erase' : 'paint');
  }

  function onMove(event) {
    const [px, py] = local(event);
    if (!drag) {
      const i = hexAt(px, py);
      app.setHover(i);
      canvas.style.cursor = i !== null && markerAt(px, py) ? 'grab' : '';
      return;
    }
    if (event.pointerId !== drag.id) return;
    const i = hexAt(px, py);
    if (i !== null) app.setHover(i);
    if (drag.mode === 'inspect') {
      if (i !== null) app.setCursor(i);
    } else if (drag.mode === 'paint') {
      const cells = along(drag.x, drag.y, px, py);
      if (cells.length && paint(cells, drag.value) > 0) app.edited(drag.value === GROUND ? 'erase' : 'paint');
    } else if (i !== null) {
      moveMarker(drag.mode, i);
    }
    drag.x = px;
    drag.y = py;
  }

  function onUp(event) {
    if (!drag || event.pointerId !== drag.id) return;
    if (drag.blocked) app.refused(`The ${drag.mode} cannot go on a wall; it stays where it was.`);
    drag = null;
    canvas.classList.remove('pl-dragging');
    if (canvas.hasPointerCapture?.(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
  }

  function onLeave() {
    if (!drag) app.setHover(null);
  }

  return listen(canvas, { pointerdown: onDown, pointermove: onMove, pointerup: onUp, pointercancel: onUp, pointerleave: onLeave });
}
