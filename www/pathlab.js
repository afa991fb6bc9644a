// The Pathlab page: `mount(element, config)` builds the controls and the grid inside `element`
// and runs on the shared frame loop (frame-loop.js): each frame advances the search while playing and repaints
// only when something changed. Rules live in Rust (pkg/); this module wires controls, read-outs
// and messages. Every text that may come from a configuration is set with textContent.

import init, { firstAlgorithms, Lab, maxMapFileBytes, names, statusName } from './pkg/pathlab_wasm.js';
import { readConfig, knownNames, COUNTS, SPACES, SWITCHES } from './config.js';
import { encodeGrid } from './share.js';
import { quote } from './values.js';
import { loadIndex, loadPresets, fetchMap, detectFormat, presetEntry } from './maps.js';
import { takeEarly } from './early.js';
import { Painter, LEGEND, OVERLAY_STYLE, useExtras } from './paint.js';
import { attachEditing } from './edit.js';
import { controls, el, options, panelSection, sidePanel } from './dom.js';
import {
  algorithmRow, algorithmRows, formatCost, labHeader, lastStepOf, searchInputs, searchReadouts, SearchPage, selectMaker, toolBrush, toolMenu,
  transportBar, weightField,
} from './page-app.js';

let wasmReady = null;

// ---- the parts the first grid does without ----------------------------------------------------
// Editor, files, saving and sharing, warnings, compare, embed, grid keys and contrast, timeline
// and panels come by dynamic import() once the first grid is painted (App.attachLater), so the
// first paint waits only for the grid's own code (tests/page-modules.test.mjs counts it).
let laterReady = null;
/** @type {typeof import('./panels.js').describeStep} */
let describeStep = () => '';
/** @type {typeof import('./pseudocode.js').settingsNote} */
let settingsNote = () => '';
/** @type {typeof import('./pseudocode.js').countLabels | null} */
let countLabels = null;

/** Fetches the deferred modules once per page; resolves to the names App.attachLater uses. */
function loadLater() {
  laterReady ??= Promise.all([
    import('./timeline.js'),
    import('./panels.js'),
    import('./editor.js'),
    import('./files.js'),
    import('./persist.js'),
    import('./warnings.js'),
    import('./compare.js'),
    import('./embed.js'),
    import('./access.js'),
    import('./links.js'),
    import('./pseudocode.js'),
    import('./refusals.js'),
    import('./zoom.js'),
    import('./present.js'),
    import('./paint-extras.js'),
    import('./switches.js'),
  ]).then(([timeline, panels, editor, files, persist, warnings, compare, embed, access, links, pseudocode, refusals, zoom, present, extras, switches]) => ({
    Timeline: timeline.Timeline,
    Panels: panels.Panels,
    describeStep: panels.describeStep,
    settingsNote: panels.settingsNote,
    attachEditor: editor.attachEditor,
    attachFiles: files.attachFiles,
    attachPersistence: persist.attachPersistence,
    attachWarnings: warnings.attachWarnings,
    attachCompare: compare.attachCompare,
    attachEmbed: embed.attachEmbed,
    attachAccess: access.attachAccess,
    attachLinks: links.attachLinks,
    countLabels: pseudocode.countLabels,
    attachRefusals: refusals.attachRefusals,
    attachZoom: zoom.attachZoom,
    attachPresent: present.attachPresent,
    paintExtras: extras,
    attachSwitches: switches.attachSwitches,
  }));
  return laterReady;
}

/** Whether the first grid needs the deferred modules: a map in the link or saved, lock, contrast. */
function needsLaterFirst(config) {
  if (config.grid || config.lock || config.contrast || config.present) return true;
  // The search's switches (switches.js) set the search before the first step is taken.
  if (SWITCHES.some((key) => config.given?.includes(key))) return true;
  if (window.matchMedia?.('(prefers-contrast: more)').matches) return true;
  if (config.map !== null || config.embed) return false;
  try {
    // persist.js's STORAGE_KEY: a saved map is restored before the first paint.
    return window.localStorage.getItem('pathlab.saved.v1') !== null;
  } catch {
    return true;
  }
}

/** Loads and starts the wasm module once per page; resolves to its exports (with memory). */
function loadWasm() {
  wasmReady ??= init();
  return wasmReady;
}

// ---- the searches the first module does without -------------------------------------------
// The grid page's first module (pathlab_wasm) runs only the searches of firstAlgorithms(); the
// others are in pathlab_searches, the same Lab with every search, which every-search.js loads
// when one of them is chosen (in a select, the URL, a lesson, saved settings) or compared. The
// page's search then moves there for good (App.useEverySearch).
/** @type {Set<string> | null} */
let first = null;

/** True when the first module's Lab runs `algo` (the names of firstAlgorithms()). */
function inFirst(algo) {
  first ??= new Set(firstAlgorithms());
  return first.has(algo);
}

/**
 * True when the configuration's algorithm, or one it compares, is not in the first module.
 * @param {import('./config.js').PageConfig} config
 */
function needsEvery(config) {
  const compared = Array.isArray(config.compare) ? config.compare : [];
  return [config.algo, ...compared].some((algo) => typeof algo === 'string' && !inFirst(algo));
}

/** every-search.js, once per page. */
function everySearch() {
  return import('./every-search.js');
}

/** The names of the settings' values in their selects (the algorithms' come from the core's registry). */
export const LABELS = {
  hand: {
    left: 'left hand on the wall',
    right: 'right hand on the wall',
    'least-deviation': 'least deviation (side nearer the goal)',
    random: 'random side at each crash (seeded)',
  },
  heuristic: {
    octile: 'Octile',
    manhattan: 'Manhattan',
    euclidean: 'Euclidean',
    chebyshev: 'Chebyshev',
    zero: 'Zero (none)',
  },
  diagonal: {
    never: '4-way, no diagonals',
    'no-corner-cutting': '8-way, no corner cut',
    'at-most-one-blocked': '8-way, one side wall ok',
    always: '8-way, always',
  },
  costs: { real: 'real: 1 and √2', integer: 'integer: 10 and 14' },
};

/** The settings that only some algorithms take (the registry row's `settings` says which), by their labels. */
const EXTRA_LABELS = {
  lookahead: 'Look-ahead (moves)',
  sensor: 'Sensor radius (cells, 0: all)',
  cluster: 'Cluster side (cells)',
  hand: 'Hand',
};

/** The labels of the selects in the Search section, for messages about them. */
const SELECT_LABELS = { algo: 'Algorithm', heuristic: 'Heuristic', diagonal: 'Moves', costs: 'Costs' };

/** The spaces' names in the space select (hex and graph: space-view.js; navmesh and corners: navmesh-view.js). */
export const SPACE_LABELS = {
  grid: 'Square grid', hex: 'Hex tiles', graph: 'Graph (waypoints)', navmesh: 'Navmesh (polygons + funnel)', corners: 'Corner graph (any angle)',
};

function formatNumber(v) {
  if (v === undefined || v === null) return '–';
  return Number.isInteger(v) ? String(v) : v.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
}

function at(p) {
  return `(${p[0]},${p[1]})`;
}

/**
 * The Lab setters the page calls by name with one value from the URL or an input.
 * @typedef {'setAlgorithm' | 'setWeight' | 'setDiagonal' | 'setCosts' | 'setHeuristic' | 'setLookahead' | 'setSensor' | 'setCluster' | 'setHand' | 'setFog' | 'setSeed'} LabSetter
 */

class App extends SearchPage {
  constructor(root, memory, known, config) {
    super(root, memory, known, config, statusName);
    this.lab = new Lab(20, 12);
    /**
     * What mount() fetched while the wasm module compiled (fetchEarly), set by mount() once
     * the page is built; start() and loadNamed() take it.
     * @type {ReturnType<typeof fetchEarly> | null}
     */
    this.early = null;
    this.presets = [];
    /**
     * The predict-the-next-step quiz (quiz.js), once started.
     * @type {ReturnType<typeof import('./quiz.js').attachQuiz> | null}
     */
    this.quiz = null;
    /**
     * The cell the Cell panel reads when the pointer is off the grid: tapped, or clicked with
     * the Inspect tool (select).
     * @type {{ x: number, y: number } | null}
     */
    this.selected = null;
    this.lastSize = '';
    /**
     * The next slice of a far `step` (go-to-step.js), run by the next frame.
     * @type {(() => void) | null}
     */
    this.nextSlice = null;
    this.build();
    this.painter = new Painter(this.canvas);
    this.detachEditing = attachEditing(this);
    // What deferred modules draw over the grid: { under(painter), over(painter) } (links.js).
    this.layers = [];
    // The rest is attached by attachLater(), after the first grid (see loadLater).
    this.firstGrid = new Promise((resolve) => (this.gridPainted = resolve));
  }

  /** Attaches the deferred modules (loadLater), once, in the order the page lays them out. */
  async attachLater() {
    const m = await loadLater();
    if (this.later) return;
    this.later = true;
    describeStep = m.describeStep;
    useExtras(m.paintExtras);
    settingsNote = m.settingsNote;
    countLabels = m.countLabels;
    this.syncSettings();
    // What the modules get: the page as page-context.js's PageContext (the type check holds the
    // page to that contract, and each module to the part of it it declares).
    /** @type {import('./page-context.js').PageContext} */
    const context = this;
    // The timeline scrubber and the pseudocode / open-list panels take their places in the stage.
    this.timeline = new m.Timeline(context);
    this.panels = new m.Panels(context);
    this.ui.timelineSlot.replaceWith(this.timeline.element);
    this.ui.panelsSlot.replaceWith(this.panels.element);
    // Map editor, files, and saving and sharing: each adds its controls to the panel.
    this.editor = m.attachEditor(context);
    this.files = m.attachFiles(context);
    this.persistence = m.attachPersistence(context);
    // Correctness warnings under the read-outs, and compare mode (several searches side by side).
    this.warnings = m.attachWarnings(context);
    // The algorithm menu's marks for what this map and these settings refuse.
    this.refusals = m.attachRefusals(context);
    this.compare = m.attachCompare(context);
    // Embed code and lock=1; grid keys and high contrast.
    this.embedding = m.attachEmbed(context);
    this.access = m.attachAccess(context);
    // Teleports and slopes (costs on links): a Links section, grid tools and a drawing layer.
    this.links = m.attachLinks(context);
    // Zoom and pan for large maps; panels that fold and the presentation mode.
    this.zoom = m.attachZoom(context);
    this.present = m.attachPresent(context);
    // The skeleton's plug-ins, re-opening, IDA*'s threshold, the neighbour order, the heuristic check.
    this.switches = m.attachSwitches(context);
    this.syncSettings();
    this.touch();
  }

  // ---- DOM -------------------------------------------------------------------------------

  build() {
    const ui = {};
    this.ui = ui;
    const { button, readout } = controls(ui);
    const select = selectMaker(ui);

    this.canvas = el('canvas', {
      testid: 'grid',
      class: 'pl-canvas',
      tabindex: '0',
      'aria-label': 'Path-finding grid: drag to paint walls, drag S or G to move the start or goal',
    });
    ui.message = this.notes.list;
    ui.messageBox = this.notes.box;

    searchInputs(ui, this.config.speed);
    ui.extras = {};
    for (const [key, label] of Object.entries(EXTRA_LABELS)) {
      const input =
        key === 'hand'
          ? el('select', { testid: key })
          : el('input', {
              type: 'number',
              testid: key,
              min: String(COUNTS[key].min),
              max: String(COUNTS[key].max),
              step: '1',
              inputmode: 'numeric',
            });
      ui[key] = input;
      ui.extras[key] = el('label', { class: 'pl-field', hidden: true }, el('span', { text: label }), input);
    }
    ui.map = el('select', { testid: 'map', 'aria-label': 'Map' });
    ui.space = el('select', { testid: 'space', 'aria-label': 'Space' });
    options(ui.space, SPACES, SPACE_LABELS);
    ui.file = el('input', { type: 'file', testid: 'load-file', accept: '.map,.txt,text/plain', class: 'pl-file-input' });
    // The brushes and the tool that edits nothing: a press reads the cell (edit.js).
    ui.brush = toolMenu();
    ui.clear = el('button', { type: 'button', testid: 'clear', class: 'pl-btn pl-small', text: 'Clear map' });
    ui.cellInfo = el('div', { testid: 'cell-info', class: 'pl-cell-info', 'aria-live': 'polite' });
    ui.narration = el('div', { testid: 'narration', class: 'pl-narration', 'aria-live': 'polite' });
    ui.note = el('p', { testid: 'note', class: 'pl-note' });
    ui.overlay = el('div', { testid: 'overlay', class: 'pl-overlay', hidden: true });
    ui.mapTitle = el('p', { testid: 'map-title', class: 'pl-map-title' });
    ui.steps = el('span', { testid: 'steps', class: 'pl-steps' });

    const transport = transportBar(ui, button);
    const readouts = el(
      'div',
      { class: 'pl-readouts' },
      ...searchReadouts(readout),
      readout('agent', 'Agent'),
      readout('repair', 'Repair'),
      ui.steps,
    );
    ui.agent.parentElement.hidden = true;
    ui.repair.parentElement.hidden = true;
    const legend = el(
      'ul',
      { class: 'pl-legend', testid: 'legend' },
      ...LEGEND.map((item) =>
        el(
          'li',
          item.only ? { 'data-only': item.only } : {},
          el('span', { class: `pl-swatch pl-swatch-${item.key}`, style: `--swatch: ${item.color}` }),
          item.label,
        ),
      ),
    );
    const header = labHeader(ui, 'grid path-finding, one step at a time', 'Map');
    const panel = sidePanel(
      panelSection(
        'Search',
        select('algo', SELECT_LABELS.algo),
        select('heuristic', SELECT_LABELS.heuristic),
        select('diagonal', SELECT_LABELS.diagonal),
        select('costs', SELECT_LABELS.costs),
        weightField(ui),
        ...Object.values(ui.extras),
        el(
          'label',
          { class: 'pl-check', title: 'The agents that take it start knowing no walls and learn each one within their sensor radius' },
          (ui.fog = el('input', { type: 'checkbox', testid: 'fog' })),
          el('span', { text: 'Fog of war (walls unknown until seen)' }),
        ),
        (ui.fogNote = el('p', { class: 'pl-hint', testid: 'fog-note', hidden: true })),
        ui.note,
        (ui.quizToggle = el('button', { type: 'button', testid: 'quiz-toggle', class: 'pl-btn pl-small', text: 'Quiz: predict the next step' })),
      ),
      (ui.editSection = panelSection(
        'Edit',
        el('label', { class: 'pl-field' }, el('span', { text: 'Tool' }), ui.brush),
        el('p', {
          class: 'pl-hint',
          text: 'Drag on the grid to paint; start on a painted cell to erase. Drag S or G to move them. A tap of a finger reads a cell; the Inspect tool reads cells on every click and never edits.',
        }),
        ui.clear,
      )),
    );
    // Beside the grid, in sight while it plays: the cell under the pointer, the last step, the
    // pseudocode and open list (attachLater); the legend goes under the read-outs.
    const side = el(
      'aside',
      { class: 'pl-side pl-full', 'aria-label': 'Cell, step and lists' },
      el('section', { class: 'pl-section pl-cell-section' }, el('h2', { text: 'Cell' }), ui.cellInfo),
      el('section', { class: 'pl-section pl-step-section' }, el('h2', { text: 'Last step' }), ui.narration, ui.overlay),
      (ui.panelsSlot = el('div', { class: 'pl-panels-slot' })),
    );
    ui.wrap = el('div', { class: 'pl-grid-wrap' }, this.canvas);
    // Where the timeline scrubber and the pseudocode / open-list panels go (attachLater).
    ui.timelineSlot = el('div', { class: 'pl-timeline-slot' });
    const stage = el(
      'div',
      { class: 'pl-stage' },
      ui.mapTitle, ui.wrap, transport, ui.timelineSlot, readouts,
      el('section', { class: 'pl-section pl-legend-section pl-full' }, el('h2', { text: 'Legend' }), legend),
    );

    this.root.classList.add('pathlab');
    this.root.classList.toggle('pl-embed', this.config.embed);
    this.root.replaceChildren(header, ui.messageBox, el('div', { class: this.config.embed ? 'pl-main' : 'pl-main pl-teach' }, stage, side, panel));

    const algorithms = algorithmRows();
    options(ui.algo, algorithms.map((a) => a.name), Object.fromEntries(algorithms.map((a) => [a.name, a.label])));
    for (const key of ['heuristic', 'diagonal', 'costs', 'hand']) {
      // Names the page has labels for come first, in the labels' order; any others after.
      const order = Object.keys(LABELS[key]);
      const rank = (v) => (order.includes(v) ? order.indexOf(v) : order.length);
      options(ui[key], [...this.known[key]].sort((a, b) => rank(a) - rank(b)), LABELS[key]);
    }
    this.wire();
  }

  wire() {
    const ui = this.ui;
    this.wireTransport();
    // The grid's size depends on what the page shows around it (layout): watch that too.
    this.resizeObserver.observe(this.config.embed ? this.root : ui.wrap.parentElement);
    const setters = { algo: 'setAlgorithm', heuristic: 'setHeuristic', diagonal: 'setDiagonal', costs: 'setCosts' };
    for (const [key, method] of Object.entries(setters)) {
      ui[key].addEventListener('change', async () => {
        const value = ui[key].value;
        if (key === 'algo' && !this.holds(value)) {
          // Its module first; a later choice made while it loads wins.
          const ticket = (this.algoTicket = (this.algoTicket ?? 0) + 1);
          try {
            await this.useEverySearch();
          } catch (e) {
            this.say(`${SELECT_LABELS.algo}: ${e.message}`);
            this.syncSettings();
            return;
          }
          if (ticket !== this.algoTicket || this.destroyed) return;
        } else if (key === 'algo') {
          this.algoTicket = (this.algoTicket ?? 0) + 1;
        }
        try {
          this.lab[method](value);
        } catch (e) {
          this.say(`${SELECT_LABELS[key]}: ${e.message}`);
        }
        this.syncSettings();
        this.touch();
        this.changed();
      });
    }
    ui.weight.addEventListener('change', () => this.setWeight(ui.weight.value));
    ui.hand.addEventListener('change', () => this.setExtra('hand', ui.hand.value));
    ui.fog.addEventListener('change', () => {
      try {
        this.lab.setFog(ui.fog.checked);
      } catch (e) {
        this.say(`Fog of war: ${e.message}`);
      }
      this.syncSettings();
      this.touch();
      this.changed();
    });
    for (const key of Object.keys(COUNTS)) {
      ui[key].addEventListener('change', () => this.setExtra(key, ui[key].value));
    }
    ui.map.addEventListener('change', () => this.chooseMap(ui.map.value));
    ui.quizToggle.addEventListener('click', () => this.startQuiz(this.quiz?.mode ? null : 'expand'));
    ui.space.addEventListener('change', () => this.switchSpace(ui.space.value));
    ui.file.addEventListener('change', () => this.openFile());
    ui.clear.addEventListener('click', () => {
      try {
        this.lab.clear();
      } catch (error) {
        this.refused(error.message);
        return;
      }
      this.narrate('Cleared every wall and terrain cost.');
      this.mapChanged('clear');
      this.touch();
    });
  }

  // ---- loading -----------------------------------------------------------------------------

  async start() {
    const config = this.config;
    // An algorithm of the other module, to show or to compare: fetched while the map is
    // (awaited before the settings are applied).
    if (needsEvery(config)) everySearch().then((m) => m.loadSearches()).catch(() => {});
    try {
      this.presets = await (this.early?.presets ?? loadPresets());
    } catch (e) {
      this.say(e.message);
    }
    options(
      this.ui.map,
      this.presets.map((p) => p.name),
      Object.fromEntries(this.presets.map((p) => [p.name, p.title ?? p.name])),
    );
    const fallback = this.presets[0]?.name;
    // A map from a share link (grid=), or else the one saved in this browser (persist.js).
    if (needsLaterFirst(config)) await this.attachLater();
    let loaded = this.persistence?.restore(config) ?? false;
    if (!loaded && config.map !== null) {
      try {
        await this.loadNamed(config.map);
        loaded = true;
      } catch (e) {
        this.say(`Parameter "map": ${e.message}. Showing ${fallback ?? 'an open grid'} instead.`);
      }
    }
    if (!loaded && fallback) {
      try {
        await this.loadNamed(fallback);
      } catch (e) {
        this.say(`The default map could not be loaded: ${e.message}`);
      }
    }

    /**
     * @param {string} key
     * @param {LabSetter} method
     * @param {unknown} value
     */
    const apply = (key, method, value) => {
      if (value === null || value === undefined) return;
      try {
        // Each setter takes a string or a number; the core throws on a value it cannot use.
        this.lab[method](/** @type {never} */ (value));
      } catch (e) {
        this.say(`Parameter "${key}": ${e.message}`);
      }
    };
    // The URL's (or the saved settings') algorithm, or those compared, may need the module
    // with every search.
    if (!this.every && needsEvery(config)) {
      try {
        await this.useEverySearch();
      } catch (e) {
        this.say(`Parameter "${config.algo && !inFirst(config.algo) ? 'algo' : 'compare'}": ${e.message}`);
      }
    }
    apply('diagonal', 'setDiagonal', config.diagonal);
    apply('costs', 'setCosts', config.costs);
    // Without a heuristic given, take the tightest admissible one for the moves.
    const diagonal = this.lab.settings().diagonal;
    apply('heuristic', 'setHeuristic', config.heuristic ?? (diagonal === 'never' ? 'manhattan' : 'octile'));
    apply('lookahead', 'setLookahead', config.lookahead);
    apply('sensor', 'setSensor', config.sensor);
    apply('cluster', 'setCluster', config.cluster);
    apply('hand', 'setHand', config.hand);
    apply('seed', 'setSeed', config.seed);
    apply('fog', 'setFog', config.fog);
    apply('algo', 'setAlgorithm', config.algo);
    apply('weight', 'setWeight', config.weight);
    this.switches?.apply(config);
    for (const key of ['start', 'goal']) {
      const p = config[key];
      if (!p) continue;
      const before = key === 'start' ? [this.lab.startX, this.lab.startY] : [this.lab.goalX, this.lab.goalY];
      try {
        if (key === 'start') this.lab.setStart(p[0], p[1]);
        else this.lab.setGoal(p[0], p[1]);
      } catch (e) {
        this.say(`Parameter "${key}": ${e.message}; keeping the map's ${key} ${at(before)}.`);
      }
    }
    // A far step goes on a slice at a time once the page is all there (go-to-step.js).
    const onTheWay = config.step > 0 ? (await import('./go-to-step.js')).goToStep(this, config.step) : null;
    this.syncSettings();
    this.showSpeed();
    this.layout();
    this.touch();
    if (config.autoplay && !this.finished()) this.setPlaying(true);
    this.startLoop();
    // The rest of the page once the first grid is on the screen (a task after its frame).
    await this.firstGrid;
    await new Promise((resolve) => setTimeout(resolve));
    await this.attachLater();
    // A step reached at once is read out as if stepped to, once the words for it are loaded:
    // the Last step panel describes step N (unless something was said there meanwhile).
    if (config.step > 0 && !onTheWay && !this.ui.narration.textContent) this.narrateStep();
    this.persistence.start();
    // Links before compare: compared searches take the map's teleports and slopes along.
    this.links.start();
    this.compare.start();
    onTheWay?.();
  }



  /** Loads a preset or a relative path; throws with a message and keeps the current map. */
  async loadNamed(name) {
    // The map mount() fetched while the wasm module compiled, if it is this one (once).
    const early = await this.early?.map;
    if (this.early) this.early.map = null;
    const map = early?.name === name ? early.map : await fetchMap(name, this.presets);
    performance.mark('pathlab-map-ready');
    this.loadText(map.text, map.format, map.preset, map.label);
  }

  /** Replaces the map with the text of a file; throws (keeping the current map) when malformed. */
  loadText(text, format, preset, label) {
    if (format === 'movingai') this.lab.loadMovingAi(text);
    else this.lab.loadCourse(text);
    if (preset) {
      try {
        for (const r of Array.isArray(preset.terrain) ? preset.terrain : []) {
          for (let y = r.y; y < r.y + r.h; y++) this.lab.paintLine(r.x, y, r.x + r.w - 1, y, r.value);
        }
      } catch (error) {
        this.refused(error.message);
      }
      for (const [key, method] of [['diagonal', 'setDiagonal'], ['costs', 'setCosts']]) {
        if (preset[key]) this.lab[method](preset[key]);
      }
      if (Array.isArray(preset.start)) this.lab.setStart(preset.start[0], preset.start[1]);
      if (Array.isArray(preset.goal)) this.lab.setGoal(preset.goal[0], preset.goal[1]);
    }
    this.lab.reset();
    this.mapName = preset ? preset.name : null;
    this.mapTitle = preset?.title ?? label;
    this.showMap(label);
    this.freshMap('load');
  }

  /**
   * After the Lab's map was replaced (generated, resized, restored, shared, an example): the
   * same upkeep as loading a file. The map is the user's own, shown in the map list as
   * `title`; `what` goes to mapChanged.
   */
  showNewMap(title, what) {
    this.setPlaying(false);
    this.lab.reset();
    this.nameOwnMap(title);
    this.freshMap(what);
  }

  /** What every new map needs once named: no narration, hover or selected cell, the settings
   * read back, the grid laid out and painted; `what` goes to mapChanged. */
  freshMap(what) {
    this.narrate('');
    this.hover = null;
    this.selected = null;
    this.syncSettings();
    this.layout();
    this.touch();
    this.mapChanged(what);
  }

  /** Names the shown map the user's own (no preset), `title` in the map list and the title. */
  nameOwnMap(title) {
    this.mapName = null;
    this.mapTitle = title;
    this.showMap(title);
    const option = this.ui.map.querySelector('option[data-file]');
    if (option) option.textContent = title;
  }

  showMap(label) {
    const select = this.ui.map;
    select.querySelector('option[data-file]')?.remove();
    if (this.mapName) {
      select.value = this.mapName;
    } else {
      const option = el('option', { value: '', 'data-file': '1', text: `File: ${label}` });
      select.append(option);
      select.value = '';
    }
    const movingAi = this.presets.find((p) => p.name === this.mapName)?.format === 'movingai';
    this.ui.mapTitle.textContent = movingAi
      ? `${this.mapTitle}. Map from the Moving AI Lab benchmarks (Sturtevant 2012), ODC-By.`
      : this.mapTitle;
    // Beside the grid the title keeps to one line (style.css): the whole of it on hover.
    this.ui.mapTitle.title = this.ui.mapTitle.textContent;
  }

  async chooseMap(name) {
    if (!name) return;
    this.setPlaying(false);
    // A worked example (a preset with settings or an explanation) comes as its URL would.
    const preset = this.presets.find((p) => p.name === name);
    if (preset?.settings || preset?.explain) {
      const detail = { map: name, speed: this.config.speed, quiz: this.quiz?.mode ?? null };
      for (const key of ['embed', 'lock', 'contrast', 'present']) if (this.config[key]) detail[key] = true;
      this.root.dispatchEvent(new CustomEvent('pathlab-space', { detail }));
      return;
    }
    const previous = this.mapName;
    try {
      await this.loadNamed(name);
      this.changed();
    } catch (e) {
      this.say(`Map ${quote(name)}: ${e.message}. The current map is kept.`);
      if (previous) this.ui.map.value = previous;
    }
  }

  /** Opens a map file: the one chosen in the file picker, or `file` (dropped on the grid). */
  async openFile(file = this.ui.file.files?.[0]) {
    if (!file) return;
    this.setPlaying(false);
    try {
      // The size first: a file over the limit is not read at all (reading it, and copying it
      // into wasm memory, which never shrinks, would cost its whole size).
      const limit = maxMapFileBytes();
      if (file.size > limit) {
        throw new Error(`the file is ${file.size} bytes, over the limit of ${limit} (8 MiB) for a map`);
      }
      const text = await file.text();
      this.loadText(text, detectFormat(text, file.name), null, file.name);
      this.changed();
    } catch (e) {
      this.say(`Could not open ${quote(file.name)}: ${e.message}. The current map is kept.`);
    } finally {
      this.ui.file.value = '';
    }
  }

  /**
   * Asks mount() to show the search on another space (hex tiles, a graph): the hexes take this
   * map (its preset, or its cells when edited) with its start and goal; a graph starts from
   * the first graph preset. The settings that mean the same there go along.
   */
  switchSpace(space) {
    if (space === 'grid') return;
    this.setPlaying(false);
    const s = this.lab.settings();
    const detail = { space, algo: s.algo, weight: s.weight, speed: this.config.speed };
    for (const key of ['embed', 'lock', 'contrast']) if (this.config[key]) detail[key] = true;
    if (space !== 'graph') {
      detail.start = s.start;
      detail.goal = s.goal;
      if (this.mapName) detail.map = this.mapName;
      else {
        const n = this.lab.width * this.lab.height;
        const cells = new Uint8Array(this.memory.buffer, this.lab.cellsPtr(), n).slice();
        try {
          detail.grid = encodeGrid({ width: this.lab.width, height: this.lab.height, cells });
        } catch {
          // Values a link cannot carry: the hexes start from the first preset instead.
        }
      }
    }
    this.root.dispatchEvent(new CustomEvent('pathlab-space', { detail }));
  }

  // ---- actions -------------------------------------------------------------------------------

  setWeight(raw) {
    const weight = this.weightOf(raw, this.lab.settings().weight);
    if (weight !== null) {
      try {
        this.lab.setWeight(weight);
      } catch (e) {
        this.say(`Weight: ${e.message}`);
      }
    }
    this.syncSettings();
    this.touch();
    this.changed();
  }

  /** Sets one of the algorithm-specific settings (look-ahead, sensor, cluster, hand). */
  setExtra(key, raw) {
    /** @type {LabSetter} */
    const method = { lookahead: 'setLookahead', sensor: 'setSensor', cluster: 'setCluster', hand: 'setHand' }[key];
    const range = COUNTS[key];
    const value = range ? Number(raw) : raw;
    if (range && !(/^\s*\d{1,4}\s*$/.test(String(raw)) && value >= range.min && value <= range.max)) {
      this.say(`${EXTRA_LABELS[key]}: expected a whole number from ${range.min} to ${range.max}, got ${quote(raw)}; keeping ${this.lab.settings()[key]}.`);
    } else {
      try {
        // A number for the counts, a name for `hand` (see apply in start()).
        this.lab[method](/** @type {never} */ (value));
      } catch (e) {
        this.say(`${EXTRA_LABELS[key]}: ${e.message}`);
      }
    }
    this.syncSettings();
    this.touch();
    this.changed();
  }

  key(event) {
    if (this.notOurKey(event)) return;
    this.keyAction(event);
  }

  // ---- called by the editor --------------------------------------------------------------------

  brush() {
    return toolBrush(this.ui.brush);
  }

  /** Selects `cell` for the Cell panel (a tap, or a click with the Inspect tool); null: none. */
  select(cell) {
    const same = cell && this.selected && cell.x === this.selected.x && cell.y === this.selected.y;
    if (!same) this.selected = cell ? { x: cell.x, y: cell.y } : null;
    this.dirty = true;
  }

  setHover(cell) {
    const same = cell && this.hover && cell.x === this.hover.x && cell.y === this.hover.y;
    if (same || (!cell && !this.hover)) return;
    this.hover = cell ? { x: cell.x, y: cell.y } : null;
    this.dirty = true;
  }

  edited(what) {
    this.mapChanged(what);
    if (what === 'start' || what === 'goal') {
      this.narrate(`Moved the ${what}; the search re-ran to step ${this.lab.steps}.`);
      this.changed();
    } else if (this.settings?.incremental) {
      const painted = what === 'erase' ? 'Erased' : 'Painted';
      let text = `${painted} cells; the search keeps its ${this.lab.steps} steps and repairs instead of starting over.`;
      if (this.settings.algo === 'lpa' && !this.finished()) {
        text += ' Step to watch the repair (ringed cells are inconsistent), or run to the end.';
      } else if (this.settings.algo === 'dstar-lite' && this.settings.sensor > 0) {
        text += ` The agent learns of the change when it comes within ${this.settings.sensor} cells.`;
      }
      this.narrate(text);
    } else {
      this.narrate(`${what === 'erase' ? 'Erased' : 'Painted'} cells; the search re-ran to step ${this.lab.steps}.`);
    }
    this.touch();
  }

  refused(text) {
    this.say(text);
  }

  /** Tells the editor modules that the map changed (`what`: paint, erase, start, goal, clear, load, ...). */
  mapChanged(what) {
    this.root.dispatchEvent(new CustomEvent('pathlab-edit', { detail: { what } }));
  }

  // ---- messages and narration ------------------------------------------------------------------

  narrateStep() {
    const last = lastStepOf(this.lab);
    if (last.kind !== 'expanded' || !last.expanded) {
      const agent = this.settings?.has_agent ? this.lab.agent() : null;
      if (agent && !this.finished()) {
        this.narrate(`Step ${this.lab.steps}: the agent is at ${at(agent.at)} after ${agent.moves} moves (walked ${formatCost(agent.travelled)}, ${agent.revisits} back onto cells it had left).`);
        return;
      }
      this.narrateEnd();
      return;
    }
    this.narrate(describeStep(this.lab, this.settings, last));
  }

  narrateEnd() {
    const status = statusName(this.lab.status);
    const agent = status === 'found' && this.settings?.has_agent ? this.lab.agent() : null;
    if (agent) {
      this.narrate(`The agent reached the goal after ${agent.moves} moves, walking a cost of ${formatCost(agent.travelled)} (${agent.revisits} moves back onto cells it had left).`);
    } else if (status === 'found' && this.settings?.incremental && this.lab.repair()) {
      const r = this.lab.repair();
      this.narrate(`Repaired: path cost ${formatCost(this.lab.cost)}. The repair after the last edit expanded ${r.re_expanded} cells; a fresh A* on the edited map expands ${r.fresh_expanded}.`);
    } else if (status === 'found') {
      this.narrate(`Found a path of cost ${formatCost(this.lab.cost)} after ${this.lab.expanded} expansions.`);
    } else if (status === 'no-path' && this.lab.gaveUp()) {
      const why = this.lab.gaveUp();
      this.narrate(why);
      if (this.gaveUpShown !== why) this.refused(why);
      this.gaveUpShown = why;
    } else if (status === 'no-path') {
      this.narrate(`The open list ran empty after ${this.lab.expanded} expansions: there is no path.`);
    } else {
      this.narrate('');
    }
  }

  // ---- read-outs -------------------------------------------------------------------------------

  syncSettings() {
    const s = this.lab.settings();
    const ui = this.ui;
    ui.algo.value = s.algo;
    ui.heuristic.value = s.heuristic;
    ui.diagonal.value = s.diagonal;
    ui.costs.value = s.costs;
    if (document.activeElement !== ui.weight || Number(ui.weight.value) !== s.weight) ui.weight.value = String(s.weight);
    const takes = algorithmRow(s.algo)?.settings ?? [];
    ui.heuristic.disabled = !s.uses_heuristic;
    ui.weight.disabled = !takes.includes('weight');
    for (const key of Object.keys(EXTRA_LABELS)) {
      ui.extras[key].hidden = !takes.includes(key);
      if (document.activeElement !== ui[key]) ui[key].value = String(s[key]);
    }
    for (const item of this.root.querySelectorAll('[data-testid="legend"] [data-only]')) {
      item.hidden = !item.dataset.only.split(' ').includes(s.algo);
    }
    // What "expanded" and "open" count for this algorithm (IDA*: visits and its stack; the agents: moves).
    const counts = countLabels?.(s.algo);
    for (const key of counts ? ['expanded', 'open'] : []) {
      const [label, title] = counts[key];
      ui[key].parentElement.title = title;
      /** @type {HTMLElement} */ (ui[key].previousElementSibling).textContent = label;
    }
    ui.agent.parentElement.hidden = !s.has_agent;
    ui.repair.parentElement.hidden = !s.incremental;
    ui.fog.checked = s.fog;
    ui.fogNote.textContent = this.fogNote(s, takes);
    ui.fogNote.hidden = !ui.fogNote.textContent;
    // The words come with the deferred modules (pseudocode.js), just after the first grid.
    const note = settingsNote(s);
    ui.note.textContent = note;
    this.switches?.sync(s);
    this.settings = s;
  }

  /**
   * What fog of war means for the shown algorithm: an agent that takes it learns walls as it
   * sees them; one that always sees only near it (the explorer) says so; any other plans on the
   * whole map and is marked as seeing through the fog. Empty when there is nothing to say.
   */
  fogNote(s, takes) {
    const short = algorithmRow(s.algo)?.short ?? s.algo;
    const partial = this.lab.sensedPtr() !== 0;
    if (partial) {
      const range = s.sensor > 0 ? `within ${s.sensor} cell${s.sensor === 1 ? '' : 's'}` : 'everywhere (sensor 0)';
      return `${short} sees only ${range} of where it stands: grey cells are not seen yet.`;
    }
    if (!s.fog) return '';
    if (takes.includes('fog')) return `Fog of war: with sensor 0 ${short} sees the whole map, so there is no fog.`;
    return `${short} sees through the fog: it plans on the whole map.`;
  }

  /** Lists the overlay's notes (threshold, meeting cost, ...) and a key to what it draws. */
  showOverlay({ lines, marks, boxes, notes }) {
    const box = this.ui.overlay;
    const kinds = new Set([
      ...lines.map((l) => `line:${l[4]}`),
      ...marks.map((m) => `mark:${m[2]}`),
      ...boxes.map((b) => `box:${b[4]}`),
    ]);
    const key = [...kinds].sort().join('|') + JSON.stringify(notes);
    if (key === this.overlayKey) return;
    this.overlayKey = key;
    box.replaceChildren();
    box.hidden = kinds.size === 0 && notes.length === 0;
    for (const [name, value] of notes) {
      box.append(el('div', { class: 'pl-overlay-note' }, el('span', { text: name }), el('strong', { text: value })));
    }
    for (const kind of [...kinds].sort()) {
      const [group, name] = kind.split(':');
      const style = OVERLAY_STYLE[{ line: 'lines', mark: 'marks', box: 'boxes' }[group]]?.[name];
      if (!style) continue;
      const swatch = el('span', { class: `pl-overlay-swatch pl-${group}` });
      swatch.style.setProperty('--swatch', style.color);
      box.append(el('div', { class: 'pl-overlay-key', testid: `overlay-${name}` }, swatch, el('span', { text: style.label })));
    }
  }

  readouts() {
    const lab = this.lab;
    const ui = this.ui;
    this.searchReadouts();
    this.timeline?.update();
    if (this.settings?.has_agent) {
      const agent = lab.agent();
      ui.agent.textContent = agent ? `${at(agent.at)} · ${agent.moves} moves · ${agent.revisits} revisits` : '';
      ui.agent.dataset.moves = agent ? String(agent.moves) : '';
    }
    if (this.settings?.incremental) {
      const repair = lab.repair();
      ui.repair.textContent = repair
        ? `${repair.re_expanded} re-expanded · fresh A* ${repair.fresh_expanded}`
        : 'no edit yet';
      ui.repair.dataset.reExpanded = repair ? String(repair.re_expanded) : '';
      ui.repair.dataset.fresh = repair ? String(repair.fresh_expanded) : '';
    }
    const c = this.canvas;
    c.dataset.width = String(lab.width);
    c.dataset.height = String(lab.height);
    c.dataset.start = `${lab.startX},${lab.startY}`;
    c.dataset.goal = `${lab.goalX},${lab.goalY}`;
    this.cellInfo();
    this.refusals?.update();
    this.warnings?.update();
    this.links?.update();
  }

  cellInfo() {
    const box = this.ui.cellInfo;
    // The cell under the pointer, else the one selected (a tap, the Inspect tool).
    const cell = this.hover ?? this.selected;
    box.dataset.cell = cell ? `${cell.x},${cell.y}` : '';
    if (!cell) {
      if (!box.textContent) box.textContent = 'Point at a cell, or tap it, to see its g, h, f and parent.';
      return;
    }
    let info;
    try {
      info = this.lab.cellInfo(cell.x, cell.y);
    } catch {
      return;
    }
    const terrain = info.terrain === 0 ? 'wall' : info.terrain === 1 ? 'ground' : `terrain ×${info.terrain}`;
    const rows = [
      ['cell', `(${info.x},${info.y}) · ${terrain} · ${info.state}`],
      ['g', formatNumber(info.g)],
      ['h', formatNumber(info.h)],
      ['f', formatNumber(info.f)],
      ['parent', info.parent ? at(info.parent) : '–'],
    ];
    if (info.extra) rows.push([info.extra[0], formatNumber(info.extra[1])]);
    box.replaceChildren(
      el('dl', {}, ...rows.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { 'data-key': k, text: v })])),
    );
  }

  // ---- frame loop ------------------------------------------------------------------------------

  currentConfig() {
    const s = this.lab.settings();
    return {
      map: this.mapName,
      algo: s.algo,
      heuristic: s.heuristic,
      diagonal: s.diagonal,
      costs: s.costs,
      weight: s.weight,
      lookahead: s.lookahead,
      sensor: s.sensor,
      cluster: s.cluster,
      hand: s.hand,
      fog: s.fog,
      seed: s.seed,
      start: s.start,
      goal: s.goal,
      speed: this.config.speed,
      embed: this.config.embed,
      compare: this.compare?.names() ?? null,
      lock: this.config.lock,
      contrast: this.config.contrast,
      present: this.config.present,
      quiz: this.quiz?.mode ?? null,
      ...this.links?.config(),
      ...this.switches?.config(),
    };
  }

  /**
   * Starts the predict-the-next-step quiz (quiz.js) in `mode` (`expand` or `path`), or
   * switches its mode; its module comes the first time.
   */
  async startQuiz(mode) {
    const { attachQuiz } = await import('./quiz.js');
    if (!this.quiz) this.quiz = attachQuiz(this);
    this.quiz.setMode(mode);
  }

  layout() {
    const wrap = this.ui.wrap;
    const width = wrap.clientWidth;
    if (!width) return;
    const top = wrap.getBoundingClientRect().top + window.scrollY;
    const below = 150 + 40; // with the timeline (timeline.js)
    // On a phone the grid may take the width even if the controls then need a scroll.
    const floor = window.innerWidth < 600 ? Math.min(width, window.innerHeight * 0.6) : 240;
    let maxHeight = Math.max(floor, window.innerHeight - Math.min(top, 200) - below);
    const screen = document.documentElement.clientHeight;
    // Beside the grid (wide screens), the study column and the settings take the height the
    // page leaves under the header, each scrolling inside (style.css, .pl-teach).
    const main = wrap.closest('.pl-main');
    const pad = (parseFloat(getComputedStyle(this.root).paddingBottom) || 0) + 2;
    const room = main ? screen - main.getBoundingClientRect().top - window.scrollY - pad : 0;
    this.root.style.setProperty('--pl-room', room >= 360 ? `${room}px` : 'none');
    if (this.config.embed || (window.innerWidth >= 860 && room >= 360)) {
      // The grid gets what the rest leaves: the rest (step controls, timeline, read-outs, a
      // message such as the lock's, warnings) is measured, so that it always fits. Its box is
      // watched (wire), so a message coming or going lays the grid out again.
      const box = (this.config.embed ? this.root : wrap.parentElement).getBoundingClientRect();
      const grid = this.canvas.getBoundingClientRect();
      const rest = box.bottom + window.scrollY - grid.height;
      const bottom = this.config.embed ? parseFloat(getComputedStyle(document.body).marginBottom) || 0 : pad;
      maxHeight = Math.max(this.config.embed ? 120 : 240, screen - rest - bottom - 2);
    }
    const dpr = window.devicePixelRatio || 1;
    const key = `${width}x${maxHeight}@${dpr}/${this.lab.width}x${this.lab.height}`;
    if (key === this.lastSize) return;
    this.lastSize = key;
    this.painter.resize(this.lab.width, this.lab.height, width, maxHeight, dpr);
    this.dirty = true;
  }

  tick(time) {
    // A far `step` goes on one slice a frame (go-to-step.js).
    const slice = this.nextSlice;
    this.nextSlice = null;
    slice?.();
    this.timeline?.frame();
    this.playFrame(time, (n) => (n === 1 ? this.lab.step() : this.lab.advance(n)));
    if (!this.dirty) return;
    this.dirty = false;
    const overlay = this.lab.overlay();
    this.painter.paint(this.lab, this.memory, {
      hover: this.hover ?? this.selected,
      algo: this.settings?.algo,
      usesHeuristic: this.settings?.uses_heuristic,
      weight: this.settings?.weight ?? 1,
      heat: this.lab.cellValuesHeat(),
      fog: this.lab.sensedPtr() !== 0,
      overlay,
      layers: this.layers,
    });
    this.showOverlay(overlay);
    this.readouts();
    this.panels?.update(overlay);
    if (!this.gridShown) {
      // For bench/page-perf.bench.mjs: the time from navigation to the first painted grid.
      this.gridShown = true;
      performance.mark('pathlab-first-grid');
      this.gridPainted();
    }
  }

  // ---- the module with every search -------------------------------------------------------

  /** True when the page's search, where it is now, runs `algo` (the first module runs only some). */
  holds(algo) {
    return this.every || inFirst(algo);
  }

  /**
   * Moves the page's search into the module with every search (pathlab_searches, loaded once)
   * with its map, ends, settings, teleports or slopes and step, as if nothing had happened;
   * resolves once it is there (at once when it is). Rejects with the reason, leaving the search
   * where it was, when the module cannot be loaded or the search cannot be moved.
   * @returns {Promise<void>}
   */
  useEverySearch() {
    if (this.every) return Promise.resolve();
    this.everyReady ??= everySearch()
      .then(async (m) => {
        const module = await m.loadSearches();
        // In one go (no frame or input comes between), unless the page went meanwhile.
        if (this.every || this.destroyed) return;
        this.lab = m.moveLab(this.lab, this.memory, module.Lab);
        this.memory = module.memory;
        this.every = true;
        this.touch();
      })
      .catch((e) => {
        this.everyReady = null;
        throw e;
      });
    return this.everyReady;
  }

  destroy() {
    this.destroyed = true;
    this.stopLoop();
    this.refusals?.destroy();
    this.compare?.destroy();
    this.warnings?.destroy();
    this.detachEditing();
    for (const part of [this.editor, this.files, this.persistence, this.embedding, this.access, this.links]) part?.destroy();
    this.resizeObserver.disconnect();
    window.removeEventListener('resize', this.onWindowResize);
    this.root.removeEventListener('keydown', this.onKey);
    this.root.replaceChildren();
    this.lab.free();
  }
}

/**
 * The preset list and the map the page will show first (the one `config` names, or the first
 * preset), fetched while the wasm module compiles, or taken over from early.js, which asked
 * for them when the page started: `{ presets, map }`, promises; `map` resolves to
 * `{ name, map }` or null (not a preset, or it failed: start() fetches it again and reports
 * the error then).
 */
function fetchEarly(config) {
  const early = takeEarly();
  const index = loadIndex(early?.presets);
  index.catch(() => {});
  const presets = index.then((i) => i.presets);
  presets.catch(() => {});
  const map = config.grid
    ? Promise.resolve(null)
    : presets
        .then(async (list) => {
          const name = typeof config.map === 'string' ? config.map : list[0]?.name;
          if (!list.some((p) => p.name === name)) return null;
          return { name, map: await fetchMap(name, list, await early?.map) };
        })
        .catch(() => null);
  return { index, presets, map };
}

/**
 * Builds Pathlab inside `element`. `config` takes the keys of the page URL (space, layout, map,
 * grid, graph, algo, heuristic, diagonal, costs, weight, lookahead, sensor, cluster, hand, start,
 * goal, step, autoplay, speed, embed, lock, contrast, present), as strings or plain values (`start: [3, 1]`,
 * `embed: true`; on a graph `start: 'B'`). `space: 'hex'` or `'graph'` loads space-view.js,
 * `'navmesh'` or `'corners'` navmesh-view.js.
 * Invalid values are reported on the page and replaced by defaults. Resolves to a handle: { lab, config(), destroy() }.
 */
export async function mount(element, config = {}) {
  // A lesson (`lesson=NAME`) plays its pages, each mounted as a page of its own (lesson.js).
  if (config && typeof config === 'object' && Object.hasOwn(config, 'lesson')) {
    const [{ playLesson }] = await Promise.all([import('./lesson.js'), loadWasm()]);
    return playLesson(element, /** @type {Record<string, unknown>} */ (config), mount);
  }
  const early = fetchEarly(config);
  const wasm = await loadWasm();
  performance.mark('pathlab-wasm-ready');
  const known = knownNames(names);
  let app = null;
  /**
   * The configuration with the settings of the preset its `map` names under it (the keys it
   * gives itself win), and that preset's entry (null: none).
   */
  const withPreset = async (raw) => {
    const entry = presetEntry(await early.index.catch(() => null), raw);
    const settings = entry?.settings && typeof entry.settings === 'object' ? entry.settings : {};
    return { raw: { ...settings, ...raw }, entry };
  };
  /** Builds the page for a checked configuration: the grid here, other spaces from space-view.js. */
  const show = async (checked, messages, entry = null) => {
    if (checked.space === 'grid') {
      app = new App(element, wasm.memory, known, checked);
      app.early = early;
    } else if (checked.space === 'navmesh' || checked.space === 'corners') {
      const { NavApp } = await import('./navmesh-view.js');
      app = new NavApp(element, wasm.memory, known, checked);
    } else {
      const { SpaceApp } = await import('./space-view.js');
      app = new SpaceApp(element, wasm.memory, known, checked);
    }
    for (const m of messages) app.say(m);
    await app.start();
    // A worked example's explanation, and the quiz (quiz=), come with their own modules.
    if ((entry?.explain || entry?.source) && !checked.embed) {
      (await import('./explain.js')).showExplain(element, entry);
      app.layout();
    }
    if (checked.quiz && 'startQuiz' in app) await app.startQuiz(checked.quiz);
  };
  const first = await withPreset(config);
  const { config: checked, messages } = readConfig(first.raw, known);
  // The space select: the page is built again for the other space, one switch at a time and
  // never before the page has finished starting (its deferred parts attach to `element`).
  let switching = show(checked, messages, first.entry);
  await switching;
  const onSpace = (event) => {
    const raw = event.detail;
    switching = switching.then(async () => {
      app.destroy();
      const chosen = await withPreset(raw);
      const next = readConfig(chosen.raw, known);
      await show(next.config, next.messages, chosen.entry);
      app.changed();
    }).catch((e) => app?.say?.(`The space could not be switched: ${e.message}`));
  };
  element.addEventListener('pathlab-space', onSpace);
  return {
    get lab() {
      return app.lab;
    },
    /** The memory of the wasm module the page's `lab` lives in, for views at its pointers. */
    get memory() {
      return app.memory;
    },
    /** The page's view (graph and hex spaces): where nodes and hexes are on the screen. */
    get view() {
      return app.view ?? null;
    },
    get space() {
      return app.config.space;
    },
    config: () => app.currentConfig(),
    destroy: () => {
      element.removeEventListener('pathlab-space', onSpace);
      app.destroy();
    },
  };
}
