// An independent reference for the browser tests: map readers and a plain Dijkstra written
// from the definitions (design.md: straight 1, diagonal sqrt 2; the diagonal rules), sharing
// no code with the Rust core, so a test that compares the page with it checks real behaviour.

/** Reads a MovingAI .map: { width, height, open } with open[y * width + x] true if passable. */
export function readMovingAi(text) {
  const lines = text.split(/\r?\n/);
  const header = {};
  let i = 0;
  for (; i < lines.length && lines[i].trim() !== 'map'; i++) {
    const [key, value] = lines[i].trim().split(/\s+/);
    header[key] = value;
  }
  const width = Number(header.width);
  const height = Number(header.height);
  const open = new Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = lines[i + 1 + y];
    for (let x = 0; x < width; x++) open[y * width + x] = '.GS'.includes(row[x]);
  }
  return { width, height, open };
}

/** Reads a course data file: { width, height, open, start, goal }. */
export function readCourse(text) {
  const words = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const [height, width] = [Number(words[0]), Number(words[1])];
  const open = [];
  let start = null;
  let goal = null;
  for (let y = 0; y < height; y++) {
    const row = words[2 + y].replace(/\s+/g, '');
    for (let x = 0; x < width; x++) {
      const c = row[x];
      open.push(c !== '1');
      if (c === 'A') start = [x, y];
      if (c === 'B') goal = [x, y];
    }
  }
  return { width, height, open, start, goal };
}

/**
 * Cheapest path cost from `start` to `goal` ([x, y]) on `map`, or null when there is none.
 * `diagonal` is never | no-corner-cutting | at-most-one-blocked | always; `costs` real | integer.
 * `map.terrain`, when present, holds each cell's value: entering a cell of value t costs t times
 * the move (1 is ground).
 */
export function cheapest(map, start, goal, options = {}) {
  const t = goal[1] * map.width + goal[0];
  const { dist, settled } = search(map, [start], t, options);
  return settled === t ? dist[t] : null;
}

/**
 * Whether Pathlab's `cost` equals the reference's `reference` (cheapest, distances): Pathlab keeps
 * √2 to 29 binary places (README, "Using the page"), 1.1e-11 above the full-precision √2 used
 * here, so a path differs by under 1.2e-11 per diagonal move, less than 1e-11 of its cost.
 */
export const sameCost = (cost, reference) => Math.abs(cost - reference) <= 1e-9 + 1e-11 * Math.abs(reference);

/**
 * The cheapest cost from the nearest of `sources` ([[x, y], ...]) to every cell (Infinity where
 * unreachable), as a Float64Array in row-major order; options as for `cheapest`.
 */
export function distances(map, sources, options = {}) {
  return search(map, sources, -1, options).dist;
}

/** Dijkstra from `sources`, stopping when cell `target` is settled (never, for -1). */
function search(map, sources, t, { diagonal = 'no-corner-cutting', costs = 'real' } = {}) {
  const { width, height, open, terrain } = map;
  const straight = costs === 'integer' ? 10 : 1;
  const diag = costs === 'integer' ? 14 : Math.SQRT2;
  const free = (x, y) => x >= 0 && y >= 0 && x < width && y < height && open[y * width + x];
  const allowed = (a, b) =>
    ({ never: false, 'no-corner-cutting': a && b, 'at-most-one-blocked': a || b, always: true })[diagonal];
  const dist = new Float64Array(width * height).fill(Infinity);
  const heap = [];
  const push = (d, i) => {
    heap.push([d, i]);
    let k = heap.length - 1;
    while (k > 0) {
      const up = (k - 1) >> 1;
      if (heap[up][0] <= heap[k][0]) break;
      [heap[up], heap[k]] = [heap[k], heap[up]];
      k = up;
    }
  };
  const pop = () => {
    const top = heap[0];
    const last = heap.pop();
    if (heap.length) {
      heap[0] = last;
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        const r = l + 1;
        let m = k;
        if (l < heap.length && heap[l][0] < heap[m][0]) m = l;
        if (r < heap.length && heap[r][0] < heap[m][0]) m = r;
        if (m === k) break;
        [heap[m], heap[k]] = [heap[k], heap[m]];
        k = m;
      }
    }
    return top;
  };
  for (const [sx, sy] of sources) {
    const s = sy * width + sx;
    dist[s] = 0;
    push(0, s);
  }
  while (heap.length) {
    const [d, i] = pop();
    if (d > dist[i]) continue;
    if (i === t) return { dist, settled: i };
    const x = i % width;
    const y = (i - x) / width;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if ((!dx && !dy) || !free(x + dx, y + dy)) continue;
        if (dx && dy && !allowed(free(x + dx, y), free(x, y + dy))) continue;
        const j = (y + dy) * width + x + dx;
        const nd = d + (dx && dy ? diag : straight) * (terrain ? terrain[j] : 1);
        if (nd < dist[j]) {
          dist[j] = nd;
          push(nd, j);
        }
      }
    }
  }
  return { dist, settled: -1 };
}

/** A map from the page's own grid: reads every cell through the Lab handle once. */
export async function readPage(page) {
  const cells = await page.evaluate(() => {
    const lab = window.pathlab.lab;
    const out = [];
    for (let y = 0; y < lab.height; y++) for (let x = 0; x < lab.width; x++) out.push(lab.cell(x, y));
    return { width: lab.width, height: lab.height, cells: out };
  });
  return { width: cells.width, height: cells.height, open: cells.cells.map((v) => v !== 0), terrain: cells.cells };
}

/**
 * The path cost a page shows and the reference Dijkstra's on the page's own map, ends and
 * rules (read through the Lab handle and the grid's data attributes): `{ shown, cheapest, map }`.
 */
export async function shownAndCheapest(page) {
  const map = await readPage(page);
  const grid = page.locator('[data-testid="grid"]');
  const point = async (name) => (await grid.getAttribute(name)).split(',').map(Number);
  const { diagonal, costs } = await page.evaluate(() => window.pathlab.lab.settings());
  const reference = cheapest(map, await point('data-start'), await point('data-goal'), { diagonal, costs });
  const shown = Number(await page.locator('[data-testid="cost"]').getAttribute('data-value'));
  return { shown, cheapest: reference, map };
}

/** Paints preset terrain rectangles ({x, y, w, h, value}) onto a map read from a file. */
export function withTerrain(map, rects = []) {
  const terrain = map.open.map((o) => (o ? 1 : 0));
  for (const r of rects) {
    for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) terrain[y * map.width + x] = r.value;
  }
  return { ...map, open: terrain.map((v) => v !== 0), terrain };
}

/** The problems of a .scen file: [{ start: [x, y], goal: [x, y], optimal }]. */
export function readScen(text) {
  return text
    .split(/\r?\n/)
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 9)
    .map((f) => ({ start: [Number(f[4]), Number(f[5])], goal: [Number(f[6]), Number(f[7])], optimal: Number(f[8]), text: f[8] }));
}
