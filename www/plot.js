// Live plots of a simulation's metrics against simulated time, as NetLogo's plots draw them: the
// crowd and boid pages sample their scene's metrics (read from the wasm scene, never worked out
// here) after each step while the panel is open, and this module keeps the samples, draws them
// on a canvas with 2D calls (one strip per metric or group, each with its own axis, ticks and
// unit; one colour per series with a legend), says the metrics and latest values in a caption,
// and exports the samples as CSV and the chart as PNG.
//
// Memory is bounded: a plot holds at most MAX_POINTS samples per series. When it is full, every
// second sample is dropped and from then on only every second step is sampled (the stride
// doubles), so a long run keeps its whole time range at an even spacing.
//
// A page loads this module the first time its plot is opened (frames.js plotSlot, which makes
// the button and the section it fills), then calls `start(series, info)` for a new plot (a
// scene, a parameter or a reset), `sample(step, values)` after each step, and `draw()` when it
// refreshes its read-outs.
// Every text that may come from a configuration or the core is set with textContent.

import { download, el } from './dom.js';
import { formatSeconds } from './frames.js';

/** The most samples a plot keeps per series (then it thins them by half). */
export const MAX_POINTS = 2000;

/**
 * Series colours: the Okabe-Ito palette (told apart with any colour vision), dark enough on
 * white to read on a projector; the pale yellow is left out.
 */
export const PLOT_COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000'];

/** How many metrics are drawn when a plot starts, when a scene has more. */
export const FIRST_DRAWN = 4;

/** Strip height, axis margins and fonts, in CSS pixels. */
const STRIP = 110;
const GAP = 14;
const LEFT = 64;
const RIGHT = 16;
const TOP = 8;
const BOTTOM = 40;
const FONT = '14px system-ui, sans-serif';
const FONT_BOLD = '600 14px system-ui, sans-serif';

/**
 * The samples of one plot: the step and the simulated time of each sample, and one column of
 * values per series (NaN: not measured at that step).
 */
export class Samples {
  /** @param {number} columns @param {number} max */
  constructor(columns, max = MAX_POINTS) {
    this.max = max;
    /** @type {number[]} */
    this.steps = [];
    /** @type {number[]} */
    this.times = [];
    /** @type {number[][]} */
    this.values = Array.from({ length: columns }, () => []);
    this.stride = 1;
  }

  get length() {
    return this.steps.length;
  }

  /**
   * Adds the sample of `step` (`values` in column order) unless the step is already sampled or
   * falls inside the stride; returns true when it was kept.
   */
  add(step, time, values) {
    const last = this.steps.length ? this.steps[this.steps.length - 1] : -Infinity;
    if (step < last + this.stride) return false;
    if (this.steps.length >= this.max) this.halve();
    this.steps.push(step);
    this.times.push(time);
    this.values.forEach((column, i) => column.push(Number.isFinite(values[i]) ? values[i] : NaN));
    return true;
  }

  /** Keeps every second sample (the first, the third, ...) and doubles the stride. */
  halve() {
    const even = (_, i) => i % 2 === 0;
    this.steps = this.steps.filter(even);
    this.times = this.times.filter(even);
    this.values = this.values.map((column) => column.filter(even));
    this.stride *= 2;
  }
}

/** Ticks for the range [lo, hi]: round steps of 1, 2 or 5 times a power of ten, about `n` of them. */
export function ticks(lo, hi, n = 4) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number((Math.round(v / step) * step).toPrecision(12)));
  return out;
}

/** A tick's label: short, without float noise. */
function tickLabel(v) {
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e5 || a < 1e-3)) return v.toExponential(1);
  return String(Number(v.toPrecision(4)));
}

/** A value for the caption: at most 3 decimals, a dash when not measured. */
function captionValue(v) {
  if (!Number.isFinite(v)) return 'not measured';
  return String(Number(v.toFixed(Math.abs(v) >= 100 ? 1 : 3)));
}

/** Letters, digits and dashes only, for a file name. */
function fileSafe(text) {
  return String(text).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'run';
}

/**
 * A series of a plot: `key` (a metric's name, or `metric@method` when comparing), `label`,
 * `unit`, `group` (series of one group share a strip and its axis), `groupLabel` (the strip's
 * title, when it is not the first series' label) and `colour`.
 * @typedef {{ key: string, label: string, unit: string, group: string, groupLabel?: string, colour?: string }} Series
 */

/**
 * The plot panel of a simulation page, in the section `element` opened by `button` (both made
 * by frames.js plotSlot): the choice of metrics (`plot-pick-NAME` check boxes; or, with
 * `choices`, a select `plot-metric`), the chart (`plot-canvas`), its caption (`plot-caption`)
 * and the CSV and PNG buttons (`plot-csv`, `plot-png`).
 */
export class PlotPanel {
  /**
   * `onToggle(open)` is called when the panel opens or closes (the page starts sampling, and
   * writes `plot=1` in its address); `onChoice(name)` when the compared metric is changed.
   * @param {{ onToggle: (open: boolean) => void, onChoice?: (name: string) => void }} hooks
   * @param {{ button: HTMLElement, element: HTMLElement }} shell
   */
  constructor({ onToggle, onChoice = () => {} }, { button, element }) {
    this.onToggle = onToggle;
    this.onChoice = onChoice;
    this.open = false;
    /** @type {Series[]} */
    this.list = [];
    this.samples = new Samples(0);
    this.info = { page: 'run', scene: 'run', seed: 0, stepSeconds: 1 };
    /** The drawn groups: a metric's name when its box is ticked. */
    this.shown = new Set();
    /** Names seen in earlier plots whose choice the user made, kept across plots. */
    this.picked = new Map();
    this.geometry = null;
    this.button = button;
    this.picks = el('fieldset', { class: 'pl-plot-picks', testid: 'plot-picks' });
    this.choice = el('select', { testid: 'plot-metric', 'aria-label': 'Metric compared', hidden: true });
    this.canvas = el('canvas', { testid: 'plot-canvas', class: 'pl-plot-canvas', role: 'img', 'aria-label': 'Plot of the metrics against simulated time' });
    this.caption = el('figcaption', { testid: 'plot-caption', class: 'pl-plot-caption' });
    const id = `pl-plot-${Math.random().toString(36).slice(2, 8)}`;
    this.caption.id = `${id}-caption`;
    this.canvas.setAttribute('aria-describedby', this.caption.id);
    const csv = el('button', { type: 'button', testid: 'plot-csv', class: 'pl-btn pl-small', text: 'CSV', title: 'Download the sampled values as CSV' });
    const png = el('button', { type: 'button', testid: 'plot-png', class: 'pl-btn pl-small', text: 'PNG', title: 'Download the chart as a PNG image' });
    this.body = el(
      'div',
      { class: 'pl-plot-body', id, hidden: true },
      el('div', { class: 'pl-plot-controls' }, this.picks, this.choice, el('span', { class: 'pl-plot-exports' }, csv, png)),
      el('figure', { class: 'pl-plot-figure' }, this.canvas, this.caption),
    );
    this.button.setAttribute('aria-controls', id);
    this.element = element;
    element.append(this.body);
    this.choice.addEventListener('change', () => this.onChoice(this.choice.value));
    csv.addEventListener('click', () => download(new Blob([this.csv()], { type: 'text/csv' }), this.fileName('csv')));
    png.addEventListener('click', () => {
      this.draw();
      this.canvas.toBlob((blob) => blob && download(blob, this.fileName('png')), 'image/png');
    });
  }

  /** Opens or closes the panel (and tells the page). */
  setOpen(on) {
    this.open = on;
    this.body.hidden = !on;
    this.button.setAttribute('aria-expanded', on ? 'true' : 'false');
    this.button.textContent = on ? 'Hide plot' : 'Plot metrics';
    this.onToggle(on);
    if (on) this.draw();
  }

  /**
   * Starts a new plot of `series` (see Series; colours are given here unless set), for `info`:
   * `page` and `scene` (for file names and the CSV's first line), `seed`, `stepSeconds` (the
   * simulated time of a step), `settings` (a line of text), and for a comparison `choices`
   * (`[name, label]` of the metrics one may compare) with `chosen`.
   */
  start(series, info) {
    this.list = series.map((s, i) => ({ ...s, colour: s.colour ?? PLOT_COLOURS[i % PLOT_COLOURS.length] }));
    this.samples = new Samples(series.length);
    this.info = info;
    const groups = [...new Set(this.list.map((s) => s.group))];
    this.choice.hidden = !info.choices;
    this.picks.hidden = Boolean(info.choices);
    if (info.choices) {
      this.choice.replaceChildren(...info.choices.map(([name, label]) => el('option', { value: name, text: label })));
      this.choice.value = info.chosen;
      this.shown = new Set(groups);
    } else {
      this.shown = new Set(groups.filter((g, i) => this.picked.get(g) ?? i < FIRST_DRAWN));
      this.picks.replaceChildren(
        el('legend', { text: 'Metrics drawn' }),
        ...this.list.map((s) => {
          const box = el('input', { type: 'checkbox', testid: `plot-pick-${s.key}` });
          box.checked = this.shown.has(s.group);
          box.addEventListener('change', () => {
            this.picked.set(s.group, box.checked);
            if (box.checked) this.shown.add(s.group);
            else this.shown.delete(s.group);
            this.draw();
          });
          return el(
            'label',
            { class: 'pl-plot-pick' },
            box,
            el('span', { class: 'pl-swatch', style: `--swatch: ${s.colour}` }),
            el('span', { text: s.unit ? `${s.label} (${s.unit})` : s.label }),
          );
        }),
      );
    }
    this.draw();
  }

  /** Samples `values` (one per series, null or NaN: not measured) at `step`. */
  sample(step, values) {
    this.samples.add(step, step * this.info.stepSeconds, values.map((v) => (v === null || v === undefined ? NaN : v)));
  }

  /** Every series with its samples: `{ key, label, unit, group, colour, steps, times, values }`. */
  series() {
    const s = this.samples;
    return this.list.map((series, i) => ({ ...series, steps: [...s.steps], times: [...s.times], values: [...s.values[i]] }));
  }

  /**
   * The samples as CSV: a first line saying what they are (starting with #), a header
   * `step,time_s,KEY (UNIT),...`, then one row per sample at full precision (JavaScript's
   * shortest round-trip form; the table rounds them), empty where not measured.
   */
  csv() {
    const s = this.samples;
    const i = this.info;
    const lines = [
      `# Pathlab ${i.page}: ${i.scene}, seed ${i.seed}${i.settings ? `, ${i.settings}` : ''}; ${s.length} samples, every ${s.stride} step(s) of ${formatSeconds(i.stepSeconds)}; values at full precision, empty where not measured`,
      ['step', 'time_s', ...this.list.map((x) => (x.unit ? `${x.key} (${x.unit})` : x.key))].join(','),
    ];
    for (let k = 0; k < s.length; k++) {
      lines.push([s.steps[k], s.times[k], ...s.values.map((column) => (Number.isFinite(column[k]) ? String(column[k]) : ''))].join(','));
    }
    return `${lines.join('\n')}\n`;
  }

  /** `pathlab-PAGE-SCENE-seedN.EXT`. */
  fileName(ext) {
    return `pathlab-${fileSafe(this.info.page)}-${fileSafe(this.info.scene)}-seed${this.info.seed}.${ext}`;
  }

  /** The groups drawn, in order, each with its series' indexes. */
  drawnGroups() {
    const groups = new Map();
    this.list.forEach((s, i) => {
      if (!this.shown.has(s.group)) return;
      if (!groups.has(s.group)) groups.set(s.group, []);
      groups.get(s.group).push(i);
    });
    return [...groups.entries()];
  }

  /** Draws the chart and refreshes the caption (only while open). */
  draw() {
    if (!this.open) return;
    const groups = this.drawnGroups();
    const legendRows = Math.max(1, Math.ceil(groups.reduce((n, [, idx]) => n + idx.length, 0) / 2));
    const legendH = legendRows * 20 + 6;
    const cssW = Math.max(280, Math.floor(this.body.clientWidth || 600));
    const cssH = TOP + legendH + Math.max(1, groups.length) * (STRIP + GAP) + BOTTOM;
    const dpr = window.devicePixelRatio || 1;
    const canvas = this.canvas;
    if (canvas.width !== Math.round(cssW * dpr) || canvas.height !== Math.round(cssH * dpr)) {
      canvas.width = Math.round(cssW * dpr);
      canvas.height = Math.round(cssH * dpr);
      canvas.style.width = `${cssW}px`;
      canvas.style.height = `${cssH}px`;
    }
    const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, cssW, cssH);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    const s = this.samples;
    const t0 = s.length ? s.times[0] : 0;
    const t1 = s.length ? s.times[s.length - 1] : 1;
    const tHi = t1 > t0 ? t1 : t0 + Math.max(this.info.stepSeconds, 1e-9);
    const plotW = cssW - LEFT - RIGHT;
    const xOf = (t) => LEFT + ((t - t0) / (tHi - t0)) * plotW;

    // The legend: a swatch and a label per drawn series, two to a row.
    const drawnSeries = groups.flatMap(([, idx]) => idx);
    drawnSeries.forEach((i, k) => {
      const x = LEFT + (k % 2) * (plotW / 2);
      const y = TOP + Math.floor(k / 2) * 20 + 10;
      const series = this.list[i];
      ctx.fillStyle = series.colour;
      ctx.fillRect(x, y - 6, 22, 12);
      ctx.fillStyle = '#1f2430';
      ctx.textAlign = 'left';
      ctx.fillText(series.unit ? `${series.label} (${series.unit})` : series.label, x + 28, y, plotW / 2 - 34);
    });
    if (!groups.length) {
      ctx.fillStyle = '#4a5060';
      ctx.fillText('No metric chosen: tick one above to draw it.', LEFT, TOP + legendH + STRIP / 2);
    }

    /** Where each series' samples were drawn: strip box and value range, for pointAt. */
    const placed = new Map();
    const measuredIn = (idx) => idx.some((i) => s.values[i].some(Number.isFinite));
    groups.forEach(([, idx], g) => {
      const top = TOP + legendH + g * (STRIP + GAP);
      let lo = Infinity;
      let hi = -Infinity;
      for (const i of idx) {
        for (const v of s.values[i]) {
          if (!Number.isFinite(v)) continue;
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
      if (!Number.isFinite(lo)) [lo, hi] = [0, 1];
      if (hi - lo < 1e-12) [lo, hi] = [lo - (Math.abs(lo) > 1 ? Math.abs(lo) * 0.1 : 1), hi + (Math.abs(hi) > 1 ? Math.abs(hi) * 0.1 : 1)];
      const pad = (hi - lo) * 0.06;
      lo -= pad;
      hi += pad;
      const yOf = (v) => top + STRIP - ((v - lo) / (hi - lo)) * STRIP;
      // Frame, grid lines and the value axis's ticks.
      ctx.strokeStyle = '#d5d9e0';
      ctx.lineWidth = 1;
      ctx.strokeRect(LEFT + 0.5, top + 0.5, plotW - 1, STRIP - 1);
      ctx.textAlign = 'right';
      ctx.fillStyle = '#2f3542';
      for (const v of ticks(lo, hi, 4)) {
        const y = Math.round(yOf(v)) + 0.5;
        ctx.strokeStyle = '#e8ebf0';
        ctx.beginPath();
        ctx.moveTo(LEFT, y);
        ctx.lineTo(LEFT + plotW, y);
        ctx.stroke();
        ctx.strokeStyle = '#2f3542';
        ctx.beginPath();
        ctx.moveTo(LEFT - 5, y);
        ctx.lineTo(LEFT, y);
        ctx.stroke();
        ctx.fillText(tickLabel(v), LEFT - 8, y);
      }
      // The strip's metric and unit, in its corner (drawn again over the lines below).
      const first = this.list[idx[0]];
      const title = `${first.groupLabel ?? first.label}${first.unit ? ` (${first.unit})` : ''}${measuredIn(idx) ? '' : ': not measured yet'}`;
      // The lines, broken where a value was not measured, and a dot at each series' last sample.
      ctx.lineJoin = 'round';
      ctx.lineCap = 'round';
      for (const i of idx) {
        const colour = this.list[i].colour;
        const values = s.values[i];
        ctx.strokeStyle = colour;
        ctx.fillStyle = colour;
        ctx.lineWidth = 2.5;
        ctx.beginPath();
        let pen = false;
        let last = -1;
        for (let k = 0; k < s.length; k++) {
          if (!Number.isFinite(values[k])) {
            pen = false;
            continue;
          }
          const x = xOf(s.times[k]);
          const y = yOf(values[k]);
          if (pen) ctx.lineTo(x, y);
          else ctx.moveTo(x, y);
          pen = true;
          last = k;
        }
        ctx.stroke();
        if (last >= 0) {
          ctx.beginPath();
          ctx.arc(xOf(s.times[last]), yOf(values[last]), 4, 0, 2 * Math.PI);
          ctx.fill();
        }
        placed.set(i, { xOf, yOf });
      }
      ctx.textAlign = 'left';
      ctx.font = FONT_BOLD;
      const w = Math.min(ctx.measureText(title).width, plotW - 16);
      ctx.fillStyle = 'rgba(255, 255, 255, 0.85)';
      ctx.fillRect(LEFT + 3, top + 3, w + 8, 18);
      ctx.fillStyle = '#1f2430';
      ctx.fillText(title, LEFT + 7, top + 12, plotW - 16);
      ctx.font = FONT;
    });

    // The time axis under the last strip: ticks in seconds, and the step they are.
    const axisY = TOP + legendH + Math.max(1, groups.length) * (STRIP + GAP) - GAP;
    ctx.strokeStyle = '#2f3542';
    ctx.fillStyle = '#2f3542';
    ctx.lineWidth = 1;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const t of ticks(t0, tHi, Math.max(2, Math.floor(plotW / 110)))) {
      const x = Math.round(xOf(t)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(x, axisY);
      ctx.lineTo(x, axisY + 5);
      ctx.stroke();
      ctx.fillText(tickLabel(t), x, axisY + 7);
    }
    ctx.textAlign = 'right';
    ctx.fillText(`simulated time (s); ${formatSeconds(this.info.stepSeconds)} a step${s.length ? `, steps ${s.steps[0]} to ${s.steps[s.length - 1]}` : ''}`, LEFT + plotW, axisY + 23);
    this.geometry = { dpr, placed };
    this.showCaption(drawnSeries);
  }

  /** The caption: what is drawn, over which time, with each series' latest value. */
  showCaption(drawnSeries) {
    const s = this.samples;
    if (!s.length) {
      this.caption.textContent = 'No samples yet: play or step the scene to plot its metrics.';
      this.canvas.setAttribute('aria-label', 'Plot of the metrics: no samples yet');
      return;
    }
    const k = s.length - 1;
    const parts = drawnSeries.map((i) => {
      const series = this.list[i];
      return `${series.label} ${captionValue(s.values[i][k])}${series.unit && Number.isFinite(s.values[i][k]) ? ` ${series.unit}` : ''}`;
    });
    const span = `${s.length} samples from ${captionValue(s.times[0])} s to ${captionValue(s.times[k])} s (step ${s.steps[0]} to ${s.steps[k]})`;
    this.caption.textContent = parts.length
      ? `${parts.length === 1 ? 'Plotted' : 'Plotted, one colour each'}: ${parts.length} series, ${span}. Latest: ${parts.join('; ')}.`
      : `Nothing drawn (no metric ticked); ${span}.`;
    this.canvas.setAttribute('aria-label', `Plot of ${drawnSeries.map((i) => this.list[i].label).join(', ') || 'no metric'} against simulated time`);
  }

  /**
   * Where series `key`'s sample `k` was drawn, in the canvas's own pixels (device pixels), or
   * null when that series is not drawn or the sample was not measured.
   */
  pointAt(key, k) {
    const i = this.list.findIndex((s) => s.key === key);
    const at = this.geometry?.placed.get(i);
    const v = this.samples.values[i]?.[k];
    if (!at || !Number.isFinite(v)) return null;
    const { dpr } = this.geometry;
    return { x: at.xOf(this.samples.times[k]) * dpr, y: at.yOf(v) * dpr };
  }
}
