// The boid page: `mountBoids(element, config)` builds the controls and the world view inside
// `element` and runs one requestAnimationFrame loop that steps the simulation while playing
// (one fixed 1/60 s step per frame, taken by a copy of the world in a worker thread: see
// boids-link.js) and paints from Float32Array views of wasm memory, rebuilt every frame. The
// rules live in Rust (pkg/); this module wires controls, read-outs, editing and messages.
// Every text that may come from a configuration is set with textContent.

import init, {
  Boids,
  boidScenarios,
  boidScenarioTitle,
  boidDefaultAgents,
  boidCombineNames,
  boidParamSpecs,
} from './pkg/pathlab_world.js';
import { readBoidConfig, boidQuery, MAX_AGENTS } from './boids-config.js';
import { MAX_SEED } from './values.js';
import { BoidPainter, SPECIES_COLOURS, FORCE_COLOURS } from './boids-draw.js';
import { el, options, panelSection, sidePanel } from './dom.js';
import { clearOnActions } from './message-actions.js';
import { BOID_STEP_SECONDS, foldStepMs, FramedApp, rateReadouts, realtimeNote, plotSlot, showMetricsTable, showStepRate, timed } from './frames.js';
import { WorldLink } from './boids-link.js';
import { layOut, loadOnce, pageHeader, seededTransport, transportKey, wholeField, wireSeedAndCount, wireTransport } from './sim-page.js';

const loadWasm = loadOnce(init);

const COMBINE_LABELS = {
  'weighted-sum': 'Weighted sum',
  priority: 'Priority (truncated running sum)',
  context: 'Context steering (interest / danger maps)',
};

const SCENARIO_LABELS = {
  flock: 'Flock',
  'hawks-and-pigeons': 'Hawks and pigeons',
  'path-following': 'Path following',
  'leader-following': 'Leader following',
  'wall-following': 'Wall following (maze)',
  'obstacle-field': 'Obstacle field',
};

const TOOLS = [
  ['select', 'Select agent'],
  ['walls', 'Paint walls'],
  ['goal', 'Set goal'],
];

/** A number for a slider's read-out: whole numbers as they are, others to at most 2 decimals. */
function short(v) {
  if (!Number.isFinite(v)) return String(v);
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
}

class BoidApp extends FramedApp {
  constructor(root, wasm, config) {
    super(root, wasm, config, 'boids-change');
    this.scenarios = boidScenarios();
    this.specs = boidParamSpecs();
    this.species = 0;
    this.selected = -1;
    this.tool = 'select';
    this.wallsVersion = 0;
    this.pathError = null;
    this.sliders = new Map();
    this.metricTable = { key: '' };
    /** The plot panel (plot.js), once first opened (see plotSlot). */
    this.plot = null;
    this.plotSlot = plotSlot(this);
    this.boids = this.create(config);
    this.build();
    this.painter = new BoidPainter(this.canvas);
    this.attachPointer();
  }

  /**
   * Builds the world of a configuration (already checked, so this does not throw) and its copy
   * in a worker thread, which takes the steps while the page plays; returns the page's world
   * behind the link's proxy, which passes every change on to the copy.
   */
  create(config) {
    const agents = config.agents ?? boidDefaultAgents(config.scenario);
    const world = new Boids(config.scenario, agents, config.seed);
    this.link = new WorldLink(
      world,
      { scenario: config.scenario, agents, seed: config.seed },
      {
        onMotion: (ms) => {
          if (ms !== null) foldStepMs(this, ms);
          this.samplePlot();
          this.dirty = true;
        },
        onLost: (message) => console.warn(`Boids: ${message}`),
      },
    );
    return this.link.boids;
  }

  // ---- DOM -------------------------------------------------------------------------------

  build() {
    const { ui, button, readout } = this.startUi();

    this.canvas = el('canvas', {
      testid: 'world',
      class: 'pl-canvas bl-canvas',
      tabindex: '0',
      'aria-label': 'Boid world: click an agent to inspect it, or paint walls and set the goal with the tools',
    });

    ui.scenario = el('select', { testid: 'scenario', 'aria-label': 'Scenario' });
    options(ui.scenario, this.scenarios, SCENARIO_LABELS);
    ui.title = el('p', { testid: 'scenario-title', class: 'pl-map-title' });
    ui.seed = wholeField('seed', MAX_SEED, 'Seed');
    ui.count = wholeField('agent-count', MAX_AGENTS, 'Agents');
    ui.speciesSelect = el('select', { testid: 'species', 'aria-label': 'Species' });
    ui.amount = el('select', { testid: 'amount', 'aria-label': 'How many to add or remove' });
    options(ui.amount, ['1', '10', '100', '1000', '10000']);
    ui.amount.value = '100';
    ui.census = el('p', { testid: 'census', class: 'pl-hint' });
    ui.combine = el('select', { testid: 'combine', 'aria-label': 'Combine forces by' });
    options(ui.combine, boidCombineNames(), COMBINE_LABELS);
    ui.collisions = el('input', { type: 'checkbox', testid: 'collisions' });
    ui.spline = el('input', { type: 'checkbox', testid: 'spline' });
    ui.tools = el('div', { class: 'bl-tools', role: 'radiogroup', 'aria-label': 'Tool' });
    // One name for the group, different for each page mounted.
    const group = `bl-tool-${Math.random().toString(36).slice(2, 8)}`;
    for (const [value, label] of TOOLS) {
      const input = el('input', { type: 'radio', name: group, value, testid: `tool-${value}` });
      if (value === this.tool) input.checked = true;
      input.addEventListener('change', () => {
        if (input.checked) this.setTool(value);
      });
      ui.tools.append(el('label', { class: 'bl-tool' }, input, el('span', { text: label })));
    }
    ui.inspector = el('div', { testid: 'inspector', class: 'bl-inspector', 'aria-live': 'polite' });
    ui.metrics = el('table', { testid: 'metrics', class: 'cr-metrics' });
    ui.params = el('div', { class: 'bl-params' });

    const transport = seededTransport(
      ui,
      button,
      { reset: 'Rebuild the scenario from its seed (Home)', step: 'One step of 1/60 s (→)', play: 'Play or pause (space)' },
    );
    const readouts = el(
      'div',
      { class: 'pl-readouts' },
      readout('agents', 'Agents'),
      ...rateReadouts(readout),
      (ui.steps = el('span', { testid: 'steps', class: 'pl-steps' })),
      realtimeNote(ui),
    );
    const header = pageHeader('steering, flocking and crowds', 'Scenario', ui.scenario, 'boids.html');
    const panel = sidePanel(
      panelSection(
        'Agents',
        el('label', { class: 'pl-field' }, el('span', { text: 'Species' }), ui.speciesSelect),
        el(
          'div',
          { class: 'bl-row' },
          button('add-agents', 'Add', 'Add agents of this species at random places', 'pl-small'),
          button('remove-agents', 'Remove', 'Remove the most recent agents of this species', 'pl-small'),
          ui.amount,
        ),
        ui.census,
      ),
      panelSection(
        'Steering',
        el('label', { class: 'pl-field' }, el('span', { text: 'Combine' }), ui.combine),
        el('label', { class: 'bl-check' }, ui.collisions, el('span', { text: 'Sphere-sphere collisions' })),
        el('label', { class: 'bl-check' }, ui.spline, el('span', { text: 'Follow the path along a spline' })),
        ui.params,
      ),
      panelSection(
        'Tool',
        ui.tools,
        el('p', { class: 'pl-hint', text: 'Walls: drag to paint; a drag that starts on a wall erases. Goal: click to set where seek, flee and arrive head.' }),
        button('clear-walls', 'Clear walls', 'Remove every wall', 'pl-small'),
      ),
      panelSection('Selected agent', ui.inspector),
      panelSection('Metrics', ui.metrics),
    );
    ui.wrap = el('div', { class: 'pl-grid-wrap' }, this.canvas);
    const stage = el('div', { class: 'pl-stage' }, ui.title, ui.wrap, transport, readouts, this.plotSlot.element);

    layOut(this.root, 'bl-page', this.config.embed, { header, messages: ui.messageBox, stage, panel });
    this.wire();
  }

  wire() {
    const ui = this.ui;
    wireTransport(this);
    ui.scenario.addEventListener('change', () => {
      this.config.scenario = ui.scenario.value;
      this.config.agents = null;
      this.rebuild('scenario');
    });
    wireSeedAndCount(this, MAX_AGENTS, () => this.boids.count);
    ui.speciesSelect.addEventListener('change', () => {
      this.species = Number(ui.speciesSelect.value);
      this.syncSpecies();
    });
    ui['add-agents'].addEventListener('click', () => this.changeAgents(+1));
    ui['remove-agents'].addEventListener('click', () => this.changeAgents(-1));
    ui.combine.addEventListener('change', () => {
      this.tryCall(() => this.boids.setCombine(this.species, ui.combine.value), 'Combine');
      this.startPlot();
      this.touch();
    });
    ui.collisions.addEventListener('change', () => {
      this.boids.setCollisions(ui.collisions.checked);
      this.startPlot();
      this.touch();
    });
    ui.spline.addEventListener('change', () => {
      this.boids.setSpline(ui.spline.checked);
      this.startPlot();
      this.touch();
    });
    ui['clear-walls'].addEventListener('click', () => {
      this.tryCall(() => this.boids.clearWalls(), 'Clear walls');
      this.wallsChanged();
    });
    clearOnActions(this.notes, this.root);
    this.onKey = (event) => transportKey(this, event);
    this.root.addEventListener('keydown', this.onKey);
    this.resizeObserver = new ResizeObserver(() => this.layout());
    this.resizeObserver.observe(ui.wrap);
  }

  /** The sliders for the chosen species, grouped, built from the core's parameter table. */
  buildParams() {
    const groups = new Map();
    for (const spec of this.specs) {
      if (!groups.has(spec.group)) groups.set(spec.group, []);
      groups.get(spec.group).push(spec);
    }
    this.sliders.clear();
    const sections = [];
    for (const [group, specs] of groups) {
      const details = el('details', { class: 'bl-group', open: group === 'Weights' || undefined }, el('summary', { text: group }));
      for (const spec of specs) {
        // The table's numbers are f32: 0.05 arrives as 0.05000000074505806.
        const clean = (v) => String(Number(v.toPrecision(6)));
        const input = el('input', {
          type: 'range',
          min: clean(spec.min),
          max: clean(spec.max),
          step: clean(spec.step),
          testid: `param-${spec.name}`,
          'aria-label': `${group}: ${spec.label}`,
          title: spec.help,
        });
        const value = el('output', { class: 'bl-param-value' });
        input.addEventListener('input', () => this.setParam(spec, input, value));
        this.sliders.set(spec.name, { input, value, spec });
        details.append(el('label', { class: 'bl-param', title: spec.help }, el('span', { text: spec.label }), input, value));
      }
      sections.push(details);
    }
    this.ui.params.replaceChildren(...sections);
  }

  setParam(spec, input, out) {
    const value = Number(input.value);
    try {
      const note = this.boids.setParam(this.species, spec.name, value);
      if (note) this.say(note);
    } catch (e) {
      this.say(`${spec.name}: ${e.message}`);
    }
    const now = this.boids.param(this.species, spec.name);
    out.textContent = short(now);
    this.startPlot();
    this.touch();
  }

  /** Shows the chosen species' settings in the controls. */
  syncSpecies() {
    const species = this.boids.species();
    if (this.species >= species.length) this.species = 0;
    options(
      this.ui.speciesSelect,
      species.map((_, i) => String(i)),
      Object.fromEntries(species.map((s, i) => [String(i), s.name])),
    );
    this.ui.speciesSelect.value = String(this.species);
    this.ui.speciesSelect.style.setProperty('--swatch', SPECIES_COLOURS[this.species % SPECIES_COLOURS.length]);
    this.ui.combine.value = this.boids.combine(this.species);
    for (const { input, value, spec } of this.sliders.values()) {
      const v = this.boids.param(this.species, spec.name);
      input.value = String(v);
      value.textContent = short(v);
    }
    this.showCensus();
  }

  showCensus() {
    const species = this.boids.species();
    this.ui.census.replaceChildren(
      ...species.map((s, i) =>
        el(
          'span',
          { class: 'bl-census' },
          el('span', { class: 'pl-swatch', style: `--swatch: ${SPECIES_COLOURS[i % SPECIES_COLOURS.length]}` }),
          `${s.name}: ${s.count}`,
        ),
      ),
    );
  }

  // ---- world -------------------------------------------------------------------------------

  /** Rebuilds the world from the configuration and shows it. */
  rebuild(why) {
    try {
      const agents = this.config.agents ?? boidDefaultAgents(this.config.scenario);
      this.boids.reset(this.config.scenario, agents, this.config.seed);
    } catch (e) {
      this.say(`Could not rebuild (${why}): ${e.message}`);
    }
    this.selected = -1;
    this.stepMs = null;
    this.pathError = null;
    this.afterWorldChange();
    this.changed();
  }

  afterWorldChange() {
    const ui = this.ui;
    ui.scenario.value = this.boids.scenario;
    ui.title.textContent = boidScenarioTitle(this.boids.scenario);
    ui.seed.value = String(this.boids.seed);
    ui.count.value = String(this.boids.count);
    ui.collisions.checked = this.boids.collisions;
    ui.spline.checked = this.boids.spline;
    this.syncSpecies();
    this.wallsChanged();
    this.layout();
    this.showMetrics();
    this.startPlot();
  }

  /** The metrics table, from the world's own metrics. */
  showMetrics() {
    showMetricsTable(this.ui.metrics, this.boids.metrics(), this.metricTable, `Metrics of the ${boidScenarioTitle(this.boids.scenario)} world`);
  }

  /** Starts a new plot of every metric from the step the world is at (while the panel is open). */
  startPlot() {
    if (!this.plot?.open) return;
    const b = this.boids;
    const metrics = b.metrics();
    this.plot.start(metrics.map((m) => ({ key: m.name, label: m.label, unit: m.unit, group: m.name })), {
      page: 'boids',
      scene: b.scenario,
      seed: b.seed,
      stepSeconds: BOID_STEP_SECONDS,
      settings: `${b.count} agents`,
    });
    this.samplePlot();
  }

  /** Samples the world's metrics at its step into the plot (while the panel is open). */
  samplePlot() {
    if (!this.plot?.open) return;
    this.plot.sample(this.boids.steps, this.boids.metrics().map((m) => m.value));
  }

  wallsChanged() {
    this.wallsVersion += 1;
    // Say it once when the path is cut, not at every cell of the drag.
    const error = this.boids.pathError ?? null;
    if (error && error !== this.pathError) this.say(`Path: ${error}. Path following waits until the walls allow a path.`);
    else if (!error && this.pathError) this.say('Path: planned again.');
    this.pathError = error;
    this.touch();
  }

  changeAgents(sign) {
    const n = Number(this.ui.amount.value);
    if (sign > 0) {
      try {
        this.boids.addAgents(this.species, n);
      } catch (e) {
        this.say(`Add agents: ${e.message}`);
      }
    } else {
      this.tryCall(() => this.boids.removeAgents(this.species, n), 'Remove agents');
      if (this.selected >= this.boids.count) this.selected = -1;
    }
    this.config.agents = this.boids.count;
    this.ui.count.value = String(this.boids.count);
    this.showCensus();
    this.startPlot();
    this.changed();
    this.touch();
  }

  step() {
    this.setPlaying(false);
    timed(this, () => this.boids.step(1));
    this.samplePlot();
    this.showMetrics();
    this.plot?.draw();
    this.touch();
  }

  /** A step while playing: asked of the worker when it runs, otherwise taken here. */
  /** The simulation's steps so far (the loop's steps-per-second read-out). */
  stepCount() {
    return this.boids.steps;
  }

  timedStep() {
    if (!this.link.request()) {
      timed(this, () => this.boids.step(1));
      this.samplePlot();
    }
  }

  setPlaying(on) {
    super.setPlaying(on);
    if (!on) this.link.halt();
  }

  setTool(tool) {
    this.tool = tool;
    this.canvas.dataset.tool = tool;
  }

  // ---- pointer: select, paint walls, set the goal -----------------------------------------------

  attachPointer() {
    const canvas = this.canvas;
    let drag = null;
    const cellOf = (p) => ({
      x: Math.floor(p.x / this.boids.cellSize),
      y: Math.floor(p.y / this.boids.cellSize),
    });
    const world = (event) => this.painter.worldAt(event, this.boids.width, this.boids.height);
    canvas.addEventListener('pointerdown', (event) => {
      if (event.pointerType === 'mouse' && event.button !== 0) return;
      const p = world(event);
      if (this.tool === 'select') {
        // Within 12 CSS pixels, or 3 world units when agents are drawn large.
        const reach = Math.max(3, (12 * this.boids.width) / canvas.getBoundingClientRect().width);
        this.selected = this.boids.agentNear(p.x, p.y, reach);
        this.touch();
        return;
      }
      if (this.tool === 'goal') {
        this.tryCall(() => this.boids.setGoal(p.x, p.y), 'Goal');
        this.touch();
        return;
      }
      const c = cellOf(p);
      if (c.x < 0 || c.y < 0 || c.x >= this.boids.gridWidth || c.y >= this.boids.gridHeight) return;
      event.preventDefault();
      canvas.setPointerCapture?.(event.pointerId);
      const wall = this.boids.cell(c.x, c.y) !== 0;
      drag = { last: c, wall };
      this.paint(c, c, wall);
    });
    canvas.addEventListener('pointermove', (event) => {
      if (!drag) return;
      const c = cellOf(world(event));
      if (c.x === drag.last.x && c.y === drag.last.y) return;
      this.paint(drag.last, c, drag.wall);
      drag.last = c;
    });
    const end = () => {
      drag = null;
    };
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
  }

  paint(a, b, wall) {
    const changed = this.tryCall(() => this.boids.paintLine(a.x, a.y, b.x, b.y, wall), 'Paint');
    if (changed) this.wallsChanged();
  }

  // ---- loop ----------------------------------------------------------------------------------

  layout() {
    const wrap = this.ui.wrap;
    const available = Math.max(120, wrap.clientWidth);
    const w = this.boids.width;
    const h = this.boids.height;
    // Fit the width, and the height to most of the window.
    const maxHeight = Math.max(160, window.innerHeight * (this.config.embed ? 0.82 : 0.72));
    const width = Math.floor(Math.min(available, (maxHeight * w) / h));
    this.painter.resize(width, w, h);
    this.touch();
  }

  settings() {
    return { scenario: this.boids.scenario, agents: this.config.agents, seed: this.boids.seed, embed: this.config.embed, plot: this.config.plot };
  }

  /** Shows the scene and plays (opening the plot first with `plot=1`, so it starts at step 0). */
  async start() {
    this.buildParams();
    this.afterWorldChange();
    if (this.config.plot) await this.plotSlot.open(true);
    this.play();
  }

  readouts(now) {
    const ui = this.ui;
    ui.agents.textContent = String(this.boids.count);
    if (now - this.lastReadout >= 250) {
      this.lastReadout = now;
      ui.fps.textContent = String(Math.round(this.fps));
      ui['step-ms'].textContent = this.stepMs === null ? '0' : this.stepMs.toFixed(2);
      showStepRate(this, BOID_STEP_SECONDS);
      ui.steps.textContent = `step ${Math.round(this.boids.steps)}`;
      if (this.playing) this.showCensus();
      this.showMetrics();
      this.plot?.draw();
    }
  }

  /** Views on wasm memory, rebuilt every frame: the memory may have grown since the last. */
  views() {
    const buffer = this.wasm.memory.buffer;
    const b = this.boids;
    const n = b.count;
    return {
      count: n,
      x: new Float32Array(buffer, b.xPtr(), n),
      y: new Float32Array(buffer, b.yPtr(), n),
      hx: new Float32Array(buffer, b.hxPtr(), n),
      hy: new Float32Array(buffer, b.hyPtr(), n),
      species: new Uint8Array(buffer, b.speciesPtr(), n),
    };
  }

  draw() {
    const b = this.boids;
    const species = b.species();
    let inspection = null;
    if (this.selected >= 0 && this.selected < b.count) {
      inspection = this.tryCall(() => b.inspect(this.selected), 'Inspect') ?? null;
    } else {
      this.selected = -1;
    }
    const maxSpeed = inspection ? b.param(inspection.species, 'vehicle.max_speed') : 1;
    // Walls first: building their image reads the cells view, which the calls above may move.
    const cells = new Uint8Array(this.wasm.memory.buffer, b.cellsPtr(), b.gridWidth * b.gridHeight);
    this.painter.updateWalls(cells, b.gridWidth, b.gridHeight, this.wallsVersion);
    const circles = b.circles();
    const path = b.path();
    const waypoints = b.waypoints();
    const goals = b.goals();
    const leader = b.leader;
    const v = this.views();
    this.painter.frame({
      ...v,
      width: b.width,
      height: b.height,
      radii: species.map((s) => s.radius),
      leader,
      circles,
      path,
      waypoints,
      goals,
      inspection,
      maxSpeed,
    });
    this.showInspection(inspection, species);
  }

  showInspection(v, species) {
    const box = this.ui.inspector;
    if (!v) {
      if (box.dataset.index !== '') {
        box.dataset.index = '';
        box.replaceChildren(el('p', { class: 'pl-hint', text: 'Choose the Select tool and click an agent to see its neighbourhood, view cone, forces and context map.' }));
      }
      return;
    }
    box.dataset.index = String(v.index);
    const row = (name, value, colour) =>
      el(
        'li',
        {},
        el('span', { class: 'pl-swatch', style: `--swatch: ${colour}` }),
        el('span', { class: 'bl-force-name', text: name }),
        el('span', { class: 'bl-force-value', text: value }),
      );
    const mag = (x, y) => Math.hypot(x, y).toFixed(1);
    box.replaceChildren(
      el(
        'p',
        { class: 'bl-inspect-head' },
        `Agent ${v.index} (${species[v.species]?.name ?? v.species}), speed ${v.speed.toFixed(1)}, ${v.neighbours.length} neighbours; ${COMBINE_LABELS[v.combine] ?? v.combine}.`,
      ),
      el(
        'ul',
        { class: 'bl-forces' },
        ...v.forces.map((f) => row(f.name, mag(f.x, f.y), FORCE_COLOURS[f.name] ?? '#555')),
        row('combined', mag(v.steering[0], v.steering[1]), '#000000'),
      ),
      el('p', { class: 'pl-hint', text: 'Rings: separation (dashed), alignment and cohesion radii; shaded: view cone. Context map: green interest outwards, red danger inwards, the dark dot is the slot chosen.' }),
    );
  }

  destroy() {
    this.loop?.stop();
    this.link.destroy();
    this.resizeObserver?.disconnect();
    this.root.removeEventListener('keydown', this.onKey);
  }
}

/**
 * Mounts the boid page in `root` with a configuration object (`scenario`, `agents`, `seed`,
 * `embed`; the same keys as the URL). Invalid values are replaced by defaults and explained in
 * a visible message. Resolves to a handle with the app, its world and `destroy()`.
 */
export async function mountBoids(root, raw = {}) {
  const wasm = await loadWasm();
  const { config, messages } = readBoidConfig(raw, boidScenarios());
  const app = new BoidApp(root, wasm, config);
  for (const m of messages) app.say(m);
  await app.start();
  return {
    app,
    get boids() {
      return app.boids;
    },
    query: () => boidQuery(app.settings()),
    destroy: () => app.destroy(),
  };
}
