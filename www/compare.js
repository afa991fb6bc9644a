// Compare mode: two to four algorithms side by side on the same map, each in its own pane (a
// canvas painted by Painter and its read-outs), stepping in sync under one set of controls:
// each step moves every pane that has not finished by one step, so after k steps every pane
// shows what its algorithm does in k steps. Below the panes, a chart of what each algorithm
// costs when run to the end on this map: nodes expanded (also per 400 open cells, as in the
// course's comparison table), path cost (with the cheapest grid path marked), and run time
// (the median of a few timed runs, in ms). The panes are copies of the page's map with its
// start, goal and settings (Lab.cloneMap); the page's own search is left as it was and comes
// back on exit. Entered from the panel's Compare section or the URL (`compare=astar,dijkstra`).

import { el } from './dom.js';
import { Painter } from './paint.js';
import { statusName } from './pkg/pathlab_wasm.js';
import { assess, cheapestCost, excessPercent, formatCost, nameOf } from './warnings.js';
import { attachCompareView } from './compare-view.js';
import { PSEUDOCODE } from './pseudocode.js';
import { cloneWithLinks } from './every-search.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there),
 * with what it hands on to compare-view.js.
 * @typedef {Pick<import('./page-context.js').PageContext, 'config' | 'holds' | 'lab' | 'layers' | 'layout' | 'mapTitle' | 'memory' | 'root' | 'ui' | 'useEverySearch'> & import('./compare-view.js').CompareViewContext} CompareContext
 */

/** Timed runs per algorithm (the median is shown), fewer when one run is slow. */
const SAMPLES = 5;
/** A timing sample repeats the run until this many ms have passed, to beat the clock's grain. */
const SAMPLE_MS = 8;

const SVG = 'http://www.w3.org/2000/svg';

/** Makes an SVG element (attributes as given, strings among children as text). */
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** A number of milliseconds to a sensible precision. */
function formatMs(ms) {
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Lets the browser paint and handle input between pieces of measuring. */
function pause() {
  return new Promise((ok) => setTimeout(ok, 0));
}

/**
 * Runs a copy of `lab` to the end: what it expanded and found, and the median time of a few
 * runs from step 0 (reset and run; preprocessing done when a search is built, such as JPS+'s
 * jump table or the cluster graph of hierarchical A*, is not counted).
 */
async function measure(lab, alive) {
  const copy = cloneWithLinks(lab, lab.settings().algo);
  try {
    const t0 = performance.now();
    copy.runFromScratch();
    const first = performance.now() - t0;
    const agent = copy.agent();
    const result = {
      status: statusName(copy.status),
      expanded: copy.expanded,
      cost: copy.cost ?? null,
      steps: copy.steps,
      moves: agent ? agent.moves : null,
      gaveUp: copy.gaveUp() ?? null,
    };
    const samples = first > 400 ? 1 : first > 100 ? 3 : SAMPLES;
    const times = [];
    for (let s = 0; s < samples; s++) {
      await pause();
      if (!alive()) return null;
      let runs = 0;
      let elapsed = 0;
      const start = performance.now();
      do {
        copy.runFromScratch();
        runs += 1;
        elapsed = performance.now() - start;
      } while (elapsed < SAMPLE_MS && runs < 1000);
      times.push(elapsed / runs);
    }
    return { ...result, ms: median(times), samples };
  } finally {
    copy.free();
  }
}

/**
 * Wires compare mode into `app`: a Compare section in the panel, and the compare view that
 * takes the place of the grid and panel while it is on (compare-view.js), with the chart of
 * every algorithm run to the end under the panes. Returns `{ start(), names(), destroy() }`:
 * `start` enters compare mode when the configuration asks for it, `names` lists the
 * algorithms compared (null when off).
 * @param {CompareContext} app
 */
export function attachCompare(app) {
  const known = [...app.ui.algo.options].map((o) => [o.value, o.textContent]);
  const labelOf = (algo) => known.find(([v]) => v === algo)?.[1] ?? algo;

  let generation = 0;
  let results = [];
  let optimal = null;
  let openCells = 0;
  let chartWidth = 0;
  let terrainCache = null;

  const compare = attachCompareView(app, {
    statusName,
    where: 'map',
    labelOf,
    headingOf: nameOf,
    makeLab: (algo) => cloneWithLinks(app.lab, algo),
    // An algorithm the page's module does not run: the page's search moves to the one that does.
    ready: (names) => (names.every((algo) => app.holds(algo)) ? null : app.useEverySearch()),
    pane(algo, lab) {
      const settings = lab ? lab.settings() : null;
      const items = settings ? assess(settings, { terrain: hasTerrainCells() }) : [];
      const badges = el(
        'div',
        { class: 'pl-compare-badges' },
        ...items.map((w) =>
          el('span', {
            class: `pl-badge pl-badge-${w.kind}`,
            'data-kind': w.kind,
            title: w.text,
            text: { optimal: 'optimal', inadmissible: 'h too high', weight: `weight ${settings.weight}`, 'non-optimal': 'not optimal', 'any-angle': 'any-angle' }[w.kind],
          }),
        ),
      );
      let note = '';
      if (settings?.any_angle) note = 'Any-angle: its cost may be below the cheapest grid path.';
      else if (settings?.has_agent) note = PSEUDOCODE[algo]?.agentNote ?? 'A walking agent: moves are the cells it walked.';
      return {
        settings,
        costLabel: settings?.has_agent ? 'Walked cost' : settings?.any_angle ? 'Cost (any-angle)' : 'Path cost',
        moves: settings?.has_agent,
        badges,
        note,
        canvas: { 'aria-label': `${labelOf(algo)} on the map` },
        wrapClass: 'pl-grid-wrap pl-compare-wrap',
        painter: (canvas) => new Painter(canvas),
      };
    },
    summary: settingsSummary,
    chart: () => el('figure', { class: 'pl-compare-chart', testid: 'compare-chart', 'data-state': 'measuring' }),
    size: {
      min: 160,
      ratio: 1.2,
      chrome: 340,
      resize: (p, width, maxHeight, dpr) => p.painter.resize(p.lab.width, p.lab.height, width, maxHeight, dpr),
    },
    paintPane(p) {
      const lab = p.lab;
      const s = p.settings;
      p.painter.paint(lab, app.memory, {
        hover: null,
        algo: s.algo,
        usesHeuristic: s.uses_heuristic,
        weight: s.weight,
        heat: lab.cellValuesHeat(),
        overlay: lab.overlay(),
        // The map's teleports and heights (links.js), drawn on every pane as on the page.
        layers: app.layers,
      });
    },
    advance: (p, n) => p.lab.advance(n),
    onLayout() {
      if (compare.ui().chart.clientWidth !== chartWidth) drawChart();
    },
    beforeEnter() {
      generation += 1;
      terrainCache = null;
      hasTerrainCells();
    },
    onEnter: () => measureAll(generation),
    onLeave() {
      generation += 1;
      results = [];
    },
    relayout: () => app.layout(),
  });
  const { section, picks } = compare;

  // ---- the panel's Compare section ----
  const first = app.config.algo;
  const second = first === 'dijkstra' ? 'astar' : 'dijkstra';
  const defaults = [first, second, '', ''];
  picks.forEach((select, i) => {
    if (i >= 2) select.append(el('option', { value: '', text: '(none)' }));
    for (const [value, label] of known) select.append(el('option', { value, text: label }));
    select.value = defaults[i];
  });
  const searchSection = app.ui.note?.closest('section');
  if (searchSection) searchSection.after(section);

  function hasTerrainCells() {
    if (terrainCache === null) {
      const lab = app.lab;
      const cells = new Uint8Array(app.memory.buffer, lab.cellsPtr(), lab.width * lab.height);
      terrainCache = false;
      openCells = 0;
      for (let i = 0; i < cells.length; i++) {
        if (cells[i] > 1) terrainCache = true;
        if (cells[i] !== 0) openCells += 1;
      }
    }
    return terrainCache;
  }

  function settingsSummary() {
    const s = app.lab.settings();
    const text = (select) => select.selectedOptions[0]?.textContent ?? '';
    const parts = [`Moves: ${text(app.ui.diagonal)}`, `Costs: ${text(app.ui.costs)}`, `Heuristic: ${text(app.ui.heuristic)}`];
    if (s.weight !== 1) parts.push(`Weight: ${s.weight}`);
    return `${app.mapTitle || 'This map'}, start (${s.start.join(',')}), goal (${s.goal.join(',')}). ${parts.join(' · ')}.`;
  }

  // ---- the chart ----

  async function measureAll(gen) {
    const alive = () => gen === generation;
    const panes = compare.panes();
    const ui = compare.ui();
    results = panes.map(() => null);
    optimal = null;
    drawChart();
    await pause();
    if (!alive()) return;
    try {
      optimal = cheapestCost(app.lab);
    } catch {
      optimal = null;
    }
    for (let i = 0; i < panes.length; i++) {
      const p = panes[i];
      if (!alive()) return;
      if (!p.lab) {
        results[i] = { error: p.error };
        continue;
      }
      let r;
      try {
        r = await measure(p.lab, alive);
      } catch (e) {
        r = { error: e.message };
      }
      if (!alive()) return;
      results[i] = r;
      drawChart();
    }
    ui.chart.dataset.state = 'done';
    drawChart();
  }

  function drawChart() {
    if (!compare.showing()) return;
    const panes = compare.panes();
    const ui = compare.ui();
    const measures = [
      {
        key: 'expanded',
        title: 'Nodes expanded',
        value: (r) => r.expanded,
        text: (r) => {
          const per = openCells ? ` (${Math.round((r.expanded * 400) / openCells)} per 400 cells)` : '';
          const moves = r.moves !== null && r.moves !== undefined ? ` · ${r.moves} moves` : '';
          return `${r.expanded}${per}${moves}`;
        },
      },
      {
        key: 'cost',
        title: 'Path cost',
        value: (r) => r.cost,
        text: (r, p) => {
          if (r.cost === null) return r.gaveUp ? 'gave up' : 'no path';
          let t = formatCost(r.cost);
          if (optimal !== null && Math.abs(r.cost - optimal) > 1e-9) {
            const e = excessPercent(r.cost, optimal);
            t += e > 0 ? ` · ${e.toFixed(1)}% above` : ` · ${(-e).toFixed(1)}% below`;
          }
          if (p.settings?.any_angle) t += ' (any-angle)';
          else if (p.settings?.has_agent) t += ' (walked)';
          return t;
        },
        reference: optimal,
      },
      {
        key: 'time',
        title: 'Run time (ms)',
        value: (r) => r.ms,
        text: (r) => `${formatMs(r.ms)} ms`,
      },
    ];
    // What each row says: the value, or why there is none.
    const texts = measures.map((m) =>
      panes.map((p, i) => {
        const r = results[i];
        if (!r) return 'measuring…';
        if (r.error) return 'cannot run';
        return m.text(r, p);
      }),
    );
    // Laid out in CSS pixels for the width there is, so the text keeps its size: a label column,
    // the bars and their values side by side, or on a narrow screen each value over its bar.
    const W = Math.max(260, Math.min(960, Math.round(ui.chart.clientWidth || 760)));
    const charW = 7.2;
    const stacked = W < 560;
    const labelW = stacked ? 0 : Math.min(170, Math.max(...panes.map((p) => nameOf(p.algo).length)) * 8 + 8);
    const barX = stacked ? 0 : labelW + 10;
    const longest = Math.max(...texts.flat().map((t) => t.length)) * charW + 14;
    const barMax = stacked ? W - 4 : Math.max(120, W - barX - longest);
    const row = stacked ? 40 : 26;
    const head = 28;
    const height = measures.length * (head + panes.length * row + 12);
    const root = svg('svg', { width: W, height, viewBox: `0 0 ${W} ${height}`, class: 'pl-compare-svg', role: 'img' });
    const summary = [];
    let y = 0;
    measures.forEach((m, k) => {
      const values = results.filter((r) => r && !r.error).map(m.value).filter((v) => v !== null && v !== undefined);
      const max = Math.max(...values, m.reference ?? 0, 1e-12);
      const refX = m.reference === null || m.reference === undefined ? null : barX + (m.reference / max) * barMax;
      const group = svg('g', { 'data-measure': m.key });
      group.append(svg('text', { x: 0, y: y + 19, class: 'pl-chart-title' }, m.title));
      const top = y + head;
      const parts = [];
      panes.forEach((p, i) => {
        const r = results[i];
        const text = texts[k][i];
        const cy = top + i * row;
        const barY = stacked ? cy + 20 : cy + 4;
        const barH = stacked ? 14 : 17;
        const v = r && !r.error ? m.value(r) : null;
        let end = barX;
        if (v !== null && v !== undefined) {
          const w = Math.max(2, (v / max) * barMax);
          end = barX + w;
          group.append(
            svg(
              'rect',
              { x: barX, y: barY, width: w.toFixed(1), height: barH, rx: 2, fill: p.colour, 'data-algo': p.algo, 'data-measure': m.key, 'data-value': v },
              svg('title', {}, `${nameOf(p.algo)}: ${text}`),
            ),
          );
        }
        if (stacked) {
          group.append(
            svg('text', { x: 0, y: cy + 15, class: 'pl-chart-value' }, svg('tspan', { class: 'pl-chart-label' }, `${nameOf(p.algo)}: `), text),
          );
        } else {
          group.append(svg('text', { x: labelW, y: cy + 17, 'text-anchor': 'end', class: 'pl-chart-label' }, nameOf(p.algo)));
          // The value goes right of its bar, or right of the dashed line when it would cross it.
          const crosses = refX !== null && end + 6 < refX && end + 6 + text.length * charW > refX;
          group.append(svg('text', { x: (crosses ? refX + 6 : end + 6).toFixed(1), y: cy + 17, class: 'pl-chart-value' }, text));
        }
        parts.push(`${nameOf(p.algo)} ${text}`);
      });
      if (refX !== null) {
        group.append(
          svg('line', {
            x1: refX.toFixed(1), x2: refX.toFixed(1), y1: top + (stacked ? 16 : 0), y2: top + panes.length * row,
            class: 'pl-chart-reference', 'data-value': m.reference,
          }),
        );
      }
      summary.push(`${m.title}: ${parts.join(', ')}.`);
      root.append(group);
      y = top + panes.length * row + 12;
    });
    root.setAttribute('aria-label', summary.join(' '));
    const done = ui.chart.dataset.state === 'done';
    const caption = el(
      'figcaption',
      { class: 'pl-hint' },
      done
        ? `Each algorithm run to the end on this map. Nodes expanded also per 400 open cells, as in the course's comparison table. ${
            optimal === null ? '' : `The dashed line marks the cheapest grid path (${formatCost(optimal)}, by Dijkstra). `
          }Time: the median of up to ${SAMPLES} timed runs in this browser, from step 0 to the end; preprocessing (JPS+, hierarchical A*) not counted.`
        : 'Running each algorithm to the end and timing it…',
    );
    ui.chart.replaceChildren(el('h3', { class: 'pl-compare-chart-title', text: 'Run to the end' }), root, caption);
    chartWidth = ui.chart.clientWidth;
  }

  // A map loaded while comparing (the header's map list or a file) is compared instead.
  const onEdit = (event) => {
    if (compare.showing() && event.detail?.what === 'load') compare.enter(compare.names());
  };
  app.root.addEventListener('pathlab-edit', onEdit);

  return {
    start() {
      const names = app.config.compare;
      if (names) compare.enter(names, { step: app.config.step, autoplay: app.config.autoplay });
    },
    names: compare.names,
    destroy() {
      compare.destroy();
      app.root.removeEventListener('pathlab-edit', onEdit);
    },
  };
}
