// The frame of the agent pages (boids.html, crowd.html), on the frame loop every page runs on
// (frame-loop.js): `startFrames` runs a frame that measures frames per second, steps the
// simulation while playing, draws when something changed and refreshes the read-outs at most
// four times a second (or after a draw); also the play toggle and the step timing both pages
// show, and the simulation's own rate: steps per second of wall-clock time beside the frames
// per second, with a note when simulated time runs slower than real time (a frame can be drawn
// without a step: the boid page's worker may still be busy with the last one). Also the metrics
// table both pages show (`metric-NAME`), from the metrics their wasm scene reports, and the
// place of their plot panel (plot.js, loaded when first opened).

import { el } from './dom.js';
import { frameLoop } from './frame-loop.js';
import { SimApp } from './sim-page.js';

/**
 * The app of an agent page (boids.js, crowd.js): a SimApp run by startFrames, with the loop's
 * state, the play toggle and `play()`, which starts playing and the loop.
 */
export class FramedApp extends SimApp {
  constructor(root, wasm, config, changeEvent) {
    super(root, wasm, config, changeEvent);
    this.frames = 0;
    /**
     * The running frame loop (set by startFrames; null before it starts).
     * @type {import('./frame-loop.js').FrameLoop | null}
     */
    this.loop = null;
    this.fpsSince = 0;
    this.fps = 0;
    /** Simulation steps a second while playing (frames.js). */
    this.sps = 0;
    this.stepMs = null;
    this.lastReadout = 0;
  }

  setPlaying(on) {
    setPlaying(this, on);
  }

  /** Plays and starts the frame loop. */
  play() {
    this.setPlaying(true);
    startFrames(this);
  }

  /** One frame, run by hand. */
  tick(now) {
    frameTick(this, now);
  }
}

/** The frame rate, step rate and step time read-outs, made with dom.js's `readout`. */
export function rateReadouts(readout) {
  return [
    readout('fps', 'FPS'),
    readout('sps', 'Steps/s', SPS_TITLE),
    readout('step-ms', 'Step ms'),
  ];
}

/** The note shown when the simulation runs slower than real time (showStepRate), kept as `ui.realtime`. */
export function realtimeNote(ui) {
  ui.realtime = el('span', { testid: 'realtime-note', class: 'pl-realtime-note', role: 'status', hidden: true });
  return ui.realtime;
}

/**
 * Starts the agent pages' loop for `app`, which provides `playing`, `dirty`, `timedStep()`,
 * `draw()`, `readouts(now)`, `lastReadout` and `stepCount()` (the simulation's steps so far);
 * the loop keeps `app.fps`, `app.sps` (simulation steps a second while playing) and `app.loop`
 * (the running loop: `app.loop.stop()` ends it).
 */
export function startFrames(app) {
  app.frames = 0;
  app.fpsSince = performance.now();
  app.sps = 0;
  app.stepsSince = app.stepCount();
  app.playedSince = app.playing;
  app.loop = frameLoop((now) => frameTick(app, now));
}

/** One frame of the loop (exported so a page can run one by hand). */
export function frameTick(app, now) {
  app.frames += 1;
  if (now - app.fpsSince >= 500) {
    app.fps = (app.frames * 1000) / (now - app.fpsSince);
    // Over a window it played all through; a reset (fewer steps) or a pause counts nothing.
    const steps = app.stepCount();
    app.sps = app.playing && app.playedSince ? Math.max(0, ((steps - app.stepsSince) * 1000) / (now - app.fpsSince)) : 0;
    app.stepsSince = steps;
    app.playedSince = app.playing;
    app.frames = 0;
    app.fpsSince = now;
  }
  if (!app.playing) app.playedSince = false;
  if (app.playing) {
    app.timedStep();
    app.dirty = true;
  }
  if (app.dirty) app.draw();
  if (now - app.lastReadout >= 250 || app.dirty) app.readouts(now);
  app.dirty = false;
}

/** Shows whether `app` plays on its `ui.play` toggle button (text and aria-pressed). */
export function setPlaying(app, on) {
  app.playing = on;
  app.ui.play.textContent = on ? 'Pause' : 'Play';
  app.ui.play.setAttribute('aria-pressed', on ? 'true' : 'false');
}

/** Runs `step()` and folds its time into `app.stepMs` (see foldStepMs). */
export function timed(app, step) {
  const t = performance.now();
  step();
  foldStepMs(app, performance.now() - t);
}

/** Folds a step's time into `app.stepMs`: an exponential average, weight 0.1. */
export function foldStepMs(app, ms) {
  app.stepMs = app.stepMs === null ? ms : app.stepMs * 0.9 + ms * 0.1;
}

/** What a simulation step is worth on the boid page: 1/60 s (Boids.step). */
export const BOID_STEP_SECONDS = 1 / 60;

/** Below this share of real time the page says the simulation runs slow (a little slack for timing). */
const REAL_TIME_SHARE = 0.95;

/**
 * Shows `app.sps` in `ui.sps` and, when the simulation plays slower than real time (steps of
 * `stepSeconds` each), a note in `ui.realtime` saying so; called with the fps read-out.
 * @param {{ sps: number, fps: number, playing: boolean, ui: any }} app
 * @param {number} stepSeconds
 */
export function showStepRate(app, stepSeconds) {
  const { ui } = app;
  ui.sps.textContent = String(Math.round(app.sps));
  ui.sps.dataset.value = app.sps.toFixed(2);
  const share = app.sps * stepSeconds;
  const slow = app.playing && app.sps > 0 && share < REAL_TIME_SHARE;
  ui.realtime.hidden = !slow;
  ui.realtime.textContent = slow
    ? `Slower than real time: ${Math.round(app.sps)} steps a second of ${formatSeconds(stepSeconds)} each, so the world moves ${share.toFixed(2)} s a second while ${Math.round(app.fps)} frames a second are drawn.`
    : '';
}

/** A step's length in seconds, as a fraction where it is one (1/60 s) or else a decimal. */
export function formatSeconds(seconds) {
  const per = 1 / seconds;
  return Math.abs(per - Math.round(per)) < 1e-6 ? `1/${Math.round(per)} s` : `${Number(seconds.toFixed(3))} s`;
}

/** The steps-per-second read-out's title: what it counts. */
export const SPS_TITLE = 'Simulation steps per second of wall-clock time: the world keeps real time when steps × step length reaches 1 s a second';

/** A metric's value for the table: a dash when not measured, else at most 3 decimals. */
export function formatMetric(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  return String(Number(v.toFixed(a >= 100 ? 1 : a >= 1 ? 2 : 3)));
}

/**
 * Shows `metrics` (`[{ name, label, value, unit }]`, as the wasm scenes report them) in `table`:
 * a row each with the value in a cell `metric-NAME`, under a caption `title`. The rows are
 * rebuilt only when the metrics' names change (`state` keeps the last names and the cells).
 */
export function showMetricsTable(table, metrics, state, title) {
  const key = metrics.map((m) => m.name).join('|');
  if (key !== state.key) {
    state.key = key;
    state.cells = new Map();
    const rows = metrics.map((m) => {
      const cell = el('td', { testid: `metric-${m.name}`, class: 'cr-num' });
      state.cells.set(m.name, cell);
      return el('tr', {}, el('th', { scope: 'row', text: m.label }), cell, el('td', { class: 'cr-unit', text: m.unit }));
    });
    table.replaceChildren(
      el('caption', { class: 'cr-sr', text: title }),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Metric' }), el('th', { scope: 'col', text: 'Value' }), el('th', { scope: 'col', text: 'Unit' }))),
      el('tbody', {}, ...rows),
    );
  }
  for (const m of metrics) {
    const cell = state.cells.get(m.name);
    if (cell) cell.textContent = formatMetric(m.value);
  }
}

/**
 * The plot panel's place on an agent page: the *Plot metrics* button (`plot`) and the section
 * it opens (`plot-panel`). The chart's module (plot.js) is loaded the first time the panel
 * opens, so a page that never plots does not download it; from then on `app.plot` is the panel
 * (null before). `onChoice` is the panel's hook for a compare-mode metric (plot.js
 * PlotPanel); opening or closing it keeps `plot` in the page's configuration and starts or
 * stops the page's sampling (`app.startPlot()`). Returns the section and `open(on)`, which
 * loads the panel if need be and opens or closes it.
 * @param {any} app
 * @param {{ onChoice?: (name: string) => void }} [hooks]
 */
export function plotSlot(app, { onChoice } = {}) {
  const hooks = {
    onToggle: (on) => {
      app.config.plot = on;
      app.startPlot();
      app.changed();
    },
    onChoice,
  };
  const button = el('button', {
    type: 'button',
    testid: 'plot',
    class: 'pl-btn pl-small pl-plot-toggle',
    'aria-expanded': 'false',
    title: 'Plot the metrics against simulated time while the scene plays',
    text: 'Plot metrics',
  });
  const element = el('section', { class: 'pl-plot', testid: 'plot-panel', 'aria-label': 'Plot of the metrics over time' }, button);
  let loading = null;
  const open = async (on) => {
    try {
      loading ??= import('./plot.js').then(({ PlotPanel }) => (app.plot = new PlotPanel(hooks, { button, element })));
      (await loading).setOpen(on);
    } catch (e) {
      loading = null;
      app.say(`Plot: could not load the chart (${e.message}).`);
    }
  };
  button.addEventListener('click', () => open(!app.plot?.open));
  return { element, open };
}
