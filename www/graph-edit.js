// Editing a graph on the canvas with pointer events (mouse, pen and touch alike), as people
// expect from drawing tools:
// - a click on empty canvas adds a node there (a click while something is selected only
//   clears the selection);
// - dragging a node moves it; a click on it selects it and opens its form (id, start here,
//   goal here, delete); so does a right click;
// - Shift+drag from a node to another (or any drag with the Connect tool) adds an edge whose
//   cost is its length at the graph's usual cost per unit of length, rounded, and opens the
//   edge's form to change it;
// - a click on an edge or its cost opens its form: cost, and which way it may be taken;
// - Delete or Backspace removes what is selected; Escape closes the form;
// - the S and G markers drag onto another node to move the start or the goal;
// - with the Inspect tool a click or a tap on a node only reads it in the Node panel (g, h, f
//   and parent) and nothing is edited or opened.
// Every edit re-runs the search to the step it was on (the wasm layer does that). The forms
// are small panels over the canvas; what users type is only ever set as text or a value.

import { el, listen, options } from './dom.js';
import { short } from './space-paint.js';

/** Pixels a press may wander and still be a click. */
const CLICK_SLOP = 5;

/** A cost rounded as a new edge gets it: to a whole number, or to a tenth below 1. */
export function roundCost(cost) {
  if (cost >= 1) return Math.round(cost);
  return Math.max(0.1, Math.round(cost * 10) / 10);
}

/**
 * The default cost of a new edge of `length` (graph units) in a graph with `edges` at
 * `places`: its length times the graph's usual cost per unit of length (the median over its
 * edges; 1 in a graph without edges), rounded, so a new edge fits the costs around it.
 */
export function defaultCost(length, edges, places) {
  const ratios = [];
  for (const e of edges) {
    const d = Math.hypot(places[2 * e.from] - places[2 * e.to], places[2 * e.from + 1] - places[2 * e.to + 1]);
    if (d > 0 && e.cost > 0) ratios.push(e.cost / d);
  }
  ratios.sort((a, b) => a - b);
  const perUnit = ratios.length ? ratios[Math.floor(ratios.length / 2)] : 1;
  return { cost: roundCost(length * perUnit), scaled: ratios.length > 0 };
}

/** Rounds a place to a precision that suits the view (a hundredth of its span, in steps of 10). */
function tidy(value, span) {
  const step = 10 ** (Math.floor(Math.log10(Math.max(span, 1e-9))) - 2);
  const v = Math.round(value / step) * step;
  return Number(v.toFixed(Math.max(0, -Math.floor(Math.log10(step)))));
}

/**
 * Wires graph editing onto `app.canvas`. `app` provides: lab (a SpaceLab on a graph), painter
 * (a GraphPainter), wrap (the canvas's box, for the forms), labels() and edges() (cached),
 * edited(what, text), refused(text), touch(), locked(), setCursor(node) (the node the Node
 * panel reads when nothing is pointed at). Returns `{ tool, setTool, select,
 * removeSelected, closeForm, destroy }`.
 */
export function attachGraphEditing(app) {
  const canvas = app.canvas;
  let drag = null;
  let tool = 'move';

  const local = (event) => {
    const rect = canvas.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  };
  const worldSpan = () => {
    const w = app.painter.world;
    return Math.max(w.x1 - w.x0, w.y1 - w.y0);
  };
  const place = (px, py) => {
    const [x, y] = app.painter.toWorld(px, py);
    const span = worldSpan();
    return [tidy(x, span), tidy(y, span)];
  };

  // ---- forms -------------------------------------------------------------------------------

  const form = el('div', { class: 'pl-space-form', testid: 'space-form', hidden: true, role: 'dialog', 'aria-label': 'Edit' });
  const formTitle = el('p', { class: 'pl-space-form-title' });
  const closeButton = el('button', { type: 'button', class: 'pl-dismiss', 'aria-label': 'Close', title: 'Close (Escape)', text: '×' });
  // Node: rename, its weight (what entering it costs with the costs on the nodes), start or goal here, delete.
  const nodeId = el('input', { type: 'text', testid: 'node-id', maxlength: '64', spellcheck: 'false', 'aria-label': 'Node id' });
  const nodeCost = el('input', {
    type: 'number', testid: 'node-cost', min: '0', step: 'any', inputmode: 'decimal', 'aria-label': 'Node cost',
    title: 'What entering this node costs when the costs are on the nodes (Costs on: the nodes)',
  });
  const nodeStart = el('button', { type: 'button', testid: 'node-start', class: 'pl-btn pl-small', text: 'Start here' });
  const nodeGoal = el('button', { type: 'button', testid: 'node-goal', class: 'pl-btn pl-small', text: 'Goal here' });
  const nodeDelete = el('button', { type: 'button', testid: 'node-delete', class: 'pl-btn pl-small pl-danger', text: 'Delete node' });
  const nodeFields = el(
    'div',
    { class: 'pl-space-form-body' },
    el('label', { class: 'pl-space-form-line' }, el('span', { text: 'Id' }), nodeId),
    el('label', { class: 'pl-space-form-line' }, el('span', { text: 'Cost' }), nodeCost),
    el('div', { class: 'pl-row' }, nodeStart, nodeGoal, nodeDelete),
  );
  // Edge: cost, direction, delete.
  const costId = `pl-edge-cost-${Math.random().toString(36).slice(2, 8)}`;
  const edgeCost = el('input', { type: 'number', id: costId, testid: 'edge-cost', min: '0', step: 'any', inputmode: 'decimal', 'aria-label': 'Edge cost' });
  const edgeDirection = el('select', { testid: 'edge-direction', 'aria-label': 'Direction' });
  const edgeApply = el('button', { type: 'button', testid: 'edge-apply', class: 'pl-btn pl-small pl-primary', text: 'Set' });
  const edgeDelete = el('button', { type: 'button', testid: 'edge-delete', class: 'pl-btn pl-small pl-danger', text: 'Delete edge' });
  const edgeFields = el(
    'form',
    { class: 'pl-space-form-body' },
    el('div', { class: 'pl-space-form-line' }, el('label', { text: 'Cost', for: costId }), edgeCost, edgeDirection),
    el('div', { class: 'pl-row' }, edgeApply, edgeDelete),
  );
  form.append(el('div', { class: 'pl-space-form-head' }, formTitle, closeButton), nodeFields, edgeFields);
  app.wrap.append(form);

  function closeForm() {
    form.hidden = true;
    app.selection = null;
    app.touch();
  }

  /**
   * Puts the form beside (px, py), a point on the canvas: on the side where it covers the
   * fewest nodes and cost labels, inside the canvas where it fits.
   */
  function placeForm(px, py) {
    form.hidden = false;
    const wrapRect = app.wrap.getBoundingClientRect();
    const canvasRect = canvas.getBoundingClientRect();
    const dx = canvasRect.left - wrapRect.left;
    const dy = canvasRect.top - wrapRect.top;
    const w = form.offsetWidth || 240;
    const h = form.offsetHeight || 110;
    const cw = canvasRect.width;
    const ch = canvasRect.height;
    const gap = 22;
    const candidates = [
      [px + gap, py - h / 2],
      [px - w - gap, py - h / 2],
      [px - w / 2, py + gap],
      [px - w / 2, py - h - gap],
      [px + gap, py + gap],
      [px - w - gap, py - h - gap],
      [cw - w - 6, 6],
      [6, 6],
      [cw - w - 6, ch - h - 6],
      [6, ch - h - 6],
    ];
    const geometry = app.painter.geometry;
    const boxes = [
      ...geometry.nodes.map((n) => [n.x - n.hw - 8, n.y - n.r - 8, 2 * n.hw + 16, 2 * n.r + 16, 1]),
      ...geometry.edges.filter((e) => e.label).map((e) => [e.label.x, e.label.y, e.label.w, e.label.h, 0.5]),
      ...geometry.badges.map((b) => [b.x - b.r, b.y - b.r, 2 * b.r, 2 * b.r, 1]),
    ];
    let best = candidates[0];
    let bestScore = Infinity;
    for (const [x0, y0] of candidates) {
      const x = Math.max(0, Math.min(x0, cw - w));
      const y = Math.max(0, Math.min(y0, ch - h));
      // Near the point is better; far off, or pushed back inside the canvas, worse.
      let score = Math.abs(x - x0) * h + Math.abs(y - y0) * w + Math.hypot(x + w / 2 - px, y + h / 2 - py) * 30;
      // Covering the point itself (the node or edge being edited) counts most.
      if (px > x - 4 && px < x + w + 4 && py > y - 4 && py < y + h + 4) score += 1e7;
      for (const [bx, by, bw, bh, weight] of boxes) {
        const ox = Math.max(0, Math.min(x + w, bx + bw) - Math.max(x, bx));
        const oy = Math.max(0, Math.min(y + h, by + bh) - Math.max(y, by));
        score += ox * oy * 40 * weight;
      }
      if (score < bestScore) {
        bestScore = score;
        best = [x, y];
      }
    }
    form.style.left = `${dx + best[0]}px`;
    form.style.top = `${dy + best[1]}px`;
  }

  function select(selection) {
    app.selection = selection;
    if (!selection) {
      closeForm();
      return;
    }
    const labels = app.labels();
    if (selection.kind === 'node') {
      const id = labels[selection.index];
      formTitle.textContent = `Node ${id}`;
      nodeId.value = id;
      nodeCost.value = String(app.lab.nodeCosts()[selection.index] ?? 1);
      nodeFields.hidden = false;
      edgeFields.hidden = true;
      const p = app.painter.nodePoint(selection.index);
      placeForm(p?.x ?? 0, p?.y ?? 0);
    } else {
      const e = app.edges()[selection.index];
      if (!e) {
        closeForm();
        return;
      }
      const a = labels[e.from];
      const b = labels[e.to];
      formTitle.textContent = `Edge ${a} – ${b}`;
      edgeCost.value = String(e.cost);
      options(edgeDirection, ['both', 'forward', 'backward'], {
        both: 'both ways',
        forward: `${a} → ${b}`,
        backward: `${b} → ${a}`,
      });
      edgeDirection.value = e.directed ? 'forward' : 'both';
      nodeFields.hidden = true;
      edgeFields.hidden = false;
      const p = app.painter.edgePoint(selection.index);
      placeForm(p?.x ?? 0, p?.y ?? 0);
      if (selection.focus) {
        edgeCost.focus();
        edgeCost.select();
      }
    }
    app.touch();
  }

  /** Runs an edit; a refusal (a JS Error from the wasm layer) is shown and changes nothing. */
  function attempt(fn) {
    if (app.locked()) return false;
    try {
      fn();
      return true;
    } catch (e) {
      app.refused(e.message ?? String(e));
      return false;
    }
  }

  nodeId.addEventListener('change', () => {
    const sel = app.selection;
    if (sel?.kind !== 'node') return;
    const before = app.labels()[sel.index];
    const id = nodeId.value.trim();
    if (id === before) return;
    if (attempt(() => app.lab.renameNode(sel.index, id))) {
      app.edited('rename', `Renamed ${before} to ${id}.`);
      formTitle.textContent = `Node ${id}`;
    } else {
      nodeId.value = before;
    }
  });
  nodeCost.addEventListener('change', () => {
    const sel = app.selection;
    if (sel?.kind !== 'node') return;
    const id = app.labels()[sel.index];
    const before = app.lab.nodeCosts()[sel.index];
    const raw = nodeCost.value.trim();
    const cost = raw === '' ? NaN : Number(raw);
    if (cost === before) return;
    if (attempt(() => app.lab.setNodeCost(sel.index, cost))) {
      app.edited('node-cost', `Entering ${id} now costs ${cost}${app.lab.costsOn === 'nodes' ? '' : ' when the costs are on the nodes'}.`);
    } else {
      nodeCost.value = String(before);
    }
  });
  nodeId.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') nodeId.dispatchEvent(new Event('change'));
  });
  for (const [button, which] of [[nodeStart, 'start'], [nodeGoal, 'goal']]) {
    button.addEventListener('click', () => {
      const sel = app.selection;
      if (sel?.kind === 'node') setEnd(which, sel.index);
    });
  }
  nodeDelete.addEventListener('click', () => removeSelected());
  edgeFields.addEventListener('submit', (event) => {
    event.preventDefault();
    applyEdge();
  });
  edgeApply.addEventListener('click', () => applyEdge());
  edgeDirection.addEventListener('change', () => applyEdge());
  edgeCost.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    applyEdge();
  });
  edgeDelete.addEventListener('click', () => removeSelected());
  closeButton.addEventListener('click', () => closeForm());
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      closeForm();
      canvas.focus();
    }
    event.stopPropagation();
  });

  function applyEdge() {
    const sel = app.selection;
    if (sel?.kind !== 'edge') return;
    const e = app.edges()[sel.index];
    if (!e) return;
    const raw = edgeCost.value.trim();
    const cost = Number(raw);
    if (raw === '' || !Number.isFinite(cost) || cost < 0) {
      app.refused(`An edge's cost must be a number of 0 or more, got ${JSON.stringify(raw.slice(0, 20))}; it stays ${short(e.cost)}.`);
      edgeCost.value = String(e.cost);
      return;
    }
    const way = edgeDirection.value;
    const labels = app.labels();
    let index = sel.index;
    const ok = attempt(() => {
      if (way === 'backward') {
        // The other way round: the edge is made again from its far end.
        const added = app.lab.addEdge(e.to, e.from, cost, true);
        app.lab.removeEdge(sel.index);
        index = added > sel.index ? added - 1 : added;
      } else {
        app.lab.setEdge(sel.index, cost, way === 'forward');
      }
    });
    if (!ok) return;
    const [a, b] = way === 'backward' ? [labels[e.to], labels[e.from]] : [labels[e.from], labels[e.to]];
    const words = way === 'both' ? `${a} – ${b}, both ways` : `${a} → ${b}, one way`;
    app.edited('edge', `Edge ${words}, costs ${short(cost)} now; the search re-ran to step ${app.lab.steps}.`);
    select({ kind: 'edge', index });
  }

  function setEnd(which, node) {
    const labels = app.labels();
    const other = which === 'start' ? app.lab.goal : app.lab.start;
    if (node === other) {
      app.refused(`${labels[node]} is the ${which === 'start' ? 'goal' : 'start'}; the ${which} goes on another node.`);
      return;
    }
    if (attempt(() => (which === 'start' ? app.lab.setStart(node) : app.lab.setGoal(node)))) {
      app.edited(which, `The ${which} is ${labels[node]} now; the search re-ran to step ${app.lab.steps}.`);
      if (app.selection?.kind === 'node') select(app.selection);
    }
  }

  function removeSelected() {
    const sel = app.selection;
    if (!sel) return false;
    const labels = app.labels();
    if (sel.kind === 'node') {
      const id = labels[sel.index];
      if (attempt(() => app.lab.removeNode(sel.index))) {
        closeForm();
        app.edited('remove', `Removed node ${id} and its edges.`);
      }
    } else {
      const e = app.edges()[sel.index];
      if (attempt(() => app.lab.removeEdge(sel.index))) {
        closeForm();
        app.edited('remove', `Removed the edge ${labels[e.from]} – ${labels[e.to]}.`);
      }
    }
    return true;
  }

  // ---- pointer -----------------------------------------------------------------------------

  function hoverAt(px, py) {
    const node = app.painter.nodeAt(px, py);
    const badge = app.painter.badgeAt(px, py);
    const edge = node === null && !badge ? app.painter.edgeAt(px, py) : null;
    let hover = null;
    if (node !== null) hover = { kind: 'node', index: node };
    else if (edge !== null) hover = { kind: 'edge', index: edge };
    app.setHover(hover);
    if (badge) canvas.style.cursor = 'grab';
    else if (node !== null) canvas.style.cursor = tool === 'connect' ? 'crosshair' : 'move';
    else if (edge !== null) canvas.style.cursor = 'pointer';
    else canvas.style.cursor = 'copy';
  }

  function onDown(event) {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    if (drag) return;
    const [px, py] = local(event);
    event.preventDefault();
    canvas.focus({ preventScroll: true });
    try {
      canvas.setPointerCapture(event.pointerId);
    } catch {
      // A synthetic event has no pointer to capture; the drag still works inside.
    }
    const base = { id: event.pointerId, x0: px, y0: py, moved: false };
    if (tool === 'inspect') {
      drag = { ...base, mode: 'inspect' };
      return;
    }
    const badge = app.painter.badgeAt(px, py);
    const node = app.painter.nodeAt(px, py);
    if (badge) {
      drag = { ...base, mode: 'end', which: badge };
    } else if (node !== null) {
      if (event.shiftKey || tool === 'connect') drag = { ...base, mode: 'connect', from: node };
      else {
        const p = app.painter.nodePoint(node);
        drag = { ...base, mode: 'node', node, dx: px - p.x, dy: py - p.y };
      }
    } else {
      const edge = app.painter.edgeAt(px, py);
      drag = edge !== null ? { ...base, mode: 'edge', edge } : { ...base, mode: 'empty' };
    }
    if (drag.mode === 'end' || drag.mode === 'node') canvas.classList.add('pl-dragging');
  }

  function onMove(event) {
    const [px, py] = local(event);
    if (!drag) {
      hoverAt(px, py);
      return;
    }
    if (event.pointerId !== drag.id) return;
    if (!drag.moved && Math.hypot(px - drag.x0, py - drag.y0) > CLICK_SLOP) drag.moved = true;
    if (!drag.moved || drag.mode === 'inspect') return;
    const x = Math.max(0, Math.min(app.painter.width, px));
    const y = Math.max(0, Math.min(app.painter.height, py));
    if (drag.mode === 'node') {
      if (app.locked()) return;
      const [wx, wy] = place(x - drag.dx, y - drag.dy);
      if (attempt(() => app.lab.moveNode(drag.node, wx, wy))) {
        drag.changed = true;
        app.edited('move', null);
      }
    } else if (drag.mode === 'connect' || drag.mode === 'end') {
      const target = app.painter.nodeAt(x, y);
      app.preview = { mode: drag.mode, from: drag.from, which: drag.which, x, y, target };
      app.touch();
    }
  }

  function onUp(event) {
    if (!drag || event.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    app.preview = null;
    canvas.classList.remove('pl-dragging');
    if (canvas.hasPointerCapture?.(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
    const [px, py] = local(event);
    const labels = app.labels();
    if (d.mode === 'inspect') {
      // The node under the press (the nearest within reach), or none: read out, not edited.
      if (!d.moved) app.setCursor(app.painter.nodeAt(px, py));
    } else if (d.mode === 'node') {
      if (!d.moved) select({ kind: 'node', index: d.node });
      else if (d.changed) {
        const p = app.lab.nodeInfo(d.node);
        app.edited('moved', `Moved ${p.label}; the estimate h changes with the places, the costs do not.`);
      }
    } else if (d.mode === 'connect') {
      const target = app.painter.nodeAt(px, py);
      if (!d.moved || target === d.from) {
        select({ kind: 'node', index: d.from });
      } else if (target === null) {
        app.narrate('Drop the edge on another node to join them.');
      } else {
        const places = app.places();
        const length = Math.hypot(places[2 * d.from] - places[2 * target], places[2 * d.from + 1] - places[2 * target + 1]);
        const { cost, scaled } = defaultCost(length, app.edges(), places);
        const why = scaled ? "its length at this graph's usual cost per unit of length" : 'its length, rounded';
        let index = null;
        if (attempt(() => (index = app.lab.addEdge(d.from, target, cost, false)))) {
          app.edited('edge', `Added the edge ${labels[d.from]} – ${labels[target]} with cost ${short(cost)} (${why}); set another cost in its form.`);
          select({ kind: 'edge', index, focus: true });
        }
      }
    } else if (d.mode === 'end') {
      const target = app.painter.nodeAt(px, py);
      if (d.moved && target !== null) setEnd(d.which, target);
      else if (d.moved) app.narrate(`Drop the ${d.which} marker on a node to move the ${d.which}.`);
    } else if (d.mode === 'edge') {
      if (!d.moved) select({ kind: 'edge', index: d.edge });
    } else if (d.mode === 'empty' && !d.moved) {
      if (app.selection) {
        closeForm();
      } else if (!app.locked()) {
        const [x, y] = place(px, py);
        /** @type {number | null} */
        let node = null;
        if (attempt(() => (node = app.lab.addNode(x, y)))) {
          const id = app.labels(true)[node];
          app.edited('add', `Added node ${id} at (${short(x)}, ${short(y)}). Shift+drag from it to another node to join them.`);
        }
      }
    }
    app.touch();
    hoverAt(px, py);
  }

  function onContext(event) {
    if (tool === 'inspect') return;
    const [px, py] = local(event);
    const node = app.painter.nodeAt(px, py);
    const edge = node === null ? app.painter.edgeAt(px, py) : null;
    if (node === null && edge === null) return;
    event.preventDefault();
    select(node !== null ? { kind: 'node', index: node } : { kind: 'edge', index: edge });
  }

  function onLeave() {
    if (!drag) app.setHover(null);
  }

  const unlisten = listen(canvas, {
    pointerdown: onDown, pointermove: onMove, pointerup: onUp, pointercancel: onUp, pointerleave: onLeave, contextmenu: onContext,
  });

  return {
    get tool() {
      return tool;
    },
    setTool(name) {
      tool = name;
    },
    select,
    removeSelected,
    closeForm,
    /** Keeps the open form beside what it edits (after a paint moved things). */
    follow() {
      if (form.hidden || !app.selection) return;
      const sel = app.selection;
      const p = sel.kind === 'node' ? app.painter.nodePoint(sel.index) : app.painter.edgePoint(sel.index);
      if (p) placeForm(p.x, p.y);
    },
    destroy() {
      unlisten();
      form.remove();
    },
  };
}
