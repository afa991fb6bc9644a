// Painting the boid world on a 2D canvas: a cached background (ground, walls from a
// one-pixel-per-cell image, circles; redrawn only after an edit), every agent as a triangle
// pointing along its heading (stamped into the frame's pixels straight from Float32Array
// views of wasm memory, from sprites prepared for 64 headings and quarter-pixel positions),
// then the path, goals, leader and the overlay of a selected agent: body, neighbourhood
// radii, view cone, neighbours, each behaviour's force, the combined force and the context
// map.
//
// Measured in headless Chromium (software rendering, 20,000 agents on a 965 x 601 canvas):
// a frame takes about 2 ms; rasterising each triangle took 7 ms, and WebGL (SwiftShader)
// 300 to 450 ms for the same triangles, so there is no WebGL path.

import { WorldView } from './world-view.js';

/** Species colours (Okabe and Ito's palette, readable for colour-blind viewers). */
export const SPECIES_COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7'];

/** The leader's colour. */
export const LEADER_COLOUR = '#111111';

/** A colour per behaviour, in the core's order (Behaviour values 0..14). */
export const FORCE_COLOURS = {
  seek: '#0072b2',
  flee: '#d55e00',
  arrive: '#56b4e9',
  pursue: '#b2182b',
  evade: '#e69f00',
  wander: '#999999',
  'path-following': '#1b9e77',
  'wall-following': '#7570b3',
  containment: '#6a3d9a',
  'obstacle-avoidance': '#a6761d',
  separation: '#e7298a',
  alignment: '#66a61e',
  cohesion: '#1f78b4',
  'leader-following': '#444444',
  'unaligned-avoidance': '#fb9a99',
};

const WALL_RGB = [47, 53, 66];

/** A CSS colour #rrggbb as an opaque pixel for a Uint32Array over RGBA bytes (little-endian). */
function packed(hex) {
  const v = parseInt(hex.slice(1), 16);
  return (0xff << 24) | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff);
}

/**
 * Sets the pixels of `px` (a `w` x `h` image) whose centres lie inside the triangle (x0, y0),
 * (x1, y1), (x2, y2), either winding, to `colour`.
 */
function triangle(px, w, h, x0, y0, x1, y1, x2, y2, colour) {
  const minX = Math.max(0, Math.floor(Math.min(x0, x1, x2)));
  const maxX = Math.min(w - 1, Math.ceil(Math.max(x0, x1, x2)));
  const minY = Math.max(0, Math.floor(Math.min(y0, y1, y2)));
  const maxY = Math.min(h - 1, Math.ceil(Math.max(y0, y1, y2)));
  if (minX > maxX || minY > maxY) return;
  // Edge functions e(x, y) = a x + b y + c: the cross product of an edge with the point, of the
  // same sign as the area inside; multiplied by that sign they are all >= 0 inside.
  const area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0);
  if (area === 0 || !Number.isFinite(area)) return;
  const s = area > 0 ? 1 : -1;
  const a0 = s * (y0 - y1), b0 = s * (x1 - x0), c0 = s * (x0 * y1 - x1 * y0);
  const a1 = s * (y1 - y2), b1 = s * (x2 - x1), c1 = s * (x1 * y2 - x2 * y1);
  const a2 = s * (y2 - y0), b2 = s * (x0 - x2), c2 = s * (x2 * y0 - x0 * y2);
  for (let py = minY; py <= maxY; py++) {
    const fy = py + 0.5;
    const row = py * w;
    for (let qx = minX; qx <= maxX; qx++) {
      const fx = qx + 0.5;
      if (a0 * fx + b0 * fy + c0 >= 0 && a1 * fx + b1 * fy + c1 >= 0 && a2 * fx + b2 * fy + c2 >= 0) px[row + qx] = colour;
    }
  }
}

/** Headings the agent sprites are prepared for (a power of two). */
const ANGLES = 64;

/** Sub-pixel positions per axis the sprites are prepared for. */
const PHASES = 4;

/**
 * The prepared heading nearest to the direction (ux, uy): an index from 0 to ANGLES - 1,
 * counting turns of 2 pi / ANGLES from +x towards +y. The angle comes from a polynomial for
 * the arc tangent on each eighth of the circle (within 0.005 radians, a tenth of a step),
 * several times faster than Math.atan2.
 */
function headingIndex(ux, uy) {
  const ax = Math.abs(ux);
  const ay = Math.abs(uy);
  const big = Math.max(ax, ay);
  const t = big > 0 ? Math.min(ax, ay) / big : 0;
  let a = t * (0.9724 - 0.1919 * t * t);
  if (ay > ax) a = Math.PI / 2 - a;
  if (ux < 0) a = Math.PI - a;
  if (uy < 0) a = -a;
  return Math.round(a * (ANGLES / (2 * Math.PI))) & (ANGLES - 1);
}

/** The triangle of an agent of length `len` at (cx, cy) heading along (ux, uy). */
function agentTriangle(px, w, h, cx, cy, ux, uy, len, colour) {
  const back = len * 0.62;
  const half = len * 0.45;
  triangle(
    px,
    w,
    h,
    cx + ux * len,
    cy + uy * len,
    cx - ux * back - uy * half,
    cy - uy * back + ux * half,
    cx - ux * back + uy * half,
    cy - uy * back - ux * half,
    colour,
  );
}

/**
 * An agent's triangle of one length, rasterised once for each of `ANGLES` headings and
 * `PHASES` x `PHASES` sub-pixel positions, as lists of offsets into a frame `w` pixels wide
 * from the pixel the centre falls in. Stamping a list is several times faster than
 * rasterising the triangle, and sets the same pixels as rasterising it at the nearest of the
 * prepared headings and positions (within 3 degrees and a quarter pixel).
 */
class Sprites {
  constructor(len, w) {
    this.len = len;
    this.w = w;
    // Every pixel of a sprite lies within `reach` of the centre's pixel.
    this.reach = Math.ceil(len) + 2;
    const side = 2 * this.reach + 1;
    const scratch = new Uint32Array(side * side);
    // Sprite m's offsets are offsets[starts[m]] up to offsets[starts[m + 1]].
    const offsets = [];
    this.starts = new Int32Array(ANGLES * PHASES * PHASES + 1);
    for (let a = 0; a < ANGLES; a++) {
      const angle = (2 * Math.PI * a) / ANGLES;
      for (let fy = 0; fy < PHASES; fy++) {
        for (let fx = 0; fx < PHASES; fx++) {
          scratch.fill(0);
          // Rasterised at the middle of the sub-pixel bin.
          const cx = this.reach + (fx + 0.5) / PHASES;
          const cy = this.reach + (fy + 0.5) / PHASES;
          agentTriangle(scratch, side, side, cx, cy, Math.cos(angle), Math.sin(angle), len, 1);
          for (let i = 0; i < scratch.length; i++) {
            if (scratch[i]) offsets.push((Math.floor(i / side) - this.reach) * w + ((i % side) - this.reach));
          }
          this.starts[(a * PHASES + fy) * PHASES + fx + 1] = offsets.length;
        }
      }
    }
    this.offsets = Int32Array.from(offsets);
  }
}

export class BoidPainter extends WorldView {
  constructor(canvas) {
    super(canvas, { alpha: false });
    this.walls = document.createElement('canvas');
    this.wallsKey = '';
    /** Sprites by agent length, for the current frame width. */
    this.sprites = new Map();
  }

  /** Redraws the cached wall image from the cell bytes (0 is a wall). */
  updateWalls(cells, gw, gh, version) {
    const key = `${gw}x${gh}:${version}`;
    if (key === this.wallsKey) return;
    this.wallsKey = key;
    this.walls.width = gw;
    this.walls.height = gh;
    const g = this.walls.getContext('2d');
    const image = g.createImageData(gw, gh);
    const px = image.data;
    for (let i = 0; i < gw * gh; i++) {
      const o = i * 4;
      if (cells[i] === 0) {
        px[o] = WALL_RGB[0];
        px[o + 1] = WALL_RGB[1];
        px[o + 2] = WALL_RGB[2];
        px[o + 3] = 255;
      }
    }
    g.putImageData(image, 0, 0);
  }

  /**
   * Paints a frame. `s` holds: width, height (world units), x, y, hx, hy (Float32Array views),
   * species (Uint8Array view), count, radii (per species), leader (index or -1), circles, path,
   * waypoints, goals (flat Float32Arrays), selected (index or -1), inspection (or null),
   * maxSpeed (of the selected agent's species).
   */
  frame(s) {
    const ctx = this.ctx;
    const k = this.scale;
    const W = this.canvas.width;
    const H = this.canvas.height;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    this.ensureBuffers(W, H);
    this.background(s, W, H);
    // The background (ground, walls, circles) as pixels, the agents rasterised over it, and
    // the whole frame put on the canvas in one copy.
    this.pixels.set(this.backdrop);
    this.agents(s);
    ctx.putImageData(this.image, 0, 0);

    // Path and waypoints.
    if (s.path.length >= 4) {
      ctx.strokeStyle = 'rgba(0, 158, 115, 0.55)';
      ctx.lineWidth = Math.max(2, 2.5 * this.dpr);
      ctx.setLineDash([6 * this.dpr, 5 * this.dpr]);
      ctx.beginPath();
      ctx.moveTo(s.path[0] * k, s.path[1] * k);
      for (let i = 2; i + 1 < s.path.length; i += 2) ctx.lineTo(s.path[i] * k, s.path[i + 1] * k);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = '#009e73';
      for (let i = 0; i + 1 < s.waypoints.length; i += 2) {
        ctx.beginPath();
        ctx.arc(s.waypoints[i] * k, s.waypoints[i + 1] * k, 4 * this.dpr, 0, Math.PI * 2);
        ctx.fill();
      }
    }

    // Goals.
    for (let i = 0; i + 1 < s.goals.length; i += 2) this.goal(s.goals[i] * k, s.goals[i + 1] * k, i / 2 + 1);

    this.leader(s);
    if (s.inspection) this.overlay(s.inspection, s.maxSpeed, s.x, s.y);
  }

  ensureBuffers(W, H) {
    if (this.image && this.image.width === W && this.image.height === H) return;
    this.image = this.ctx.createImageData(W, H);
    this.pixels = new Uint32Array(this.image.data.buffer);
    this.backdrop = new Uint32Array(W * H);
    this.backdropKey = '';
  }

  /** Redraws the cached background when the walls, the circles or the size changed. */
  background(s, W, H) {
    let sum = 0;
    for (let i = 0; i < s.circles.length; i++) sum += s.circles[i] * ((i % 7) + 1);
    const key = `${this.wallsKey}|${W}x${H}|${s.circles.length}:${sum}`;
    if (key === this.backdropKey) return;
    this.backdropKey = key;
    const canvas = document.createElement('canvas');
    canvas.width = W;
    canvas.height = H;
    const g = canvas.getContext('2d');
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, W, H);
    g.imageSmoothingEnabled = false;
    g.drawImage(this.walls, 0, 0, W, H);
    if (s.circles.length) {
      const k = this.scale;
      g.fillStyle = '#c9c5b9';
      g.strokeStyle = '#8d897e';
      g.lineWidth = Math.max(1, this.dpr);
      g.beginPath();
      for (let i = 0; i + 2 < s.circles.length; i += 3) {
        const x = s.circles[i] * k;
        const y = s.circles[i + 1] * k;
        g.moveTo(x + s.circles[i + 2] * k, y);
        g.arc(x, y, s.circles[i + 2] * k, 0, Math.PI * 2);
      }
      g.fill();
      g.stroke();
    }
    this.backdrop.set(new Uint32Array(g.getImageData(0, 0, W, H).data.buffer));
  }

  goal(x, y, n) {
    const ctx = this.ctx;
    const r = 7 * this.dpr;
    ctx.strokeStyle = '#b2182b';
    ctx.lineWidth = 2 * this.dpr;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.moveTo(x - r * 1.5, y);
    ctx.lineTo(x + r * 1.5, y);
    ctx.moveTo(x, y - r * 1.5);
    ctx.lineTo(x, y + r * 1.5);
    ctx.stroke();
    ctx.fillStyle = '#b2182b';
    ctx.font = `${11 * this.dpr}px system-ui, sans-serif`;
    ctx.fillText(String(n), x + r + 2 * this.dpr, y - r);
  }

  /**
   * Every agent as a triangle pointing along its heading. A 2D-canvas path with thousands of
   * triangles is far too slow to fill in software (seconds for 20,000 in headless Chromium),
   * so the triangles are stamped into the frame's pixel buffer from prepared sprites; those
   * too near the edge for a whole sprite are rasterised (a pixel is set when its centre is
   * inside all three edges).
   */
  agents(s) {
    const k = this.scale;
    const W = this.canvas.width;
    const H = this.canvas.height;
    const px = this.pixels;
    const { x, y, hx, hy, species, count } = s;
    // At least a few device pixels long, so that a crowd of tiny agents stays visible.
    const minLen = 3.5 * this.dpr;
    const colours = SPECIES_COLOURS.map(packed);
    const sizes = s.radii.map((r) => Math.max(1.7 * r * k, minLen));
    const sprites = sizes.map((len) => this.spritesFor(len, W));
    for (let i = 0; i < count; i++) {
      if (i === s.leader) continue;
      const sp = species[i];
      const colour = colours[sp % colours.length];
      const cx = x[i] * k;
      const cy = y[i] * k;
      const set = sprites[sp];
      const ix = Math.floor(cx);
      const iy = Math.floor(cy);
      // False for NaN too.
      if (set && ix >= set.reach && iy >= set.reach && ix < W - set.reach && iy < H - set.reach) {
        // The nearest prepared heading, and the quarter pixel the centre is in.
        const a = headingIndex(hx[i], hy[i]);
        const m = (a * PHASES + (((cy - iy) * PHASES) | 0)) * PHASES + (((cx - ix) * PHASES) | 0);
        const { offsets, starts } = set;
        const base = iy * W + ix;
        for (let o = starts[m]; o < starts[m + 1]; o++) px[base + offsets[o]] = colour;
      } else {
        agentTriangle(px, W, H, cx, cy, hx[i], hy[i], sizes[sp] ?? minLen, colour);
      }
    }
  }

  /** The sprites for agents `len` pixels long in a frame `w` pixels wide, made once. */
  spritesFor(len, w) {
    const key = `${len}:${w}`;
    let set = this.sprites.get(key);
    if (!set) {
      // Sizes change only when the canvas or a radius does: keep the few most recent.
      if (this.sprites.size >= 8) this.sprites.clear();
      set = new Sprites(len, w);
      this.sprites.set(key, set);
    }
    return set;
  }

  /** The leader, larger and outlined, drawn over the crowd. */
  leader(s) {
    const { x, y, hx, hy, species, count } = s;
    if (s.leader < 0 || s.leader >= count) return;
    const ctx = this.ctx;
    const k = this.scale;
    const i = s.leader;
    const len = Math.max(2.4 * s.radii[species[i]] * k, 9 * this.dpr);
    const cx = x[i] * k;
    const cy = y[i] * k;
    ctx.beginPath();
    ctx.moveTo(cx + hx[i] * len, cy + hy[i] * len);
    ctx.lineTo(cx - hx[i] * len * 0.6 - hy[i] * len * 0.5, cy - hy[i] * len * 0.6 + hx[i] * len * 0.5);
    ctx.lineTo(cx - hx[i] * len * 0.6 + hy[i] * len * 0.5, cy - hy[i] * len * 0.6 - hx[i] * len * 0.5);
    ctx.closePath();
    ctx.fillStyle = LEADER_COLOUR;
    ctx.fill();
    ctx.strokeStyle = '#f0e442';
    ctx.lineWidth = 1.5 * this.dpr;
    ctx.stroke();
  }

  arrow(x, y, dx, dy, colour, width) {
    const ctx = this.ctx;
    const len = Math.hypot(dx, dy);
    if (len < 0.5) return;
    const ux = dx / len;
    const uy = dy / len;
    const head = Math.min(9 * this.dpr, len * 0.45);
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.lineWidth = width;
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + dx - ux * head * 0.8, y + dy - uy * head * 0.8);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(x + dx, y + dy);
    ctx.lineTo(x + dx - ux * head - uy * head * 0.5, y + dy - uy * head + ux * head * 0.5);
    ctx.lineTo(x + dx - ux * head + uy * head * 0.5, y + dy - uy * head - ux * head * 0.5);
    ctx.closePath();
    ctx.fill();
  }

  /** The selected agent's overlay. */
  overlay(v, maxSpeed, xs, ys) {
    const ctx = this.ctx;
    const k = this.scale;
    const dpr = this.dpr;
    const cx = v.x * k;
    const cy = v.y * k;
    const heading = Math.atan2(v.hy, v.hx);

    // Neighbourhoods: cohesion's view cone filled, the three radii as rings.
    const cone = (rule, fill) => {
      const r = rule.radius * k;
      if (r <= 0) return;
      const half = (Math.min(rule.view_angle, 360) * Math.PI) / 360;
      ctx.fillStyle = fill;
      ctx.beginPath();
      if (half >= Math.PI) ctx.arc(cx, cy, r, 0, Math.PI * 2);
      else {
        ctx.moveTo(cx, cy);
        ctx.arc(cx, cy, r, heading - half, heading + half);
        ctx.closePath();
      }
      ctx.fill();
    };
    // Only the rules this agent uses (weight above 0) are drawn.
    const on = new Set(v.forces.map((f) => f.name));
    const rule = (name) => (on.has(name) ? v[name] : { radius: 0, view_angle: 0 });
    const sep = rule('separation');
    const ali = rule('alignment');
    const coh = rule('cohesion');
    cone(coh.radius >= ali.radius ? coh : ali, 'rgba(31, 120, 180, 0.10)');
    cone(sep, 'rgba(231, 41, 138, 0.10)');
    const ring = (r, colour, dash) => {
      if (r <= 0) return;
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.5 * dpr;
      ctx.setLineDash(dash);
      ctx.beginPath();
      ctx.arc(cx, cy, r * k, 0, Math.PI * 2);
      ctx.stroke();
      ctx.setLineDash([]);
    };
    ring(coh.radius, 'rgba(31, 120, 180, 0.8)', []);
    if (ali.radius !== coh.radius) ring(ali.radius, 'rgba(102, 166, 30, 0.8)', [4 * dpr, 3 * dpr]);
    ring(sep.radius, 'rgba(231, 41, 138, 0.9)', [3 * dpr, 3 * dpr]);

    // The neighbours gathered, then the body.
    ctx.strokeStyle = 'rgba(17, 17, 17, 0.6)';
    ctx.lineWidth = 1.2 * dpr;
    ctx.beginPath();
    for (const j of v.neighbours) {
      if (j >= xs.length) continue;
      const nx = xs[j] * k;
      const ny = ys[j] * k;
      const r = Math.max(v.radius * k * 1.3, 3 * dpr);
      ctx.moveTo(nx + r, ny);
      ctx.arc(nx, ny, r, 0, Math.PI * 2);
    }
    ctx.stroke();
    ctx.strokeStyle = '#111';
    ctx.lineWidth = 2 * dpr;
    ctx.beginPath();
    ctx.arc(cx, cy, Math.max(v.radius * k, 3 * dpr), 0, Math.PI * 2);
    ctx.stroke();

    if (v.target) {
      const tx = v.target[0] * k;
      const ty = v.target[1] * k;
      ctx.strokeStyle = '#111';
      ctx.lineWidth = 1.5 * dpr;
      ctx.beginPath();
      ctx.moveTo(tx - 5 * dpr, ty - 5 * dpr);
      ctx.lineTo(tx + 5 * dpr, ty + 5 * dpr);
      ctx.moveTo(tx + 5 * dpr, ty - 5 * dpr);
      ctx.lineTo(tx - 5 * dpr, ty + 5 * dpr);
      ctx.stroke();
    }

    // The context map: a ring of slots; interest outwards in green, danger inwards in red.
    if (v.context) {
      const c = v.context;
      const r0 = 34 * dpr;
      const most = Math.max(1e-6, ...c.interest, ...c.danger);
      for (let i = 0; i < c.slots; i++) {
        const a = (2 * Math.PI * i) / c.slots;
        const ux = Math.cos(a);
        const uy = Math.sin(a);
        const li = (c.interest[i] / most) * 26 * dpr;
        const ld = (c.danger[i] / most) * 22 * dpr;
        ctx.lineWidth = 3 * dpr;
        if (li > 0.5) {
          ctx.strokeStyle = 'rgba(0, 140, 70, 0.85)';
          ctx.beginPath();
          ctx.moveTo(cx + ux * r0, cy + uy * r0);
          ctx.lineTo(cx + ux * (r0 + li), cy + uy * (r0 + li));
          ctx.stroke();
        }
        if (ld > 0.5) {
          ctx.strokeStyle = 'rgba(200, 30, 30, 0.85)';
          ctx.beginPath();
          ctx.moveTo(cx + ux * r0, cy + uy * r0);
          ctx.lineTo(cx + ux * (r0 - ld), cy + uy * (r0 - ld));
          ctx.stroke();
        }
        ctx.fillStyle = i === c.chosen ? '#111' : 'rgba(0,0,0,0.35)';
        ctx.beginPath();
        ctx.arc(cx + ux * r0, cy + uy * r0, (i === c.chosen ? 3.5 : 1.6) * dpr, 0, Math.PI * 2);
        ctx.fill();
      }
    }

    // Forces: a max-speed-sized force is 44 CSS pixels long; arrows are capped at 130.
    const unit = (44 * dpr) / Math.max(maxSpeed, 1e-3);
    const cap = 130 * dpr;
    const scaled = (fx, fy) => {
      let dx = fx * unit;
      let dy = fy * unit;
      const l = Math.hypot(dx, dy);
      if (l > cap) {
        dx *= cap / l;
        dy *= cap / l;
      }
      return [dx, dy];
    };
    for (const f of v.forces) {
      const [dx, dy] = scaled(f.x, f.y);
      this.arrow(cx, cy, dx, dy, FORCE_COLOURS[f.name] ?? '#555', 2.2 * dpr);
    }
    const [sx, sy] = scaled(v.steering[0], v.steering[1]);
    this.arrow(cx, cy, sx, sy, '#000000', 3.5 * dpr);
  }
}
