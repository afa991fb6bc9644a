// The page on spaces other than the square grid: hex tiles (`space=hex`) and weighted graphs
// (`space=graph`). pathlab.js's mount() loads this module only for those spaces, so the grid
// page's first paint does not carry it. SpaceApp builds the same controls and read-outs as the
// grid page, with the same data-testid hooks (step, back, play, run, reset, algo, heuristic,
// expanded, open, cost, status, timeline, open-list, narration, message, share...), on the one
// canvas (data-testid="grid"), and runs on the shared frame loop (frame-loop.js) that repaints only
// when something changed. Rules live in Rust: SpaceLab, in a wasm module of its own
// (pkg/pathlab_spaces.js, with its own memory, `spaceMemory` here), and the grid module's Lab
// (`memory`) to read grid map files for the hexes. This module wires controls, read-outs and
// messages, and sets every text that may come from a link or a file with textContent.

import { SpaceLab, statusName, Terrain } from './pkg/pathlab_spaces.js';
import { Lab } from './pkg/pathlab_wasm.js';
import { fitPainter, legendList, MAPS, readGridMap, spaceControls, SpacePage, startSpacePage, stopSpacePage } from './space-load.js';
import { toQuery } from './config.js';
import { quote } from './values.js';
import { download, el, options, panelSection, sidePanel } from './dom.js';
import {
  algorithmRow, formatCost, labHeader, lastStepOf, searchReadouts, toolBrush, toolMenu, transportBar, weightField,
} from './page-app.js';
import { encodeGraph, encodeGrid } from './share.js';
import { fetchMap, fetchText, detectFormat } from './maps.js';
import { GraphPainter, HexPainter, NO_PARENT, stateName, short } from './space-paint.js';
import { attachGraphEditing } from './graph-edit.js';
import { attachHexEditing } from './hex-edit.js';
import { expandedHead, pseudocodeFor, stepFacts } from './pseudocode.js';
import { attachSpaceCompare } from './space-compare.js';
import { attachSpaceKeeping } from './space-keep.js';
import { Scrubber } from './timeline.js';
import { KEY_HEADING, list, markActive, num, OPEN_ROWS, StudyBoxes } from './panels.js';

/** The most hexes shown (a 128 x 128 map); larger maps stay on the square grid. */
export const MAX_HEX_CELLS = 128 * 128;

/** The longest link offered (as persist.js): longer ones break in mail and chat. */
const MAX_LINK = 8000;

/** Entries of the closed list shown when it is opened. */
const CLOSED_ROWS = 400;

/** The most steps one frame of play takes. */
const MAX_STEPS_PER_FRAME = 5000;

/** What a locked page says when someone tries to edit (as embed.js). */
const LOCKED_TEXT =
  'Editing is locked in this example: you can step, play and run the search, but not edit the space or change the algorithm.';

/** A new graph: two nodes, the start and the goal, to build on. */
const NEW_GRAPH = JSON.stringify({
  directed: false,
  nodes: [
    { id: 'A', x: 2, y: 5 },
    { id: 'B', x: 14, y: 5 },
  ],
  edges: [],
});
const NEW_GRAPH_VIEW = { x0: 0, y0: 0, x1: 16, y1: 10 };

const HEURISTIC_LABELS = {
  graph: {
    euclidean: 'Euclidean (straight line)',
    chebyshev: 'Chebyshev',
    manhattan: 'Manhattan',
    octile: 'Octile',
    zero: 'Zero (none)',
  },
  hex: { hex: 'Hex distance', zero: 'Zero (none)' },
};

/** The title a graph file gives itself (`"title"`), if any. */
function graphTitle(text) {
  try {
    const t = JSON.parse(text)?.title;
    return typeof t === 'string' && t.trim() ? t.trim().slice(0, 300) : null;
  } catch {
    return null;
  }
}

export class SpaceApp extends SpacePage {
  constructor(root, memory, known, config) {
    super(root, memory, known, config);
    this.selection = null;
    this.preview = null;
    this.version = 0;
    this.cache = { labels: null, edges: null, h: null, hVersion: -1, total: null, totalVersion: -1 };
    this.build();
    this.painter = this.space === 'graph' ? new GraphPainter(this.canvas) : new HexPainter(this.canvas);
    this.painter.setPalette(this.palette);
  }

  // ---- DOM -------------------------------------------------------------------------------

  build() {
    const graph = this.space === 'graph';
    const { ui, button, readout, select } = spaceControls(
      this,
      graph
        ? 'Graph: click to add a node, drag a node to move it, Shift+drag between nodes to join them, click an edge to set its cost. Keys: right arrow steps, left arrow goes back, Shift+arrows move a cursor over the nodes and read each one out, Escape hides it.'
        : 'Hex tiles: drag to paint walls, drag S or G to move the start or goal. Keys: right arrow steps, left arrow goes back, Shift+arrows move a cursor over the hexes and read each one out, Escape hides it.',
      graph ? 'Graph' : 'Map',
    );
    ui.file = el('input', {
      type: 'file', testid: 'load-file', class: 'pl-file-input',
      accept: graph ? '.json,.txt,application/json,text/plain' : '.map,.txt,text/plain',
    });
    ui.cellInfo = el('div', { testid: 'cell-info', class: 'pl-cell-info', 'aria-live': 'polite' });
    ui.narration = el('div', { testid: 'narration', class: 'pl-narration', 'aria-live': 'polite' });
    ui.note = el('p', { testid: 'note', class: 'pl-note' });
    ui.algoNote = el('p', { testid: 'algo-note', class: 'pl-hint' });
    ui.heuristicWarning = el('p', { testid: 'heuristic-warning', class: 'pl-space-warning', role: 'status', hidden: true });
    ui.gaveUp = el('p', { testid: 'gave-up', class: 'pl-space-warning', role: 'status', hidden: true });
    // Where a graph's move costs live (`costs-on=`): on the links, or on the nodes entered.
    ui.costsOn = el('select', { testid: 'costs-on', 'aria-label': 'Costs on' });
    options(ui.costsOn, ['links', 'nodes'], { links: 'links (each edge’s cost)', nodes: 'nodes (cost of entering)' });
    // What the keyboard cursor stands on, for screen readers (Shift+arrows on the canvas).
    ui.cursorLive = el('div', { class: 'pl-sr-only', testid: 'cursor', 'aria-live': 'polite' });
    ui.mapTitle = el('p', { testid: 'map-title', class: 'pl-map-title' });
    ui.steps = el('span', { testid: 'steps', class: 'pl-steps' });

    const transport = transportBar(ui, button);
    const readouts = el('div', { class: 'pl-readouts' }, ...searchReadouts(readout), ui.steps);
    ui.readoutsBox = readouts;
    const legendItems = graph
      ? [['ground', 'not reached', this.palette.ground], ['open', 'open', this.palette.open], ['closed', 'closed', this.palette.closed],
          ['current', 'current', this.palette.current], ['path', 'path', this.palette.path], ['start', 'start', this.palette.start],
          ['goal', 'goal', this.palette.goal]]
      : [['ground', 'ground', this.palette.ground], ['wall', 'wall', this.palette.wall], ['mud', 'mud (×3)', this.palette.mud],
          ['water', 'water (×5)', this.palette.water], ['open', 'open', this.palette.open], ['closed', 'closed', this.palette.closed],
          ['current', 'current', this.palette.current], ['path', 'path', this.palette.path], ['start', 'start', this.palette.start],
          ['goal', 'goal', this.palette.goal]];
    const legend = legendList(legendItems);
    if (graph) legend.append(el('li', {}, el('span', { class: 'pl-swatch pl-swatch-edge' }), 'edge with its cost; arrow: one way'));

    const header = labHeader(
      ui,
      graph ? 'path-finding on a graph, one step at a time' : 'path-finding on hex tiles, one step at a time',
      graph ? 'Graph' : 'Map',
    );

    // Edit tools: for graphs a tool choice above the canvas and a few buttons; for hexes brushes.
    ui.editSection = panelSection(graph ? 'Edit the graph' : 'Edit');
    if (graph) {
      ui.toolMove = el('button', { type: 'button', testid: 'tool-move', class: 'pl-btn pl-small', 'aria-pressed': 'true', text: 'Move / add nodes' });
      ui.toolConnect = el('button', { type: 'button', testid: 'tool-connect', class: 'pl-btn pl-small', 'aria-pressed': 'false', text: 'Connect nodes' });
      ui.toolInspect = el('button', {
        type: 'button', testid: 'tool-inspect', class: 'pl-btn pl-small', 'aria-pressed': 'false', text: 'Inspect',
        title: 'Click or tap a node to read its g, h, f and parent; nothing is edited',
      });
      ui.tools = el(
        'div',
        { class: 'pl-space-tools pl-full', role: 'toolbar', 'aria-label': 'Graph tools' },
        el('span', { class: 'pl-label', text: 'Tool' }),
        ui.toolMove,
        ui.toolConnect,
        ui.toolInspect,
        el('span', {
          class: 'pl-space-hint',
          testid: 'space-hint',
          text: 'Click empty space to add a node · drag a node to move it · Shift+drag from node to node (or Connect) to add an edge · click an edge to set its cost · Delete removes the selection',
        }),
      );
      ui.newGraph = el('button', { type: 'button', testid: 'graph-new', class: 'pl-btn pl-small', text: 'New graph', title: 'Start again from two nodes: A (start) and B (goal)' });
      ui.fit = el('button', { type: 'button', testid: 'graph-fit', class: 'pl-btn pl-small', text: 'Fit view', title: 'Fit the whole graph in the view' });
      ui.editSection.append(
        el('p', {
          class: 'pl-hint',
          text: 'Click on empty space to add a node. Drag a node to move it; click it (or right-click) to rename it, make it the start or goal, or delete it. Drag from one node to another with Shift held, or with the Connect tool, to join them: the new edge costs about its length (at the graph’s usual cost per unit of length) until you set another cost. Click an edge or its cost to change the cost or make it one-way. Delete or Backspace removes what is selected. Drag the S or G marker onto another node to move the start or goal.',
        }),
        el('div', { class: 'pl-row' }, ui.newGraph, ui.fit),
      );
    } else {
      ui.brush = toolMenu();
      ui.layout = el('select', { testid: 'layout' });
      options(ui.layout, ['pointy', 'flat'], { pointy: 'Pointy tops (rows)', flat: 'Flat tops (columns)' });
      ui.clear = el('button', { type: 'button', testid: 'clear', class: 'pl-btn pl-small', text: 'Clear map' });
      ui.editSection.append(
        el('label', { class: 'pl-field' }, el('span', { text: 'Tool' }), ui.brush),
        el('label', { class: 'pl-field' }, el('span', { text: 'Hexes' }), ui.layout),
        el('p', { class: 'pl-hint', text: 'Drag on the hexes to paint; start on a painted hex to erase. Drag S or G to move them. The Inspect tool only reads a hex (g, h, f and parent) when you click or tap it. Each hex has six neighbours; entering one costs its terrain (1 on ground).' }),
        ui.clear,
      );
    }

    // Files and sharing.
    const small = (testid, text, title) => el('button', { type: 'button', testid, class: 'pl-btn pl-small', text, title });
    ui.exportPng = small('export-png', 'Picture (PNG)', 'The view as it is shown now, as a PNG image');
    const exports = [ui.exportPng];
    if (graph) {
      ui.exportJson = small('export-graph-json', 'Graph file (JSON)', 'The graph as a graph file: nodes with places, edges with costs');
      ui.exportMatrix = small('export-matrix', 'Weight matrix', 'The graph as a weight matrix (inf where there is no edge)');
      exports.push(ui.exportJson, ui.exportMatrix);
    } else {
      ui.exportCourse = small('export-course', 'Course file', 'The hexes as a course data file (0, 1, A, B)');
      exports.push(ui.exportCourse);
    }
    ui.share = el('button', { type: 'button', testid: 'share', class: 'pl-btn pl-small pl-primary', text: 'Make a share link', title: 'A link that opens this space with these settings' });
    ui.shareUrl = el('input', { type: 'text', testid: 'share-url', readonly: true, class: 'pl-share-url', placeholder: 'the link appears here', 'aria-label': 'Share link', spellcheck: 'false' });
    ui.copy = el('button', { type: 'button', testid: 'copy-share', class: 'pl-btn pl-small', text: 'Copy', disabled: true });
    const files = el(
      'section',
      { class: 'pl-section pl-files' },
      el('h2', { text: 'Files' }),
      el('p', {
        class: 'pl-hint',
        text: graph
          ? 'Open a graph file (.json) or a weight matrix (.txt) with “Open file…” above, or drop it on the canvas.'
          : 'Open a map with “Open file…” above, or drop a .map or .txt file on the hexes.',
      }),
      el('div', { class: 'pl-row', role: 'group', 'aria-label': 'Export' }, ...exports),
    );
    const share = el(
      'section',
      { class: 'pl-section pl-share' },
      el('h2', { text: 'Share' }),
      ui.share,
      el('div', { class: 'pl-row pl-share-row' }, ui.shareUrl, ui.copy),
    );

    const panel = sidePanel(
      panelSection(
        'Search',
        select('algo', 'Algorithm'),
        select('heuristic', 'Heuristic'),
        select('diagonal', 'Moves'),
        weightField(ui),
        graph ? el('label', { class: 'pl-field', title: 'The course’s two ways of modelling terrain: a cost on each link (which may differ each way, as up and down a hill), or a cost on each node, paid on entering it' }, el('span', { text: 'Costs on' }), ui.costsOn) : null,
        ui.heuristicWarning,
        ui.note,
        ui.algoNote,
      ),
      // The read-out of the node under the pointer or the keyboard cursor, high in the panel so
      // that it is in view while the cursor moves.
      el('section', { class: 'pl-section pl-node-section' }, el('h2', { text: graph ? 'Node' : 'Hex' }), ui.cellInfo),
      ui.editSection,
      files,
      share,
      panelSection('Last step', ui.narration),
      panelSection('Legend', legend),
    );
    options(ui.diagonal, [graph ? 'edges' : 'hex'], { edges: 'along the edges', hex: 'six neighbours' });
    ui.diagonal.disabled = true;
    ui.diagonal.title = graph ? 'On a graph the moves are its edges.' : 'Each hex has six neighbours.';

    ui.wrap = el('div', { class: 'pl-grid-wrap pl-space-wrap' }, this.canvas, ui.cursorLive);
    this.timeline = new SpaceTimeline(this);
    this.panels = new SpacePanels(this);
    const stage = el(
      'div',
      { class: 'pl-stage' },
      ui.mapTitle,
      ui.tools ?? null,
      ui.wrap,
      transport,
      this.timeline.element,
      readouts,
      ui.gaveUp,
      this.panels.element,
    );
    this.root.classList.add('pathlab', 'pl-space', `pl-space-${this.space}`);
    this.root.classList.toggle('pl-embed', this.config.embed);
    this.root.classList.toggle('pl-contrast', this.config.contrast);
    this.root.replaceChildren(header, ui.messageBox, el('div', { class: 'pl-main' }, stage, panel));
    // Compare mode (space-compare.js): its section goes under the Search section.
    this.compare = attachSpaceCompare(this);
    panel.querySelector('.pl-node-section')?.after(this.compare.section);
    // Saving in the browser and the embed dialog (space-keep.js), beside Share.
    this.keeping = attachSpaceKeeping(this, share);
    this.wire();
  }

  wire() {
    const ui = this.ui;
    this.wireTransport();
    ui.algo.addEventListener('change', () => this.setting('algo', () => this.lab.setAlgorithm(ui.algo.value)));
    ui.heuristic.addEventListener('change', () => {
      const value = ui.heuristic.value;
      this.setting('heuristic', () => this.lab.setHeuristic(value === 'hex' ? 'manhattan' : value));
    });
    ui.weight.addEventListener('change', () => this.setWeight(ui.weight.value));
    ui.costsOn.addEventListener('change', () => this.setting('Costs on', () => this.lab.setCostsOn(ui.costsOn.value)));
    ui.space.addEventListener('change', () => this.switchSpace(ui.space.value));
    ui.map.addEventListener('change', () => this.chooseMap(ui.map.value));
    ui.file.addEventListener('change', () => this.openFile());
    if (ui.toolMove) {
      const setTool = (name) => {
        this.graphEdit?.setTool(name);
        ui.toolMove.setAttribute('aria-pressed', String(name === 'move'));
        ui.toolConnect.setAttribute('aria-pressed', String(name === 'connect'));
        ui.toolInspect.setAttribute('aria-pressed', String(name === 'inspect'));
        this.narrate({
          connect: 'Connect: drag from one node to another to join them with an edge.',
          inspect: 'Inspect: click or tap a node to read its g, h, f and parent; the graph is not edited.',
        }[name] ?? 'Move / add: click empty space to add a node, drag a node to move it (Shift+drag still connects).');
      };
      ui.toolMove.addEventListener('click', () => setTool('move'));
      ui.toolConnect.addEventListener('click', () => setTool('connect'));
      ui.toolInspect.addEventListener('click', () => setTool('inspect'));
      ui.newGraph.addEventListener('click', () => this.newGraph());
      ui.fit.addEventListener('click', () => {
        // The button is on the graph's tool bar only.
        /** @type {GraphPainter} */ (this.painter).fitTo(this.places());
        this.layout(true);
      });
      ui.exportJson.addEventListener('click', () => this.exportText(() => this.lab.toJson(), 'json', 'application/json'));
      ui.exportMatrix.addEventListener('click', () => this.exportText(() => this.lab.toMatrix(), 'matrix.txt', 'text/plain'));
    } else {
      ui.clear.addEventListener('click', () => this.clearHexes());
      ui.layout.addEventListener('change', () => this.setLayout(ui.layout.value));
      ui.exportCourse.addEventListener('click', () => this.exportCourse());
    }
    ui.exportPng.addEventListener('click', () => {
      this.canvas.toBlob((blob) => {
        if (blob) download(blob, `${this.baseName()}.png`);
        else this.say('The picture could not be made (the browser gave no PNG).');
      }, 'image/png');
    });
    ui.share.addEventListener('click', () => this.makeLink());
    ui.copy.addEventListener('click', async () => {
      if (!ui.shareUrl.value) return;
      try {
        await navigator.clipboard.writeText(ui.shareUrl.value);
        this.narrate('Copied the share link.');
      } catch {
        ui.shareUrl.focus();
        ui.shareUrl.select();
        this.narrate('The browser did not allow copying: the link is selected, press Ctrl+C (⌘C) to copy it.');
      }
    });
    for (const type of ['focus', 'blur']) this.canvas.addEventListener(type, () => this.touch());
    // Files dropped anywhere on the page open here.
    const hasFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');
    this.onDragOver = (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      ui.wrap.classList.add('pl-drop-target');
    };
    this.onDragLeave = (event) => {
      if (!this.root.contains(event.relatedTarget)) ui.wrap.classList.remove('pl-drop-target');
    };
    this.onDrop = (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      ui.wrap.classList.remove('pl-drop-target');
      const dropped = [...(event.dataTransfer?.files ?? [])];
      if (dropped.length) this.openFile(dropped[0]);
    };
    this.root.addEventListener('dragover', this.onDragOver);
    this.root.addEventListener('dragleave', this.onDragLeave);
    this.root.addEventListener('drop', this.onDrop);
  }

  // ---- loading -----------------------------------------------------------------------------

  async start() {
    await startSpacePage(this, (index) => (this.space === 'graph' ? index.graphs : index.presets));
    for (const option of this.ui.map.options) option.title = option.textContent;
    if (this.space === 'graph') await this.startGraph();
    else await this.startHex();
    this.applySettings();
    this.attachEditing();
    this.syncSettings();
    this.compare.fillPicks();
    if (this.lab.steps > 0) this.narrateStep();
    this.showSpeed();
    this.layout(true);
    this.touch();
    if (this.config.autoplay && !this.finished()) this.setPlaying(true);
    this.startLoop();
    this.keeping.start();
    if (this.config.compare) this.compare.enter(this.config.compare, { step: this.config.step, autoplay: this.config.autoplay });
  }

  async startGraph() {
    const config = this.config;
    const fallback = this.index.graphs[0]?.name ?? null;
    if (this.keeping.restore()) return;
    if (config.graph) {
      try {
        this.useGraph(config.graph, { name: null, title: graphTitle(config.graph) ?? 'Graph from the link' });
        return;
      } catch (e) {
        this.say(`Parameter "graph": the graph in the link cannot be used: ${e.message}. Showing ${config.map ?? fallback ?? 'a new graph'} instead.`);
      }
    }
    if (config.map !== null) {
      try {
        await this.loadGraphNamed(config.map);
        return;
      } catch (e) {
        this.say(`Parameter "map": ${e.message}. Showing ${fallback ?? 'a new graph'} instead.`);
      }
    }
    if (fallback) {
      try {
        await this.loadGraphNamed(fallback);
        return;
      } catch (e) {
        this.say(`The first graph preset could not be loaded: ${e.message}`);
      }
    }
    this.useGraph(NEW_GRAPH, { name: null, title: 'A new graph', world: NEW_GRAPH_VIEW });
  }

  async startHex() {
    const config = this.config;
    const fallback = this.index.presets[0]?.name ?? null;
    if (this.keeping.restore()) return;
    if (config.grid) {
      try {
        this.useHex({ ...config.grid, start: null, goal: null }, { name: null, title: 'Hexes from the link' });
        return;
      } catch (e) {
        this.say(`Parameter "grid": those cells cannot be shown as hexes: ${e.message}. Showing ${fallback ?? 'open hexes'} instead.`);
      }
    }
    if (config.map !== null) {
      try {
        await this.loadHexNamed(config.map);
        return;
      } catch (e) {
        this.say(`Parameter "map": ${e.message}. Showing ${fallback ?? 'open hexes'} instead.`);
      }
    }
    if (fallback) {
      try {
        await this.loadHexNamed(fallback);
        return;
      } catch (e) {
        this.say(`The default map could not be loaded: ${e.message}`);
      }
    }
    this.useHex({ width: 16, height: 11, cells: new Uint8Array(16 * 11).fill(1), start: null, goal: null }, { name: null, title: 'Open hexes' });
  }

  /** A graph preset by name, or a .json / .txt file by a path relative to the page. */
  async loadGraphNamed(name) {
    const preset = this.index.graphs.find((p) => p.name === name);
    let text;
    if (preset) {
      text = await fetchText(new URL(preset.file, MAPS), `maps/${preset.file}`);
    } else if (/^[A-Za-z0-9._\-/]{1,200}\.(json|txt)$/.test(name) && !name.startsWith('/') && !name.includes('//')) {
      text = await fetchText(new URL(name, document.baseURI), name);
    } else {
      const known = this.index.graphs.map((p) => p.name).join(', ');
      throw new Error(`${quote(name)} is not a graph preset (${known || 'none listed'}) nor a relative path to a .json graph file or a .txt weight matrix`);
    }
    this.useGraph(text, { name: preset?.name ?? null, title: preset?.title ?? graphTitle(text) ?? name, preset });
  }

  /**
   * Shows the graph in `text` (a graph file or a weight matrix); throws, keeping the current
   * graph, when the core refuses it. `preset` may name the start and goal by id.
   */
  useGraph(text, { name, title, preset = null, world = null }) {
    if (this.lab) this.lab.loadGraph(text);
    else this.lab = SpaceLab.fromGraph(text);
    this.selection = null;
    this.graphEdit?.closeForm();
    for (const key of ['start', 'goal']) {
      const id = preset?.[key];
      if (typeof id !== 'string') continue;
      try {
        const node = this.lab.nodeById(id);
        if (key === 'start') this.lab.setStart(node);
        else this.lab.setGoal(node);
      } catch (e) {
        this.say(`The preset's ${key} ${quote(id)} cannot be used: ${e.message}.`);
      }
    }
    this.lab.reset();
    this.mapName = name;
    this.mapTitle = title;
    this.structureChanged();
    // A graph is loaded: the painter is a GraphPainter.
    const painter = /** @type {GraphPainter} */ (this.painter);
    if (world) painter.setWorld(world);
    else painter.fitTo(this.places());
    this.showMap(title);
    this.narrate('');
    this.layout(true);
    this.touch();
    this.compare?.refresh();
  }

  /** A grid preset by name (or a relative path) shown as hexes. */
  async loadHexNamed(name) {
    const map = await fetchMap(name, this.index.presets);
    const grid = readGridMap(this.memory, map.text, map.format, map.preset);
    this.useHex(grid, { name: map.preset ? map.preset.name : null, title: map.preset?.title ?? map.label });
  }

  /**
   * Shows `grid` ({ width, height, cells, start, goal }) as hexes in the chosen layout; throws,
   * keeping the current hexes, when it cannot be shown.
   */
  useHex(grid, { name, title, layout = null }) {
    const { width, height, cells } = grid;
    if (width * height > MAX_HEX_CELLS) {
      throw new Error(`a ${width} x ${height} map has ${(width * height).toLocaleString('en')} cells, more than the ${MAX_HEX_CELLS.toLocaleString('en')} the hex view shows`);
    }
    const chosen = layout ?? this.lab?.layout ?? this.config.layout ?? 'pointy';
    const lab = SpaceLab.hex(width, height, chosen);
    try {
      const groups = new Map();
      for (let i = 0; i < cells.length; i++) {
        const v = cells[i];
        if (v === 1) continue;
        if (!groups.has(v)) groups.set(v, []);
        groups.get(v).push(i);
      }
      // Ends first where they can go, so that walls painted after them leave them be. An end
      // refused because the other one stands there goes on the second pass, once that one has
      // moved.
      let pending = [['start', grid.start], ['goal', grid.goal]];
      for (let pass = 0; pass < 2 && pending.length; pass++) {
        const refused = [];
        for (const [key, p] of pending) {
          if (!Array.isArray(p)) continue;
          const [x, y] = p;
          if (!(x >= 0 && y >= 0 && x < width && y < height) || cells[y * width + x] === 0) continue;
          try {
            if (key === 'start') lab.setStart(y * width + x);
            else lab.setGoal(y * width + x);
          } catch {
            refused.push([key, p]);
          }
        }
        pending = refused;
      }
      for (const [v, indices] of groups) lab.paintHex(Uint32Array.from(indices), v);
    } catch (e) {
      lab.free();
      throw e;
    }
    const previous = this.lab;
    if (previous) {
      // The new hexes keep the search settings.
      try {
        lab.setAlgorithm(previous.algorithm);
        lab.setHeuristic(previous.heuristicName === 'zero' ? 'zero' : 'manhattan');
        lab.setWeight(previous.weight);
      } catch (e) {
        this.say(e.message);
      }
      previous.free();
    }
    this.lab = lab;
    this.lab.reset();
    this.mapName = name;
    this.mapTitle = title;
    this.structureChanged();
    // Hexes are loaded: the painter is a HexPainter.
    /** @type {HexPainter} */ (this.painter).setCells(this.places(), lab.layout);
    this.showMap(title);
    this.hover = null;
    this.cursor = null;
    this.narrate('');
    this.layout(true);
    this.touch();
    this.compare?.refresh();
  }

  /** The settings of the link or mount() configuration, once the space is loaded. */
  applySettings() {
    const config = this.config;
    const lab = this.lab;
    const choices = lab.algorithms();
    const algo = choices.find((a) => a.name === config.algo);
    if (algo && !algo.ok) {
      this.say(`Parameter "algo": ${this.algoLabel(algo.name)} ${algo.why ?? 'needs the square grid'}; showing A* (astar) on the ${this.space === 'graph' ? 'graph' : 'hexes'}.`);
    } else if (algo) {
      this.attempt('algo', () => lab.setAlgorithm(algo.name));
    }
    if (this.space === 'graph') {
      if (config.heuristic) this.attempt('heuristic', () => lab.setHeuristic(config.heuristic));
    } else {
      this.attempt('heuristic', () => lab.setHeuristic(config.heuristic === 'zero' ? 'zero' : 'manhattan'));
    }
    if (config.weight !== 1) this.attempt('weight', () => lab.setWeight(config.weight));
    if (this.space === 'graph' && config['costs-on']) this.attempt('costs-on', () => lab.setCostsOn(config['costs-on']));
    for (const key of ['start', 'goal']) {
      const v = config[key];
      if (v === null || v === undefined) continue;
      const before = this.labels()[key === 'start' ? lab.start : lab.goal];
      try {
        let node;
        if (this.space === 'graph') {
          try {
            node = lab.nodeById(String(v));
          } catch {
            throw new Error(`the graph has no node ${quote(v)} (its nodes: ${this.labels().slice(0, 12).join(', ')}${this.labels().length > 12 ? ', …' : ''})`);
          }
        } else {
          const [x, y] = v;
          if (!(x < lab.width && y < lab.height)) throw new Error(`(${x},${y}) is outside the ${lab.width} x ${lab.height} hexes`);
          node = y * lab.width + x;
          if (this.cells()[node] === 0) throw new Error(`(${x},${y}) is a wall`);
        }
        if (key === 'start') lab.setStart(node);
        else lab.setGoal(node);
      } catch (e) {
        this.say(`Parameter "${key}": ${e.message}; keeping the ${key} ${before}.`);
      }
    }
    if (config.step > 0) lab.seek(config.step);
    this.version++;
  }

  attempt(key, fn) {
    try {
      fn();
    } catch (e) {
      this.say(`Parameter "${key}": ${e.message}`);
    }
  }

  attachEditing() {
    if (this.space === 'graph') this.graphEdit = attachGraphEditing(this);
    else this.detachHex = attachHexEditing(this);
  }

  showMap(label) {
    const select = this.ui.map;
    select.querySelector('option[data-file]')?.remove();
    if (this.mapName && [...select.options].some((o) => o.value === this.mapName)) {
      select.value = this.mapName;
    } else {
      const option = el('option', { value: '', 'data-file': '1', text: label.length > 60 ? `${label.slice(0, 60)}…` : label });
      select.append(option);
      select.value = '';
    }
    this.ui.mapTitle.textContent = this.mapTitle;
  }

  async chooseMap(name) {
    if (!name || this.locked()) {
      if (this.mapName) this.ui.map.value = this.mapName;
      return;
    }
    this.setPlaying(false);
    // A worked example (a graph preset with settings or an explanation) comes as its URL would.
    const entry = this.space === 'graph' ? this.index.graphs.find((p) => p.name === name) : null;
    if (entry?.settings || entry?.explain) {
      const detail = { space: 'graph', map: name, speed: this.config.speed };
      for (const key of ['embed', 'lock', 'contrast']) if (this.config[key]) detail[key] = true;
      this.root.dispatchEvent(new CustomEvent('pathlab-space', { detail }));
      return;
    }
    const previous = this.mapName;
    try {
      if (this.space === 'graph') await this.loadGraphNamed(name);
      else await this.loadHexNamed(name);
      this.changed();
    } catch (e) {
      this.say(`${this.space === 'graph' ? 'Graph' : 'Map'} ${quote(name)}: ${e.message}. The current one is kept.`);
      if (previous) this.ui.map.value = previous;
    }
  }

  /** Opens a file: the one chosen in the picker, or `file` (dropped on the page). */
  async openFile(file = this.ui.file.files?.[0]) {
    if (!file) return;
    if (this.locked()) return;
    this.setPlaying(false);
    try {
      if (file.size > 8 * 1024 * 1024) throw new Error(`the file is ${file.size.toLocaleString('en')} bytes, over the limit of 8 MB`);
      const text = await file.text();
      if (this.space === 'graph') {
        this.useGraph(text, { name: null, title: graphTitle(text) ?? file.name });
        this.narrate(`Opened ${file.name}: ${this.lab.nodeCount} nodes, ${this.edges().length} edges.`);
      } else {
        const grid = readGridMap(this.memory, text, detectFormat(text, file.name), null);
        this.useHex(grid, { name: null, title: file.name });
      }
      this.changed();
    } catch (e) {
      const kind = this.space === 'graph' ? 'graph' : 'map';
      this.say(`Could not open ${quote(file.name)}: ${e.message}. The current ${kind} is kept.`);
    } finally {
      this.ui.file.value = '';
    }
  }

  newGraph() {
    if (this.locked()) return;
    this.setPlaying(false);
    this.useGraph(NEW_GRAPH, { name: null, title: 'Your graph', world: NEW_GRAPH_VIEW });
    this.narrate('A new graph: A is the start, B the goal. Click on empty space to add nodes; Shift+drag from node to node to join them.');
    this.changed();
  }

  setLayout(layout) {
    if (this.locked()) {
      this.ui.layout.value = this.lab.layout;
      return;
    }
    const grid = this.gridNow();
    try {
      const steps = this.lab.steps;
      this.useHex(grid, { name: this.mapName, title: this.mapTitle, layout });
      this.lab.seek(steps);
      this.narrate(layout === 'flat' ? 'Flat-topped hexes: columns are straight, odd columns pushed half a hex down.' : 'Pointy-topped hexes: rows are straight, odd rows pushed half a hex right.');
    } catch (e) {
      this.say(e.message);
    }
    this.changed();
  }

  clearHexes() {
    if (this.locked()) return;
    const cells = this.cells();
    const painted = [];
    for (let i = 0; i < cells.length; i++) if (cells[i] !== Terrain.Ground) painted.push(i);
    if (painted.length) this.lab.paintHex(Uint32Array.from(painted), Terrain.Ground);
    this.edited('clear', 'Cleared every wall and terrain cost.');
  }

  /**
   * Asks mount() to show another space. The square grid takes these hexes' map (its preset,
   * or its cells when edited) with the start and goal; a graph starts from the first graph
   * preset. The algorithm, weight and speed go along.
   */
  switchSpace(space) {
    if (space === this.space) return;
    if (this.locked()) {
      this.ui.space.value = this.space;
      return;
    }
    this.setPlaying(false);
    const detail = { space, algo: this.lab.algorithm, weight: this.lab.weight, speed: this.config.speed };
    for (const key of ['embed', 'lock', 'contrast']) if (this.config[key]) detail[key] = true;
    if (this.space === 'hex' && space !== 'graph') {
      const w = this.lab.width;
      detail.start = [this.lab.start % w, Math.floor(this.lab.start / w)];
      detail.goal = [this.lab.goal % w, Math.floor(this.lab.goal / w)];
      if (this.mapName) detail.map = this.mapName;
      else detail.grid = encodeGrid(this.gridNow());
    }
    this.root.dispatchEvent(new CustomEvent('pathlab-space', { detail }));
  }

  // ---- reading the lab ---------------------------------------------------------------------

  /** Node ids (graph) or "(x,y)" (hex), cached until the next edit; `fresh` reads them again. */
  labels(fresh = false) {
    if (fresh || !this.cache.labels) this.cache.labels = this.lab.labels();
    return this.cache.labels;
  }

  edges() {
    if (!this.cache.edges) this.cache.edges = this.space === 'graph' ? this.lab.edges() : [];
    return this.cache.edges;
  }

  /** The node places (x, y pairs), copied. */
  places() {
    const n = this.lab.nodeCount;
    return new Float64Array(this.spaceMemory.buffer, this.lab.placesPtr(), 2 * n).slice();
  }

  /** The hex values now (a view: use it before the next call into the lab). */
  cells() {
    const n = this.lab.nodeCount;
    return new Uint8Array(this.spaceMemory.buffer, this.lab.cellsPtr(), n);
  }

  /** The hexes as a grid: `{ width, height, cells, start, goal }`. */
  gridNow() {
    const w = this.lab.width;
    const cells = this.cells().slice();
    const at = (i) => [i % w, Math.floor(i / w)];
    return { width: w, height: this.lab.height, cells, start: at(this.lab.start), goal: at(this.lab.goal) };
  }

  /** Where hex or node `i` is drawn, in CSS pixels on the canvas. */
  centre(i) {
    const p = new Float64Array(this.spaceMemory.buffer, this.lab.placesPtr() + 16 * i, 2);
    return this.painter.toScreen(p[0], p[1]);
  }

  /** Something about the space changed: cached ids, edges, estimates and run length go. */
  structureChanged() {
    this.cache.labels = null;
    this.cache.edges = null;
    this.version++;
  }

  /** h per node for the labels, while the space and settings stay as they are. */
  hValues() {
    if (this.cache.hVersion === this.version && this.cache.h) return this.cache.h;
    const n = this.lab.nodeCount;
    let h = null;
    if (this.space === 'graph') {
      if (n <= 120) {
        h = new Float64Array(n);
        for (let i = 0; i < n; i++) h[i] = this.lab.nodeInfo(i).h;
      }
    } else {
      // The hex distance, as the core works it out (hex.rs): axial coordinates of offset cells.
      const w = this.lab.width;
      const flat = this.lab.layout === 'flat';
      const zero = this.lab.heuristicName === 'zero';
      const axial = (i) => {
        const x = i % w;
        const y = Math.floor(i / w);
        return flat ? [x, y - (x - (x & 1)) / 2] : [x - (y - (y & 1)) / 2, y];
      };
      const [gq, gr] = axial(this.lab.goal);
      h = new Float64Array(n);
      if (!zero) {
        for (let i = 0; i < n; i++) {
          const [q, r] = axial(i);
          const dq = q - gq;
          const dr = r - gr;
          h[i] = (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
        }
      }
    }
    this.cache.h = h;
    this.cache.hVersion = this.version;
    return h;
  }

  /** The number of steps of the whole run (the run is replayed once per change). */
  totalSteps() {
    if (this.cache.totalVersion === this.version && this.cache.total !== null) return this.cache.total;
    const k = this.lab.steps;
    this.lab.run();
    const total = this.lab.steps;
    if (total !== k) this.lab.seek(k);
    this.cache.total = total;
    this.cache.totalVersion = this.version;
    return total;
  }

  // ---- actions -------------------------------------------------------------------------------

  /** Changes a search setting; the core re-runs to the step the search was on. */
  setting(key, fn) {
    if (this.locked()) {
      this.syncSettings();
      return;
    }
    try {
      fn();
    } catch (e) {
      this.say(`${key}: ${e.message}`);
    }
    this.version++;
    this.syncSettings();
    this.touch();
    this.changed();
  }

  setWeight(raw) {
    const weight = this.weightOf(raw, this.lab.weight);
    if (weight === null) {
      this.syncSettings();
      return;
    }
    this.setting('weight', () => this.lab.setWeight(weight));
  }

  key(event) {
    if (this.notOurKey(event)) return;
    // On the canvas, Shift+arrows move the keyboard cursor over nodes or hexes.
    if (event.target === this.canvas && event.shiftKey && event.key.startsWith('Arrow')) {
      event.preventDefault();
      this.moveCursor(event.key.slice(5).toLowerCase());
      return;
    }
    if (event.target === this.canvas && event.key === 'Escape' && this.cursor !== null && this.cursor !== undefined && this.wrap.querySelector('.pl-space-form')?.hidden !== false) {
      event.preventDefault();
      this.setCursor(null);
      return;
    }
    this.keyAction(event, {
      Delete: () => this.graphEdit?.removeSelected(),
      Backspace: () => this.graphEdit?.removeSelected(),
      Escape: () => this.graphEdit?.closeForm(),
    });
  }

  // ---- the keyboard cursor ---------------------------------------------------------------------

  /**
   * Moves the keyboard cursor one node or hex towards `direction` (left, right, up, down); it
   * starts on the start. On hexes it goes to the next hex in the row or the row above or
   * below; on a graph to the nearest node that lies that way (within 60 degrees either side).
   */
  moveCursor(direction) {
    const lab = this.lab;
    const n = lab.nodeCount;
    if (this.cursor === null || this.cursor === undefined || this.cursor >= n) {
      this.setCursor(lab.start);
      return;
    }
    const [dx, dy] = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] }[direction] ?? [0, 0];
    let next = this.cursor;
    if (this.space === 'hex') {
      const w = lab.width;
      const x = Math.min(w - 1, Math.max(0, (this.cursor % w) + dx));
      const y = Math.min(lab.height - 1, Math.max(0, Math.floor(this.cursor / w) + dy));
      next = y * w + x;
    } else {
      const places = new Float64Array(this.spaceMemory.buffer, lab.placesPtr(), 2 * n);
      const [cx, cy] = [places[2 * this.cursor], places[2 * this.cursor + 1]];
      let best = Infinity;
      for (let i = 0; i < n; i++) {
        if (i === this.cursor) continue;
        const ux = places[2 * i] - cx;
        const uy = places[2 * i + 1] - cy;
        const d = Math.hypot(ux, uy);
        if (d === 0) continue;
        const along = (ux * dx + uy * dy) / d;
        if (along < 0.5) continue;
        // Nearer first, and straighter ahead breaks near ties.
        const score = d * (2 - along);
        if (score < best) {
          best = score;
          next = i;
        }
      }
    }
    this.setCursor(next);
  }

  /** Puts the keyboard cursor on node `node` (null hides it) and reads the node out. */
  setCursor(node) {
    this.cursor = node;
    this.hover = null;
    const live = this.ui.cursorLive;
    if (node === null || node === undefined) {
      live.textContent = '';
    } else {
      try {
        const info = this.lab.nodeInfo(node);
        const labels = this.labels();
        const parent = info.parent === undefined || info.parent === null ? 'none' : labels[info.parent];
        const extra = info.extra_label ? `, ${info.extra_label} ${num(info.extra ?? Infinity)}` : '';
        live.textContent = `${info.label}: ${info.state}, g ${num(info.g)}, h ${num(info.h)}, f ${num(info.f)}${extra}, parent ${parent}${info.agent ? ', the agent is here' : ''}.`;
      } catch {
        live.textContent = '';
      }
    }
    this.ui.cellInfo.dataset.shown = '';
    this.touch();
  }

  // ---- called by the editors -----------------------------------------------------------------

  /** The canvas's box, where the editors' forms go. */
  get wrap() {
    return this.ui.wrap;
  }

  /** The hex value to paint, or null for the Inspect tool. */
  brush() {
    return toolBrush(this.ui.brush);
  }

  setHover(hover) {
    const key = (h) => (h === null || h === undefined ? '' : typeof h === 'object' ? `${h.kind}:${h.index}` : String(h));
    if (key(hover) === key(this.hover)) return;
    this.hover = hover;
    this.dirty = true;
  }

  /** True, after saying so once in a row, when editing is locked (`lock=1`). */
  locked() {
    if (!this.config.lock) return false;
    if (this.messages.at(-1) !== LOCKED_TEXT) this.say(LOCKED_TEXT);
    return true;
  }

  /** An edit happened (`what`: add, move, moved, edge, remove, rename, start, goal, paint, erase, clear). */
  edited(what, text) {
    if (!['start', 'goal'].includes(what) && this.mapName !== null) {
      this.mapName = null;
      this.mapTitle = `${this.mapTitle} (edited)`;
      this.showMap(this.mapTitle);
    }
    this.structureChanged();
    if (text === undefined) text = `${what === 'erase' ? 'Erased' : 'Painted'} hexes; the search re-ran to step ${this.lab.steps}.`;
    if (text !== null) this.narrate(text);
    if (this.ui.shareUrl.value) {
      this.ui.shareUrl.value = '';
      this.ui.copy.disabled = true;
    }
    this.touch();
    if (what !== 'move') this.changed();
  }

  refused(text) {
    this.say(text);
  }

  // ---- messages and narration ------------------------------------------------------------------

  narrateStep() {
    const last = lastStepOf(this.lab);
    if (last.kind !== 'expanded' || last.expanded === undefined || last.expanded === null) {
      this.narrateEnd();
      return;
    }
    this.narrate(this.describeStep(last));
  }

  /** The sentence for a step that expanded a node (as panels.js writes it for grid cells). */
  describeStep(last) {
    const labels = this.labels();
    const algo = this.lab.algorithm;
    const id = labels[last.expanded];
    let head = `Step ${this.lab.steps}: expanded ${id}`;
    let info = null;
    try {
      info = this.lab.nodeInfo(last.expanded);
    } catch {
      info = null;
    }
    const g = info?.g;
    if (info && g !== null && g !== undefined) {
      head += expandedHead(algo, info, g, this.lab.weight, num);
    }
    const known = (o) => o.old_g !== null && o.old_g !== undefined;
    const fresh = last.opened.filter((o) => !known(o));
    const better = last.opened.filter(known);
    const parts = [head];
    if (fresh.length) parts.push(`opened ${list(fresh, (o) => `${labels[o.node]} with g ${num(o.g)}`)}`);
    if (better.length) parts.push(list(better, (o) => `${labels[o.node]} improved g ${num(o.old_g)} → ${num(o.g)} via ${labels[o.via]}`));
    if (!fresh.length && !better.length) parts.push('no neighbour was opened or improved');
    let text = `${parts.join('; ')}.`;
    const cost = this.lab.cost;
    if (cost !== undefined && cost !== null) text += ` That is the goal: path cost ${num(cost)}.`;
    return text;
  }

  narrateEnd() {
    const status = statusName(this.lab.status);
    if (status === 'found') {
      const labels = this.labels();
      const path = [...this.lab.path()].map((n) => labels[n]);
      const route = this.space === 'graph' && path.length <= 30 ? `: ${path.join(' → ')}` : ` of ${path.length - 1} moves`;
      this.narrate(`Found a path of cost ${formatCost(this.lab.cost)} after ${this.lab.expanded} expansions${route}.`);
    } else if (status === 'no-path') {
      this.narrate(`The open list ran empty after ${this.lab.expanded} expansions: there is no path.`);
    } else {
      this.narrate('');
    }
  }

  // ---- read-outs -------------------------------------------------------------------------------

  syncSettings() {
    const ui = this.ui;
    const lab = this.lab;
    const algo = lab.algorithm;
    const sorted = lab.algorithms();
    const key = sorted.map((c) => `${c.name}:${c.ok}`).join(',');
    if (ui.algo.dataset.key !== key) {
      ui.algo.dataset.key = key;
      ui.algo.replaceChildren(...sorted.map((c) => {
        const label = this.algoLabel(c.name);
        return el('option', {
          value: c.name,
          text: c.ok ? label : `${label} (square grid only)`,
          disabled: !c.ok,
          title: c.ok ? label : `${label}: ${c.why ?? 'needs the square grid'}`,
        });
      }));
      const off = sorted.filter((c) => !c.ok).map((c) => this.algoLabel(c.name));
      const on = sorted.filter((c) => c.ok).map((c) => this.algoLabel(c.name));
      ui.algoNote.textContent = off.length
        ? `${off.length} algorithms are greyed out: they need the square grid (hover over one for the reason). ${on.join(', ')} run on ${this.space === 'graph' ? 'graphs' : 'hexes'}.`
        : '';
      this.compare?.fillPicks();
    }
    ui.algo.value = algo;
    const heuristics = this.space === 'graph' ? HEURISTIC_LABELS.graph : HEURISTIC_LABELS.hex;
    if (ui.heuristic.options.length !== Object.keys(heuristics).length) options(ui.heuristic, Object.keys(heuristics), heuristics);
    ui.heuristic.value = this.space === 'graph' ? lab.heuristicName : lab.heuristicName === 'zero' ? 'zero' : 'hex';
    if (ui.layout) ui.layout.value = lab.layout;
    ui.costsOn.value = lab.costsOn;
    const weight = lab.weight;
    if (document.activeElement !== ui.weight || Number(ui.weight.value) !== weight) ui.weight.value = String(weight);
    const takes = algorithmRow(algo)?.settings ?? [];
    const usesH = takes.includes('heuristic');
    ui.heuristic.disabled = !usesH;
    ui.weight.disabled = !takes.includes('weight');
    const admissible = lab.admissible;
    const warn = usesH && !admissible;
    ui.heuristicWarning.hidden = !warn;
    ui.heuristicWarning.textContent = warn
      ? `Not admissible: the ${lab.heuristicName} distance times the graph's smallest cost per unit of length (${short(lab.ratio)}) can be more than the true cost left, so ${algo === 'astar' ? 'A* may miss the cheapest path' : 'the estimate misleads'}. Euclidean, Chebyshev and zero never overestimate.`
      : '';
    let note;
    if (algo === 'astar' && weight === 1 && admissible) {
      note = this.space === 'graph'
        ? `Finds a cheapest path: h is the straight-line distance times ${short(lab.ratio)}, the graph's smallest cost per unit of length, so it never overestimates.`
        : 'Finds a cheapest path: the hex distance never overestimates, as no move costs less than 1.';
    } else if (algo === 'astar' && weight !== 1) {
      note = `Weight ${weight} trades path cost for fewer expansions: the path may cost up to ${weight}× the cheapest.`;
    } else if (algo === 'astar') note = '';
    else if (algo === 'dijkstra') note = 'Finds a cheapest path.';
    else if (algo === 'bfs') note = this.space === 'graph' ? 'Fewest edges, not cheapest: every edge counts as one, whatever its cost.' : 'Fewest moves, not cheapest: mud and water cost more than one move.';
    else if (algo === 'dfs') note = 'Finds some path, usually a long one.';
    else if (algo === 'greedy') note = 'Heads straight for the goal: fast, but the path may be far from the cheapest.';
    else note = '';
    ui.note.textContent = note;
    this.settings = { algo, usesH, weight };
  }

  /** The algorithm's name as the selects show it (the registry's label). */
  algoLabel(algo) {
    return algorithmRow(algo)?.label ?? algo;
  }

  readouts() {
    const lab = this.lab;
    const ui = this.ui;
    this.searchReadouts();
    // Why a search stopped without an answer (IDA*'s visit limit, an agent that gave up).
    let why = null;
    try {
      why = lab.gaveUp() ?? null;
    } catch {
      why = null;
    }
    ui.gaveUp.hidden = !why;
    if (ui.gaveUp.textContent !== (why ?? '')) ui.gaveUp.textContent = why ?? '';
    const c = this.canvas;
    const labels = this.labels();
    const agent = lab.agentNode;
    c.dataset.agent = agent === undefined || agent === null ? '' : labels[agent] ?? '';
    c.dataset.cursor = this.cursor === null || this.cursor === undefined ? '' : labels[this.cursor] ?? '';
    if (this.space === 'graph') {
      c.dataset.nodes = String(lab.nodeCount);
      c.dataset.edges = String(this.edges().length);
      c.dataset.start = labels[lab.start] ?? '';
      c.dataset.goal = labels[lab.goal] ?? '';
    } else {
      const w = lab.width;
      c.dataset.width = String(w);
      c.dataset.height = String(lab.height);
      c.dataset.layout = lab.layout;
      c.dataset.start = `${lab.start % w},${Math.floor(lab.start / w)}`;
      c.dataset.goal = `${lab.goal % w},${Math.floor(lab.goal / w)}`;
    }
    this.cellInfo();
  }

  cellInfo() {
    const box = this.ui.cellInfo;
    const graph = this.space === 'graph';
    // The pointer first; else the keyboard cursor.
    let hover = this.hover;
    if ((hover === null || hover === undefined) && this.cursor !== null && this.cursor !== undefined) {
      hover = graph ? { kind: 'node', index: this.cursor } : this.cursor;
    }
    if (hover === null || hover === undefined) {
      if (!box.dataset.shown) {
        box.dataset.shown = '1';
        box.textContent = graph
          ? 'Point at a node to see its g, h, f and parent, or at an edge for its cost. With the canvas focused, Shift+arrows move a cursor from node to node.'
          : 'Point at a hex to see its g, h, f and parent. With the canvas focused, Shift+arrows move a cursor from hex to hex.';
      }
      return;
    }
    const labels = this.labels();
    let rows;
    if (graph && hover.kind === 'edge') {
      const e = this.edges()[hover.index];
      if (!e) return;
      rows = [
        ['edge', e.directed ? `${labels[e.from]} → ${labels[e.to]}` : `${labels[e.from]} – ${labels[e.to]}`],
        ['cost', num(e.cost)],
        ['way', e.directed ? 'one way' : 'both ways'],
      ];
    } else {
      const node = graph ? hover.index : hover;
      let info;
      try {
        info = this.lab.nodeInfo(node);
      } catch {
        return;
      }
      const parent = info.parent === undefined || info.parent === null ? '–' : labels[info.parent];
      let head = `${info.label} · ${info.state}`;
      if (!graph) {
        const v = this.cells()[node];
        head = `${info.label} · ${v === 0 ? 'wall' : v === 1 ? 'ground' : `terrain ×${v}`} · ${info.state}`;
      }
      if (info.agent) head += ' · the agent is here';
      rows = [
        [graph ? 'node' : 'hex', head],
        ['g', num(info.g)],
        ['h', num(info.h)],
        ['f', num(info.f)],
        ['parent', parent],
      ];
      // The search's second number (LPA*'s rhs, LRTA*'s learned h), when it keeps one.
      if (info.extra_label) rows.splice(4, 0, [info.extra_label, num(info.extra ?? Infinity)]);
    }
    box.dataset.shown = '';
    box.replaceChildren(el('dl', {}, ...rows.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { 'data-key': k, text: v })])));
  }

  // ---- links and files -------------------------------------------------------------------------

  baseName() {
    const raw = this.mapName ?? this.mapTitle ?? this.space;
    const name = String(raw).replace(/\.(json|txt|map)$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
    return `pathlab-${name.slice(0, 60) || this.space}`;
  }

  exportText(make, extension, type) {
    let text;
    try {
      text = make();
    } catch (e) {
      this.say(`The file was not written: ${e.message}.`);
      return;
    }
    download(new Blob([text], { type }), `${this.baseName()}.${extension}`);
  }

  exportCourse() {
    const grid = this.gridNow();
    const lab = new Lab(grid.width, grid.height);
    try {
      lab.loadCells(grid.width, grid.height, grid.cells);
      lab.setStart(grid.start[0], grid.start[1]);
      lab.setGoal(grid.goal[0], grid.goal[1]);
      const text = lab.toCourse();
      if (grid.cells.some((v) => v > 1)) this.say('The course file has no symbol for mud or water: those hexes were written as open ground.');
      download(new Blob([text], { type: 'text/plain' }), `${this.baseName()}.txt`);
    } catch (e) {
      this.say(`The course file was not written: ${e.message}.`);
    } finally {
      lab.free();
    }
  }

  /** The graph for a link (`graph=`), or null when it is too long to carry. */
  graphLink() {
    try {
      const text = encodeGraph(this.lab.toJson());
      return text.length <= MAX_LINK ? text : null;
    } catch {
      return null;
    }
  }

  makeLink() {
    const ui = this.ui;
    const config = this.currentConfig();
    if (this.space === 'graph' && !this.mapName && !config.graph) {
      ui.shareUrl.value = '';
      ui.copy.disabled = true;
      this.say(`This graph is too large to go in a link of at most ${MAX_LINK.toLocaleString('en')} characters: export it as a graph file instead.`);
      return;
    }
    const params = new URLSearchParams(toQuery(config));
    const url = new URL('./index.html', import.meta.url);
    url.search = params.toString().replaceAll('%2C', ',');
    const link = url.toString();
    if (link.length > MAX_LINK) {
      ui.shareUrl.value = '';
      ui.copy.disabled = true;
      this.say(`A link to these hexes would be ${link.length.toLocaleString('en')} characters long, over ${MAX_LINK.toLocaleString('en')}: export the map as a file instead.`);
      return;
    }
    ui.shareUrl.value = link;
    ui.copy.disabled = false;
    ui.shareUrl.focus();
    ui.shareUrl.select();
    this.narrate(`The share link (${link.length} characters) opens this ${this.space === 'graph' ? 'graph' : 'map of hexes'} with these settings.`);
  }

  // ---- frame loop ------------------------------------------------------------------------------

  currentConfig() {
    const lab = this.lab;
    const labels = this.labels();
    const graph = this.space === 'graph';
    const config = {
      space: this.space,
      layout: !graph && lab.layout === 'flat' ? 'flat' : null,
      map: this.mapName,
      grid: null,
      graph: null,
      algo: lab.algorithm,
      heuristic: graph ? lab.heuristicName : lab.heuristicName === 'zero' ? 'zero' : 'hex',
      weight: lab.weight,
      start: null,
      goal: null,
      speed: this.config.speed,
      embed: this.config.embed,
      compare: this.compare?.names() ?? null,
      lock: this.config.lock,
      contrast: this.config.contrast,
    };
    if (graph) {
      config.start = labels[lab.start];
      config.goal = labels[lab.goal];
      config['costs-on'] = lab.costsOn === 'links' ? null : lab.costsOn;
      if (!this.mapName) config.graph = this.graphLink();
    } else {
      const grid = this.gridNow();
      config.start = grid.start;
      config.goal = grid.goal;
      if (!this.mapName) {
        const text = encodeGrid(grid);
        config.grid = text.length <= MAX_LINK ? text : null;
      }
    }
    return config;
  }

  /** For tests and embedding pages: where nodes, edges and hexes are on the screen (client pixels). */
  get view() {
    const client = (p) => {
      if (!p) return null;
      const rect = this.canvas.getBoundingClientRect();
      return { x: rect.left + p.x, y: rect.top + p.y };
    };
    // Nodes, edges and badges are drawn on graphs only.
    const graphPainter = () => (this.painter instanceof GraphPainter ? this.painter : null);
    return {
      nodePoint: (node) => {
        const i = typeof node === 'string' ? this.labels().indexOf(node) : node;
        return i < 0 ? null : client(graphPainter()?.nodePoint(i));
      },
      edgePoint: (i) => client(graphPainter()?.edgePoint(i)),
      /** The start and goal markers on a graph: `{ which, x, y, r }` in canvas pixels. */
      badges: () => (graphPainter()?.geometry?.badges ?? []).map(({ which, x, y, r }) => ({ which, x, y, r })),
      hexPoint: (x, y) => {
        if (this.space !== 'hex') return null;
        const [px, py] = this.centre(y * this.lab.width + x);
        return client({ x: px, y: py });
      },
    };
  }

  layout(force = false) {
    const width = this.ui.wrap.clientWidth;
    const below = this.config.embed ? 96 + 28 : 150 + 40;
    const floor = window.innerWidth < 600 ? Math.min(width, window.innerHeight * 0.6) : 260;
    fitPainter(this, below, floor, force);
  }

  tick(time) {
    if (!this.lab) return;
    this.playFrame(time, (n) => {
      for (let k = 0; k < n && !this.finished(); k++) this.lab.step();
    }, MAX_STEPS_PER_FRAME);
    if (!this.dirty) return;
    this.dirty = false;
    this.paint();
    this.readouts();
    this.timeline.update();
    this.panels.update();
    this.graphEdit?.follow();
  }

  paint() {
    this.paintLab(this.lab, this.painter, {
      selection: this.selection,
      hover: this.hover,
      preview: this.preview,
      cursor: this.cursor,
      focused: document.activeElement === this.canvas,
    });
  }

  /**
   * Paints `lab` (the page's search, or a compare pane's on the same space) with `painter`.
   * `view`: selection, hover, preview, cursor (the keyboard cursor's node), focused, pane.
   */
  paintLab(lab, painter, view = {}) {
    const n = lab.nodeCount;
    const graph = this.space === 'graph';
    const algo = lab.algorithm;
    const usesH = view.pane ? !!algorithmRow(algo)?.settings.includes('heuristic') : (this.settings?.usesH ?? false);
    const weight = lab.weight;
    // Everything that may allocate in the wasm memory first, then the views on it.
    const labels = this.labels();
    const edges = this.edges();
    const path = [...lab.path()];
    const agent = lab.agentNode;
    const numbers = graph ? n <= 60 && painter.radius >= 9 : painter.numbersShown(n);
    const h = numbers && usesH ? this.hValues() : null;
    const nodeCosts = graph && lab.costsOn === 'nodes' ? lab.nodeCosts() : null;
    const buffer = this.spaceMemory.buffer;
    const model = {
      count: n,
      places: new Float64Array(buffer, lab.placesPtr(), 2 * n),
      states: new Uint8Array(buffer, lab.statesPtr(), n),
      g: new Float64Array(buffer, lab.gPtr(), n),
      parents: new Uint32Array(buffer, lab.parentsPtr(), n),
      labels,
      edges,
      path,
      start: lab.start,
      goal: lab.goal,
      agent: agent === undefined || agent === null ? null : agent,
      h,
      nodeCosts,
    };
    const cursor = view.cursor ?? null;
    if (graph) {
      painter.paint(model, {
        selection: view.selection ?? null,
        hover: view.hover ?? null,
        preview: view.preview ?? null,
        cursor,
        focused: view.focused,
        numbers,
        parents: n <= 400,
        usesH,
        weight,
        algo,
      });
    } else {
      model.cells = new Uint8Array(buffer, lab.cellsPtr(), n);
      model.width = lab.width;
      painter.paint(model, { hover: view.hover ?? null, cursor, focused: view.focused, numbers, usesH, weight, algo });
    }
  }

  destroy() {
    this.setPlaying(false);
    this.compare?.destroy();
    this.keeping?.destroy();
    this.graphEdit?.destroy();
    this.detachHex?.();
    this.root.removeEventListener('dragover', this.onDragOver);
    this.root.removeEventListener('dragleave', this.onDragLeave);
    this.root.removeEventListener('drop', this.onDrop);
    stopSpacePage(this);
  }
}

/**
 * The scrubber under the canvas (timeline.js): any step of the run, from 0 to the step that ends it.
 * @extends {Scrubber<SpaceApp>}
 */
class SpaceTimeline extends Scrubber {
  update() {
    const app = this.app;
    // While playing the run's length waits: the frame belongs to the search.
    const total = app.playing && app.cache.totalVersion !== app.version ? null : app.totalSteps();
    const steps = app.lab.steps;
    const words = total === null ? `step ${steps}` : `step ${steps} of ${total}`;
    this.show(steps, total ?? steps, words, total === null ? `${steps}` : `${steps} / ${total}`, total);
  }
}

/** The pseudocode with the lines the last step ran, and the open list by node. */
class SpacePanels extends StudyBoxes {
  constructor(app) {
    // The boxes as on the grid page (panels.js); the closed list: the nodes in the order they
    // were expanded, each with its g now.
    super(app.space === 'graph' ? 'node' : 'hex', el('ol', { class: 'pl-closed-cells pl-space-closed', testid: 'closed-cells' }));
    this.app = app;
    this.codeKey = '';
  }

  /** The closed list's summary (always) and, when it is open, its entries. */
  showClosed() {
    const app = this.app;
    let order;
    try {
      order = app.lab.expansionOrder();
    } catch {
      order = new Uint32Array(0);
    }
    const what = app.space === 'graph' ? ['node', 'nodes'] : ['hex', 'hexes'];
    const count = order.length;
    this.closedSummary.textContent = `Closed list: ${count} ${count === 1 ? 'expansion' : 'expansions'}, in order`;
    this.closed.dataset.count = String(count);
    if (!this.closed.open) return;
    const key = `${app.version}/${count}/${order[count - 1] ?? ''}`;
    if (this.closedKey === key) return;
    this.closedKey = key;
    const labels = app.labels();
    const g = new Float64Array(app.spaceMemory.buffer, app.lab.gPtr(), app.lab.nodeCount);
    const items = [];
    for (let k = 0; k < Math.min(count, CLOSED_ROWS); k++) {
      const node = order[k];
      items.push(el('li', { 'data-node': labels[node] ?? String(node), 'data-g': String(g[node]) }, el('button', {
        type: 'button',
        class: 'pl-cell-button',
        text: `${k + 1}. ${labels[node] ?? node} g ${num(g[node])}`,
        title: 'Show it on the canvas',
        onclick: () => app.setCursor(node),
      })));
    }
    if (count > CLOSED_ROWS) items.push(el('li', { class: 'pl-more', text: `and ${count - CLOSED_ROWS} more` }));
    this.closedCells.replaceChildren(...items);
    this.closedCells.setAttribute('aria-label', `Closed ${what[1]} in the order they were expanded (${count})`);
  }

  update() {
    const app = this.app;
    if (app.config.embed) return;
    const now = performance.now();
    if (app.playing && now - (this.shown ?? 0) < 100) return;
    this.shown = now;
    const last = lastStepOf(app.lab);
    this.showCode(last);
    this.showOpen(last);
    this.showClosed();
  }

  showCode(last) {
    const app = this.app;
    const algo = app.lab.algorithm;
    const code = pseudocodeFor(algo);
    const word = app.space === 'graph' ? 'node' : 'hex';
    if (this.codeKey !== `${algo}/${word}`) {
      this.codeKey = `${algo}/${word}`;
      this.codeTitle.textContent = `Pseudocode: ${code.title}`;
      this.code.replaceChildren(...code.lines.map(([tag, text]) =>
        el('li', { class: 'pl-code-line', 'data-tag': tag }, el('code', { text: this.wording(text, word) }))));
    }
    const status = statusName(app.lab.status);
    const expanded = last.expanded === undefined || last.expanded === null ? null : [last.expanded, 0];
    const facts = stepFacts({ ...last, expanded }, status, app.lab.steps, [app.lab.start, 0], null);
    markActive(this.code, new Set(code.active(facts)));
  }

  /** A grid's pseudocode line in the words of this space. */
  wording(text, word) {
    let t = text.replace(/\bcells\b/g, `${word}s`).replace(/\bcell\b/g, word);
    if (word === 'node') {
      t = t.replace('not a wall and ', '').replace(' that is not a wall', '').replace(', not a wall', '');
      t = t.replace('(terrain multiplies it)', '(the cost of the edge)');
    }
    return t;
  }

  showOpen(last) {
    const app = this.app;
    const lab = app.lab;
    const algo = lab.algorithm;
    let entries;
    try {
      entries = lab.openList(OPEN_ROWS);
    } catch {
      entries = [];
    }
    const labels = app.labels();
    const total = lab.openCount;
    const row = algorithmRow(algo);
    this.keyHeading.textContent = row ? KEY_HEADING[row.order] : 'key';
    this.table.classList.toggle('pl-no-h', !row?.settings.includes('heuristic'));
    const what = app.space === 'graph' ? ['node', 'nodes'] : ['hex', 'hexes'];
    let caption = `${total} ${total === 1 ? what[0] : what[1]}, ${row?.order_rule ?? 'by key'}${row && !row.exact_order ? ' (approximate order)' : ''}.`;
    if (total > entries.length && entries.length > 0) caption += ` Showing the first ${entries.length}.`;
    if (entries.length === 0) caption += ' Nothing is waiting.';
    this.caption.textContent = caption;
    const changes = new Map();
    for (const o of last.opened ?? []) changes.set(o.node, o);
    const finished = ['found', 'no-path'].includes(statusName(lab.status));
    const stack = algo === 'dfs';
    const rows = entries.map((e, i) => {
      const change = changes.get(e.node);
      const improved = change && change.old_g !== null && change.old_g !== undefined;
      let note = '';
      if (i === 0 && !finished) note = stack ? 'top' : 'next';
      if (improved) note = `${note ? `${note} · ` : ''}g ${num(change.old_g)} → ${num(change.g)} via ${labels[change.via]}`;
      else if (change) note = `${note ? `${note} · ` : ''}new`;
      const classes = ['pl-open-row'];
      if (i === 0 && !finished) classes.push('pl-next');
      if (improved) classes.push('pl-improved');
      else if (change) classes.push('pl-new');
      const node = el('button', {
        type: 'button', class: 'pl-cell-button', text: labels[e.node], title: 'Show it on the canvas',
        onclick: () => app.setCursor(e.node),
      });
      const parent = e.parent === undefined || e.parent === null ? '–' : labels[e.parent];
      return el(
        'tr',
        { class: classes.join(' '), 'data-node': labels[e.node], 'data-g': String(e.g), 'data-key': String(e.key) },
        el('td', { class: 'pl-num', text: String(i + 1) }),
        el('th', { scope: 'row' }, node),
        el('td', { class: 'pl-num', text: num(e.g) }),
        el('td', { class: 'pl-num pl-h', text: num(e.h) }),
        el('td', { class: 'pl-num pl-key', text: num(algo === 'astar' ? e.key : e.key) }),
        el('td', { text: parent }),
        el('td', { class: 'pl-note', text: note || '\u00a0' }),
      );
    });
    this.rows.replaceChildren(...rows);
  }
}

export { NO_PARENT, stateName };
