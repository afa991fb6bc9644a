// The street's path-finders compared on the crowd page, as the course's thesis compares them:
// the time spent planning against the number of agents (one line per path-finder), and how many
// nodes each plan expands (one histogram per path-finder, shared bins). The runs come from the
// core (StreetComparison in pkg/pathlab_crowd), one street per call so the page can draw and
// answer between them; the charts are plain canvas and every text is set with textContent.

import { StreetComparison } from './pkg/pathlab_crowd.js';
import { el } from './dom.js';

/** The pedestrian counts compared (each run also has the street's 6 cars). */
export const COMPARE_COUNTS = [5, 10, 25, 50, 100, 200];
/** Steps per run (0.1 s each). */
export const COMPARE_STEPS = 100;
/** Bins of each histogram. */
export const COMPARE_BINS = 10;
/** One colour per path-finder (Okabe and Ito): blue, vermillion, bluish green, reddish purple, orange. */
export const PLANNER_COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00'];

const INK = '#1f2430';
const MUTED = '#5b6473';
const FONT = '12px system-ui, sans-serif';

/** A canvas sized for `cssWidth` x `cssHeight` CSS pixels at the screen's pixel ratio; its 2-D context in CSS pixels. */
function sized(canvas, cssWidth, cssHeight) {
  const dpr = Math.min(window.devicePixelRatio || 1, 2);
  canvas.width = Math.round(cssWidth * dpr);
  canvas.height = Math.round(cssHeight * dpr);
  canvas.style.width = `${cssWidth}px`;
  canvas.style.height = `${cssHeight}px`;
  const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, cssWidth, cssHeight);
  g.font = FONT;
  return g;
}

/** Round axis steps: 1, 2 or 5 times a power of ten, about `n` of them up to `max`. */
export function niceTicks(max, n = 5) {
  if (!(max > 0)) return [0, 1];
  const raw = max / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  const ticks = [];
  for (let v = 0; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  if (ticks[ticks.length - 1] < max) ticks.push(Number((ticks[ticks.length - 1] + step).toPrecision(12)));
  return ticks;
}

/** Planning time (ms) against agents, one line per path-finder, on `canvas` `width` CSS pixels wide. */
export function drawTimeChart(canvas, result, width) {
  const height = 260;
  const g = sized(canvas, width, height);
  const left = 56;
  const right = 12;
  const top = 28;
  const bottom = 40;
  const agents = result.counts.map((n) => result.runs.find((r) => r.pedestrians === n)?.agents ?? n);
  const times = result.runs.map((r) => r.planningMs ?? 0);
  const xTicks = niceTicks(Math.max(...agents, 1));
  const yTicks = niceTicks(Math.max(...times, 1e-3));
  const xMax = xTicks[xTicks.length - 1];
  const yMax = yTicks[yTicks.length - 1];
  const X = (v) => left + (v / xMax) * (width - left - right);
  const Y = (v) => height - bottom - (v / yMax) * (height - top - bottom);
  g.fillStyle = INK;
  g.fillText('Planning time (ms) against agents', left, 16);
  g.strokeStyle = 'rgba(47, 53, 66, 0.15)';
  g.fillStyle = MUTED;
  g.textAlign = 'right';
  for (const t of yTicks) {
    g.beginPath();
    g.moveTo(left, Y(t));
    g.lineTo(width - right, Y(t));
    g.stroke();
    g.fillText(String(t), left - 6, Y(t) + 4);
  }
  g.textAlign = 'center';
  for (const t of xTicks) g.fillText(String(t), X(t), height - bottom + 16);
  g.fillText('agents (pedestrians and cars)', (left + width - right) / 2, height - 6);
  result.planners.forEach((p, k) => {
    const colour = PLANNER_COLOURS[k % PLANNER_COLOURS.length];
    const points = result.counts
      .map((n) => result.runs.find((r) => r.planner === p.name && r.pedestrians === n))
      .filter((r) => r && r.planningMs !== null && r.planningMs !== undefined);
    g.strokeStyle = colour;
    g.fillStyle = colour;
    g.lineWidth = 2;
    g.setLineDash(k % 2 ? [6, 3] : []);
    g.beginPath();
    points.forEach((r, i) => (i ? g.lineTo(X(r.agents), Y(r.planningMs)) : g.moveTo(X(r.agents), Y(r.planningMs))));
    g.stroke();
    g.setLineDash([]);
    for (const r of points) {
      g.beginPath();
      g.arc(X(r.agents), Y(r.planningMs), 3, 0, 2 * Math.PI);
      g.fill();
    }
    // The legend, top left inside the plot, one line per path-finder.
    g.textAlign = 'left';
    g.fillRect(left + 10, top + 6 + k * 16, 14, 3);
    g.fillStyle = INK;
    g.fillText(p.short, left + 30, top + 11 + k * 16);
  });
}

/** Histograms of nodes expanded per plan, one panel per path-finder, shared bins. */
export function drawHistograms(canvas, result, width) {
  const n = result.planners.length;
  const cols = width >= 760 ? n : width >= 460 ? 3 : 2;
  const rows = Math.ceil(n / cols);
  const panelH = 170;
  const height = rows * panelH + 24;
  const g = sized(canvas, width, height);
  g.fillStyle = INK;
  g.fillText(`Nodes expanded per plan: bins of ${result.binWidth}, the last one holds the rest`, 8, 16);
  const panelW = width / cols;
  result.histograms.forEach((h, k) => {
    const x0 = (k % cols) * panelW + 36;
    const y0 = 24 + Math.floor(k / cols) * panelH;
    const w = panelW - 48;
    const plotH = panelH - 54;
    const most = Math.max(...h.counts, 1);
    const yTicks = niceTicks(most, 3);
    const yMax = yTicks[yTicks.length - 1];
    const colour = PLANNER_COLOURS[k % PLANNER_COLOURS.length];
    const base = y0 + 20 + plotH;
    g.fillStyle = INK;
    g.textAlign = 'left';
    g.fillText(result.planners[k]?.short ?? h.planner, x0, y0 + 12);
    g.fillStyle = MUTED;
    g.textAlign = 'right';
    for (const t of yTicks) g.fillText(String(t), x0 - 4, base - (t / yMax) * plotH + 4);
    const bw = w / h.counts.length;
    g.fillStyle = colour;
    h.counts.forEach((c, i) => {
      const bh = (c / yMax) * plotH;
      g.fillRect(x0 + i * bw + 1, base - bh, Math.max(1, bw - 2), bh);
    });
    g.strokeStyle = MUTED;
    g.beginPath();
    g.moveTo(x0, base + 0.5);
    g.lineTo(x0 + w, base + 0.5);
    g.stroke();
    g.fillStyle = MUTED;
    g.textAlign = 'left';
    g.fillText('0', x0, base + 14);
    g.textAlign = 'right';
    g.fillText(`${result.binWidth * (h.counts.length - 1)}+`, x0 + w, base + 14);
  });
}

/** The comparison's figures as a table: per agent count, each path-finder's time and nodes per plan. */
function figures(result) {
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col', text: 'Agents' }),
    ...result.planners.map((p) => el('th', { scope: 'col', text: `${p.short}: ms · nodes/plan` })),
  );
  const rows = result.counts.map((n) => {
    const cells = result.planners.map((p) => {
      const r = result.runs.find((q) => q.planner === p.name && q.pedestrians === n);
      const ms = r?.planningMs === null || r?.planningMs === undefined ? '–' : r.planningMs.toFixed(2);
      const per = r ? Math.round(r.expanded / Math.max(1, r.plans)) : '–';
      return el('td', { class: 'cr-num', testid: `street-figure-${p.name}-${n}`, text: r ? `${ms} · ${per}` : '–' });
    });
    const agents = result.runs.find((r) => r.pedestrians === n)?.agents ?? n;
    return el('tr', {}, el('th', { scope: 'row', text: String(agents) }), ...cells);
  });
  return [
    el('caption', { text: `Each run: ${result.steps} steps from seed ${result.seed}` }),
    el('thead', {}, head),
    el('tbody', {}, ...rows),
  ];
}

/**
 * The panel: a button that runs the comparison for the page's seed, its progress, the two
 * charts and the table. `seedOf()` gives the seed to use; `say(text)` shows a message.
 */
export class StreetComparePanel {
  constructor(seedOf, say) {
    this.seedOf = seedOf;
    this.say = say;
    this.result = null;
    this.running = false;
    this.button = el('button', {
      type: 'button',
      testid: 'street-compare-run',
      class: 'pl-btn pl-small cr-compare',
      text: 'Compare path-finders',
      title: `Run the street with each path-finder for ${COMPARE_COUNTS.join(', ')} pedestrians, ${COMPARE_STEPS} steps each`,
    });
    this.status = el('p', { testid: 'street-compare-status', class: 'pl-hint', role: 'status', 'aria-live': 'polite' });
    this.timeCanvas = el('canvas', { testid: 'street-chart-time', class: 'cr-chart', role: 'img', 'aria-label': 'Planning time against the number of agents, one line per path-finder' });
    this.histCanvas = el('canvas', { testid: 'street-chart-hist', class: 'cr-chart', role: 'img', 'aria-label': 'Histograms of nodes expanded per plan, one per path-finder' });
    this.table = el('table', { testid: 'street-compare-table', class: 'cr-metrics cr-compare-metrics' });
    this.charts = el('div', { class: 'cr-charts', hidden: true }, this.timeCanvas, this.histCanvas, this.table);
    this.element = el(
      'section',
      { class: 'cr-street-compare', testid: 'street-compare', hidden: true },
      el('h2', { text: 'Path-finders compared' }),
      el('p', {
        class: 'pl-hint',
        text: 'Every path-finder plans the same street from the same seed, for more and more pedestrians: the time its plans took, and how many nodes each plan expanded.',
      }),
      this.button,
      this.status,
      this.charts,
    );
    this.button.addEventListener('click', () => this.run());
  }

  /** Shows or hides the panel. */
  show(visible) {
    this.element.hidden = !visible;
  }

  /** Runs the comparison, one street per task so the page stays responsive; resolves to the result. */
  async run() {
    if (this.running) return this.result;
    this.running = true;
    this.button.disabled = true;
    let c;
    try {
      // A short street with each path-finder first, so that compiling its code (the browser
      // compiles wasm functions on first use) is not timed as planning.
      const warm = new StreetComparison(Uint32Array.from([2]), 10, this.seedOf(), COMPARE_BINS);
      while (warm.step());
      warm.free();
      c = new StreetComparison(Uint32Array.from(COMPARE_COUNTS), COMPARE_STEPS, this.seedOf(), COMPARE_BINS);
      this.status.textContent = `Running 0 of ${c.total} streets…`;
      while (c.step()) {
        this.status.textContent = `Running ${c.done} of ${c.total} streets…`;
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      this.result = c.result();
      this.status.textContent = `Done: ${c.total} streets.`;
      this.draw();
    } catch (e) {
      this.say(`Compare path-finders: ${e.message}`);
      this.status.textContent = '';
    } finally {
      c?.free();
      this.running = false;
      this.button.disabled = false;
    }
    return this.result;
  }

  /** Draws the last result for the panel's width. */
  draw() {
    if (!this.result) return;
    this.charts.hidden = false;
    const width = Math.max(300, Math.min(1000, Math.floor(this.element.clientWidth || 720)));
    drawTimeChart(this.timeCanvas, this.result, width);
    drawHistograms(this.histCanvas, this.result, width);
    this.table.replaceChildren(...figures(this.result));
  }
}
