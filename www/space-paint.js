// Painting the spaces other than the square grid (space-view.js): a weighted graph (nodes as
// circles with their ids, edges with their costs at the middle and arrows on one-way edges)
// and hex tiles (terrain and search states in the square grid's colours). Both read the
// SpaceLab's per-node buffers through views built on the wasm memory at paint time (never
// kept: memory may grow between calls), and both work in CSS pixels on a canvas scaled by
// devicePixelRatio. Each painter also answers "what is under this point" for the editors,
// from the geometry of its last paint.

import { drawMarker, inkArrows, inkTerrain, stateColours } from './paint.js';
import { CellState, Terrain } from './pkg/pathlab_spaces.js';

/** The parents' "none". */
export const NO_PARENT = 0xffffffff;
/** The walking agent's marker (violet: apart from the state colours, start and goal). */
export const AGENT_COLOUR = '#6a2c91';
/** The read-out's word for each state (the backward frontier's states read as the forward ones). */
const STATE_NAMES = {
  [CellState.Unseen]: 'unseen',
  [CellState.Open]: 'open',
  [CellState.Closed]: 'closed',
  [CellState.Current]: 'current',
  [CellState.Path]: 'path',
  [CellState.OpenBack]: 'open',
  [CellState.ClosedBack]: 'closed',
};

const SQRT3 = Math.sqrt(3);

/**
 * The red, green and blue of a #rrggbb colour.
 * @param {string} hex
 * @returns {[number, number, number]}
 */
function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function css([r, g, b]) {
  return `rgb(${r}, ${g}, ${b})`;
}

/**
 * `a` moved the fraction `t` of the way towards `b`, channel by channel.
 * @param {[number, number, number]} a
 * @param {[number, number, number]} b
 * @param {number} t
 * @returns {[number, number, number]}
 */
function mix(a, b, t) {
  return /** @type {[number, number, number]} */ (a.map((v, i) => Math.round(v * (1 - t) + b[i] * t)));
}

/** Relative luminance of a #rrggbb colour. */
function luminance(hex) {
  return rgb(hex).reduce((sum, v, k) => {
    const c = v / 255;
    return sum + [0.2126, 0.7152, 0.0722][k] * (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  }, 0);
}

/** The fill of a node or hex in `state` (a CellState) on terrain `value` (a Terrain: ground, wall, mud, water). */
export function stateColour(palette, state, value = Terrain.Ground) {
  const states = stateColours(palette);
  let base;
  if (value === Terrain.Wall) return palette.wall;
  if (value === Terrain.Ground) base = rgb(palette.ground);
  else base = rgb(value < Terrain.Water ? palette.mud : palette.water);
  const s = states[state] ?? null;
  if (!s) return css(base);
  return value === Terrain.Ground ? s : css(mix(rgb(s), base, 0.3));
}

/** A number for a label: whole numbers as they are, others to one or two decimals. */
export function short(v) {
  if (v === undefined || v === null) return '–';
  if (!Number.isFinite(v)) return '∞';
  if (Number.isInteger(v)) return String(v);
  return Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2).replace(/0$/, '');
}

/** Distance from p to the segment a-b. */
/** The box of (x, y) pairs: [x0, y0, x1, y1] (infinite when there are none). */
function bounds(places) {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i + 1 < places.length; i += 2) {
    x0 = Math.min(x0, places[i]);
    x1 = Math.max(x1, places[i]);
    y0 = Math.min(y0, places[i + 1]);
    y1 = Math.max(y1, places[i + 1]);
  }
  return [x0, y0, x1, y1];
}

function segmentDistance(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** Sizes a canvas to `w` x `h` CSS pixels at `dpr` (the painters scale their context to CSS pixels). */
function sizeCanvas(canvas, w, h, dpr) {
  const pw = Math.max(1, Math.round(w * dpr));
  const ph = Math.max(1, Math.round(h * dpr));
  if (canvas.width !== pw) canvas.width = pw;
  if (canvas.height !== ph) canvas.height = ph;
  canvas.style.width = `${pw / dpr}px`;
  canvas.style.height = `${ph / dpr}px`;
}

/** The start (circle, S) or goal (diamond, G) marker at (x, y), radius r, in CSS pixels (paint.js's drawMarker). */
function marker(ctx, x, y, r, colour, letter, shape) {
  drawMarker(ctx, x, y, r, colour, letter, shape, { diamond: 1.15, minLine: 1.5, line: 0.14, minText: 6, text: 1.1 });
}

/** A rounded rectangle path. */
function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  if (ctx.roundRect) ctx.roundRect(x, y, w, h, r);
  else ctx.rect(x, y, w, h);
}

/** An arrow head with its tip at (x, y) pointing along (dx, dy) (a unit vector). */
function arrowHead(path, x, y, dx, dy, size) {
  const bx = x - dx * size;
  const by = y - dy * size;
  path.moveTo(x, y);
  path.lineTo(bx - dy * size * 0.55, by + dx * size * 0.55);
  path.lineTo(bx + dy * size * 0.55, by - dx * size * 0.55);
  path.closePath();
}

// ---- graphs --------------------------------------------------------------------------------

/**
 * Paints a graph. The view is a rectangle of graph units (`world`) fitted into the canvas; it
 * is set when a graph is loaded and kept while it is edited, so that nodes stay where they
 * were put. `paint(model, view)` takes what one frame shows (see space-view.js, graphModel).
 */
export class GraphPainter {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.dpr = 1;
    this.width = 1;
    this.height = 1;
    this.world = { x0: 0, y0: 0, x1: 1, y1: 1 };
    this.scale = 1;
    this.ox = 0;
    this.oy = 0;
    this.pad = 44;
    this.radius = 18;
    this.geometry = { nodes: [], edges: [], badges: [] };
  }

  setPalette(palette) {
    this.palette = palette;
    this.darkText = new Map([CellState.Current, CellState.ClosedBack].map((s) => [s, true]));
    for (const [s, c] of [[CellState.Open, palette.open], [CellState.Closed, palette.closed], [CellState.Path, palette.path]]) {
      this.darkText.set(s, luminance(c) < 0.18);
    }
  }

  /** Fits the view to the nodes' places (x, y pairs): the graph's box with a margin. */
  fitTo(places) {
    let [x0, y0, x1, y1] = bounds(places);
    if (!Number.isFinite(x0)) [x0, y0, x1, y1] = [0, 0, 10, 6];
    const span = Math.max(x1 - x0, y1 - y0) || 10;
    // A line of nodes still gets some room across it.
    if (x1 - x0 < span * 0.3) {
      const c = (x0 + x1) / 2;
      x0 = c - span * 0.15;
      x1 = c + span * 0.15;
    }
    if (y1 - y0 < span * 0.3) {
      const c = (y0 + y1) / 2;
      y0 = c - span * 0.15;
      y1 = c + span * 0.15;
    }
    this.world = { x0, y0, x1, y1 };
    this.place();
  }

  /** Sets the view to a rectangle of graph units. */
  setWorld(world) {
    this.world = { ...world };
    this.place();
  }

  /**
   * Sizes the canvas to `maxWidth` CSS pixels wide and a height that suits the view (at most
   * `maxHeight`), then places the view in it.
   */
  resize(maxWidth, maxHeight, dpr) {
    const { x0, y0, x1, y1 } = this.world;
    const aspect = Math.min(0.9, Math.max(0.5, (y1 - y0) / Math.max(1e-9, x1 - x0)));
    const width = Math.max(200, maxWidth);
    const height = Math.max(260, Math.min(maxHeight, width * aspect + this.pad));
    this.width = width;
    this.height = height;
    this.dpr = dpr;
    sizeCanvas(this.canvas, width, height, dpr);
    this.place();
  }

  place() {
    const { x0, y0, x1, y1 } = this.world;
    const pad = this.pad;
    const w = Math.max(1e-9, x1 - x0);
    const h = Math.max(1e-9, y1 - y0);
    this.scale = Math.max(1e-6, Math.min((this.width - 2 * pad) / w, (this.height - 2 * pad) / h));
    this.ox = (this.width - w * this.scale) / 2 - x0 * this.scale;
    this.oy = (this.height - h * this.scale) / 2 - y0 * this.scale;
  }

  /** Graph units to CSS pixels on the canvas. */
  toScreen(x, y) {
    return [this.ox + x * this.scale, this.oy + y * this.scale];
  }

  /** CSS pixels on the canvas to graph units. */
  toWorld(px, py) {
    return [(px - this.ox) / this.scale, (py - this.oy) / this.scale];
  }

  /** The graph units one CSS pixel spans; used to round new places to a tidy precision. */
  get unitsPerPixel() {
    return 1 / this.scale;
  }

  /** The node under (px, py) CSS pixels, or null. */
  nodeAt(px, py, slack = 4) {
    let best = null;
    let bestD = Infinity;
    for (const n of this.geometry.nodes) {
      let d = Math.hypot(px - n.x, py - n.y);
      // A pill: the distance from its middle bar.
      if (n.hw > n.r) d = Math.hypot(Math.max(0, Math.abs(px - n.x) - (n.hw - n.r)), py - n.y);
      if (d <= n.r + slack && d < bestD) {
        best = n.index;
        bestD = d;
      }
    }
    return best;
  }

  /** The edge under (px, py): its cost label, or within a few pixels of its line; or null. */
  edgeAt(px, py) {
    for (const e of this.geometry.edges) {
      const b = e.label;
      if (b && px >= b.x - 3 && px <= b.x + b.w + 3 && py >= b.y - 3 && py <= b.y + b.h + 3) return e.index;
    }
    let best = null;
    let bestD = 7;
    for (const e of this.geometry.edges) {
      for (let k = 0; k + 1 < e.points.length; k++) {
        const [ax, ay] = e.points[k];
        const [bx, by] = e.points[k + 1];
        const d = segmentDistance(px, py, ax, ay, bx, by);
        if (d < bestD) {
          bestD = d;
          best = e.index;
        }
      }
    }
    return best;
  }

  /** "start" or "goal" when (px, py) is on that marker, else null. */
  badgeAt(px, py) {
    for (const b of this.geometry.badges) {
      if (Math.hypot(px - b.x, py - b.y) <= b.r + 4) return b.which;
    }
    return null;
  }

  /** Where node `i` was drawn, in CSS pixels on the canvas. */
  nodePoint(i) {
    const n = this.geometry.nodes[i];
    return n ? { x: n.x, y: n.y } : null;
  }

  /** Where edge `i`'s cost label was drawn (its centre), in CSS pixels. */
  edgePoint(i) {
    const e = this.geometry.edges.find((g) => g.index === i);
    if (!e) return null;
    return e.label ? { x: e.label.x + e.label.w / 2, y: e.label.y + e.label.h / 2 } : { x: e.mid[0], y: e.mid[1] };
  }

  /** A radius for the nodes: large on small graphs, smaller where nodes crowd. */
  nodeRadius(count, places) {
    let nearest = Infinity;
    if (count <= 400) {
      for (let i = 0; i < count; i++) {
        for (let j = i + 1; j < count; j++) {
          const d = Math.hypot(places[2 * i] - places[2 * j], places[2 * i + 1] - places[2 * j + 1]) * this.scale;
          if (d > 0 && d < nearest) nearest = d;
        }
      }
    }
    const fromCount = count <= 12 ? 21 : count <= 30 ? 17 : count <= 80 ? 13 : 9;
    return Math.max(7, Math.min(fromCount, Number.isFinite(nearest) ? nearest * 0.36 : fromCount));
  }

  /**
   * Paints a frame. `m` (model): count, places (x, y pairs), states, g, parents, labels,
   * edges ({from, to, cost, directed}), path (node numbers), start, goal, h (per node, or
   * null), nodeCosts (each node's weight when the costs are on the nodes, else null: the
   * nodes then carry their weights and the edges none). `v` (view): selection, hover ({kind, index}), preview (a drag in progress),
   * numbers (whether to write g, h and f), parents (whether to draw parent arrows), usesH,
   * weight, algo.
   */
  paint(m, v) {
    const { ctx, palette } = this;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = palette.ground;
    ctx.fillRect(0, 0, this.width, this.height);
    const r = this.nodeRadius(m.count, m.places);
    this.radius = r;
    const nodes = this.nodeShapes(m, r);

    // Edges: those between the same two nodes are bowed apart, so each shows.
    const groups = new Map();
    m.edges.forEach((e, i) => {
      const key = e.from < e.to ? `${e.from},${e.to}` : `${e.to},${e.from}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(i);
    });
    const edges = [];
    for (const list of groups.values()) {
      list.forEach((i, k) => {
        const e = m.edges[i];
        const bow = (k - (list.length - 1) / 2) * 22;
        edges.push(this.edgeShape(i, e, nodes[e.from], nodes[e.to], bow));
      });
    }
    edges.sort((a, b) => a.index - b.index);

    // The path under everything else: a wide band along its edges.
    const onPath = new Set();
    for (let k = 0; k + 1 < m.path.length; k++) {
      const a = m.path[k];
      const b = m.path[k + 1];
      let best = null;
      for (const e of edges) {
        const fwd = e.from === a && e.to === b;
        const back = !e.directed && e.from === b && e.to === a;
        if ((fwd || back) && (best === null || e.cost < best.cost)) best = e;
      }
      if (best) onPath.add(best.index);
    }
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    for (const e of edges) {
      if (!onPath.has(e.index)) continue;
      this.strokeShape(e, 'rgba(255, 255, 255, 0.95)', 11);
      this.strokeShape(e, palette.pathLine, 7);
    }
    const selectedEdge = v.selection?.kind === 'edge' ? v.selection.index : null;
    const hoverEdge = v.hover?.kind === 'edge' ? v.hover.index : null;
    const heads = new Path2D();
    const accentHeads = new Path2D();
    const pathHeads = new Path2D();
    for (const e of edges) {
      const selected = e.index === selectedEdge;
      const colour = selected ? '#0072b2' : onPath.has(e.index) ? palette.pathLine : 'rgba(47, 53, 66, 0.62)';
      this.strokeShape(e, colour, selected ? 4 : e.index === hoverEdge ? 3.2 : 2);
      if (e.directed && e.arrow) arrowHead(selected ? accentHeads : onPath.has(e.index) ? pathHeads : heads, ...e.arrow, 11);
    }
    ctx.fillStyle = 'rgba(47, 53, 66, 0.85)';
    ctx.fill(heads);
    ctx.fillStyle = palette.pathLine;
    ctx.fill(pathHeads);
    ctx.fillStyle = '#0072b2';
    ctx.fill(accentHeads);

    // Parent arrows: from each reached node a short arrow towards its parent, beside the edge.
    if (v.parents) this.parentArrows(m, nodes);

    // Nodes, filled by state, with their ids.
    for (const n of nodes) {
      this.nodePath(n, 0);
      ctx.fillStyle = stateColour(palette, m.states[n.index]);
      ctx.fill();
      ctx.lineWidth = 1.8;
      ctx.strokeStyle = palette.wall;
      ctx.stroke();
    }
    // Start and goal: a ring in their colour, and their markers, which can be dragged.
    const ends = [['start', m.start, palette.start, 'S', 'circle', -1], ['goal', m.goal, palette.goal, 'G', 'diamond', 1]];
    for (const [, node, colour] of ends) {
      if (node >= m.count) continue;
      this.nodePath(nodes[node], 3);
      ctx.lineWidth = 4;
      ctx.strokeStyle = colour;
      ctx.stroke();
    }
    for (const n of nodes) {
      ctx.font = n.font;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillStyle = this.darkText.get(m.states[n.index]) ? '#ffffff' : palette.text;
      ctx.fillText(n.text, n.x, n.y + 0.5);
    }
    const hoverNode = v.hover?.kind === 'node' ? v.hover.index : null;
    if (hoverNode !== null && hoverNode < m.count) this.outline(nodes[hoverNode], 7, palette.hover, 2, []);
    // The keyboard cursor: a thick ring, white under blue, that stands out on any fill.
    if (v.cursor !== null && v.cursor !== undefined && v.cursor < m.count) {
      this.outline(nodes[v.cursor], 9, '#ffffff', 7, []);
      this.outline(nodes[v.cursor], 9, v.focused === false ? '#5b6473' : '#0072b2', 4, []);
    }
    if (v.selection?.kind === 'node' && v.selection.index < m.count) this.outline(nodes[v.selection.index], 8, '#0072b2', 3, [5, 4]);

    // Where the cost labels and markers go, so that the g, h, f tags can keep clear of them.
    const labelFont = `600 ${r >= 12 ? 13 : 11}px system-ui, sans-serif`;
    ctx.font = labelFont;
    const labelH = r >= 12 ? 19 : 16;
    // With the costs on the nodes, each node's weight sits under it and the edges carry none.
    const costs = m.nodeCosts ?? null;
    for (const e of edges) {
      e.text = costs ? '' : short(e.cost);
      const w = costs ? 0 : ctx.measureText(e.text).width + 10;
      e.label = { x: e.mid[0] - w / 2, y: e.mid[1] - labelH / 2, w, h: costs ? 0 : labelH };
    }
    const weights = costs
      ? nodes.map((n) => {
          const text = `cost ${short(costs[n.index])}`;
          const w = ctx.measureText(text).width + 10;
          return { text, x: n.x - w / 2, y: n.y + n.r + 3, w, h: labelH };
        })
      : [];
    const badgeR = Math.max(8, Math.min(11, r * 0.55));
    const badges = [];
    for (const [which, node, colour, letter, shape, side] of ends) {
      if (node >= m.count) continue;
      const n = nodes[node];
      let [x, y] = [n.x + side * (n.hw - r * 0.05), n.y - r * 0.95];
      if (v.preview?.mode === 'end' && v.preview.which === which) [x, y] = [v.preview.x, v.preview.y];
      badges.push({ which, x, y, r: badgeR, colour, letter, shape });
    }
    if (v.numbers) {
      const taken = [
        ...nodes.map((n) => ({ x: n.x - n.hw, y: n.y - n.r, w: 2 * n.hw, h: 2 * n.r })),
        ...edges.map((e) => e.label),
        ...weights,
        ...badges.map((b) => ({ x: b.x - b.r, y: b.y - b.r, w: 2 * b.r, h: 2 * b.r })),
      ];
      // The tags go on the side of each node away from the middle of the graph, where fewer
      // edges run, unless something is there already.
      const cx = nodes.reduce((sum, n) => sum + n.x, 0) / Math.max(1, m.count);
      const cy = nodes.reduce((sum, n) => sum + n.y, 0) / Math.max(1, m.count);
      for (const n of nodes) this.numbers(m, n, v, [n.x - cx, n.y - cy], taken);
    }

    // Cost labels on top of the lines, then the markers.
    ctx.font = labelFont;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (const t of weights) {
      roundRect(ctx, t.x, t.y, t.w, t.h, 5);
      ctx.fillStyle = '#fff8e1';
      ctx.fill();
      ctx.lineWidth = 1.2;
      ctx.strokeStyle = 'rgba(47, 53, 66, 0.45)';
      ctx.stroke();
      ctx.fillStyle = palette.text;
      ctx.fillText(t.text, t.x + t.w / 2, t.y + t.h / 2 + 0.5);
    }
    for (const e of edges) {
      if (!e.text) continue;
      const b = e.label;
      const selected = e.index === selectedEdge;
      roundRect(ctx, b.x, b.y, b.w, b.h, 5);
      ctx.fillStyle = selected ? '#0072b2' : '#ffffff';
      ctx.fill();
      ctx.lineWidth = 1.2;
      ctx.strokeStyle = selected ? '#0072b2' : onPath.has(e.index) ? palette.pathLine : 'rgba(47, 53, 66, 0.45)';
      ctx.stroke();
      ctx.fillStyle = selected ? '#ffffff' : palette.text;
      ctx.fillText(e.text, b.x + b.w / 2, b.y + b.h / 2 + 0.5);
    }
    for (const b of badges) marker(ctx, b.x, b.y, b.r, b.colour, b.letter, b.shape);
    // A walking agent (D* Lite, LRTA*, RTA*): a violet marker under its node.
    if (m.agent !== null && m.agent !== undefined && m.agent < m.count) {
      const n = nodes[m.agent];
      marker(ctx, n.x, n.y + n.r * 0.95, badgeR, AGENT_COLOUR, 'A', 'circle');
    }

    // A drag that is making an edge: a dashed line to the pointer, the node it would join ringed.
    const p = v.preview;
    if (p?.mode === 'connect' && p.from < m.count) {
      ctx.save();
      ctx.setLineDash([6, 5]);
      ctx.strokeStyle = '#0072b2';
      ctx.lineWidth = 2.5;
      ctx.beginPath();
      ctx.moveTo(nodes[p.from].x, nodes[p.from].y);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
      ctx.restore();
    }
    if (p && p.target !== null && p.target !== undefined && p.target < m.count) this.outline(nodes[p.target], 7, '#0072b2', 3, []);
    this.geometry = { nodes, edges, badges };
  }

  /**
   * Each node's place on the screen and shape: a circle with its id inside, or, for an id too
   * long for a circle, a pill as wide as the id (`hw`: half its width).
   */
  nodeShapes(m, r) {
    const { ctx } = this;
    const small = Math.max(11, Math.min(14, Math.round(r * 0.8)));
    return Array.from({ length: m.count }, (_, i) => {
      const [x, y] = this.toScreen(m.places[2 * i], m.places[2 * i + 1]);
      let text = m.labels[i] ?? String(i);
      for (let size = Math.round(r * 0.95); size >= small; size--) {
        const font = `700 ${size}px system-ui, sans-serif`;
        ctx.font = font;
        if (ctx.measureText(text).width <= r * 1.7) return { index: i, x, y, r, hw: r, text, font };
      }
      const font = `700 ${small}px system-ui, sans-serif`;
      ctx.font = font;
      let w = ctx.measureText(text).width;
      if (w > 150) {
        while (text.length > 2 && ctx.measureText(`${text}…`).width > 150) text = text.slice(0, -1);
        text = `${text}…`;
        w = ctx.measureText(text).width;
      }
      return { index: i, x, y, r, hw: Math.max(r, w / 2 + 8), text, font };
    });
  }

  /** The outline of node `n`, `grow` pixels out, as the current path. */
  nodePath(n, grow) {
    const { ctx } = this;
    ctx.beginPath();
    if (n.hw <= n.r) ctx.arc(n.x, n.y, n.r + grow, 0, Math.PI * 2);
    else if (ctx.roundRect) ctx.roundRect(n.x - n.hw - grow, n.y - n.r - grow, 2 * (n.hw + grow), 2 * (n.r + grow), n.r + grow);
    else ctx.rect(n.x - n.hw - grow, n.y - n.r - grow, 2 * (n.hw + grow), 2 * (n.r + grow));
  }

  /** How far from node `n`'s centre its rim is, going along the unit vector (ux, uy). */
  rim(n, ux, uy) {
    if (n.hw <= n.r) return n.r;
    const tx = Math.abs(ux) > 1e-9 ? n.hw / Math.abs(ux) : Infinity;
    const ty = Math.abs(uy) > 1e-9 ? n.r / Math.abs(uy) : Infinity;
    return Math.min(tx, ty);
  }

  /** The drawn shape of an edge: points along it, its middle and where its arrow goes. */
  edgeShape(index, e, A, B, bow) {
    const { x: ax, y: ay } = A;
    const { x: bx, y: by } = B;
    const base = { index, from: e.from, to: e.to, cost: e.cost, directed: e.directed };
    if (e.from === e.to) {
      // A loop above the node.
      const r = A.r;
      const cx = ax;
      const cy = ay - r * 1.6;
      const points = [];
      for (let k = 0; k <= 16; k++) {
        const t = (Math.PI * 2 * k) / 16 + Math.PI / 2;
        points.push([cx + Math.cos(t) * r * 0.75, cy + Math.sin(t) * r * 0.75]);
      }
      return { ...base, points, mid: [cx, cy - r * 1.15], arrow: null };
    }
    const len = Math.hypot(bx - ax, by - ay) || 1;
    // The normal is taken from the lower-numbered node, so edges both ways bow apart.
    const sign = e.from < e.to ? 1 : -1;
    const nx = (-(by - ay) / len) * sign;
    const ny = ((bx - ax) / len) * sign;
    const cx = (ax + bx) / 2 + nx * bow;
    const cy = (ay + by) / 2 + ny * bow;
    const at = (t) => [
      (1 - t) * (1 - t) * ax + 2 * (1 - t) * t * cx + t * t * bx,
      (1 - t) * (1 - t) * ay + 2 * (1 - t) * t * cy + t * t * by,
    ];
    const points = [];
    const steps = bow === 0 ? 1 : 12;
    for (let k = 0; k <= steps; k++) points.push(at(k / steps));
    // The arrow's tip on the target's rim, pointing along the curve's end.
    let tx = bx - (bow === 0 ? ax : cx);
    let ty = by - (bow === 0 ? ay : cy);
    const tl = Math.hypot(tx, ty) || 1;
    tx /= tl;
    ty /= tl;
    const back = this.rim(B, tx, ty) + 4;
    const arrow = [bx - tx * back, by - ty * back, tx, ty];
    return { ...base, points, mid: at(0.5), arrow };
  }

  strokeShape(e, colour, width) {
    const { ctx } = this;
    ctx.beginPath();
    // One-way edges stop short of the target's rim, where the arrow head goes.
    const pts = e.points;
    ctx.moveTo(...pts[0]);
    for (let k = 1; k < pts.length; k++) {
      if (k === pts.length - 1 && e.arrow && e.directed) ctx.lineTo(e.arrow[0] - e.arrow[2] * 6, e.arrow[1] - e.arrow[3] * 6);
      else ctx.lineTo(...pts[k]);
    }
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.stroke();
  }

  parentArrows(m, nodes) {
    const { ctx } = this;
    const lines = new Path2D();
    const heads = new Path2D();
    for (let i = 0; i < m.count; i++) {
      const p = m.parents[i];
      if (p === NO_PARENT || p >= m.count || m.states[i] === CellState.Unseen || p === i) continue;
      const n = nodes[i];
      const q = nodes[p];
      const d = Math.hypot(q.x - n.x, q.y - n.y);
      const dx = (q.x - n.x) / d;
      const dy = (q.y - n.y) / d;
      const from = this.rim(n, dx, dy) + 4;
      const room = d - from - this.rim(q, -dx, -dy);
      if (room < 24) continue;
      // Beside the edge, so the edge still shows.
      const ox = -dy * 7;
      const oy = dx * 7;
      const to = from + Math.min(34, room * 0.42);
      lines.moveTo(n.x + dx * from + ox, n.y + dy * from + oy);
      lines.lineTo(n.x + dx * (to - 6) + ox, n.y + dy * (to - 6) + oy);
      arrowHead(heads, n.x + dx * to + ox, n.y + dy * to + oy, dx, dy, 8);
    }
    ctx.strokeStyle = 'rgba(31, 36, 48, 0.7)';
    ctx.fillStyle = 'rgba(31, 36, 48, 0.7)';
    ctx.lineWidth = 1.8;
    ctx.stroke(lines);
    ctx.fill(heads);
  }

  /**
   * g, h and f in a tag beside a node (h alone on nodes not reached yet), on the free side
   * that faces away from the middle of the graph (`out`); `taken` lists boxes to keep clear
   * of, and gets the tag's box.
   */
  numbers(m, n, v, [ox, oy], taken) {
    const { ctx, palette } = this;
    const i = n.index;
    const g = m.g[i];
    const reached = m.states[i] !== CellState.Unseen && Number.isFinite(g);
    const h = m.h ? m.h[i] : null;
    let text;
    if (reached) {
      text = `g ${short(g)}`;
      if (h !== null && v.usesH) text += ` h ${short(h)} f ${short(v.algo === 'greedy' ? h : g + v.weight * h)}`;
    } else if (h !== null && v.usesH) {
      text = `h ${short(h)}`;
    } else {
      return;
    }
    ctx.font = `${reached ? 600 : 500} 11px system-ui, sans-serif`;
    const w = ctx.measureText(text).width + 8;
    const hgt = 15;
    const sides = {
      below: { x: n.x - w / 2, y: n.y + n.r + 5 },
      above: { x: n.x - w / 2, y: n.y - n.r - 5 - hgt },
      right: { x: n.x + n.hw + 6, y: n.y - hgt / 2 },
      left: { x: n.x - n.hw - 6 - w, y: n.y - hgt / 2 },
    };
    const outward = Math.abs(ox) > Math.abs(oy) * 1.2 ? (ox > 0 ? 'right' : 'left') : oy < 0 ? 'above' : 'below';
    const order = [outward, ...['below', 'above', 'right', 'left'].filter((s) => s !== outward)];
    const overlap = (a, b) =>
      Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
    let best = null;
    let bestScore = Infinity;
    for (const side of order) {
      const box = { ...sides[side], w, h: hgt };
      let score = 0;
      for (const t of taken) score += overlap(box, t);
      // Off the canvas counts against a side too.
      score += (Math.max(0, -box.x) + Math.max(0, box.x + w - this.width)) * hgt;
      score += (Math.max(0, -box.y) + Math.max(0, box.y + hgt - this.height)) * w;
      if (score < bestScore - 1e-9) {
        best = box;
        bestScore = score;
      }
      if (score === 0) break;
    }
    taken.push(best);
    roundRect(ctx, best.x, best.y, w, hgt, 4);
    ctx.fillStyle = reached ? 'rgba(255, 255, 255, 0.94)' : 'rgba(255, 255, 255, 0.7)';
    ctx.fill();
    if (reached) {
      ctx.lineWidth = 1;
      ctx.strokeStyle = 'rgba(47, 53, 66, 0.35)';
      ctx.stroke();
    }
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = reached ? palette.text : 'rgba(31, 36, 48, 0.62)';
    ctx.fillText(text, best.x + w / 2, best.y + hgt / 2 + 0.5);
  }

  /** An outline around node `n`, `grow` pixels out. */
  outline(n, grow, colour, width, dash) {
    const { ctx } = this;
    ctx.save();
    ctx.setLineDash(dash);
    this.nodePath(n, grow);
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.stroke();
    ctx.restore();
  }
}

/** A node state's name, for read-outs. */
export function stateName(s) {
  return STATE_NAMES[s] ?? 'unseen';
}

// ---- hexes ---------------------------------------------------------------------------------

/**
 * Paints hex tiles. Hex centres come from the SpaceLab (`placesPtr`, hexes of circumradius 1);
 * the painter scales them to fit the canvas with the same colours as the square grid.
 */
export class HexPainter {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.dpr = 1;
    this.scale = 10;
    this.box = { x0: 0, y0: 0, x1: 1, y1: 1 };
    this.width = 1;
    this.height = 1;
  }

  setPalette(palette) {
    this.palette = palette;
  }

  /** Sets the hexes' box from their centres and layout. */
  setCells(places, layout) {
    this.layout = layout;
    const [x0, y0, x1, y1] = bounds(places);
    const [hw, hh] = layout === 'flat' ? [1, SQRT3 / 2] : [SQRT3 / 2, 1];
    this.box = { x0: x0 - hw, y0: y0 - hh, x1: x1 + hw, y1: y1 + hh };
  }

  /** Sizes the canvas so the hexes fit `maxWidth` x `maxHeight` CSS pixels. */
  resize(maxWidth, maxHeight, dpr) {
    const { x0, y0, x1, y1 } = this.box;
    const scale = Math.max(0.5, Math.min(maxWidth / (x1 - x0), maxHeight / (y1 - y0)));
    this.scale = scale;
    this.width = (x1 - x0) * scale;
    this.height = (y1 - y0) * scale;
    this.dpr = dpr;
    sizeCanvas(this.canvas, this.width, this.height, dpr);
  }

  toScreen(x, y) {
    return [(x - this.box.x0) * this.scale, (y - this.box.y0) * this.scale];
  }

  toWorld(px, py) {
    return [px / this.scale + this.box.x0, py / this.scale + this.box.y0];
  }

  /** Radius of the start and goal markers, in CSS pixels. */
  markerRadius() {
    return Math.max(8, Math.min(this.scale * 0.55, 22));
  }

  /** True when hexes are large enough to write g (and f) in. */
  numbersShown(n) {
    return this.scale >= 34 && n <= 2500;
  }

  hexPath(path, x, y, radius) {
    const start = this.layout === 'flat' ? 0 : -Math.PI / 2;
    for (let k = 0; k < 6; k++) {
      const a = start + (Math.PI / 3) * k;
      const px = x + Math.cos(a) * radius;
      const py = y + Math.sin(a) * radius;
      if (k === 0) path.moveTo(px, py);
      else path.lineTo(px, py);
    }
    path.closePath();
  }

  /**
   * Paints a frame. `m`: count, width, places, cells, states, g, parents, path, start, goal,
   * h (per cell or null). `v`: hover (cell or null), numbers, usesH, weight, algo.
   */
  paint(m, v) {
    const { ctx, palette } = this;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = palette.page ?? '#f2f1ec';
    ctx.clearRect(0, 0, this.width, this.height);
    const s = this.scale;
    const fills = new Map();
    const centre = (i) => this.toScreen(m.places[2 * i], m.places[2 * i + 1]);
    for (let i = 0; i < m.count; i++) {
      const colour = stateColour(palette, m.states[i] & 7, m.cells[i]);
      let path = fills.get(colour);
      if (!path) fills.set(colour, (path = new Path2D()));
      const [x, y] = centre(i);
      this.hexPath(path, x, y, s + 0.35);
    }
    for (const [colour, path] of fills) {
      ctx.fillStyle = colour;
      ctx.fill(path);
    }
    if (s >= 5) {
      const lines = new Path2D();
      for (let i = 0; i < m.count; i++) {
        const [x, y] = centre(i);
        this.hexPath(lines, x, y, s);
      }
      ctx.strokeStyle = palette.gridLine;
      ctx.lineWidth = 1;
      ctx.stroke(lines);
    }
    if (s >= 9) this.terrainMarks(m, centre, s);
    if (s >= 13 && m.count <= 16384) this.parentArrows(m, centre, s, v.numbers);
    if (v.numbers) this.numbers(m, centre, s, v);
    if (m.path.length > 1) {
      ctx.beginPath();
      m.path.forEach((i, k) => {
        const [x, y] = centre(i);
        if (k === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      });
      const width = Math.min(7, Math.max(2.5, s * 0.22));
      ctx.lineJoin = 'round';
      ctx.lineCap = 'round';
      ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
      ctx.lineWidth = width + 2.5;
      ctx.stroke();
      ctx.strokeStyle = palette.pathLine;
      ctx.lineWidth = width;
      ctx.stroke();
    }
    // On a hex that shows numbers the marker keeps to its left side, clear of the text.
    const withNumbers = (i) => v.numbers && m.states[i] !== CellState.Unseen && Number.isFinite(m.g[i]);
    const end = (i, colour, letter, shape) => {
      if (i >= m.count) return;
      const [x, y] = centre(i);
      if (withNumbers(i)) marker(ctx, x - s * 0.6, y, Math.max(7, s * 0.19), colour, letter, shape);
      else marker(ctx, x, y, this.markerRadius(), colour, letter, shape);
    };
    end(m.start, palette.start, 'S', 'circle');
    end(m.goal, palette.goal, 'G', 'diamond');
    if (m.agent !== null && m.agent !== undefined && m.agent < m.count) {
      const [x, y] = centre(m.agent);
      marker(ctx, x, y + (withNumbers(m.agent) ? s * 0.45 : 0), Math.max(6, Math.min(this.markerRadius() * 0.8, s * 0.4)), AGENT_COLOUR, 'A', 'circle');
    }
    if (v.hover !== null && v.hover !== undefined && v.hover < m.count) {
      const ring = new Path2D();
      const [x, y] = centre(v.hover);
      this.hexPath(ring, x, y, s - 1.5);
      ctx.lineWidth = Math.max(2, s * 0.08);
      ctx.strokeStyle = '#ffffff';
      ctx.stroke(ring);
      const inner = new Path2D();
      this.hexPath(inner, x, y, s - 1.5 - Math.max(2, s * 0.08));
      ctx.strokeStyle = palette.hover;
      ctx.stroke(inner);
    }
    if (v.cursor !== null && v.cursor !== undefined && v.cursor < m.count) {
      const [x, y] = centre(v.cursor);
      const w = Math.max(2.5, s * 0.12);
      const outer = new Path2D();
      this.hexPath(outer, x, y, s - w / 2);
      ctx.lineWidth = w + 3;
      ctx.strokeStyle = '#ffffff';
      ctx.stroke(outer);
      ctx.lineWidth = w;
      ctx.strokeStyle = v.focused === false ? '#5b6473' : '#0072b2';
      ctx.stroke(outer);
    }
    this.centres = centre;
  }

  terrainMarks(m, centre, s) {
    const { ctx } = this;
    const mud = new Path2D();
    const water = new Path2D();
    const r = Math.max(0.8, s * 0.07);
    for (let i = 0; i < m.count; i++) {
      const v = m.cells[i];
      if (v < 2) continue;
      const [x, y] = centre(i);
      if (v < 5) {
        for (const [u, t] of [[-0.3, -0.25], [0.3, -0.1], [-0.05, 0.35]]) {
          mud.moveTo(x + u * s + r, y + t * s);
          mud.arc(x + u * s, y + t * s, r, 0, Math.PI * 2);
        }
      } else {
        for (const t of [-0.2, 0.25]) {
          water.moveTo(x - 0.5 * s, y + t * s);
          water.quadraticCurveTo(x - 0.25 * s, y + (t - 0.15) * s, x, y + t * s);
          water.quadraticCurveTo(x + 0.25 * s, y + (t + 0.15) * s, x + 0.5 * s, y + t * s);
        }
      }
    }
    inkTerrain(ctx, mud, water, Math.max(1, s * 0.06));
  }

  parentArrows(m, centre, s, numbers) {
    const { ctx } = this;
    const lines = new Path2D();
    const heads = new Path2D();
    // Beside numbers the arrow keeps to the rim facing the parent, clear of the text.
    const [from, tip] = numbers ? [0.6, 0.88] : [0.12, 0.7];
    for (let i = 0; i < m.count; i++) {
      const p = m.parents[i];
      if (p === NO_PARENT || p >= m.count || m.states[i] === CellState.Unseen) continue;
      const [x, y] = centre(i);
      const [px, py] = centre(p);
      const d = Math.hypot(px - x, py - y) || 1;
      const dx = (px - x) / d;
      const dy = (py - y) / d;
      const head = s * (numbers ? 0.16 : 0.2);
      lines.moveTo(x + dx * from * s, y + dy * from * s);
      lines.lineTo(x + dx * (tip * s - head * 0.8), y + dy * (tip * s - head * 0.8));
      arrowHead(heads, x + dx * tip * s, y + dy * tip * s, dx, dy, head);
    }
    inkArrows(ctx, lines, heads, Math.max(1, s * 0.05));
  }

  numbers(m, centre, s, v) {
    const { ctx, palette } = this;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let i = 0; i < m.count; i++) {
      const st = m.states[i];
      const g = m.g[i];
      if (st === CellState.Unseen || !Number.isFinite(g) || m.cells[i] === Terrain.Wall) continue;
      const [x, y] = centre(i);
      ctx.fillStyle = st === CellState.Current ? '#ffffff' : palette.text;
      const h = m.h ? m.h[i] : null;
      let key = g;
      if (h !== null && v.usesH) key = v.algo === 'greedy' ? h : g + v.weight * h;
      ctx.font = `600 ${Math.round(s * 0.36)}px system-ui, sans-serif`;
      ctx.fillText(short(key), x, y - s * 0.22);
      if (h !== null && v.usesH) {
        ctx.font = `${Math.round(s * 0.25)}px system-ui, sans-serif`;
        ctx.fillText(`g${short(g)} h${short(h)}`, x, y + s * 0.3);
      }
    }
  }
}
