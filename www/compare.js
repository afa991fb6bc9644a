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
import { SPEEDS, MAX_COMPARE } from './config.js';
import { statusName } from './pkg/pathlab_wasm.js';
import { assess, cheapestCost, ensureStylesheet, excessPercent, formatCost, nameOf } from './warnings.js';

/** One colour per pane, in the chart and on the pane: Okabe-Ito blue, vermillion, bluish green, reddish purple. */
export const PANE_COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7'];

/** What "expanded" counts for each walking agent, beside the moves it walked. */
const AGENT_NOTES = {
  lrta: 'A walking agent: expanded counts the cells its look-aheads examined; moves are the cells it walked.',
  rta: 'A walking agent: expanded counts the cells its look-aheads examined; moves are the cells it walked.',
  'dstar-lite': "A walking agent: expanded counts its planner's expansions; moves are the cells it walked.",
  'crash-turn': 'A walking agent that plans nothing: expanded counts its moves.',
};

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
 * A copy of the page's map (cells, start, goal, settings) with `algo`, carrying the map's
 * links too (teleports and their estimate, or heights and slope costs; links.js), so that a
 * compared search costs its moves as the page's own does. Lab.cloneMap copies the cells and
 * settings only. Throws, freeing the copy, when the algorithm cannot run with those links.
 */
export function cloneWithLinks(lab, algo) {
  const copy = lab.cloneMap(algo);
  try {
    const links = typeof lab.links === 'function' ? lab.links() : null;
    if (links?.kind === 'teleports' && links.teleports.length) {
      const flat = links.teleports.flatMap(([fx, fy, tx, ty, cost, both]) => [fx, fy, tx, ty, cost, both ? 1 : 0]);
      copy.setTeleports(Float64Array.from(flat), links.heuristic);
    } else if (links?.kind === 'slopes') {
      copy.setSlopes(lab.heights(), links.uphill, links.downhill);
    }
  } catch (e) {
    copy.free();
    throw new Error(`${e.message} (the map has ${lab.links().kind === 'slopes' ? 'slopes' : 'teleports'})`);
  }
  return copy;
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
 * takes the place of the grid and panel while it is on. Returns `{ start(), names(), destroy() }`:
 * `start` enters compare mode when the configuration asks for it, `names` lists the
 * algorithms compared (null when off).
 */
export function attachCompare(app) {
  ensureStylesheet();
  const known = [...app.ui.algo.options].map((o) => [o.value, o.textContent]);
  const labelOf = (algo) => known.find(([v]) => v === algo)?.[1] ?? algo;
  const id = (name) => `pl-${name}-${Math.random().toString(36).slice(2, 8)}`;

  // ---- the panel's Compare section ----
  const picks = [];
  const first = app.config.algo;
  const second = first === 'dijkstra' ? 'astar' : 'dijkstra';
  const defaults = [first, second, '', ''];
  for (let i = 0; i < MAX_COMPARE; i++) {
    const select = el('select', { testid: `compare-pick-${i + 1}`, id: id(`compare-pick-${i + 1}`) });
    if (i >= 2) select.append(el('option', { value: '', text: '(none)' }));
    for (const [value, label] of known) select.append(el('option', { value, text: label }));
    select.value = defaults[i];
    picks.push(select);
  }
  const enterButton = el('button', {
    type: 'button', testid: 'compare', class: 'pl-btn pl-small pl-primary', text: 'Compare side by side',
    title: 'Show the chosen algorithms side by side on this map, stepping together',
  });
  const section = el(
    'section',
    { class: 'pl-section pl-compare-picker' },
    el('h2', { text: 'Compare' }),
    el('p', { class: 'pl-hint', text: 'Up to four algorithms on this map, with these settings, stepping together.' }),
    ...picks.map((select, i) =>
      el('label', { class: 'pl-field' }, el('span', { text: `Pane ${i + 1}` }), select),
    ),
    enterButton,
  );
  const searchSection = app.ui.note?.closest('section');
  if (searchSection) searchSection.after(section);
  enterButton.addEventListener('click', () => {
    const names = [...new Set(picks.map((p) => p.value).filter(Boolean))];
    if (names.length < 2) {
      app.say('Compare: choose at least two different algorithms.');
      return;
    }
    enter(names, { focus: true });
  });

  // ---- the compare view ----
  let view = null;
  let panes = [];
  let generation = 0;
  let frame = 0;
  let playing = false;
  let carry = 0;
  let lastTime = 0;
  let dirty = true;
  let results = [];
  let optimal = null;
  let openCells = 0;
  let resizeObserver = null;
  let chartWidth = 0;
  let ui = {};

  const mainOf = () => app.root.querySelector(':scope > .pl-main');
  const finished = (pane) => {
    const s = statusName(pane.lab.status);
    return s === 'found' || s === 'no-path';
  };
  const live = () => panes.filter((p) => p.lab);
  const allFinished = () => live().every(finished);
  /** The shared step count: every pane that has not finished stands at it. */
  const tick = () => Math.max(0, ...live().map((p) => p.lab.steps));

  function makePane(algo, index) {
    let lab = null;
    let error = null;
    try {
      lab = cloneWithLinks(app.lab, algo);
    } catch (e) {
      error = e.message;
    }
    const settings = lab ? lab.settings() : null;
    const colour = PANE_COLOURS[index % PANE_COLOURS.length];
    const r = {};
    const readout = (key, label) => {
      r[key] = el('output', { testid: `compare-${key}`, class: `pl-value pl-${key}` });
      return el('div', { class: 'pl-readout' }, el('span', { class: 'pl-label', text: label }), r[key]);
    };
    const costLabel = settings?.has_agent ? 'Walked cost' : settings?.any_angle ? 'Cost (any-angle)' : 'Path cost';
    const canvas = el('canvas', {
      class: 'pl-canvas pl-compare-canvas',
      testid: 'compare-grid',
      role: 'img',
      'aria-label': `${labelOf(algo)} on the map`,
    });
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
    const readouts = el(
      'div',
      { class: 'pl-readouts pl-compare-readouts' },
      readout('status', 'Status'),
      readout('expanded', 'Expanded'),
      readout('open', 'Open'),
      readout('cost', costLabel),
      settings?.has_agent ? readout('moves', 'Moves') : null,
    );
    r.steps = el('span', { class: 'pl-steps', testid: 'compare-steps' });
    readouts.append(r.steps);
    const note = el('p', { class: 'pl-hint pl-compare-note', testid: 'compare-note' });
    if (error) note.textContent = `${labelOf(algo)} cannot run here: ${error}`;
    else if (settings.any_angle) note.textContent = 'Any-angle: its cost may be below the cheapest grid path.';
    else if (settings.has_agent) note.textContent = AGENT_NOTES[algo] ?? 'A walking agent: moves are the cells it walked.';
    r.why = el('p', { class: 'pl-hint pl-compare-note', testid: 'compare-why', 'aria-live': 'polite' });
    const wrap = el('div', { class: 'pl-grid-wrap pl-compare-wrap' }, canvas);
    const node = el(
      'article',
      { class: 'pl-compare-pane', testid: 'compare-pane', 'data-algo': algo, style: `--pane: ${colour}`, 'aria-label': labelOf(algo) },
      el(
        'h3',
        { class: 'pl-compare-title' },
        el('span', { class: 'pl-compare-swatch', 'aria-hidden': 'true' }),
        el('span', { text: labelOf(algo) }),
      ),
      badges,
      wrap,
      readouts,
      r.why,
      note,
    );
    return { algo, lab, error, settings, colour, node, canvas, wrap, painter: lab ? new Painter(canvas) : null, r, size: '' };
  }

  let terrainCache = null;
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

  function build(names) {
    const button = (key, label, title, extra = '') =>
      (ui[key] = el('button', { type: 'button', testid: `compare-${key}`, class: `pl-btn pl-${key} ${extra}`.trim(), title, text: label }));
    ui.speed = el('input', {
      type: 'range', testid: 'compare-speed', min: '1', max: String(SPEEDS.length), step: '1',
      value: String(app.config.speed), 'aria-label': 'Speed',
    });
    ui.speedLabel = el('span', { class: 'pl-speed-label' });
    ui.tick = el('span', { class: 'pl-steps', testid: 'compare-tick', 'aria-live': 'polite' });
    ui.panes = el('div', {
      class: 'pl-compare-panes',
      testid: 'compare-panes',
      'data-count': String(names.length),
      tabindex: '0',
      role: 'group',
      'aria-label': 'The searches side by side. Keys: right arrow steps, left arrow goes back, space plays, Home resets, End runs to the end, Escape leaves.',
    });
    ui.chart = el('figure', { class: 'pl-compare-chart', testid: 'compare-chart', 'data-state': 'measuring' });
    const transport = el(
      'div',
      { class: 'pl-transport', role: 'toolbar', 'aria-label': 'Controls for every pane' },
      button('reset', 'Reset', 'Every pane back to step 0 (Home)'),
      button('back', '◀ Back', 'Every pane one step back (←)'),
      button('step', 'Step ▶', 'Every pane one step (→)'),
      button('play', 'Play', 'Play or pause every pane (space)'),
      button('run', 'Run to end', 'Every pane to the end (End)'),
      el('label', { class: 'pl-speed' }, el('span', { class: 'pl-label', text: 'Speed' }), ui.speed, ui.speedLabel),
      ui.tick,
    );
    const bar = el(
      'div',
      { class: 'pl-compare-bar' },
      el(
        'div',
        {},
        el('h2', { class: 'pl-compare-heading', text: `Comparing ${names.map(nameOf).join(', ')}` }),
        el('p', { class: 'pl-hint pl-compare-summary', testid: 'compare-summary', text: settingsSummary() }),
      ),
      button('exit', 'Back to one search', 'Leave compare mode (Escape)', 'pl-small'),
    );
    view = el('section', { class: 'pl-compare', testid: 'compare-view', 'aria-label': 'Algorithms compared side by side' }, bar, transport, ui.panes, ui.chart);
    wire();
  }

  function wire() {
    ui.step.addEventListener('click', () => act('step'));
    ui.back.addEventListener('click', () => act('back'));
    ui.reset.addEventListener('click', () => act('reset'));
    ui.run.addEventListener('click', () => act('run'));
    ui.play.addEventListener('click', () => togglePlay());
    ui.exit.addEventListener('click', () => exit({ focus: true }));
    ui.speed.addEventListener('input', () => {
      app.config.speed = Number(ui.speed.value);
      app.showSpeed();
      showSpeed();
    });
    view.addEventListener('keydown', (event) => {
      // Keys in the view are the view's: the page's own key handler (on the root) must not
      // also step the hidden search.
      event.stopPropagation();
      const tag = event.target?.tagName;
      if (event.key === 'Escape') {
        event.preventDefault();
        exit({ focus: true });
        return;
      }
      if (['INPUT', 'SELECT', 'TEXTAREA'].includes(tag) || event.altKey || event.ctrlKey || event.metaKey) return;
      // On a button, space and Enter press it; the arrows, Home and End still act.
      if (tag === 'BUTTON' && (event.key === ' ' || event.key === 'Enter')) return;
      const actions = {
        ' ': () => togglePlay(),
        ArrowRight: () => act('step'),
        ArrowLeft: () => act('back'),
        Home: () => act('reset'),
        End: () => act('run'),
      };
      if (actions[event.key]) {
        event.preventDefault();
        actions[event.key]();
      }
    });
  }

  function showSpeed() {
    ui.speed.value = String(app.config.speed);
    ui.speedLabel.textContent = `${SPEEDS[app.config.speed - 1]}/s`;
  }

  /** One action on every pane, in sync. */
  function act(what) {
    setPlaying(false);
    if (what === 'step') {
      for (const p of live()) if (!finished(p)) p.lab.step();
    } else if (what === 'back') {
      const t = tick();
      if (t > 0) for (const p of live()) if (p.lab.steps === t) p.lab.back();
    } else if (what === 'reset') {
      for (const p of live()) p.lab.reset();
    } else if (what === 'run') {
      for (const p of live()) p.lab.run();
    }
    dirty = true;
  }

  function togglePlay() {
    if (!playing && allFinished()) for (const p of live()) p.lab.reset();
    setPlaying(!playing);
    dirty = true;
  }

  function setPlaying(on) {
    playing = on;
    carry = 0;
    lastTime = 0;
    if (!ui.play) return;
    ui.play.textContent = on ? 'Pause' : 'Play';
    ui.play.setAttribute('aria-pressed', on ? 'true' : 'false');
  }

  function layout() {
    if (!view) return;
    if (ui.chart.clientWidth !== chartWidth) drawChart();
    const count = panes.length;
    const columns = Math.max(1, Math.round(ui.panes.clientWidth / Math.max(1, panes[0]?.node.clientWidth || 1)));
    const rows = Math.ceil(count / columns);
    const dpr = window.devicePixelRatio || 1;
    for (const p of panes) {
      if (!p.painter) continue;
      const width = p.wrap.clientWidth;
      if (!width) continue;
      const maxHeight = Math.max(160, Math.min(width * 1.2, (window.innerHeight - 340) / rows));
      const key = `${width}x${maxHeight}@${dpr}`;
      if (key === p.size) continue;
      p.size = key;
      p.painter.resize(p.lab.width, p.lab.height, width, maxHeight, dpr);
      dirty = true;
    }
  }

  function paint() {
    for (const p of panes) {
      if (!p.lab) {
        p.r.status.textContent = 'cannot run';
        p.r.status.dataset.status = 'no-path';
        continue;
      }
      const lab = p.lab;
      const s = p.settings;
      if (p.size) {
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
      }
      const status = statusName(lab.status);
      p.r.status.textContent = status;
      p.r.status.dataset.status = status;
      p.r.expanded.textContent = String(lab.expanded);
      p.r.open.textContent = String(lab.openCount);
      const cost = lab.cost;
      p.r.cost.textContent = formatCost(cost);
      p.r.cost.dataset.value = cost === undefined || cost === null ? '' : String(cost);
      if (p.r.moves) {
        const agent = lab.agent();
        p.r.moves.textContent = agent ? String(agent.moves) : '0';
      }
      p.r.steps.textContent = `step ${lab.steps}${finished(p) ? ', finished' : ''}`;
      p.node.dataset.status = status;
      const why = status === 'no-path' ? (lab.gaveUp() ?? 'There is no path: the open list ran empty.') : '';
      if (p.r.why.textContent !== why) p.r.why.textContent = why;
    }
    const t = tick();
    ui.tick.textContent = `step ${t}`;
    ui.back.disabled = t === 0;
    ui.step.disabled = allFinished();
    ui.run.disabled = ui.step.disabled;
  }

  function loop(time) {
    frame = requestAnimationFrame(loop);
    if (playing) {
      const dt = lastTime ? Math.min(100, time - lastTime) : 1000 / 60;
      lastTime = time;
      carry += (SPEEDS[app.config.speed - 1] * dt) / 1000;
      const n = Math.floor(carry);
      if (n > 0) {
        carry -= n;
        for (const p of live()) if (!finished(p)) p.lab.advance(n);
        dirty = true;
      }
      if (allFinished()) setPlaying(false);
    }
    if (!dirty) return;
    dirty = false;
    paint();
  }

  // ---- the chart ----

  async function measureAll(gen) {
    const alive = () => gen === generation;
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
    if (!view) return;
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

  // ---- entering and leaving ----

  function enter(names, { focus = false, step = 0, autoplay = false } = {}) {
    if (view) leave();
    app.setPlaying(false);
    generation += 1;
    terrainCache = null;
    hasTerrainCells();
    ui = {};
    build(names);
    panes = names.map((algo, i) => makePane(algo, i));
    ui.panes.replaceChildren(...panes.map((p) => p.node));
    const main = mainOf();
    if (main) {
      main.hidden = true;
      main.after(view);
    } else {
      app.root.append(view);
    }
    app.root.classList.add('pl-comparing');
    for (const p of panes) if (p.error) app.say(`Compare: ${labelOf(p.algo)} cannot run on this map: ${p.error}`);
    if (step > 0) for (const p of live()) p.lab.seek(step);
    showSpeed();
    resizeObserver = new ResizeObserver(() => layout());
    resizeObserver.observe(ui.panes);
    window.addEventListener('resize', layout);
    layout();
    dirty = true;
    frame = requestAnimationFrame(loop);
    measureAll(generation);
    if (autoplay && !allFinished()) setPlaying(true);
    if (focus) ui.step.focus();
    app.changed();
  }

  /** Removes the view and frees the panes' searches. */
  function leave() {
    generation += 1;
    cancelAnimationFrame(frame);
    setPlaying(false);
    resizeObserver?.disconnect();
    resizeObserver = null;
    window.removeEventListener('resize', layout);
    for (const p of panes) p.lab?.free();
    panes = [];
    results = [];
    view?.remove();
    view = null;
    app.root.classList.remove('pl-comparing');
  }

  function exit({ focus = false } = {}) {
    if (!view) return;
    const names = panes.map((p) => p.algo);
    leave();
    const main = mainOf();
    if (main) main.hidden = false;
    // The Compare section remembers the last comparison.
    names.forEach((n, i) => {
      if (picks[i]) picks[i].value = n;
    });
    for (let i = names.length; i < picks.length; i++) if (i >= 2) picks[i].value = '';
    app.lastSize = '';
    app.layout();
    app.touch();
    app.changed();
    if (focus) enterButton.focus();
  }

  // A map loaded while comparing (the header's map list or a file) is compared instead.
  const onEdit = (event) => {
    if (view && event.detail?.what === 'load') enter(panes.map((p) => p.algo));
  };
  app.root.addEventListener('pathlab-edit', onEdit);

  return {
    start() {
      const names = app.config.compare;
      if (names) enter(names, { step: app.config.step, autoplay: app.config.autoplay });
    },
    names: () => (view ? panes.map((p) => p.algo) : null),
    destroy() {
      leave();
      app.root.removeEventListener('pathlab-edit', onEdit);
      section.remove();
    },
  };
}
