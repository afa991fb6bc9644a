// The crowd page: `mountCrowd(element, config)` runs any crowd scene of the core (the registry
// crowdScenes() of pkg/pathlab_crowd) generically: it builds the controls from the scene's
// params() and actions(), the metrics table from metrics(), and paints every frame from
// zero-copy typed-array views of the scene's Frame on wasm memory, rebuilt every frame (see
// crowd-draw.js). A scene with a "method" choice can be compared method against method: one
// copy per method from the same seed, stepped in sync, in small panes with a metrics table
// whose columns are the methods. Metrics read from a clock (planning time) are read-outs beside
// the step time, apart from the table, which a replay reproduces exactly. The street with
// path-finders also gets a panel that compares them by agent count (crowd-street.js). Every
// text that may come from a configuration or from the core is set with textContent.

import init, { CrowdScene, crowdScenes, crowdInks, crowdFrameFields } from './pkg/pathlab_crowd.js';
import { readCrowdConfig, crowdQuery, MAX_CROWD_AGENTS, ORDER_KEY } from './crowd-config.js';
import { MAX_SEED, quote } from './values.js';
import { CrowdPainter, KIND_COLOURS, HEAT_GRADIENT, inkStyle, MIN_ARROW_CELL } from './crowd-draw.js';
import { StreetComparePanel } from './crowd-street.js';
import { el, options, panelSection, sidePanel } from './dom.js';
import { clearOnActions } from './message-actions.js';
import { formatMetric, FramedApp, rateReadouts, realtimeNote, plotSlot, showMetricsTable, showStepRate, timed } from './frames.js';
import { layOut, loadOnce, pageHeader, seededTransport, transportKey, wholeField, wireSeedAndCount, wireTransport } from './sim-page.js';

const loadWasm = loadOnce(init);

/**
 * What to notice in the scenes that reproduce one of the course's worked examples, shown under
 * the scene's title: the source, the figure's numbers and why it comes out as it does.
 * @type {Record<string, string>}
 */
const SCENE_NOTES = {
  'flow-fig9':
    'From the tutorial "Path-Finding and Crowd Management" (embedded map data, Figure 9): a 5 x 5 grid, four moves, ' +
    'bunker 1 in the south (row 4, column 3), bunker 2 in the west (row 1, column 0), one agent in row 1, column 1. ' +
    'Bunker 2 is 1 move west of it, bunker 1 is 5 (2 east and 3 south), so it heads west. When bunker 2 falls (at 0.3 s) ' +
    'it follows bunker 1’s map, where a first move east and a first move south both start a 5-move way: a tie, and the ' +
    'neighbour order breaks it. Tried N, E, S, W (order nesw) the map says east; tried W, S, E, N (order wsen) it says ' +
    'south, as the tutorial’s figure draws it. Show each bunker’s own map with "Map shown".',
};

/** The typed array of each frame field (fields the page does not know are read as bytes). */
const FIELD_TYPES = {
  x: Float32Array,
  y: Float32Array,
  hx: Float32Array,
  hy: Float32Array,
  radius: Float32Array,
  kind: Uint8Array,
  layer: Float32Array,
  directions: Uint8Array,
  cellMarks: Uint8Array,
  lines: Float32Array,
  lineInk: Uint8Array,
  circles: Float32Array,
  circleInk: Uint8Array,
  polygonPoints: Float32Array,
  polygonLen: Uint32Array,
  polygonInk: Uint8Array,
};

/** The name of the choice parameter the comparison runs through. */
const METHOD = 'method';

/** The scene whose path-finders the comparison panel compares. */
const STREET_WITH_PLANNERS = 'street-paths';

/** A slider's read-out: whole numbers as they are, others to at most 3 significant digits. */
function short(v) {
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(3)));
}

/**
 * Fills the scene's frame (with `selected`'s overlay) and returns views on wasm memory for
 * each of its vectors, by field name. The views are valid until the next call into wasm.
 */
export function frameViews(wasm, scene, fields, selected) {
  scene.frame(selected);
  return viewsOf(wasm.memory.buffer, fields, scene.layout());
}

/** Typed-array views on `buffer` of each field at the pointer and length pairs of `layout`. */
function viewsOf(buffer, fields, layout) {
  const views = {};
  fields.forEach((name, i) => {
    const Type = FIELD_TYPES[name] ?? Uint8Array;
    views[name] = new Type(buffer, layout[2 * i], layout[2 * i + 1]);
  });
  return views;
}

/**
 * What the overlay drawn for the selected agent shows, in the course's terms: its shapes
 * counted by ink (velocity obstacles, ORCA half-planes, velocities, reach circles, ...).
 * @param {any} v the frame's views (frameViews: lineInk, circleInk, polygonInk)
 * @param {string[]} inks the ink names by value (crowdInks)
 */
function explainOverlay(v, inks) {
  const count = new Map();
  for (const list of [v.lineInk, v.circleInk, v.polygonInk]) {
    for (const ink of list ?? []) {
      const name = inks[ink] ?? `ink ${ink}`;
      count.set(name, (count.get(name) ?? 0) + 1);
    }
  }
  const parts = [];
  for (const [name, n] of count) {
    const phrase = OVERLAY_WORDS[name];
    parts.push(phrase ? phrase(n) : `${n} ${name} mark${n === 1 ? '' : 's'}`);
  }
  return parts.length ? `Drawn for it: ${parts.join('; ')}.` : 'Nothing is drawn for it in this scene.';
}

/** What each overlay ink means, in the course's terms (`n`: how many are drawn). */
const OVERLAY_WORDS = {
  cone: (n) => `${n} velocity obstacle${n === 1 ? '' : 's'} (shaded cones), one per neighbour it avoids: the velocities that would run it into that neighbour within its time horizon`,
  'half-plane': (n) => `${n} ORCA half-plane${n === 1 ? '' : 's'}, one per neighbour or wall edge near it: each line rules out the velocities beyond it (the tick points to the allowed side), and the new velocity must keep to every one`,
  reach: (n) => (n === 1 ? 'a circle of reach: its top speed in velocity space, or how far it looks for neighbours' : `${n} circles of reach: its top speed in velocity space and how far it looks for neighbours`),
  velocity: () => 'its current velocity',
  preferred: () => 'its preferred velocity: straight for its goal, as if it were alone',
  chosen: () => 'the velocity the method chose: the allowed one nearest the preferred',
  goal: (n) => (n === 1 ? 'its goal' : `${n} goals`),
  route: (n) => (n === 1 ? 'its route' : `${n} route pieces`),
  slot: (n) => (n === 1 ? 'its formation slot' : `${n} formation slots`),
  link: (n) => (n === 1 ? 'a line to what it follows (its slot or its leader)' : `${n} lines to what it follows (its slot or its leader)`),
  body: () => 'its body, in its true shape',
  zone: (n) => (n === 1 ? 'an area to keep clear' : `${n} areas to keep clear`),
};

class CrowdApp extends FramedApp {
  constructor(root, wasm, config, scenes) {
    super(root, wasm, config, 'crowd-change');
    this.scenes = scenes;
    this.names = scenes.map((s) => s.name);
    this.inks = crowdInks();
    this.fields = crowdFrameFields();
    this.selected = -1;
    this.tool = 'select';
    this.cursor = null;
    this.compare = null;
    this.metricTable = { key: '' };
    this.inkKey = '';
    /** The metric the plot follows in every pane while comparing (null: the first). */
    this.plotMetric = null;
    /** The plot panel (plot.js), once first opened (see plotSlot). */
    this.plot = null;
    this.plotSlot = plotSlot(this, {
      onChoice: (name) => {
        this.plotMetric = name;
        this.startPlot();
      },
    });
    this.scene = this.create();
    this.build();
    this.painter = new CrowdPainter(this.canvas);
    this.attachPointer(this.canvas, () => this.scene, () => this.painter);
  }

  /** Builds the configured scene; when the scene refuses the agent count, its default. */
  create() {
    const c = this.config;
    try {
      return new CrowdScene(c.scene, c.agents ?? undefined, c.seed);
    } catch (e) {
      this.pending = [`Could not build ${c.scene} with ${c.agents} agents: ${e.message}; using its default count.`];
      c.agents = null;
      return new CrowdScene(c.scene, undefined, c.seed);
    }
  }

  // ---- DOM -------------------------------------------------------------------------------

  build() {
    const { ui, button, readout } = this.startUi();

    this.canvas = el('canvas', {
      testid: 'world',
      class: 'pl-canvas cr-canvas',
      tabindex: '0',
      'aria-label': 'Crowd world: click an agent to select it, or click a point to use the chosen tool. With the keyboard: arrow keys move a cursor, Enter uses the tool there, Escape clears the selection.',
    });

    ui.scene = el('select', { testid: 'scene', 'aria-label': 'Scene' });
    options(ui.scene, this.names, Object.fromEntries(this.scenes.map((s) => [s.name, s.title])));
    ui.title = el('p', { testid: 'scene-title', class: 'pl-map-title' });
    ui.note = el('p', { testid: 'scene-explain', class: 'pl-hint', hidden: true });
    ui.seed = wholeField('seed', MAX_SEED, 'Seed');
    ui.count = wholeField('agent-count', MAX_CROWD_AGENTS, 'Agents');
    ui.params = el('div', { class: 'cr-params', testid: 'params' });
    ui.tools = el('div', { class: 'cr-tools', role: 'toolbar', 'aria-label': 'Tool' });
    ui.toolHint = el('p', { class: 'pl-hint', testid: 'tool-hint' });
    ui.actionMessage = el('p', { testid: 'action-message', class: 'cr-action-message', role: 'status', 'aria-live': 'polite' });
    ui.selectedInfo = el('p', { testid: 'selected', class: 'cr-selected' });
    ui.overlayCounts = el('p', { testid: 'overlay-counts', class: 'pl-hint' });
    ui.metrics = el('table', { testid: 'metrics', class: 'cr-metrics' });
    ui.compareMetrics = el('table', { testid: 'compare-metrics', class: 'cr-metrics cr-compare-metrics', hidden: true });
    ui.panes = el('div', { testid: 'compare-panes', class: 'cr-panes', hidden: true });
    ui.kindLegend = el('ul', { testid: 'kind-legend', class: 'cr-legend' });
    ui.layerLabel = el('span', { testid: 'layer-label' });
    ui.layerMax = el('span', { testid: 'layer-max' });
    ui.layerLegend = el(
      'div',
      { testid: 'layer-legend', class: 'cr-layer-legend', hidden: true },
      ui.layerLabel,
      el('span', { class: 'cr-scale-end', text: '0' }),
      el('span', { class: 'cr-scale', style: `background: ${HEAT_GRADIENT}`, 'aria-hidden': 'true' }),
      ui.layerMax,
    );
    ui.inkLegend = el('ul', { testid: 'ink-legend', class: 'cr-legend' });
    ui.arrowNote = el('p', { testid: 'arrow-note', class: 'pl-hint', hidden: true });

    const transport = seededTransport(
      ui,
      button,
      { reset: 'Rebuild the scene from its seed (Home)', step: 'One step (→)', play: 'Play or pause (space)' },
    );
    const readouts = el(
      'div',
      { class: 'pl-readouts' },
      readout('agents', 'Agents'),
      readout('steps', 'Steps'),
      ...rateReadouts(readout),
      (ui.clockReadouts = el('span', { class: 'cr-clock-readouts', testid: 'clock-readouts' })),
      realtimeNote(ui),
    );
    this.streetPanel = new StreetComparePanel(() => this.scene.seed, (t) => this.say(t));
    const header = pageHeader('crowds', 'Scene', ui.scene, 'crowd.html');
    ui.compare = el('button', {
      type: 'button',
      testid: 'compare',
      class: 'pl-btn pl-small cr-compare',
      'aria-pressed': 'false',
      title: 'Run one copy of the scene per method, from the same seed, side by side',
      text: 'Compare methods',
      hidden: true,
    });
    const panel = sidePanel(
      panelSection('Parameters', ui.params, ui.compare),
      panelSection('Tool', ui.tools, ui.toolHint),
      panelSection('Selected agent', ui.selectedInfo, ui.overlayCounts),
      (ui.metricsSection = panelSection('Metrics', ui.metrics)),
    );
    ui.wrap = el('div', { class: 'pl-grid-wrap' }, this.canvas);
    const legend = el('div', { class: 'cr-legends', testid: 'legend' }, ui.kindLegend, ui.layerLegend, ui.inkLegend, ui.arrowNote);
    const stage = el(
      'div',
      { class: 'pl-stage' },
      ui.title,
      ui.note,
      ui.wrap,
      ui.panes,
      ui.compareMetrics,
      legend,
      transport,
      readouts,
      ui.actionMessage,
      this.plotSlot.element,
      this.streetPanel.element,
    );

    layOut(this.root, 'cr-page', this.config.embed, { header, messages: ui.messageBox, stage, panel });
    this.wire();
  }

  wire() {
    const ui = this.ui;
    wireTransport(this);
    ui.compare.addEventListener('click', () => (this.compare ? this.stopCompare() : this.startCompare()));
    ui.scene.addEventListener('change', () => {
      this.config.scene = ui.scene.value;
      this.config.agents = null;
      this.config.params = {};
      this.rebuild('scene');
    });
    wireSeedAndCount(this, MAX_CROWD_AGENTS, () => this.scene.count);
    clearOnActions(this.notes, this.root);
    this.onKey = (event) => transportKey(this, event, (e) => this.canvasKey(e));
    this.root.addEventListener('keydown', this.onKey);
    this.resizeObserver = new ResizeObserver(() => this.layout());
    this.resizeObserver.observe(ui.wrap.parentElement);
  }

  /** The controls of the scene's parameters: a slider each, or a select for a choice. */
  buildParams() {
    const params = this.scene.params();
    this.paramControls = new Map();
    const rows = params.map((p) => {
      let input;
      const value = el('output', { class: 'cr-param-value', testid: `param-value-${p.name}` });
      if (p.choices.length) {
        input = el('select', { testid: `param-${p.name}`, 'aria-label': p.label });
        options(input, p.choices.map((_, i) => String(i)), Object.fromEntries(p.choices.map((c, i) => [String(i), c])));
        input.addEventListener('change', () => this.setParam(p, Number(input.value)));
      } else {
        input = el('input', {
          type: 'range',
          min: String(p.min),
          max: String(p.max),
          step: String(p.step > 0 ? p.step : 'any'),
          testid: `param-${p.name}`,
          'aria-label': p.label,
        });
        input.addEventListener('input', () => this.setParam(p, Number(input.value)));
      }
      this.paramControls.set(p.name, { input, value, param: p });
      return el('label', { class: 'cr-param' }, el('span', { text: p.label }), input, value);
    });
    if (!rows.length) rows.push(el('p', { class: 'pl-hint', text: 'This scene has no parameters.' }));
    this.ui.params.replaceChildren(...rows);
    this.methodParam = params.find((p) => p.name === METHOD && p.choices.length > 1) ?? null;
    this.ui.compare.hidden = !this.methodParam;
    this.syncParams();
  }

  /** Shows the scene's current parameter values in the controls. */
  syncParams() {
    for (const p of this.scene.params()) {
      const c = this.paramControls.get(p.name);
      if (!c) continue;
      c.input.value = String(p.value);
      c.value.textContent = p.choices.length ? '' : short(p.value);
    }
  }

  /** Sets a parameter from a control (every comparison pane but the method follows it). */
  setParam(p, value) {
    try {
      const note = this.scene.setParam(p.name, value);
      if (note) this.say(`${p.label}: ${note}`);
      const now = this.scene.params().find((q) => q.name === p.name);
      if (now) this.config.params[p.name] = p.choices.length ? p.choices[now.value] ?? now.value : now.value;
    } catch (e) {
      this.say(`${p.label}: ${e.message}`);
    }
    if (this.compare && p.name !== METHOD) {
      for (const pane of this.compare.panes) this.tryCall(() => pane.scene.setParam(p.name, value), p.label);
    }
    this.syncParams();
    this.startPlot();
    this.changed();
    this.touch();
  }

  /** Applies `p.NAME` values from the configuration, explaining every one it cannot use. */
  applyConfigParams() {
    const params = this.scene.params();
    const given = this.config.params ?? {};
    this.config.params = {};
    for (const [name, raw] of Object.entries(given)) {
      const p = params.find((q) => q.name === name);
      const key = name === ORDER_KEY ? ORDER_KEY : `p.${name}`;
      if (!p) {
        const known = params.map((q) => q.name).join(', ') || 'none';
        this.say(`Parameter "${key}": the ${this.scene.name} scene has no parameter ${quote(name)} (it has: ${known}); ignored.`);
        continue;
      }
      let value = raw;
      if (p.choices.length && typeof raw === 'string') {
        value = p.choices.indexOf(raw);
        if (value < 0) {
          this.say(`Parameter "${key}": ${quote(raw)} is not one of ${p.choices.join(', ')}; keeping ${p.choices[p.value]}.`);
          continue;
        }
      } else if (typeof raw === 'string') {
        this.say(`Parameter "${key}": expected a number, got ${quote(raw)}; keeping ${short(p.value)}.`);
        continue;
      }
      try {
        const note = this.scene.setParam(name, value);
        if (note) this.say(`Parameter "${key}": ${note}`);
        this.config.params[name] = raw;
      } catch (e) {
        this.say(`Parameter "${key}": ${e.message}`);
      }
    }
  }

  buildTools() {
    const actions = this.scene.actions();
    const tools = [{ name: 'select', label: 'Select agent' }, ...actions];
    if (!tools.some((t) => t.name === this.tool)) this.tool = 'select';
    this.toolButtons = tools.map((t) => {
      const b = el('button', {
        type: 'button',
        class: 'pl-btn pl-small cr-tool',
        testid: `tool-${t.name}`,
        'aria-pressed': t.name === this.tool ? 'true' : 'false',
        text: t.label,
      });
      b.addEventListener('click', () => this.setTool(t.name));
      return b;
    });
    this.ui.tools.replaceChildren(...this.toolButtons);
    this.ui.toolHint.textContent = actions.length
      ? 'Choose a tool, then click a point of the world (or move the cursor with the arrow keys and press Enter).'
      : 'Click an agent to see how it decides (or move the cursor with the arrow keys and press Enter).';
    this.setTool(this.tool);
  }

  setTool(name) {
    this.tool = name;
    this.canvas.dataset.tool = name;
    for (const b of this.toolButtons ?? []) b.setAttribute('aria-pressed', b.dataset.testid === `tool-${name}` ? 'true' : 'false');
  }

  // ---- the scene -----------------------------------------------------------------------------

  /** Rebuilds the scene from the configuration and shows it. */
  rebuild(why) {
    const c = this.config;
    try {
      this.scene.reset(c.scene, c.agents ?? undefined, c.seed);
    } catch (e) {
      this.say(`Could not rebuild (${why}): ${e.message}`);
      c.scene = this.scene.name;
    }
    const keepParams = why === 'reset' || why === 'seed' || why === 'agents';
    if (!keepParams) c.params = {};
    this.afterSceneChange();
    this.changed();
  }

  afterSceneChange() {
    const ui = this.ui;
    const s = this.scene;
    const wasComparing = Boolean(this.compare);
    if (this.compare) this.stopCompare();
    this.applyConfigParams();
    ui.scene.value = s.name;
    ui.title.textContent = s.title;
    ui.note.textContent = SCENE_NOTES[s.name] ?? '';
    ui.note.hidden = !ui.note.textContent;
    ui.seed.value = String(s.seed);
    ui.count.value = String(s.count);
    // Scenes keep their agent counts within their own limits: say so when that changed the count.
    const asked = this.config.agents;
    if (asked !== null && asked !== undefined && asked !== s.count) {
      this.say(`Agents: the ${s.title} scene takes ${s.count} agents when asked for ${asked} (its own limits); showing ${s.count}.`);
    }
    this.selected = -1;
    this.stepMs = null;
    this.cursor = null;
    this.metricTable = { key: '' };
    ui.actionMessage.textContent = '';
    this.kinds = s.kinds();
    this.showKinds();
    this.buildClockReadouts();
    this.streetPanel.show(s.name === STREET_WITH_PLANNERS && !this.config.embed);
    this.buildParams();
    this.buildTools();
    if (wasComparing && this.methodParam) this.startCompare();
    this.layout();
    this.showMetrics();
    this.startPlot();
  }

  /** A read-out per clock metric of the scene (`clock-NAME`), filled by readouts(). */
  buildClockReadouts() {
    this.clockCells = new Map();
    const boxes = this.scene.clockMetrics().map((m) => {
      const out = el('output', { testid: `clock-${m.name}`, class: 'pl-value' });
      this.clockCells.set(m.name, out);
      return el('span', { class: 'pl-readout' }, el('span', { class: 'pl-label', text: m.unit ? `${m.label} (${m.unit})` : m.label }), out);
    });
    this.ui.clockReadouts.replaceChildren(...boxes);
    this.showClockMetrics();
  }

  showClockMetrics() {
    const lead = this.compare?.panes[0]?.scene ?? this.scene;
    for (const m of lead.clockMetrics()) {
      const cell = this.clockCells?.get(m.name);
      if (cell) cell.textContent = formatMetric(m.value);
    }
  }

  showKinds() {
    this.ui.kindLegend.replaceChildren(
      ...this.kinds.map((k, i) =>
        el(
          'li',
          { testid: `kind-${k}` },
          el('span', { class: 'pl-swatch cr-disc', style: `--swatch: ${KIND_COLOURS[i % KIND_COLOURS.length]}` }),
          k,
        ),
      ),
    );
  }

  step() {
    this.setPlaying(false);
    this.timedStep();
    this.showMetrics();
    this.plot?.draw();
    this.touch();
  }

  /** The simulation's steps so far (the loop's steps-per-second read-out): the first pane's when comparing. */
  stepCount() {
    return (this.compare?.panes[0]?.scene ?? this.scene).steps;
  }

  timedStep() {
    timed(this, () => {
      if (this.compare) for (const pane of this.compare.panes) pane.scene.step(1);
      else this.scene.step(1);
    });
    this.samplePlot();
  }

  // ---- the plot ------------------------------------------------------------------------------

  /**
   * Starts a new plot (while the panel is open): every metric of the scene, or when comparing
   * the chosen metric once per pane, sampled from the step the scene is at.
   */
  startPlot() {
    if (!this.plot?.open) return;
    const s = this.scene;
    const settings = [`${s.count} agents`, ...Object.entries(this.config.params ?? {}).map(([k, v]) => `${k === ORDER_KEY ? k : `p.${k}`}=${v}`)].join(' ');
    // The step's length is an f32 in the core: 0.05 arrives as 0.05000000074505806.
    const info = { page: 'crowd', scene: s.name, seed: s.seed, stepSeconds: Number(s.dt.toPrecision(6)), settings };
    if (this.compare) {
      const metrics = this.compare.panes[0]?.scene.metrics() ?? [];
      const chosen = metrics.find((m) => m.name === this.plotMetric) ?? metrics[0];
      this.plotKey = chosen ? chosen.name : '';
      const series = chosen
        ? this.compare.panes.map((p) => ({ key: `${chosen.name}@${p.choice}`, label: `${chosen.label}: ${p.choice}`, groupLabel: chosen.label, unit: chosen.unit, group: chosen.name }))
        : [];
      this.plot.start(series, { ...info, settings: `${settings}, one series per method`, choices: metrics.map((m) => [m.name, m.label]), chosen: this.plotKey });
    } else {
      const metrics = s.metrics();
      this.plotKey = metrics.map((m) => m.name).join('|');
      this.plot.start(metrics.map((m) => ({ key: m.name, label: m.label, unit: m.unit, group: m.name })), info);
    }
    this.samplePlot();
  }

  /** Samples the metrics at the current step into the plot (while the panel is open). */
  samplePlot() {
    if (!this.plot?.open) return;
    if (this.compare) {
      const values = this.compare.panes.map((p) => p.scene.metrics().find((m) => m.name === this.plotKey)?.value ?? null);
      this.plot.sample(this.stepCount(), values);
      return;
    }
    const metrics = this.scene.metrics();
    // A scene whose metrics change their rows starts a new plot.
    if (metrics.map((m) => m.name).join('|') !== this.plotKey) {
      this.startPlot();
      return;
    }
    this.plot.sample(this.scene.steps, metrics.map((m) => m.value));
  }

  /** Uses the current tool at world point p of `scene` (select: picks the agent there). */
  useTool(scene, p) {
    if (this.tool === 'select') {
      this.selected = scene.pick(p.x, p.y);
      this.ui.actionMessage.textContent =
        this.selected >= 0 ? `Selected agent ${this.selected}.` : 'No agent there; selection cleared.';
    } else {
      const label = this.toolButtons.find((b) => b.dataset.testid === `tool-${this.tool}`)?.textContent ?? this.tool;
      const targets = this.compare ? this.compare.panes.map((pane) => pane.scene) : [scene];
      let said = '';
      for (const target of targets) {
        try {
          const sentence = target.act(this.tool, p.x, p.y);
          said ||= sentence;
        } catch (e) {
          said ||= `${label}: ${e.message}`;
        }
      }
      this.ui.actionMessage.textContent = said;
      this.showMetrics();
    }
    this.touch();
  }

  /** Keys on a focused world canvas: arrows move the cursor, Enter uses the tool there. */
  canvasKey(event) {
    const canvas = event.target;
    const pane = this.compare?.panes.find((q) => q.canvas === canvas);
    const scene = pane ? pane.scene : this.scene;
    const cell = scene.cellSize;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[event.key]) {
      const n = event.shiftKey ? 5 : 1;
      const c = this.cursor ?? { x: scene.width / 2, y: scene.height / 2 };
      const [dx, dy] = moves[event.key];
      this.cursor = {
        x: Math.min(scene.width - cell / 2, Math.max(cell / 2, c.x + dx * n * cell)),
        y: Math.min(scene.height - cell / 2, Math.max(cell / 2, c.y + dy * n * cell)),
      };
      this.touch();
      return true;
    }
    if (event.key === 'Enter') {
      this.cursor ??= { x: scene.width / 2, y: scene.height / 2 };
      this.useTool(scene, this.cursor);
      return true;
    }
    if (event.key === 'Escape') {
      this.selected = -1;
      this.cursor = null;
      this.touch();
      return true;
    }
    return false;
  }

  attachPointer(canvas, sceneOf, painterOf) {
    canvas.addEventListener('pointerdown', (event) => {
      if (event.pointerType === 'mouse' && event.button !== 0) return;
      const scene = sceneOf();
      const p = painterOf().worldAt(event, scene.width, scene.height);
      this.cursor = null;
      this.useTool(scene, p);
    });
    canvas.addEventListener('blur', () => {
      this.cursor = null;
      this.touch();
    });
  }

  // ---- comparison ------------------------------------------------------------------------------

  /** One copy of the scene per method choice, same seed and parameters, in small panes. */
  startCompare() {
    const m = this.methodParam;
    if (!m) return;
    const s = this.scene;
    const others = s.params().filter((p) => p.name !== METHOD);
    const panes = [];
    for (const [i, choice] of m.choices.entries()) {
      let scene;
      try {
        scene = new CrowdScene(s.name, this.config.agents ?? undefined, s.seed);
        for (const p of others) scene.setParam(p.name, p.value);
        scene.setParam(METHOD, i);
      } catch (e) {
        this.say(`Compare: could not build the ${choice} copy: ${e.message}`);
        scene?.free();
        continue;
      }
      const canvas = el('canvas', {
        class: 'pl-canvas cr-canvas cr-pane-canvas',
        testid: `pane-canvas-${choice}`,
        tabindex: '0',
        'aria-label': `${s.title} with ${choice}: click an agent to select it in every pane`,
      });
      const figure = el('figure', { class: 'cr-pane', testid: `pane-${choice}` }, el('figcaption', { text: choice }), canvas);
      const pane = { choice, scene, canvas, figure, painter: new CrowdPainter(canvas) };
      this.attachPointer(canvas, () => pane.scene, () => pane.painter);
      panes.push(pane);
    }
    this.compare = { panes, metricKey: '' };
    this.ui.panes.replaceChildren(...panes.map((p) => p.figure));
    this.ui.panes.hidden = false;
    this.ui.compareMetrics.hidden = false;
    this.ui.wrap.hidden = true;
    // The comparison table under the panes replaces the single run's metrics.
    this.ui.metricsSection.hidden = true;
    // Each pane has its own method; the single run's choice does not apply meanwhile.
    const methodControl = this.paramControls.get(METHOD)?.input;
    if (methodControl) methodControl.disabled = true;
    this.ui.compare.textContent = 'Stop comparing';
    this.ui.compare.setAttribute('aria-pressed', 'true');
    this.stepMs = null;
    this.layout();
    this.showMetrics();
    this.startPlot();
  }

  stopCompare() {
    if (!this.compare) return;
    for (const pane of this.compare.panes) pane.scene.free();
    this.compare = null;
    this.ui.panes.replaceChildren();
    this.ui.panes.hidden = true;
    this.ui.compareMetrics.hidden = true;
    this.ui.compareMetrics.replaceChildren();
    this.ui.wrap.hidden = false;
    this.ui.metricsSection.hidden = false;
    const methodControl = this.paramControls.get(METHOD)?.input;
    if (methodControl) methodControl.disabled = false;
    this.ui.compare.textContent = 'Compare methods';
    this.ui.compare.setAttribute('aria-pressed', 'false');
    this.stepMs = null;
    this.layout();
    this.startPlot();
    this.touch();
  }

  // ---- read-outs -------------------------------------------------------------------------------

  /** The metrics table (or, comparing, one column per method), rebuilt only when its rows change. */
  showMetrics() {
    showMetricsTable(this.ui.metrics, this.scene.metrics(), this.metricTable, `Metrics of the ${this.scene.title} run`);
    if (this.compare) this.showCompareMetrics();
  }

  showCompareMetrics() {
    const c = this.compare;
    const columns = c.panes.map((p) => p.scene.metrics());
    const first = columns[0] ?? [];
    const key = first.map((m) => m.name).join('|');
    if (key !== c.metricKey) {
      c.metricKey = key;
      c.cells = new Map();
      const rows = first.map((m) => {
        const cells = c.panes.map((p) => {
          const td = el('td', { testid: `compare-${m.name}-${p.choice}`, class: 'cr-num' });
          c.cells.set(`${m.name}|${p.choice}`, td);
          return td;
        });
        return el('tr', {}, el('th', { scope: 'row', text: m.unit ? `${m.label} (${m.unit})` : m.label }), ...cells);
      });
      this.ui.compareMetrics.replaceChildren(
        el('caption', { text: 'Same scene and seed, one column per method' }),
        el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Metric' }), ...c.panes.map((p) => el('th', { scope: 'col', text: p.choice })))),
        el('tbody', {}, ...rows),
      );
    }
    c.panes.forEach((p, i) => {
      for (const m of columns[i]) {
        const td = c.cells.get(`${m.name}|${p.choice}`);
        if (td) td.textContent = formatMetric(m.value);
      }
    });
  }

  layout() {
    const stage = this.ui.wrap.parentElement;
    const available = Math.max(120, stage.clientWidth);
    const s = this.scene;
    const maxHeight = Math.max(160, window.innerHeight * (this.config.embed ? 0.82 : 0.72));
    if (this.compare) {
      const n = this.compare.panes.length;
      const cols = n <= 2 ? n : n <= 4 ? 2 : 3;
      const rows = Math.ceil(n / cols);
      const paneW = Math.floor((available - (cols - 1) * 12) / cols);
      const width = Math.floor(Math.min(paneW, ((maxHeight / rows - 30) * s.width) / s.height));
      for (const pane of this.compare.panes) pane.painter.resize(Math.max(80, width), s.width, s.height);
    } else {
      const width = Math.floor(Math.min(available, (maxHeight * s.width) / s.height));
      this.painter.resize(width, s.width, s.height);
    }
    if (!this.streetPanel.element.hidden) this.streetPanel.draw();
    this.touch();
  }

  settings() {
    return { scene: this.scene.name, agents: this.config.agents, seed: this.scene.seed, embed: this.config.embed, plot: this.config.plot, params: { ...this.config.params } };
  }

  /** Shows the scene and plays (opening the plot first with `plot=1`, so it starts at step 0). */
  async start() {
    this.afterSceneChange();
    for (const m of this.pending ?? []) this.say(m);
    if (this.config.plot) await this.plotSlot.open(true);
    this.play();
  }

  readouts(now) {
    const ui = this.ui;
    const lead = this.compare?.panes[0]?.scene ?? this.scene;
    ui.agents.textContent = String(lead.count);
    ui.steps.textContent = String(Math.round(lead.steps));
    if (now - this.lastReadout >= 250) {
      this.lastReadout = now;
      ui.fps.textContent = String(Math.round(this.fps));
      ui['step-ms'].textContent = this.stepMs === null ? '0' : this.stepMs.toFixed(2);
      showStepRate(this, lead.dt);
      this.showMetrics();
      this.showClockMetrics();
      this.plot?.draw();
    }
  }

  /** Views of `scene`'s frame with `selected`'s overlay (valid until the next wasm call). */
  views(scene = this.scene, selected = this.selected) {
    return frameViews(this.wasm, scene, this.fields, selected);
  }

  /** Paints one scene on one painter; returns what was drawn. */
  paint(scene, painter, selected) {
    if (selected >= scene.count) selected = -1;
    // Every call that may allocate in wasm (and so grow the memory) comes before the views.
    scene.frame(selected);
    const info = {
      width: scene.width,
      height: scene.height,
      gridWidth: scene.gridWidth,
      gridHeight: scene.gridHeight,
      cellSize: scene.cellSize,
      layerMax: scene.layerMax,
      layerLabel: scene.layerLabel,
    };
    const layout = scene.layout();
    const cellsPtr = scene.cellsPtr();
    const views = viewsOf(this.wasm.memory.buffer, this.fields, layout);
    const cells = new Uint8Array(this.wasm.memory.buffer, cellsPtr, info.gridWidth * info.gridHeight);
    painter.frame({ ...info, ...views, cells, inks: this.inks, selected, cursor: this.cursor });
    return { ...info, drawn: painter.drawn, hasLayer: views.layer.length > 0, hasDirections: views.directions.length > 0 };
  }

  draw() {
    let info;
    if (this.compare) {
      for (const pane of this.compare.panes) info = this.paint(pane.scene, pane.painter, this.selected);
    } else {
      info = this.paint(this.scene, this.painter, this.selected);
    }
    if (info) this.showLegend(info);
    this.showSelected(info);
  }

  showLegend(info) {
    const ui = this.ui;
    ui.layerLegend.hidden = !(info.hasLayer && info.layerMax > 0);
    ui.layerLabel.textContent = info.layerLabel || 'value';
    ui.layerMax.textContent = formatMetric(info.layerMax);
    ui.arrowNote.hidden = !(info.hasDirections && !info.drawn.arrows);
    ui.arrowNote.textContent = `Direction arrows are hidden: cells are under ${MIN_ARROW_CELL} pixels wide here (widen the window to see them).`;
    const inks = [...info.drawn.inks].sort((a, b) => a - b);
    const key = inks.join(',');
    if (key !== this.inkKey) {
      this.inkKey = key;
      ui.inkLegend.replaceChildren(
        ...inks.map((v) => {
          const name = this.inks[v] ?? `ink ${v}`;
          const st = inkStyle(name, v);
          return el('li', { testid: `ink-${name}` }, el('span', { class: 'pl-swatch', style: `--swatch: ${st.colour}` }), name);
        }),
      );
    }
  }

  showSelected(info) {
    const ui = this.ui;
    const scene = this.compare?.panes[0]?.scene ?? this.scene;
    if (this.selected < 0 || this.selected >= scene.count || !info) {
      ui.selectedInfo.dataset.index = '';
      ui.selectedInfo.textContent = 'None. Choose the Select tool and click an agent to see how it decides.';
      ui.overlayCounts.textContent = '';
      return;
    }
    const v = this.views(scene, this.selected);
    const i = this.selected;
    const kind = this.kinds[v.kind[i]] ?? String(v.kind[i]);
    ui.selectedInfo.dataset.index = String(i);
    ui.selectedInfo.textContent = `Agent ${i} (${kind}) at (${v.x[i].toFixed(1)}, ${v.y[i].toFixed(1)}).`;
    const d = info.drawn;
    ui.overlayCounts.dataset.lines = String(d.lines);
    ui.overlayCounts.dataset.circles = String(d.circles);
    ui.overlayCounts.dataset.polygons = String(d.polygons);
    ui.overlayCounts.textContent = explainOverlay(v, this.inks);
  }

  destroy() {
    this.loop?.stop();
    this.resizeObserver?.disconnect();
    this.root.removeEventListener('keydown', this.onKey);
    if (this.compare) this.stopCompare();
    this.scene.free();
  }
}

/**
 * Mounts the crowd page in `root` with a configuration object (`scene`, `agents`, `seed`,
 * `embed`, and `p.NAME` for scene parameters; the same keys as the URL). Invalid values are
 * replaced by defaults and explained in a visible message. Resolves to a handle with the app,
 * its scene and `destroy()`.
 */
export async function mountCrowd(root, raw = {}) {
  const wasm = await loadWasm();
  const scenes = crowdScenes();
  const { config, messages } = readCrowdConfig(raw, scenes.map((s) => s.name));
  const app = new CrowdApp(root, wasm, config, scenes);
  for (const m of messages) app.say(m);
  await app.start();
  return {
    app,
    get scene() {
      return app.scene;
    },
    query: () => crowdQuery(app.settings(), scenes[0]?.name),
    destroy: () => app.destroy(),
  };
}
