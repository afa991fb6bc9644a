// Painting the navmesh and corner-graph views (navmesh-view.js) on one canvas: the grid's walls,
// the mesh's polygons and portals or the corner graph's bend corners and sight lines, the
// search's states, the corridor, the funnel (apex, left leg, right leg, the portal tested), the
// exact any-angle optimum under the path, the path, the waypoints compared, and the ends.
// Coordinates are in cells (a cell's centre is x + 0.5); the painter fits the map to the canvas.

/** The funnel's and the overlays' colours, apart from the search's (palette.js). */
export const NAV_COLOURS = {
  polygon: 'rgba(0, 114, 178, 0.55)',
  portal: 'rgba(0, 114, 178, 0.35)',
  corridor: 'rgba(240, 228, 66, 0.55)',
  sight: 'rgba(86, 180, 233, 0.35)',
  bend: '#0072b2',
  apex: '#1f2430',
  leftLeg: '#6a3d9a',
  rightLeg: '#b15928',
  tested: '#e69f00',
  optimum: '#7a7a7a',
  waypoints: '#56b4e9',
};

/** Above this many sight lines the corner view draws only the corners (a thicket helps no one). */
const MAX_SIGHT_LINES = 1500;

/** Room around the map (CSS pixels), so that ends on its outer corners are drawn whole. */
const PAD = 12;

/** A line width that grows with the cells but stays a line: `k` of a cell, from `lo` to `hi` pixels. */
function widthFor(scale, k, lo, hi) {
  return Math.max(lo, Math.min(hi, scale * k));
}

/** The search states' bytes (the core's CellState). */
const OPEN = 1;
const CLOSED = 2;
const CURRENT = 3;

export class NavPainter {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    this.scale = 1;
    this.ox = 0;
    this.oy = 0;
    this.cssWidth = 0;
    this.cssHeight = 0;
    this.dpr = 1;
  }

  setPalette(palette) {
    this.palette = palette;
  }

  resize(width, maxHeight, dpr) {
    this.cssWidth = width;
    this.cssHeight = maxHeight;
    this.dpr = dpr;
  }

  /** Fits a `width` x `height` map into the canvas; returns true when the canvas size changed. */
  fit(width, height) {
    const scale = Math.max(0.25, Math.min((this.cssWidth - 2 * PAD) / width, (this.cssHeight - 2 * PAD) / height));
    const w = Math.round(width * scale) + 2 * PAD;
    const h = Math.round(height * scale) + 2 * PAD;
    this.scale = scale;
    this.ox = PAD;
    this.oy = PAD;
    const pw = Math.round(w * this.dpr);
    const ph = Math.round(h * this.dpr);
    if (this.canvas.width !== pw || this.canvas.height !== ph) {
      this.canvas.width = pw;
      this.canvas.height = ph;
      this.canvas.style.width = `${w}px`;
      this.canvas.style.height = `${h}px`;
    }
  }

  /** The cell point under a mouse event (in cells, fractional). */
  toCells(event) {
    const r = this.canvas.getBoundingClientRect();
    return [(event.clientX - r.left - this.ox) / this.scale, (event.clientY - r.top - this.oy) / this.scale];
  }

  x(v) {
    return this.ox + v * this.scale;
  }

  y(v) {
    return this.oy + v * this.scale;
  }

  line(ax, ay, bx, by) {
    this.ctx.moveTo(this.x(ax), this.y(ay));
    this.ctx.lineTo(this.x(bx), this.y(by));
  }

  /** A polyline through flat points `[x0, y0, x1, y1, ...]`. */
  polyline(flat, colour, width, dash = []) {
    if (flat.length < 4) return;
    const ctx = this.ctx;
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.setLineDash(dash);
    ctx.beginPath();
    ctx.moveTo(this.x(flat[0]), this.y(flat[1]));
    for (let i = 2; i < flat.length; i += 2) ctx.lineTo(this.x(flat[i]), this.y(flat[i + 1]));
    ctx.stroke();
    ctx.restore();
  }

  dot(x, y, r, fill, stroke = null) {
    const ctx = this.ctx;
    ctx.beginPath();
    ctx.arc(this.x(x), this.y(y), r, 0, 2 * Math.PI);
    ctx.fillStyle = fill;
    ctx.fill();
    if (stroke) {
      ctx.strokeStyle = stroke;
      ctx.lineWidth = 1.5;
      ctx.stroke();
    }
  }

  /** Fills a polygon given by vertex numbers into flat `vertices`. */
  polygonPath(vertices, corners) {
    const ctx = this.ctx;
    ctx.beginPath();
    corners.forEach((v, i) => {
      const px = this.x(vertices[2 * v]);
      const py = this.y(vertices[2 * v + 1]);
      if (i === 0) ctx.moveTo(px, py);
      else ctx.lineTo(px, py);
    });
    ctx.closePath();
  }

  /**
   * Paints `m`: { width, height, cells, kind, vertices, polygons (count-prefixed), portals,
   * bends, sight, states, places, corridor, funnel, path, optimum, waypoints, start, goal } (ends
   * in cells).
   */
  paint(m) {
    const ctx = this.ctx;
    const p = this.palette;
    this.fit(m.width, m.height);
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.clearRect(0, 0, m.width * this.scale + 2 * PAD, m.height * this.scale + 2 * PAD);
    ctx.fillStyle = p.ground;
    ctx.fillRect(this.ox, this.oy, m.width * this.scale, m.height * this.scale);
    ctx.fillStyle = p.wall;
    for (let y = 0; y < m.height; y++) {
      for (let x = 0; x < m.width; x++) {
        if (m.cells[y * m.width + x] === 0) ctx.fillRect(this.x(x), this.y(y), this.scale + 0.5, this.scale + 0.5);
      }
    }
    if (this.scale >= 10) {
      ctx.strokeStyle = p.gridLine;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let x = 0; x <= m.width; x++) this.line(x, 0, x, m.height);
      for (let y = 0; y <= m.height; y++) this.line(0, y, m.width, y);
      ctx.stroke();
    }
    if (m.kind === 'navmesh') this.paintMesh(m);
    else this.paintCorners(m);
    const opt = widthFor(this.scale, 0.14, 3, 8);
    this.polyline(m.optimum, NAV_COLOURS.optimum, opt, [2 * opt, 1.5 * opt]);
    const way = widthFor(this.scale, 0.08, 2, 4);
    this.polyline(m.waypoints, NAV_COLOURS.waypoints, way, [0.1, 2.5 * way]);
    if (m.funnel) this.paintFunnel(m.funnel);
    this.polyline(m.path, p.pathLine, widthFor(this.scale, 0.1, 2.5, 5));
    const r = Math.max(5, Math.min(12, this.scale * 0.3));
    if (m.start) this.dot(m.start[0], m.start[1], r, p.start, '#ffffff');
    if (m.goal) this.dot(m.goal[0], m.goal[1], r, p.goal, '#ffffff');
  }

  paintMesh(m) {
    const ctx = this.ctx;
    const p = this.palette;
    const corridor = new Set(m.corridor);
    const fills = { [OPEN]: p.open, [CLOSED]: p.closed, [CURRENT]: p.current };
    let at = 0;
    let index = 0;
    ctx.globalAlpha = 0.6;
    const outlines = [];
    while (at < m.polygons.length) {
      const n = m.polygons[at];
      const corners = m.polygons.subarray(at + 1, at + 1 + n);
      at += n + 1;
      const inCorridor = corridor.has(index);
      const fill = inCorridor ? p.path : fills[m.states[index]];
      outlines.push(corners);
      if (fill) {
        this.polygonPath(m.vertices, corners);
        ctx.fillStyle = fill;
        ctx.globalAlpha = inCorridor ? 0.45 : 0.6;
        ctx.fill();
      }
      index++;
    }
    ctx.globalAlpha = 1;
    ctx.strokeStyle = NAV_COLOURS.polygon;
    ctx.lineWidth = 1.2;
    for (const corners of outlines) {
      this.polygonPath(m.vertices, corners);
      ctx.stroke();
    }
    ctx.save();
    ctx.strokeStyle = NAV_COLOURS.portal;
    ctx.setLineDash([4, 4]);
    ctx.lineWidth = 2;
    ctx.beginPath();
    for (let i = 0; i < m.portals.length; i += 4) this.line(m.portals[i], m.portals[i + 1], m.portals[i + 2], m.portals[i + 3]);
    ctx.stroke();
    ctx.restore();
  }

  paintCorners(m) {
    const ctx = this.ctx;
    const p = this.palette;
    if (m.sight.length / 4 <= MAX_SIGHT_LINES) {
      ctx.strokeStyle = NAV_COLOURS.sight;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let i = 0; i < m.sight.length; i += 4) this.line(m.sight[i], m.sight[i + 1], m.sight[i + 2], m.sight[i + 3]);
      ctx.stroke();
    }
    const small = Math.max(1.5, Math.min(4, this.scale * 0.09));
    const fills = { [OPEN]: p.open, [CLOSED]: p.closed, [CURRENT]: p.current };
    for (let n = 0; n < m.states.length; n++) {
      const fill = fills[m.states[n]];
      if (fill) this.dot(m.places[2 * n], m.places[2 * n + 1], small * 1.4, fill);
    }
    for (let i = 0; i < m.bends.length; i += 2) this.dot(m.bends[i], m.bends[i + 1], small, NAV_COLOURS.bend);
  }

  /** The funnel: the tested portal, the two legs from the apex, and the apex. */
  paintFunnel(f) {
    const ctx = this.ctx;
    const w = widthFor(this.scale, 0.09, 2.5, 4);
    if (f.portal) {
      ctx.save();
      ctx.strokeStyle = NAV_COLOURS.tested;
      ctx.lineWidth = w * 2;
      ctx.lineCap = 'round';
      ctx.beginPath();
      this.line(f.portal[0][0], f.portal[0][1], f.portal[1][0], f.portal[1][1]);
      ctx.stroke();
      ctx.restore();
    }
    if (!f.done) {
      this.polyline([f.apex[0], f.apex[1], f.left[0], f.left[1]], NAV_COLOURS.leftLeg, w);
      this.polyline([f.apex[0], f.apex[1], f.right[0], f.right[1]], NAV_COLOURS.rightLeg, w);
      this.dot(f.left[0], f.left[1], w * 1.3, NAV_COLOURS.leftLeg);
      this.dot(f.right[0], f.right[1], w * 1.3, NAV_COLOURS.rightLeg);
    }
    this.dot(f.apex[0], f.apex[1], w * 2, NAV_COLOURS.apex, '#ffffff');
    const ctx2 = this.ctx;
    ctx2.font = '600 12px system-ui, sans-serif';
    ctx2.textBaseline = 'bottom';
    const label = (text, q, colour) => {
      ctx2.fillStyle = colour;
      ctx2.fillText(text, this.x(q[0]) + 6, this.y(q[1]) - 4);
    };
    label('apex', f.apex, NAV_COLOURS.apex);
    if (!f.done) {
      label('L', f.left, NAV_COLOURS.leftLeg);
      label('R', f.right, NAV_COLOURS.rightLeg);
    }
  }
}
