// Shared by the graph and hex views' end-to-end tests: independent references (Dijkstra over a
// graph file's edges, BFS over hexes) and small helpers for the page's hooks (data-testid).
import { nextFrame } from './browser.mjs';

/** Cheapest cost from `s` to `t` over `edges` ({from, to, cost, directed}, by id), or null. */
export function dijkstra(edges, s, t) {
  const out = new Map();
  const arc = (a, b, c) => {
    if (!out.has(a)) out.set(a, []);
    out.get(a).push([b, c]);
  };
  for (const e of edges) {
    arc(e.from, e.to, e.cost);
    if (!e.directed) arc(e.to, e.from, e.cost);
  }
  const dist = new Map([[s, 0]]);
  const done = new Set();
  for (;;) {
    let u = null;
    for (const [n, d] of dist) if (!done.has(n) && (u === null || d < dist.get(u))) u = n;
    if (u === null) return null;
    if (u === t) return dist.get(u);
    done.add(u);
    for (const [v, c] of out.get(u) ?? []) {
      if (!dist.has(v) || dist.get(u) + c < dist.get(v)) dist.set(v, dist.get(u) + c);
    }
  }
}

/** A graph file's edges with ids, each with its own direction. */
export function fileEdges(graph) {
  return graph.edges.map((e) => ({ ...e, directed: e.directed ?? graph.directed ?? false }));
}

/**
 * Fewest moves between two open hexes (`open[y * width + x]`), or null. Pointy tops: odd rows
 * pushed half a hex right; flat tops: odd columns pushed half a hex down.
 */
export function hexBfs({ width, height, open }, [sx, sy], [gx, gy], layout = 'pointy') {
  const neighbours = (x, y) => {
    if (layout === 'pointy') {
      const d = y & 1 ? [[0, -1], [1, -1], [-1, 0], [1, 0], [0, 1], [1, 1]] : [[-1, -1], [0, -1], [-1, 0], [1, 0], [-1, 1], [0, 1]];
      return d.map(([dx, dy]) => [x + dx, y + dy]);
    }
    const d = x & 1 ? [[0, -1], [0, 1], [-1, 0], [-1, 1], [1, 0], [1, 1]] : [[0, -1], [0, 1], [-1, -1], [-1, 0], [1, -1], [1, 0]];
    return d.map(([dx, dy]) => [x + dx, y + dy]);
  };
  const dist = new Map([[`${sx},${sy}`, 0]]);
  let frontier = [[sx, sy]];
  while (frontier.length) {
    const next = [];
    for (const [x, y] of frontier) {
      const d = dist.get(`${x},${y}`);
      if (x === gx && y === gy) return d;
      for (const [nx, ny] of neighbours(x, y)) {
        if (nx < 0 || ny < 0 || nx >= width || ny >= height || !open[ny * width + nx] || dist.has(`${nx},${ny}`)) continue;
        dist.set(`${nx},${ny}`, d + 1);
        next.push([nx, ny]);
      }
    }
    frontier = next;
  }
  return null;
}

/** The element of a data-testid. */
export const hook = (page, id) => page.locator(`[data-testid="${id}"]`);

/** Clicks a data-testid element `times` times, then waits for the read-outs. */
export async function click(page, id, times = 1) {
  for (let i = 0; i < times; i++) await hook(page, id).click();
  await nextFrame(page);
}

/** The cost read-out `id` (its data-value), or null when there is none. */
export async function cost(page, id = 'cost') {
  const raw = await hook(page, id).getAttribute('data-value');
  return raw === '' || raw === null ? null : Number(raw);
}
