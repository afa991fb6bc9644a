// The path-request page: many agents on one map ask for paths, and each frame spends a budget
// of A* steps on their requests, most urgent first (the search is spread over frames). The
// agents, where they stand and aim (the largest open region), their walking, the seeded random
// goals and urgencies, the queue, the order and the aging all live in Rust (`Requests` in pkg/,
// over the core's `request_scene`); this module paints what it reads back and wires the
// controls, on the shared frame loop (frame-loop.js). Every text that may come from a
// configuration is set with textContent, never as HTML.
//
// `mountRequests(element, config)` takes the same keys as the URL of requests.html:
// `map`, `agents`, `budget`, `aging` (0|1), `seed`, `embed` (0|1).

import init, { Requests, WalkerState } from './pkg/pathlab_wasm.js';
import { loadPresets, fetchMap } from './maps.js';
import { PALETTE } from './palette.js';
import { el, options, panelSection, sidePanel } from './dom.js';
import { MAX_SEED, keyName, parseWhole, quote, text } from './values.js';
import { frameLoop } from './frame-loop.js';
import { layOut, loadOnce, onWholeChange, pageHeader, SimApp, transportBar, wholeField } from './sim-page.js';

/** Every key the page understands. */
export const REQUEST_KEYS = ['map', 'agents', 'budget', 'aging', 'seed', 'embed'];

/** The most agents the page runs. */
export const MAX_AGENTS = 2000;

/** The largest budget per frame (the core accepts up to a million). */
export const MAX_BUDGET = 100_000;

/**
 * The requests page's settings.
 * @typedef {{ map: string, agents: number, budget: number, aging: boolean, seed: number, embed: boolean }} RequestConfig
 */

/**
 * Defaults for every key.
 * @type {Readonly<RequestConfig>}
 */
export const REQUEST_DEFAULTS = Object.freeze({
  map: 'arena',
  agents: 40,
  budget: 150,
  aging: true,
  seed: 1,
  embed: false,
});

/** Rows the queue table shows; the rest are counted below it. */
const QUEUE_ROWS = 14;

const COLOURS = {
  walking: PALETTE.start,
  queued: '#d55e00',
  searching: '#e69f00',
  path: 'rgba(0, 114, 178, 0.28)',
  goal: 'rgba(204, 121, 167, 0.75)',
};

// ---- configuration --------------------------------------------------------------------------

/**
 * Checks a raw configuration. Returns `{ config, messages }`: every invalid value is replaced
 * by its default and explained in one message that starts with the parameter's name. The map
 * name is only checked for its characters here; whether it exists is known once fetched.
 */
export function readRequestConfig(raw) {
  /** @type {RequestConfig} */
  const config = { ...REQUEST_DEFAULTS };
  const messages = [];
  const say = (key, detail) => messages.push(`Parameter "${key}": ${detail}`);
  const given = raw && typeof raw === 'object' ? raw : {};
  const has = (key) => given[key] !== undefined && given[key] !== null && text(given[key]) !== '';

  for (const key of Object.keys(given)) {
    if (!REQUEST_KEYS.includes(key)) {
      say(keyName(key), `is not a setting of this page, so it was ignored (known: ${REQUEST_KEYS.join(', ')}).`);
    }
  }
  if (has('map')) {
    const map = text(given.map);
    if (/^[A-Za-z0-9._\-/]{1,200}$/.test(map) && !map.startsWith('/') && !map.includes('//')) config.map = map;
    else say('map', `${quote(map)} is neither a preset name nor a relative path to a .map or .txt file; showing ${REQUEST_DEFAULTS.map}.`);
  }
  const whole = (key, max, what) => {
    if (!has(key)) return;
    const n = parseWhole(text(given[key]), max);
    if (n === null) say(key, `expected ${what} from 0 to ${max}, got ${quote(given[key])}; using ${REQUEST_DEFAULTS[key]}.`);
    else config[key] = n;
  };
  whole('agents', MAX_AGENTS, 'a whole number of agents');
  whole('budget', MAX_BUDGET, 'a whole number of A* steps per frame');
  whole('seed', MAX_SEED, 'a whole number');
  for (const key of ['aging', 'embed']) {
    if (!has(key)) continue;
    const t = text(given[key]).toLowerCase();
    if (t === '1' || t === 'true') config[key] = true;
    else if (t === '0' || t === 'false') config[key] = false;
    else say(key, `expected 0 or 1, got ${quote(given[key])}; using ${REQUEST_DEFAULTS[key] ? 1 : 0}.`);
  }
  return { config, messages };
}

/** The query string for a configuration, leaving out default values. */
export function requestQuery(config) {
  const params = new URLSearchParams();
  for (const key of REQUEST_KEYS) {
    const value = config[key];
    if (value === REQUEST_DEFAULTS[key] || value === null || value === undefined) continue;
    params.set(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  return params.toString();
}

// ---- the simulation -------------------------------------------------------------------------

const loadWasm = loadOnce(init);

class RequestsApp extends SimApp {
  constructor(root, wasm, config) {
    super(root, wasm, config, 'requests-change');
    this.requests = new Requests(8, 8);
    this.presets = [];
    this.mapLabel = '';
    this.wallsVersion = -1;
    this.wallsVersionDrawn = -2;
    this.build();
  }

  // ---- DOM -----------------------------------------------------------------------------------

  build() {
    const { ui, button, readout } = this.startUi();

    this.canvas = el('canvas', {
      testid: 'grid',
      class: 'pl-canvas rq-canvas',
      'aria-label': 'The map and its agents: green dots walk their paths; orange rings wait for a path, filled ones are being searched',
    });
    ui.map = el('select', { testid: 'map', 'aria-label': 'Map' });
    ui.mapTitle = el('p', { testid: 'map-title', class: 'pl-map-title' });
    ui.budgetInput = el('input', {
      type: 'range', testid: 'budget-input', min: '0', max: '2000', step: '10', 'aria-label': 'Budget: A* steps per frame',
    });
    ui.budgetLabel = el('span', { class: 'pl-speed-label' });
    ui.count = wholeField('agent-count', MAX_AGENTS, 'Agents');
    ui.aging = el('input', { type: 'checkbox', testid: 'aging' });
    ui.queue = el('tbody');
    ui.queueMore = el('p', { testid: 'queue-more', class: 'pl-hint' });

    const transport = transportBar(
      button,
      { reset: 'Place the agents again from the seed', step: 'One frame', play: 'Play or pause' },
      button('burst', 'Burst', 'Every agent asks for a new path at once'),
      el(
        'label',
        { class: 'pl-speed', title: 'How many A* steps (expansions) each frame may spend on the requests' },
        el('span', { text: 'Budget' }),
        ui.budgetInput,
        ui.budgetLabel,
      ),
    );
    const readouts = el(
      'div',
      { class: 'pl-readouts' },
      readout('frame', 'Frame'),
      readout('budget', 'Budget', 'A* steps a frame may spend'),
      readout('spent', 'Spent', 'A* steps the last frame spent'),
      readout('queued', 'Queued', 'Requests waiting or being searched'),
      readout('served', 'Served', 'Requests answered with a path'),
      readout('mean-wait', 'Mean wait', 'Frames from asking to the answer, on average'),
      readout('max-wait', 'Max wait', 'The longest wait, in frames'),
    );
    const header = pageHeader('path requests spread over frames', 'Map', ui.map, 'requests.html');
    const legendItem = (cls, label) => el('li', {}, el('span', { class: `rq-key ${cls}` }), label);
    const panel = sidePanel(
      panelSection(
        'Agents',
        el('label', { class: 'pl-field' }, el('span', { text: 'Agents' }), ui.count),
        el('label', { class: 'rq-check' }, ui.aging, el('span', { text: 'Aging: a waiting request gains 0.1 urgency a frame' })),
        el('p', {
          class: 'pl-hint',
          text: 'Each agent asks for a path to a random cell of its area with an urgency from 1 to 9, walks it, and asks again. Each frame searches the most urgent request until it finishes, then the next, until the budget is spent.',
        }),
      ),
      panelSection(
        'Queue, in the order of service',
        el(
          'table',
          { class: 'rq-queue', testid: 'queue' },
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              el('th', { text: 'Id', scope: 'col' }),
              el('th', { text: 'Urgency', scope: 'col' }),
              el('th', { text: 'Effective', scope: 'col', title: 'Urgency plus what aging added' }),
              el('th', { text: 'Expanded', scope: 'col', title: 'Expansions so far' }),
              el('th', { text: 'Waited', scope: 'col', title: 'Frames since it asked' }),
            ),
          ),
          ui.queue,
        ),
        ui.queueMore,
      ),
      panelSection(
        'Legend',
        el(
          'ul',
          { class: 'pl-legend' },
          legendItem('rq-walking', 'walking its path'),
          legendItem('rq-queued', 'waiting in the queue'),
          legendItem('rq-searching', 'being searched'),
          legendItem('rq-goal', 'goal asked for'),
          legendItem('rq-path', 'path found'),
        ),
      ),
    );
    ui.wrap = el('div', { class: 'pl-grid-wrap' }, this.canvas);
    const stage = el('div', { class: 'pl-stage' }, ui.mapTitle, ui.wrap, transport, readouts);

    layOut(this.root, 'rq-page', this.config.embed, { header, messages: ui.messageBox, stage, panel });
    this.wire();
  }

  wire() {
    const ui = this.ui;
    ui.play.addEventListener('click', () => this.setPlaying(!this.playing));
    ui.step.addEventListener('click', () => {
      this.setPlaying(false);
      this.frameStep();
    });
    ui.reset.addEventListener('click', () => this.reset());
    ui.burst.addEventListener('click', () => this.burst());
    ui.budgetInput.addEventListener('input', () => this.setBudget(Number(ui.budgetInput.value)));
    ui.aging.addEventListener('change', () => {
      this.tryCall(() => this.requests.setAging(ui.aging.checked), 'Aging');
      this.config.aging = this.requests.aging;
      this.changed();
      this.touch();
    });
    onWholeChange(ui.count, 'Agents', MAX_AGENTS, {
      current: () => this.config.agents,
      apply: (n) => {
        this.config.agents = n;
        this.reset();
      },
      say: (text) => this.say(text),
    });
    ui.map.addEventListener('change', () => this.chooseMap(ui.map.value));
    this.resizeObserver = new ResizeObserver(() => this.layout());
    this.resizeObserver.observe(ui.wrap);
  }

  // ---- map and agents ----------------------------------------------------------------------

  async start() {
    try {
      this.presets = await loadPresets();
    } catch (e) {
      this.say(e.message);
    }
    options(this.ui.map, this.presets.map((p) => p.name), Object.fromEntries(this.presets.map((p) => [p.name, p.title ?? p.name])));
    try {
      await this.loadMap(this.config.map);
    } catch (e) {
      const fallback = REQUEST_DEFAULTS.map;
      this.say(`Parameter "map": ${e.message}. Showing ${fallback} instead.`);
      this.config.map = fallback;
      await this.loadMap(fallback);
    }
    this.tryCall(() => this.requests.setBudget(this.config.budget), 'Budget');
    this.tryCall(() => this.requests.setAging(this.config.aging), 'Aging');
    this.reset();
    this.setPlaying(true);
    this.loop = frameLoop(() => {
      if (this.playing) this.frameStep();
      if (this.dirty) this.draw();
    });
  }

  /** Loads a preset or a relative path; throws with a message and keeps the current map. */
  async loadMap(name) {
    const map = await fetchMap(name, this.presets);
    if (map.format === 'movingai') this.requests.loadMovingAi(map.text);
    else this.requests.loadCourse(map.text);
    for (const r of Array.isArray(map.preset?.terrain) ? map.preset.terrain : []) {
      for (let y = r.y; y < r.y + r.h; y++) this.tryCall(() => this.requests.paintLine(r.x, y, r.x + r.w - 1, y, r.value), 'Terrain');
    }
    this.mapLabel = map.label;
    this.ui.map.value = map.preset ? map.preset.name : '';
    this.ui.mapTitle.textContent = map.preset?.title ?? map.label;
    this.wallsVersion += 1;
    this.layout();
  }

  async chooseMap(name) {
    try {
      await this.loadMap(name);
      this.config.map = name;
    } catch (e) {
      this.say(`Map: ${e.message}`);
    }
    this.reset();
    this.changed();
  }

  /** Places the agents again from the seed; clears the queue and the counts. */
  reset() {
    const placed = this.tryCall(() => this.requests.placeAgents(this.config.agents, this.config.seed), 'Agents') ?? 0;
    if (placed === 0 && this.config.agents > 0) {
      this.say('The map has no open cell: no agent can stand on it.');
    }
    this.lastSpent = 0;
    this.queueRows = [];
    this.ui.count.value = String(this.config.agents);
    this.ui.aging.checked = this.requests.aging;
    this.showBudget();
    this.readouts();
    this.changed();
    this.touch();
  }

  /** Every agent not already waiting drops its path and asks again from where it stands. */
  burst() {
    this.tryCall(() => this.requests.burst(), 'Request');
    this.readouts();
    this.touch();
  }

  /** One frame (in the core): agents walk, idle ones ask, the budget is spent, answers are handed out. */
  frameStep() {
    this.lastSpent = this.tryCall(() => this.requests.frame(), 'Tick') ?? this.requests.spent;
    this.readouts();
    this.touch();
  }

  /** Requests answered with no path since the agents were placed. */
  get noPath() {
    return this.requests.noPath;
  }

  /**
   * The agents as plain objects `{ x, y, state }` (positions in cells, the state's name), read
   * from the core's views: for tests and the console.
   */
  get agents() {
    const v = this.walkerViews();
    const names = { [WalkerState.Idle]: 'idle', [WalkerState.Waiting]: 'waiting', [WalkerState.Walking]: 'walking' };
    return Array.from({ length: v.count }, (_, k) => ({ x: v.x[k], y: v.y[k], state: names[v.state[k]] }));
  }

  /** Views on the core's walkers (rebuilt on each call: the memory may have grown). */
  walkerViews() {
    const r = this.requests;
    const buffer = this.wasm.memory.buffer;
    const count = r.agentCount;
    return {
      count,
      x: new Float32Array(buffer, r.agentXPtr(), count),
      y: new Float32Array(buffer, r.agentYPtr(), count),
      state: new Uint8Array(buffer, r.agentStatesPtr(), count),
      request: new Uint32Array(buffer, r.agentRequestsPtr(), count),
      goal: new Uint32Array(buffer, r.agentGoalsPtr(), count),
      routeEnd: new Uint32Array(buffer, r.routeEndsPtr(), count),
      route: new Uint32Array(buffer, r.routesPtr(), r.routeLength),
    };
  }

  setBudget(value) {
    this.tryCall(() => this.requests.setBudget(value), 'Budget');
    this.config.budget = this.requests.budget;
    this.showBudget();
    this.changed();
    this.touch();
  }

  showBudget() {
    const b = this.requests.budget;
    const input = this.ui.budgetInput;
    if (Number(input.max) < b) input.max = String(b);
    input.value = String(b);
    this.ui.budgetLabel.textContent = `${b} steps`;
    this.ui.budget.textContent = String(b);
  }

  setPlaying(on) {
    this.playing = on;
    this.ui.play.textContent = on ? 'Pause' : 'Play';
    this.ui.play.setAttribute('aria-pressed', on ? 'true' : 'false');
  }

  // ---- read-outs -----------------------------------------------------------------------------

  readouts() {
    const ui = this.ui;
    const r = this.requests;
    ui.frame.textContent = String(r.frameCount);
    ui.spent.textContent = String(this.lastSpent);
    ui.queued.textContent = String(r.openCount);
    ui.served.textContent = String(r.served);
    ui['mean-wait'].textContent = r.served ? (r.waitSum / r.served).toFixed(1) : '0';
    ui['max-wait'].textContent = String(r.waitMax);
    ui.budget.textContent = String(this.requests.budget);
    this.queueRows = this.tryCall(() => this.requests.queue(), 'Queue') ?? [];
    const rows = this.queueRows.slice(0, QUEUE_ROWS).map((r) =>
      el(
        'tr',
        { class: `rq-${r.status}`, 'data-status': r.status },
        el('td', { text: String(r.id) }),
        el('td', { text: String(r.urgency) }),
        el('td', { text: r.effective.toFixed(1) }),
        el('td', { text: String(r.expanded) }),
        el('td', { text: String(r.age) }),
      ),
    );
    ui.queue.replaceChildren(...rows);
    const more = this.queueRows.length - rows.length;
    ui.queueMore.textContent = this.queueRows.length === 0 ? 'No request is waiting.' : more > 0 ? `… and ${more} more.` : '';
  }

  // ---- drawing -------------------------------------------------------------------------------

  layout() {
    const wrap = this.ui.wrap;
    const { width: w, height: h } = this.requests;
    const available = Math.max(120, wrap.clientWidth);
    const maxHeight = Math.max(200, window.innerHeight * (this.config.embed ? 0.8 : 0.72));
    const dpr = window.devicePixelRatio || 1;
    let cell = Math.min(available / w, maxHeight / h) * dpr;
    if (cell >= 3) cell = Math.floor(cell);
    this.canvas.width = Math.max(1, Math.round(cell * w));
    this.canvas.height = Math.max(1, Math.round(cell * h));
    this.canvas.style.width = `${this.canvas.width / dpr}px`;
    this.canvas.style.height = `${this.canvas.height / dpr}px`;
    this.canvas.dataset.width = String(w);
    this.canvas.dataset.height = String(h);
    this.cellPx = this.canvas.width / w;
    this.touch();
  }

  /** The walls as one pixel per cell, rebuilt when the map changes. */
  wallImage() {
    if (this.wallsVersionDrawn === this.wallsVersion && this.walls) return this.walls;
    const { width: w, height: h } = this.requests;
    const cells = new Uint8Array(this.wasm.memory.buffer, this.requests.cellsPtr(), w * h);
    const image = new ImageData(w, h);
    const px = new Uint32Array(image.data.buffer);
    const colour = (hex) => {
      const n = parseInt(hex.slice(1), 16);
      return (255 << 24) | ((n & 255) << 16) | (((n >> 8) & 255) << 8) | ((n >> 16) & 255);
    };
    const ground = colour(PALETTE.ground);
    const wall = colour(PALETTE.wall);
    const mud = colour(PALETTE.mud);
    const water = colour(PALETTE.water);
    for (let i = 0; i < cells.length; i++) {
      const v = cells[i];
      px[i] = v === 0 ? wall : v === 1 ? ground : v < 5 ? mud : water;
    }
    this.walls = document.createElement('canvas');
    this.walls.width = w;
    this.walls.height = h;
    this.walls.getContext('2d').putImageData(image, 0, 0);
    this.wallsVersionDrawn = this.wallsVersion;
    return this.walls;
  }

  draw() {
    this.dirty = false;
    const ctx = this.canvas.getContext('2d');
    const { width: w } = this.requests;
    const cs = this.cellPx;
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.wallImage(), 0, 0, this.canvas.width, this.canvas.height);

    const v = this.walkerViews();
    // Found paths, faint, from where each walker stands to its goal.
    ctx.lineWidth = Math.max(1, cs * 0.14);
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.strokeStyle = COLOURS.path;
    ctx.beginPath();
    for (let a = 0; a < v.count; a++) {
      if (v.state[a] !== WalkerState.Walking) continue;
      ctx.moveTo(v.x[a] * cs, v.y[a] * cs);
      for (let k = a === 0 ? 0 : v.routeEnd[a - 1]; k < v.routeEnd[a]; k++) {
        const c = v.route[k];
        ctx.lineTo(((c % w) + 0.5) * cs, (Math.floor(c / w) + 0.5) * cs);
      }
    }
    ctx.stroke();

    // Goals of the agents still waiting.
    const g = Math.max(1.5, cs * 0.18);
    ctx.fillStyle = COLOURS.goal;
    for (let a = 0; a < v.count; a++) {
      if (v.state[a] !== WalkerState.Waiting) continue;
      const gx = ((v.goal[a] % w) + 0.5) * cs;
      const gy = (Math.floor(v.goal[a] / w) + 0.5) * cs;
      ctx.fillRect(gx - g, gy - g, 2 * g, 2 * g);
    }

    const searching = new Set();
    for (const r of this.queueRows) if (r.status === 'searching') searching.add(r.id);
    const radius = Math.max(2, cs * 0.38);
    for (let a = 0; a < v.count; a++) {
      const x = v.x[a] * cs;
      const y = v.y[a] * cs;
      ctx.beginPath();
      ctx.arc(x, y, radius, 0, Math.PI * 2);
      if (v.state[a] === WalkerState.Waiting) {
        const busy = searching.has(v.request[a]);
        ctx.lineWidth = Math.max(1.5, radius * 0.45);
        ctx.strokeStyle = busy ? '#2f3542' : COLOURS.queued;
        ctx.fillStyle = busy ? COLOURS.searching : '#ffffff';
        ctx.fill();
        ctx.stroke();
      } else {
        ctx.fillStyle = COLOURS.walking;
        ctx.fill();
        ctx.lineWidth = Math.max(1, radius * 0.25);
        ctx.strokeStyle = '#ffffff';
        ctx.stroke();
      }
    }
  }

  // ---- messages and state ------------------------------------------------------------------------

  destroy() {
    this.loop?.stop();
    this.resizeObserver?.disconnect();
  }
}

/**
 * Mounts the page in `root` with a configuration object (the URL's keys). Invalid values are
 * replaced by defaults and explained in a visible message. Resolves to a handle with the app,
 * its `Requests` and `destroy()`.
 */
export async function mountRequests(root, raw = {}) {
  const wasm = await loadWasm();
  const { config, messages } = readRequestConfig(raw);
  const app = new RequestsApp(root, wasm, config);
  for (const m of messages) app.say(m);
  await app.start();
  return {
    app,
    get requests() {
      return app.requests;
    },
    query: () => requestQuery(app.settings()),
    destroy: () => app.destroy(),
  };
}
