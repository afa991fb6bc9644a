// Correctness warnings next to the result: what in the chosen settings can make the path cost
// more than the cheapest one (an estimate that can be too high for the moves and costs, a
// weight above 1, an algorithm that does not look for the cheapest path) and, once a path is
// found, the cheapest grid path's cost for reference, from a Dijkstra run on a copy of the same
// map (Lab.cloneMap), with the excess in percent. A setting that finds a cheapest path says so
// quietly. Under an any-angle path it also shows the exact any-angle optimum (any-angle-optimum.js,
// loaded then). `assess()` is pure and is shared with compare mode (compare.js).

import { el } from './dom.js';
import { statusName } from './pkg/pathlab_wasm.js';
import { algorithmRow, formatCost } from './page-app.js';
import { PSEUDOCODE } from './pseudocode.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there).
 * @typedef {Pick<import('./page-context.js').PageContext, 'lab' | 'links' | 'memory' | 'root' | 'say' | 'settings'>} WarningsContext
 */

/** The name of an algorithm for a sentence and the comparison chart (the registry's short name). */
export function nameOf(algo) {
  return algorithmRow(algo)?.short ?? algo;
}

/** How a heuristic overestimates under the given moves and costs, in a phrase. */
function overestimate(s) {
  const diagonal = s.costs === 'integer' ? '14' : '√2';
  if (s.heuristic === 'manhattan') {
    const two = s.costs === 'integer' ? '20' : '2';
    return `Manhattan counts a diagonal move as two straight ones (${two}), but with these moves it costs ${diagonal}`;
  }
  if (s.heuristic === 'euclidean') {
    return 'Euclidean gives a diagonal move 14.14 in tenths, but the integer cost model charges 14';
  }
  return `The ${s.heuristic} estimate can be more than the true remaining cost with these moves and costs`;
}

/**
 * What may keep `s` (a Lab's settings: algo, heuristic, diagonal, costs, weight, admissible,
 * uses_heuristic, optimal) from returning a cheapest path, as `[{ kind, text }]` with kinds
 * `inadmissible`, `weight`, `non-optimal` and `any-angle`; or one `{ kind: 'optimal' }` item
 * when nothing does. `terrain` says whether the map has cells costing more than ground.
 */
export function assess(s, { terrain = false } = {}) {
  const name = nameOf(s.algo);
  const row = algorithmRow(s.algo);
  const words = PSEUDOCODE[s.algo];
  const out = [];
  // The registry says where the heuristic menu cannot cost optimality (greedy never looks at
  // g; Theta* and Lazy Theta* always estimate by the straight line).
  if (s.uses_heuristic && !s.admissible && (row?.inadmissible_misleads ?? true)) {
    out.push({
      kind: 'inadmissible',
      text: `Inadmissible heuristic: ${overestimate(s)}. An estimate that can be too high lets ${name} settle for a path that is not the cheapest.`,
    });
  }
  if (s.weight > 1 && row?.weighted) {
    out.push({
      kind: 'weight',
      text: `Weight ${s.weight}: f = g + ${s.weight}·h trusts the estimate more than the cost so far, so ${name} expands fewer cells but the path may cost up to ${s.weight}× the cheapest.`,
    });
  }
  if (s.algo === 'bfs') {
    const eight = s.diagonal !== 'never';
    if (eight || terrain) {
      const why = [eight ? 'a diagonal move costs more than a straight one' : null, terrain ? 'mud and water cost more than ground' : null]
        .filter(Boolean)
        .join(', and ');
      out.push({
        kind: 'non-optimal',
        text: `BFS finds the path with the fewest moves, but here ${why}, so the fewest moves need not be the cheapest.`,
      });
    }
  } else if (words?.notOptimal && (s.algo !== 'template' || !s.optimal)) {
    // The skeleton's promise depends on its plug-ins (the core's settings().optimal says).
    out.push({ kind: 'non-optimal', text: words.notOptimal });
  }
  if (s.fog && !s.optimal && row?.settings?.includes('fog') && !out.some((o) => o.kind === 'non-optimal')) {
    out.push({
      kind: 'non-optimal',
      text: `Fog of war: ${name} walks with the walls it has seen so far, so its walk may cost more than the cheapest path.`,
    });
  }
  if (row?.any_angle) {
    out.push({
      kind: 'any-angle',
      text: `Any-angle: ${words?.anyAngle ?? `${name} joins points in sight by straight lines`}, so its path may cost less than the cheapest grid path (the reference below is a grid path); it is not guaranteed to be the shortest any-angle path either.`,
    });
  }
  if (out.length) return out;
  const why =
    s.algo === 'bfs'
      ? 'with 4-way moves on plain ground every move costs the same, so the fewest moves are the cheapest.'
      : `${name} finds a cheapest path with these settings.`;
  return [{ kind: 'optimal', text: `Optimal: ${why}` }];
}

/** True when any warning is raised (anything but `optimal`). */
export function warns(items) {
  return items.some((w) => w.kind !== 'optimal');
}

/** A cost as the page shows it (page-app.js). */
export { formatCost };

/** How much `cost` exceeds `optimal`, in percent (negative when below). */
export function excessPercent(cost, optimal) {
  if (optimal === 0) return cost === 0 ? 0 : Infinity;
  return ((cost - optimal) / optimal) * 100;
}

/** True when the map of `lab` has a cell costing more than ground. */
export function hasTerrain(lab, memory) {
  const cells = new Uint8Array(memory.buffer, lab.cellsPtr(), lab.width * lab.height);
  for (let i = 0; i < cells.length; i++) if (cells[i] > 1) return true;
  return false;
}

/** The cheapest grid path's cost on `lab`'s map (a Dijkstra run on a copy), or null. */
export function cheapestCost(lab) {
  // With teleports or slopes (links.js) the Lab's own Dijkstra runs over them.
  if (lab.links && lab.links().kind !== 'none') return lab.cheapestCost() ?? null;
  const reference = lab.cloneMap('dijkstra');
  try {
    reference.run();
    return reference.cost ?? null;
  } finally {
    reference.free();
  }
}

/** Adds compare.css (compare mode and warnings) to the document once, if the page lacks it. */
export function ensureStylesheet() {
  const href = new URL('./compare.css', import.meta.url).href;
  if ([.../** @type {NodeListOf<HTMLLinkElement>} */ (document.querySelectorAll('link[rel="stylesheet"]'))].some((l) => l.href === href)) return;
  document.head.append(el('link', { rel: 'stylesheet', href }));
}

/**
 * Shows the warnings for `app` under its read-outs. Returns `{ update(), destroy() }`:
 * `update` is called after each repaint of the read-outs and does work only when the settings,
 * the map or the result changed.
 * @param {WarningsContext} app
 */
export function attachWarnings(app) {
  ensureStylesheet();
  const list = el('ul', { class: 'pl-warnings-list' });
  const reference = el('p', { class: 'pl-warnings-reference', testid: 'warnings-reference', hidden: true });
  const box = el(
    'div',
    { class: 'pl-warnings pl-full', testid: 'warnings', 'aria-live': 'polite', 'aria-label': 'Is this path the cheapest?' },
    list,
    reference,
  );
  const readouts = app.root.querySelector('.pl-readouts');
  if (readouts) readouts.after(box);
  else app.root.append(box);

  let version = 0;
  let shown = '';
  let terrain = { key: '', value: false };
  let optimal = { key: '', value: null };
  // The exact any-angle optimum under an any-angle path (any-angle-optimum.js, loaded on the
  // first such result with the spaces' wasm module).
  /** @type {Promise<any> | null} */
  let anyAngle = null;
  const onEdit = () => {
    version += 1;
  };
  app.root.addEventListener('pathlab-edit', onEdit);

  function update() {
    const s = app.settings;
    const lab = app.lab;
    if (!s || !lab) return;
    const status = statusName(lab.status);
    const cost = lab.cost ?? null;
    const map = [version, lab.width, lab.height, lab.startX, lab.startY, lab.goalX, lab.goalY, s.diagonal, s.costs].join(',');
    const key = [map, s.algo, s.heuristic, s.weight, status, cost].join('|');
    if (key === shown) return;
    shown = key;
    if (terrain.key !== map) terrain = { key: map, value: hasTerrain(lab, app.memory) };
    // Teleports with the plain estimate: links.js says why it overestimates, and compares costs.
    const blind = Boolean(app.links?.blind());
    const items = assess(s, { terrain: terrain.value }).filter((w) => !(blind && w.kind === 'inadmissible'));
    list.replaceChildren(
      ...items.map((w) =>
        el('li', { class: `pl-warning pl-warning-${w.kind}`, 'data-kind': w.kind }, el('span', { text: w.text })),
      ),
    );
    reference.hidden = true;
    delete reference.dataset.optimal;
    delete reference.dataset.excess;
    if (algorithmRow(s.algo)?.any_angle && status === 'found' && cost !== null && !terrain.value) {
      anyAngle ??= import('./any-angle-optimum.js').then((m) => m.attachOptimumLine(app, box));
      anyAngle.then((line) => line.show(map, cost)).catch((e) => app.say(`The exact any-angle optimum could not be shown: ${e.message}`));
    } else {
      anyAngle?.then((line) => line.hide()).catch(() => {});
    }
    if (blind || !warns(items) || status !== 'found' || cost === null) return;
    if (optimal.key !== map) {
      let value = null;
      try {
        value = cheapestCost(lab);
      } catch (e) {
        app.say(`The cheapest path for reference could not be computed: ${e.message}`);
      }
      optimal = { key: map, value };
    }
    if (optimal.value === null) return;
    const excess = excessPercent(cost, optimal.value);
    const walk = s.has_agent ? 'The walk' : 'This path';
    let verdict;
    if (Math.abs(cost - optimal.value) < 1e-9) verdict = `${walk} costs ${formatCost(cost)}, the same: a cheapest path after all, this time.`;
    else if (excess > 0) verdict = `${walk} costs ${formatCost(cost)}: ${excess.toFixed(1)}% more.`;
    else verdict = `${walk} costs ${formatCost(cost)}: ${(-excess).toFixed(1)}% less, because it leaves the grid moves.`;
    reference.replaceChildren(
      el('strong', { text: `Cheapest grid path: ${formatCost(optimal.value)}` }),
      ` (Dijkstra on the same map). ${verdict}`,
    );
    reference.dataset.optimal = String(optimal.value);
    reference.dataset.cost = String(cost);
    reference.dataset.excess = String(Math.abs(cost - optimal.value) < 1e-9 ? 0 : excess);
    reference.hidden = false;
  }

  return {
    update,
    destroy() {
      app.root.removeEventListener('pathlab-edit', onEdit);
      anyAngle?.then((line) => line.destroy()).catch(() => {});
      box.remove();
    },
  };
}
