// The page on a grid map seen as a navigation mesh (`space=navmesh`) or as its corner graph
// (`space=corners`). pathlab.js's mount() loads this module only for those spaces, so the grid
// page's first paint does not carry it; the rules live in Rust (NavLab, in the spaces' wasm
// module, pkg/pathlab_spaces.js). NavApp builds the same transport, read-outs and message hooks
// as the other pages (step, back, play, run, reset, status, expanded, open, cost, narration,
// message, space, map), with the view's own: the mesh's polygon count and build time, the
// phase (search or funnel), the open list, the exact any-angle optimum and how much longer the
// path is, a tool to paint walls or move the ends, and a compare table (waypoints, corners,
// navmesh, optimum). Every text that may come from a link or a file is set with textContent.

import { NavLab, NavPhase, statusName } from './pkg/pathlab_spaces.js';
import { el, options, panelSection, sidePanel } from './dom.js';
import { labHeader, searchReadouts, transportBar } from './page-app.js';
import { encodeGrid } from './share.js';
import { fetchMap } from './maps.js';
import { fitPainter, legendList, readGridMap, spaceControls, SpacePage, startSpacePage, stopSpacePage } from './space-load.js';
import { NAV_COLOURS, NavPainter } from './navmesh-paint.js';

/** The largest map the view takes (as the grid page's largest presets). */
const MAX_CELLS = 1024 * 1024;

/** Open-list rows shown. */
const OPEN_ROWS = 10;

/** The rule for diagonal moves when neither the link nor the preset names one. */
const DEFAULT_DIAGONAL = 'no-corner-cutting';

/** The tools of the canvas: what a click or a drag does. */
const TOOLS = { wall: 'Paint walls', ground: 'Erase walls', start: 'Move the start', goal: 'Move the goal' };

/** The compare table's methods, in order, with their labels. */
const METHODS = [
  ['grid-astar', 'Waypoints: A* over cell centres'],
  ['corners', 'Corner graph: A* over corners'],
  ['navmesh', 'Navmesh: A* over polygons + funnel'],
  ['visibility', 'Visibility graph (exact optimum)'],
];

/** What the tutorial preset explains (document 000's string-pulling example, Figs 4-7). */
const TUTORIAL_TEXT =
  'Document 000 (the path-finding tutorial), Figs 4-7: a 3 x 3 grid with its centre cell blocked. ' +
  'A* over cell centres with diagonal moves walks round the block from the bottom-left cell to the top-right one: ' +
  'on the square grid that is 4 moves (40 in the tutorial’s 10/14 costs), which the compare table lists as the waypoints. ' +
  'The tutorial then puts the graph’s nodes on the cell corners and lets the start see further than its neighbours: ' +
  'from the grid’s bottom-left corner (0, 3) the string goes straight to the block’s top-left corner (1, 1) and on to the top-right corner (3, 0), ' +
  'two legs of √5 each, 2√5 ≈ 4.472 in all. The corner view finds exactly that path; the navmesh’s funnel finds one as short, which may go ' +
  'round the block’s other side, by (2, 2). Step through both.';

/** `v` cells with 3 decimals at most. */
function fmt(v) {
  return v === null || v === undefined ? '–' : String(Math.round(v * 1000) / 1000);
}

/** A point in half cells as the page writes it: `(x, y)` in cells. */
function at(h) {
  return `(${fmt(h[0] / 2)}, ${fmt(h[1] / 2)})`;
}

function pointText(p) {
  return `(${fmt(p[0])}, ${fmt(p[1])})`;
}

export class NavApp extends SpacePage {
  constructor(root, memory, known, config) {
    super(root, memory, known, config);
    this.tool = 'wall';
    this.edited = false;
    this.preset = null;
    this.compareShown = false;
    this.waypoints = new Float64Array(0);
    /** @type {{ mode: string | null, setMode(mode: string | null): void } | null} */
    this.quiz = null;
    this.build();
    this.painter = new NavPainter(this.canvas);
    this.painter.setPalette(this.palette);
  }

  // ---- DOM -------------------------------------------------------------------------------

  build() {
    const mesh = this.space === 'navmesh';
    const { ui, button, readout } = spaceControls(
      this,
      mesh
        ? 'Navigation mesh: drag to paint walls with the chosen tool; the mesh is rebuilt at once. Keys: right arrow steps, left arrow goes back.'
        : 'Corner graph: drag to paint walls with the chosen tool; the graph is rebuilt at once. Keys: right arrow steps, left arrow goes back.',
      'Map',
    );
    ui.file = el('input', { type: 'file', testid: 'load-file', class: 'pl-file-input', accept: '.map,.txt,text/plain' });
    ui.narration = el('div', { testid: 'narration', class: 'pl-narration', 'aria-live': 'polite' });
    ui.mapTitle = el('p', { testid: 'map-title', class: 'pl-map-title' });
    ui.steps = el('span', { testid: 'steps', class: 'pl-steps' });
    ui.problem = el('p', { testid: 'nav-problem', class: 'pl-space-warning', role: 'status', hidden: true });
    ui.explain = el('p', { testid: 'nav-explain', class: 'pl-hint', hidden: true });

    const transport = transportBar(ui, button);
    const extra = [
      readout('phase', 'Phase', 'A* over the nodes, then (navmesh) the funnel through the corridor'),
      readout('optimum', 'Optimum', 'The exact any-angle shortest length: A* on the visibility graph of the walls’ corners'),
      readout('longer', 'Longer by', 'How much longer this path is than the exact optimum'),
    ];
    const readouts = el('div', { class: 'pl-readouts' }, ...searchReadouts(readout), ...extra, ui.steps);
    ui.cost.parentElement?.setAttribute('title', 'The path’s length in cells');

    ui.meshInfo = el('p', { testid: 'mesh-info', class: 'pl-hint' });
    ui.tool = el('select', { testid: 'nav-tool' });
    options(ui.tool, Object.keys(TOOLS), TOOLS);
    ui.diagonal = el('select', { testid: 'diagonal' });
    options(ui.diagonal, this.known.diagonal, {});
    ui.clear = el('button', { type: 'button', testid: 'clear', class: 'pl-btn pl-small', text: 'Clear walls' });
    ui.quizToggle = el('button', {
      type: 'button', testid: 'quiz-toggle', class: 'pl-btn pl-small', text: 'Quiz: the funnel’s next corner',
      title: 'Click where the string-pulled path bends next', hidden: !mesh,
    });

    ui.openList = el('table', { testid: 'open-list', class: 'pl-nav-open' });
    ui.compareButton = el('button', {
      type: 'button', testid: 'nav-compare', class: 'pl-btn pl-small pl-primary', 'aria-pressed': 'false',
      text: 'Compare methods', title: 'Run waypoints, the corner graph, the navmesh and the exact optimum on the same start and goal',
    });
    ui.compareTable = el('table', { testid: 'nav-compare-table', class: 'pl-nav-compare', hidden: true });

    const legendItems = [
      ['wall', 'wall', this.palette.wall],
      ['open', mesh ? 'open polygon' : 'open corner', this.palette.open],
      ['closed', mesh ? 'expanded polygon' : 'expanded corner', this.palette.closed],
      ['current', 'expanded by the last step', this.palette.current],
      ...(mesh ? [['corridor', 'corridor (the polygons A* found)', this.palette.path]] : [['bend', 'corner where a path may bend', NAV_COLOURS.bend]]),
      ...(mesh
        ? [['apex', 'funnel apex', NAV_COLOURS.apex], ['left', 'left leg', NAV_COLOURS.leftLeg], ['right', 'right leg', NAV_COLOURS.rightLeg],
            ['tested', 'portal being tested', NAV_COLOURS.tested]]
        : [['sight', 'line of sight between corners', NAV_COLOURS.sight]]),
      ['path', 'path', this.palette.pathLine],
      ['optimum', 'exact optimum (dashed)', NAV_COLOURS.optimum],
      ['waypoints', 'waypoints in compare (dotted)', NAV_COLOURS.waypoints],
      ['start', 'start', this.palette.start],
      ['goal', 'goal', this.palette.goal],
    ];
    const legend = legendList(legendItems);

    const header = labHeader(ui, mesh ? 'a navigation mesh: A* over polygons, then the funnel' : 'the corner graph: the exact any-angle path', 'Map');
    const panel = sidePanel(
      panelSection(
        mesh ? 'Navmesh' : 'Corner graph',
        ui.meshInfo,
        el('label', { class: 'pl-field' }, el('span', { text: 'Diagonal rule (where walls touch)' }), ui.diagonal),
        ui.explain,
        ui.quizToggle,
      ),
      panelSection(
        'Edit',
        el('label', { class: 'pl-field' }, el('span', { text: 'Tool' }), ui.tool),
        el('p', { class: 'pl-hint', text: 'Drag on the map to paint or erase walls: the mesh or graph is built again at once. Choose Move the start or Move the goal and click a cell (or near a corner) to place an end.' }),
        ui.clear,
      ),
      panelSection('Last step', ui.narration),
      panelSection('Open list (best first)', ui.openList),
      panelSection('Legend', legend),
    );
    ui.wrap = el('div', { class: 'pl-grid-wrap pl-space-wrap' }, this.canvas);
    ui.compareNote = el('p', { testid: 'nav-compare-note', class: 'pl-hint', hidden: true });
    const compare = el('section', { class: 'pl-nav-compare-box' }, ui.compareButton, ui.compareTable, ui.compareNote);
    const stage = el('div', { class: 'pl-stage' }, ui.mapTitle, ui.problem, ui.wrap, transport, readouts, compare);
    this.root.classList.add('pathlab', 'pl-space', `pl-space-${this.space}`);
    this.root.classList.toggle('pl-embed', this.config.embed);
    this.root.classList.toggle('pl-contrast', this.config.contrast);
    this.root.replaceChildren(header, ui.messageBox, el('div', { class: 'pl-main' }, stage, panel));
    this.wire();
  }

  wire() {
    const ui = this.ui;
    this.wireTransport();
    ui.space.addEventListener('change', () => this.switchSpace(ui.space.value));
    ui.map.addEventListener('change', () => this.attempt(() => this.loadNamed(ui.map.value)));
    ui.file.addEventListener('change', () => this.attempt(() => this.openFile()));
    ui.tool.addEventListener('change', () => {
      this.tool = ui.tool.value;
    });
    ui.diagonal.addEventListener('change', () => this.rebuildWith({ diagonal: ui.diagonal.value }));
    ui.clear.addEventListener('click', () => {
      const n = this.lab.width * this.lab.height;
      this.paintCells(Uint32Array.from({ length: n }, (_, i) => i), 1);
    });
    ui.compareButton.addEventListener('click', () => this.toggleCompare());
    ui.quizToggle.addEventListener('click', () => this.startQuiz(this.quiz?.mode ? null : 'apex'));
    let painting = false;
    let last = -1;
    this.canvas.addEventListener('pointerdown', (event) => {
      if (!this.lab) return;
      const [x, y] = this.painter.toCells(event);
      if (this.tool === 'start' || this.tool === 'goal') {
        this.placeEnd(this.tool, x, y);
        return;
      }
      painting = true;
      last = -1;
      this.canvas.setPointerCapture?.(event.pointerId);
      last = this.paintAt(x, y, last);
    });
    this.canvas.addEventListener('pointermove', (event) => {
      if (!painting) return;
      const [x, y] = this.painter.toCells(event);
      last = this.paintAt(x, y, last);
    });
    const stop = () => {
      painting = false;
    };
    this.canvas.addEventListener('pointerup', stop);
    this.canvas.addEventListener('pointercancel', stop);
  }

  /** Runs `fn`, saying what went wrong if it throws (the map is kept). */
  async attempt(fn) {
    try {
      await fn();
    } catch (e) {
      this.say(`${e.message}. The current map is kept.`);
    }
  }

  // ---- starting and maps -------------------------------------------------------------------

  async start() {
    const list = await startSpacePage(this, (index) => index.presets);
    const config = this.config;
    const fallback = list[0]?.name ?? null;
    let shown = false;
    if (config.grid) {
      try {
        this.use({ ...config.grid, start: null, goal: null }, { name: null, title: 'Map from the link', preset: null });
        shown = true;
      } catch (e) {
        this.say(`Parameter "grid": ${e.message}. Showing ${config.map ?? fallback ?? 'an open map'} instead.`);
      }
    }
    for (const name of shown ? [] : [config.map, fallback]) {
      if (name === null || name === undefined) continue;
      try {
        await this.loadNamed(name);
        shown = true;
        break;
      } catch (e) {
        this.say(`Parameter "map": ${e.message}.`);
      }
    }
    if (!shown) this.use({ width: 16, height: 10, cells: new Uint8Array(160).fill(1), start: null, goal: null }, { name: null, title: 'An open map', preset: null });
    this.showSpeed();
    this.layout(true);
    for (let k = 0; k < config.step && this.lab.phase !== NavPhase.Done; k++) this.lab.step();
    if (config.step > 0) this.narrateStep();
    this.touch();
    if (config.autoplay && !this.finished()) this.setPlaying(true);
    this.startLoop();
  }

  async loadNamed(name) {
    const map = await fetchMap(name, this.index.presets);
    const grid = readGridMap(this.memory, map.text, map.format, map.preset);
    this.use(grid, { name: map.preset ? map.preset.name : null, title: map.preset?.title ?? map.label, preset: map.preset });
  }

  async openFile() {
    const file = this.ui.file.files?.[0];
    if (!file) return;
    try {
      const text = await file.text();
      const format = /^type /m.test(text) ? 'movingai' : 'course';
      this.use(readGridMap(this.memory, text, format, null), { name: null, title: file.name, preset: null });
    } finally {
      this.ui.file.value = '';
    }
  }

  /**
   * Shows `grid` ({ width, height, cells, start, goal }, ends as cells or null): the link's
   * start and goal first, then the preset's corner ends, then the map's own. Throws (keeping
   * the current map) when the map is too large or the core refuses it.
   */
  use(grid, { name, title, preset }) {
    const n = grid.width * grid.height;
    if (!(n > 0) || n > MAX_CELLS) throw new Error(`the map is ${grid.width} x ${grid.height}; this view takes at most ${MAX_CELLS} cells`);
    const centre = (c) => [2 * c[0] + 1, 2 * c[1] + 1];
    const corner = (c) => [2 * c[0], 2 * c[1]];
    const first = this.lab === null;
    const fromLink = (key) => (first && Array.isArray(this.config[key]) ? centre(this.config[key]) : null);
    const ends = preset?.cornerEnds;
    const pick = (key) =>
      fromLink(key) ??
      (Array.isArray(ends?.[key]) ? corner(ends[key]) : null) ??
      (Array.isArray(grid[key]) ? centre(grid[key]) : null) ??
      (key === 'start' ? [1, 1] : [2 * grid.width - 1, 2 * grid.height - 1]);
    const diagonal = (first ? this.config.diagonal : null) ?? preset?.diagonal ?? this.lab?.diagonal ?? DEFAULT_DIAGONAL;
    const lab = this.timed(() => new NavLab(this.space, grid.width, grid.height, grid.cells, diagonal, Int32Array.from(pick('start')), Int32Array.from(pick('goal'))));
    this.lab?.free();
    this.lab = lab;
    this.mapName = name;
    this.mapTitle = title;
    this.preset = preset;
    this.edited = false;
    if (name) this.ui.map.value = name;
    this.ui.diagonal.value = diagonal;
    this.ui.mapTitle.textContent = title;
    this.ui.explain.hidden = preset?.name !== 'tutorial-3x3';
    this.ui.explain.textContent = this.ui.explain.hidden ? '' : TUTORIAL_TEXT;
    this.afterBuild();
    this.changed();
  }

  /** Runs `make` and keeps how long it took (ms), the mesh's or graph's build time. */
  timed(make) {
    const t0 = performance.now();
    const out = make();
    this.buildMs = performance.now() - t0;
    return out;
  }

  /** A new lab for the same map with other settings (the diagonal rule). */
  rebuildWith({ diagonal }) {
    const lab = this.lab;
    const grid = { width: lab.width, height: lab.height, cells: lab.cells() };
    try {
      const next = this.timed(() => new NavLab(this.space, grid.width, grid.height, grid.cells, diagonal, lab.start, lab.goal));
      lab.free();
      this.lab = next;
      this.afterBuild();
      this.changed();
    } catch (e) {
      this.say(`Diagonal rule: ${e.message}; keeping ${lab.diagonal}.`);
      this.ui.diagonal.value = lab.diagonal;
    }
  }

  /** After the mesh or graph was built: read its drawing once, say any problem, refresh. */
  afterBuild() {
    const lab = this.lab;
    this.shape = {
      vertices: lab.vertices(),
      polygons: lab.polygons(),
      portals: lab.portals(),
      bends: lab.bends(),
      sight: lab.sightLines(),
      cells: lab.cells(),
      places: lab.nodePlaces(),
    };
    this.optimumCache = null;
    this.showProblem();
    const ms = this.buildMs ?? 0;
    const info = this.space === 'navmesh'
      ? `${lab.polygonCount} polygons, ${this.shape.portals.length / 4} portals; built in ${ms.toFixed(1)} ms (${lab.meshBuild}).`
      : `${this.shape.bends.length / 2} corners where a path may bend, ${this.shape.sight.length / 4} sight lines between them; built in ${ms.toFixed(1)} ms.`;
    this.ui.meshInfo.textContent = info;
    this.ui.meshInfo.dataset.polygons = String(lab.polygonCount);
    this.ui.meshInfo.dataset.ms = ms.toFixed(3);
    // Which build the core picked (triangulated up to a corner limit, rectangles above).
    this.ui.meshInfo.dataset.build = lab.meshBuild;
    if (this.compareShown) this.runCompare();
    this.narrate('');
    this.touch();
  }

  showProblem() {
    const problem = this.lab.problem;
    this.ui.problem.hidden = !problem;
    this.ui.problem.textContent = problem ? `No search: ${problem}.` : '';
    if (problem && problem !== this.lastProblem) this.say(`${problem[0].toUpperCase()}${problem.slice(1)}; the map is kept as it is.`);
    this.lastProblem = problem ?? null;
  }

  // ---- editing -------------------------------------------------------------------------------

  /** Paints the cell under (x, y) with the tool unless it is `last`; returns the cell. */
  paintAt(x, y, last) {
    const lab = this.lab;
    const cx = Math.floor(x);
    const cy = Math.floor(y);
    if (cx < 0 || cy < 0 || cx >= lab.width || cy >= lab.height) return last;
    const i = cy * lab.width + cx;
    if (i === last) return last;
    this.paintCells(Uint32Array.of(i), this.tool === 'wall' ? 0 : 1);
    return i;
  }

  paintCells(cells, value) {
    if (this.config.lock) {
      this.say('Editing is locked in this example.');
      return;
    }
    this.setPlaying(false);
    try {
      const t0 = performance.now();
      const changed = this.lab.paint(cells, value);
      if (changed === 0) return;
      this.buildMs = performance.now() - t0;
      this.edited = true;
      this.afterBuild();
      this.changed();
    } catch (e) {
      this.say(`The walls could not be painted: ${e.message}. The map is kept.`);
    }
  }

  /** Moves an end to the cell centre or the corner nearest (x, y). */
  placeEnd(which, x, y) {
    const lab = this.lab;
    const hx = Math.round(2 * x);
    const hy = Math.round(2 * y);
    // Near a corner (a quarter cell) the end goes there; elsewhere to the cell's centre.
    const nearCorner = Math.abs(x - Math.round(x)) < 0.25 && Math.abs(y - Math.round(y)) < 0.25;
    const point = nearCorner ? [2 * Math.round(x), 2 * Math.round(y)] : [2 * Math.floor(x) + 1, 2 * Math.floor(y) + 1];
    if (hx < 0 || hy < 0 || hx > 2 * lab.width || hy > 2 * lab.height) return;
    const start = which === 'start' ? point : [...lab.start];
    const goal = which === 'goal' ? point : [...lab.goal];
    this.setPlaying(false);
    try {
      lab.setEnds(Int32Array.from(start), Int32Array.from(goal));
    } catch (e) {
      this.say(`The ${which} could not be moved: ${e.message}.`);
      return;
    }
    this.optimumCache = null;
    this.showProblem();
    if (this.compareShown) this.runCompare();
    this.narrate(`The ${which} is now at ${at(point)}.`);
    this.touch();
    this.changed();
  }

  switchSpace(space) {
    if (space === this.space) return;
    this.setPlaying(false);
    const lab = this.lab;
    const detail = { space, speed: this.config.speed };
    for (const key of ['embed', 'lock', 'contrast']) if (this.config[key]) detail[key] = true;
    if (space !== 'graph' && lab) {
      const cell = (h) => [Math.min(lab.width - 1, Math.floor(h[0] / 2)), Math.min(lab.height - 1, Math.floor(h[1] / 2))];
      detail.start = cell(lab.start);
      detail.goal = cell(lab.goal);
      if (space === 'navmesh' || space === 'corners') detail.diagonal = lab.diagonal;
      if (this.mapName && !this.edited) {
        detail.map = this.mapName;
        // The corner ends of a preset come back from the preset itself.
        if (this.preset?.cornerEnds && (space === 'navmesh' || space === 'corners')) {
          delete detail.start;
          delete detail.goal;
        }
      } else {
        detail.grid = encodeGrid({ width: lab.width, height: lab.height, cells: lab.cells() });
      }
    }
    this.root.dispatchEvent(new CustomEvent('pathlab-space', { detail }));
  }

  /**
   * Starts the funnel quiz (quiz-funnel.js: `apex`, click the path's next corner) or, with
   * null, ends it; its module comes the first time.
   * @param {string | null} mode
   */
  async startQuiz(mode) {
    if (this.space !== 'navmesh') return;
    const { attachCornerQuiz } = await import('./quiz-funnel.js');
    if (!this.quiz) this.quiz = attachCornerQuiz(this);
    this.quiz.setMode(mode);
  }

  // ---- compare -----------------------------------------------------------------------------

  toggleCompare() {
    this.compareShown = !this.compareShown;
    this.ui.compareButton.setAttribute('aria-pressed', String(this.compareShown));
    this.ui.compareTable.hidden = !this.compareShown;
    if (this.compareShown) this.runCompare();
    else this.waypoints = new Float64Array(0);
    this.touch();
  }

  /** Runs every method to the end on this map and ends, timing each, and fills the table. */
  runCompare() {
    const rows = [];
    for (const [method, label] of METHODS) {
      try {
        // Timed over repeats (at least 5 ms, or 200 runs): one run on a small map is below
        // the browser's clock resolution.
        let r = this.lab.solve(method);
        let runs = 0;
        const t0 = performance.now();
        while (runs < 200 && (runs === 0 || performance.now() - t0 < 5)) {
          r = this.lab.solve(method);
          runs++;
        }
        rows.push({ ...r, label, ms: (performance.now() - t0) / runs });
      } catch (e) {
        rows.push({ method, label, error: e.message });
      }
    }
    const best = rows.find((r) => r.method === 'visibility')?.length ?? null;
    // Ends on corners: the waypoints run between the cells there, other ends than the rest.
    const cornerEnds = [this.lab.start, this.lab.goal].some((h) => h[0] % 2 === 0 && h[1] % 2 === 0);
    this.ui.compareNote.hidden = !cornerEnds;
    this.ui.compareNote.textContent = cornerEnds
      ? 'The start or goal is on a cell corner: the waypoints run between the centres of the open cells beside them, so their length is not set against the optimum.'
      : '';
    const grid = rows.find((r) => r.method === 'grid-astar');
    this.waypoints = grid?.points ? Float64Array.from(grid.points) : new Float64Array(0);
    const head = el('tr', {}, ...['Method', 'Nodes', 'Expanded', 'Length', 'Over optimum', 'Time (ms)'].map((h) => el('th', { scope: 'col', text: h })));
    const body = rows.map((r) => {
      if (r.error) return el('tr', { 'data-method': r.method }, el('th', { scope: 'row', text: r.label }), el('td', { colspan: '5', text: r.error }));
      const comparable = !(cornerEnds && r.method === 'grid-astar');
      const over = comparable && best !== null && r.length !== null && r.length !== undefined ? `${((100 * (r.length - best)) / best).toFixed(1)} %` : '–';
      return el(
        'tr',
        { 'data-method': r.method, 'data-length': r.length === null || r.length === undefined ? '' : String(r.length), 'data-expanded': String(r.expanded) },
        el('th', { scope: 'row', text: r.label }),
        el('td', { text: String(r.nodes) }),
        el('td', { text: String(r.expanded) }),
        el('td', { text: r.length === null || r.length === undefined ? 'no path' : fmt(r.length) }),
        el('td', { text: over }),
        el('td', { text: r.ms < 0.01 ? r.ms.toFixed(4) : r.ms.toFixed(2) }),
      );
    });
    this.ui.compareTable.replaceChildren(el('thead', {}, head), el('tbody', {}, ...body));
  }

  // ---- reading out -------------------------------------------------------------------------

  /** The optimum's length and line, computed once per map and ends. */
  optimum() {
    if (!this.optimumCache) {
      this.optimumCache = { length: this.lab.optimumLength() ?? null, path: this.lab.optimumPath() };
    }
    return this.optimumCache;
  }

  narrateStep() {
    const lab = this.lab;
    const f = this.space === 'navmesh' ? lab.funnelState() : null;
    const phase = lab.phase;
    if (phase === NavPhase.Done) {
      this.narrateEnd();
      return;
    }
    if (f && f.index !== null && f.index !== undefined) {
      const goal = f.index === f.portals - 1;
      const tested = goal ? 'the goal' : `portal ${f.index + 1} of ${f.portals - 1}`;
      const corner = f.corner ? ` A leg crossed the other, so ${pointText(f.corner)} became a corner of the path and the new apex.` : '';
      this.narrate(`Funnel, step ${lab.steps}: tested ${tested}. Apex ${pointText(f.apex)}, left leg to ${pointText(f.left)}, right leg to ${pointText(f.right)}.${corner}`);
      return;
    }
    if (f) {
      this.narrate(`Corridor found: ${lab.corridor().length} polygons, ${fmt(lab.corridorCost)} cells through the points A* chose on its portals. Next, the funnel pulls the string through its ${f.portals - 1} portals.`);
      return;
    }
    const what = this.space === 'navmesh' ? 'polygon' : 'corner';
    this.narrate(`Step ${lab.steps}: expanded ${lab.expanded} ${what}${lab.expanded === 1 ? '' : 's'} so far; ${lab.openCount} on the open list.`);
  }

  narrateEnd() {
    const lab = this.lab;
    const status = statusName(lab.status);
    if (lab.problem) this.narrate(`No search: ${lab.problem}.`);
    else if (status === 'no-path') this.narrate('No path: the start and goal are in parts of the map that nothing joins.');
    else if (status === 'found') {
      const best = this.optimum().length;
      const longer = best ? ` The exact optimum is ${fmt(best)}: ${this.percent(lab.cost, best)} longer.` : '';
      const bends = lab.path().length / 2 - 2;
      this.narrate(`Path found: ${fmt(lab.cost)} cells, bending at ${bends} corner${bends === 1 ? '' : 's'}.${longer}`);
    }
  }

  percent(length, best) {
    return `${((100 * (length - best)) / best).toFixed(1)} %`;
  }

  readouts() {
    const lab = this.lab;
    const ui = this.ui;
    this.searchReadouts();
    ui.cost.textContent = lab.cost === undefined || lab.cost === null ? '' : fmt(lab.cost);
    const phases = { [NavPhase.Unavailable]: 'none', [NavPhase.Search]: 'search', [NavPhase.Funnel]: 'funnel', [NavPhase.Done]: 'done' };
    ui.phase.textContent = phases[lab.phase];
    ui.phase.dataset.phase = phases[lab.phase];
    const done = statusName(lab.status) === 'found';
    const best = done ? this.optimum().length : null;
    ui.optimum.textContent = best === null ? (done ? 'n/a' : '') : fmt(best);
    ui.optimum.title = done && best === null ? `The exact optimum is computed on maps of at most 160 x 160 cells (this one is ${lab.width} x ${lab.height}).` : '';
    ui.optimum.dataset.value = best === null ? '' : String(best);
    ui.longer.textContent = best === null || lab.cost === undefined ? '' : this.percent(lab.cost, best);
    const rows = lab.openList(OPEN_ROWS);
    const mesh = this.space === 'navmesh';
    // Polygons by number; corners by where they are.
    const places = this.shape.places;
    const name = (n) => (n === null || n === undefined ? '–' : mesh ? String(n) : pointText([places[2 * n], places[2 * n + 1]]));
    ui.openList.replaceChildren(
      el('tr', {}, ...[mesh ? 'Polygon' : 'Corner', 'g', 'h', 'f', 'Parent'].map((h) => el('th', { scope: 'col', text: h }))),
      ...rows.map((r) => el('tr', {}, ...[name(r.node), fmt(r.g), fmt(r.h), fmt(r.f), name(r.parent)].map((v) => el('td', { text: String(v) })))),
    );
  }

  // ---- frame loop ----------------------------------------------------------------------------

  key(event) {
    if (this.notOurKey(event)) return;
    this.keyAction(event);
  }

  layout(force = false) {
    fitPainter(this, 190, 260, force);
  }

  tick(time) {
    if (!this.lab) return;
    this.playFrame(time, (n) => {
      for (let k = 0; k < n && !this.finished(); k++) this.lab.step();
    });
    if (!this.dirty) return;
    this.dirty = false;
    this.paint();
    this.readouts();
  }

  paint() {
    const lab = this.lab;
    const s = this.shape;
    const done = statusName(lab.status) === 'found';
    const half = (h) => [h[0] / 2, h[1] / 2];
    const path = lab.path();
    const corners = [];
    for (let i = 0; i < path.length; i += 2) corners.push(pointText([path[i], path[i + 1]]));
    this.canvas.dataset.path = corners.join(' ');
    this.painter.paint({
      kind: this.space,
      width: lab.width,
      height: lab.height,
      cells: s.cells,
      vertices: s.vertices,
      polygons: s.polygons,
      portals: s.portals,
      bends: s.bends,
      sight: s.sight,
      places: s.places,
      states: lab.states(),
      corridor: lab.corridor(),
      funnel: this.space === 'navmesh' ? lab.funnelState() : null,
      path,
      optimum: done ? this.optimum().path : new Float64Array(0),
      waypoints: this.waypoints,
      start: half(lab.start),
      goal: half(lab.goal),
    });
    this.canvas.dataset.polygons = String(lab.polygonCount);
    // Where the map is drawn, in CSS pixels: the point (x, y) in cells is at
    // (ox + x·scale, oy + y·scale) from the canvas's top-left corner (data-origin "ox,oy").
    this.canvas.dataset.scale = String(this.painter.scale);
    this.canvas.dataset.origin = `${this.painter.ox},${this.painter.oy}`;
    this.canvas.dataset.width = String(lab.width);
    this.canvas.dataset.height = String(lab.height);
    this.canvas.dataset.start = at(lab.start);
    this.canvas.dataset.goal = at(lab.goal);
  }

  currentConfig() {
    const lab = this.lab;
    const config = { space: this.space, speed: this.config.speed };
    if (!lab) return config;
    const cell = (h) => `${Math.min(lab.width - 1, Math.floor(h[0] / 2))},${Math.min(lab.height - 1, Math.floor(h[1] / 2))}`;
    if (this.mapName && !this.edited) config.map = this.mapName;
    else config.grid = encodeGrid({ width: lab.width, height: lab.height, cells: lab.cells() });
    config.diagonal = lab.diagonal;
    if (!(this.preset?.cornerEnds && !this.edited)) {
      config.start = cell(lab.start);
      config.goal = cell(lab.goal);
    }
    for (const key of ['embed', 'lock', 'contrast']) if (this.config[key]) config[key] = true;
    if (this.quiz?.mode) config.quiz = this.quiz.mode;
    return config;
  }

  destroy() {
    stopSpacePage(this);
  }
}
