// What the square-grid page (pathlab.js, App) and the graph and hex views (space-view.js,
// SpaceApp) have in common: the transport controls (Reset, Back, Step, Play, Run to end, Speed)
// and their keys, playing at the chosen speed, the read-outs of a search, the message area and
// the narration. Each page's class extends SearchPage and gives it its own `statusName` (from
// its wasm module), `narrateStep()`, `narrateEnd()`, `currentConfig()`, `layout()` and `key()`.
// Every text is set with textContent.

import { SPEEDS, MAX_WEIGHT } from './config.js';
import { el, MessageArea, options, titleHeader } from './dom.js';
import { quote } from './values.js';
import { algorithms } from './pkg/pathlab_wasm.js';
import { frameLoop } from './frame-loop.js';

/** @type {any[] | null} */
let registry = null;

/** The core's algorithm registry (search/registry.rs; fields in pathlab-wasm's `algorithms`), in menu order. */
export function algorithmRows() {
  registry ??= /** @type {any[]} */ (algorithms());
  return registry;
}

/**
 * The registry row of the algorithm named `name`, or undefined for a name the core lacks.
 * @param {string} name
 */
export function algorithmRow(name) {
  return algorithmRows().find((r) => r.name === name);
}

/**
 * `text` in the page's words: an algorithm's URL name opening it, or a part after ": ", becomes
 * its menu label (the core's refusals start with the name).
 * @param {string} text
 */
export function inPageWords(text) {
  let out = text;
  for (const r of [...algorithmRows()].sort((a, b) => b.name.length - a.name.length)) {
    out = out.replace(new RegExp(`(^|: )${r.name.replace(/[^a-z0-9]/g, '\\$&')}(?= )`, 'g'), (_, lead) => `${lead}${r.label}`);
  }
  return out;
}

const MAX_MESSAGES = 12;

/** A cost for the read-out: whole numbers as they are, others to two decimals. */
export function formatCost(cost) {
  if (cost === undefined || cost === null) return '';
  return Number.isInteger(cost) ? String(cost) : cost.toFixed(2);
}

/** The brushes of the editors with cells (the grid's and the hexes'): cell value and label. */
export const BRUSHES = [
  ['0', 'Walls'],
  ['3', 'Mud (costs ×3)'],
  ['5', 'Water (costs ×5)'],
];

/** The Tool menu's value for the Inspect tool (the others are the cell values brushes paint). */
const INSPECT = 'inspect';

/**
 * The Tool menu (data-testid="brush"): the brushes, walls first (the default), and the Inspect
 * tool, which edits nothing: a press or a tap reads the cell or hex (g, h, f and parent).
 */
export function toolMenu() {
  const menu = el('select', { testid: 'brush' });
  options(menu, BRUSHES.map((b) => b[0]), Object.fromEntries(BRUSHES));
  menu.append(el('option', { value: INSPECT, text: 'Inspect (read g, h, f; no editing)' }));
  return menu;
}

/**
 * What the Tool menu holds: the cell value to paint, or null for the Inspect tool.
 * @param {HTMLSelectElement | undefined} menu
 */
export function toolBrush(menu) {
  if (!menu) return 0;
  return menu.value === INSPECT ? null : Number(menu.value);
}

/** A maker of labelled selects, each kept in `ui` under its id (which is its data-testid). */
export function selectMaker(ui) {
  return (id, label) => {
    ui[id] = el('select', { testid: id, id: `pl-${id}-${Math.random().toString(36).slice(2, 8)}` });
    return el('label', { class: 'pl-field' }, el('span', { text: label }), ui[id]);
  };
}

/** Makes `ui.speed` (at `speed`), `ui.speedLabel` and `ui.weight`, the inputs every search page has. */
export function searchInputs(ui, speed) {
  ui.speed = el('input', {
    type: 'range', testid: 'speed', min: '1', max: String(SPEEDS.length), step: '1',
    value: String(speed), 'aria-label': 'Speed',
  });
  ui.speedLabel = el('span', { class: 'pl-speed-label' });
  ui.weight = el('input', {
    type: 'number', testid: 'weight', min: '1', max: String(MAX_WEIGHT), step: '0.1', value: '1', inputmode: 'decimal',
  });
}

/** The weight's field in the Search section: w in f = g + w·h. */
export function weightField(ui) {
  return el(
    'label',
    { class: 'pl-field', title: 'A* orders the open list by f = g + w·h; w above 1 trusts the estimate more.' },
    el('span', { text: 'Weight w in f = g + w·h' }),
    ui.weight,
  );
}

/** The transport buttons' titles on a page with one search. */
const ONE_SEARCH = {
  label: 'Search controls',
  reset: 'Back to step 0 (Home)',
  back: 'Undo one step (←)',
  step: 'One expansion (→)',
  play: 'Play or pause (space)',
  run: 'Run to the end (End)',
};

/**
 * The transport toolbar: Reset, Back, Step, Play, Run to end and Speed (`ui.speed`,
 * `ui.speedLabel`), the buttons made with `button(key, label, title)` (dom.js controls'); `titles`
 * gives the toolbar's label and each button's title (compare-view.js: for every pane).
 */
export function transportBar(ui, button, titles = ONE_SEARCH, ...more) {
  return el(
    'div',
    { class: 'pl-transport', role: 'toolbar', 'aria-label': titles.label },
    button('reset', 'Reset', titles.reset),
    button('back', '◀ Back', titles.back),
    button('step', 'Step ▶', titles.step),
    button('play', 'Play', titles.play),
    button('run', 'Run to end', titles.run),
    el('label', { class: 'pl-speed' }, el('span', { class: 'pl-label', text: 'Speed' }), ui.speed, ui.speedLabel),
    ...more,
  );
}

/** The read-outs every search has (made with dom.js controls' `readout`): status, expanded, open, cost. */
export function searchReadouts(readout) {
  return [readout('status', 'Status'), readout('expanded', 'Expanded'), readout('open', 'Open'), readout('cost', 'Path cost')];
}

/**
 * The header of the grid page and the space views: Pathlab, `subtitle`, and the Space and map
 * selects (the map's labelled `mapLabel`) with the Open file… button.
 */
export function labHeader(ui, subtitle, mapLabel) {
  return titleHeader(subtitle, mapControls(ui, mapLabel));
}

/** The header's Space and map selects and the Open file… button. */
function mapControls(ui, mapLabel) {
  return el(
    'div',
    { class: 'pl-map-controls' },
    el('label', { class: 'pl-field pl-inline' }, el('span', { text: 'Space' }), ui.space),
    el('label', { class: 'pl-field pl-inline' }, el('span', { text: mapLabel }), ui.map),
    el('label', { class: 'pl-btn pl-small pl-file' }, 'Open file…', ui.file),
  );
}

/** `lab`'s last step, or `{ kind: 'none' }` when it has none to tell. */
export function lastStepOf(lab) {
  try {
    return lab.lastStep();
  } catch {
    return { kind: 'none', opened: [] };
  }
}

export class SearchPage {
  /** `statusName`: the page's wasm module's name for a search's status. */
  constructor(root, memory, known, config, statusName) {
    this.root = root;
    this.memory = memory;
    this.known = known;
    this.config = config;
    this.statusName = statusName;
    /**
     * The page's search (a Lab; a SpaceLab on graphs and hexes), set by the page's class.
     * @type {any}
     */
    this.lab = null;
    /**
     * The page's elements by name (`play`, `speed`, `wrap`, ...), set by the page's build().
     * @type {any}
     */
    this.ui = null;
    this.mapName = null;
    this.mapTitle = '';
    this.hover = null;
    this.dirty = true;
    this.playing = false;
    this.carry = 0;
    this.lastTime = 0;
    /**
     * The page's running frame loop (startLoop), or null.
     * @type {import('./frame-loop.js').FrameLoop | null}
     */
    this.loop = null;
    this.notes = new MessageArea(MAX_MESSAGES);
  }

  // ---- provided by each page's class (these only say so if one is missing) ----------------

  /**
   * Handles a key on the page's root.
   * @param {KeyboardEvent} _event
   */
  key(_event) {
    throw new Error('SearchPage.key: the page class provides it');
  }

  /** Fits the canvas to its box. */
  layout() {
    throw new Error('SearchPage.layout: the page class provides it');
  }

  /**
   * One animation frame at `time`: play and repaint what changed.
   * @param {number} _time
   */
  tick(_time) {
    throw new Error('SearchPage.tick: the page class provides it');
  }

  /** Reads the last step out (narrate). */
  narrateStep() {
    throw new Error('SearchPage.narrateStep: the page class provides it');
  }

  /** Reads the end of the search out (narrate). */
  narrateEnd() {
    throw new Error('SearchPage.narrateEnd: the page class provides it');
  }

  /**
   * The settings as the page URL gives them (the `pathlab-change` event's detail).
   * @returns {object}
   */
  currentConfig() {
    throw new Error('SearchPage.currentConfig: the page class provides it');
  }

  /**
   * Wires the transport controls and the speed, the page's keys (`key`) on the root, and its
   * layout to the canvas's box (`ui.wrap`) and the window.
   */
  wireTransport() {
    const ui = this.ui;
    // Messages replace each other: each action clears the last one's first (after the first paint).
    import('./message-actions.js').then((m) => m.clearOnActions(this.notes, this.root)).catch(() => {});
    ui.step.addEventListener('click', () => this.step());
    ui.back.addEventListener('click', () => this.act(() => this.lab.back(), 'back'));
    ui.reset.addEventListener('click', () => this.act(() => this.lab.reset(), 'reset'));
    ui.run.addEventListener('click', () => this.act(() => this.lab.run(), 'run'));
    ui.play.addEventListener('click', () => this.togglePlay());
    ui.speed.addEventListener('input', () => {
      this.config.speed = Number(ui.speed.value);
      this.showSpeed();
      this.changed();
    });
    this.onKey = (event) => this.key(event);
    this.root.addEventListener('keydown', this.onKey);
    this.resizeObserver = new ResizeObserver(() => this.layout());
    this.resizeObserver.observe(ui.wrap);
    this.onWindowResize = () => this.layout();
    window.addEventListener('resize', this.onWindowResize);
  }

  /** True for a key meant for a control, or with Alt, Ctrl or Meta held: not the page's. */
  notOurKey(event) {
    const tag = event.target?.tagName;
    return ['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(tag) || event.altKey || event.ctrlKey || event.metaKey;
  }

  /** Does what `event`'s key stands for: the transport's keys and the page's `more`. */
  keyAction(event, more = {}) {
    const actions = {
      ' ': () => this.togglePlay(),
      ArrowRight: () => this.step(),
      ArrowLeft: () => this.act(() => this.lab.back(), 'back'),
      Home: () => this.act(() => this.lab.reset(), 'reset'),
      End: () => this.act(() => this.lab.run(), 'run'),
      ...more,
    };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  // ---- actions -------------------------------------------------------------------------------

  finished() {
    const s = this.statusName(this.lab.status);
    return s === 'found' || s === 'no-path';
  }

  step() {
    this.setPlaying(false);
    this.lab.step();
    this.narrateStep();
    this.touch();
  }

  act(fn, what) {
    this.setPlaying(false);
    fn();
    if (what === 'run') this.narrateEnd();
    else if (what === 'back') this.narrateStep();
    else this.narrate('');
    this.touch();
  }

  togglePlay() {
    if (!this.playing && this.finished()) this.lab.reset();
    this.setPlaying(!this.playing);
    this.touch();
  }

  setPlaying(on) {
    this.playing = on;
    this.carry = 0;
    this.lastTime = 0;
    this.ui.play.textContent = on ? 'Pause' : 'Play';
    this.ui.play.setAttribute('aria-pressed', on ? 'true' : 'false');
  }

  /**
   * The playing part of a frame at `time`: moves the search on by the steps the speed has
   * carried up since the last frame (at most `maxSteps`, by `advance(n)`), and stops at the end.
   */
  playFrame(time, advance, maxSteps = Infinity) {
    if (!this.playing) return;
    const dt = this.lastTime ? Math.min(100, time - this.lastTime) : 1000 / 60;
    this.lastTime = time;
    this.carry += (SPEEDS[this.config.speed - 1] * dt) / 1000;
    const n = Math.min(maxSteps, Math.floor(this.carry));
    if (n > 0) {
      this.carry -= n;
      advance(n);
      if (n === 1) this.narrateStep();
      else this.narrate(`Playing: step ${this.lab.steps}.`);
      this.dirty = true;
    }
    if (this.finished()) {
      this.setPlaying(false);
      this.narrateEnd();
    }
  }

  /** `raw` as a search weight, or null after saying why it is not one (and that `current` stays). */
  weightOf(raw, current) {
    const weight = Number(raw);
    if (!/^\s*[0-9]*\.?[0-9]+\s*$/.test(String(raw)) || !(weight >= 1 && weight <= MAX_WEIGHT)) {
      this.say(`Weight: must be a number from 1 to ${MAX_WEIGHT}, got ${quote(raw)}; keeping ${current}.`);
      return null;
    }
    return weight;
  }

  // ---- messages and narration ------------------------------------------------------------------

  say(text) {
    this.notes.say(inPageWords(text));
  }

  clearMessages() {
    this.notes.clear();
  }

  /** The messages on show, oldest first. */
  get messages() {
    return this.notes.messages;
  }

  narrate(text) {
    this.ui.narration.textContent = text;
  }

  // ---- read-outs -------------------------------------------------------------------------------

  showSpeed() {
    const rate = SPEEDS[this.config.speed - 1];
    this.ui.speed.value = String(this.config.speed);
    this.ui.speedLabel.textContent = `${rate}/s`;
  }

  /** The read-outs every search has, and which transport buttons can act; returns the status. */
  searchReadouts() {
    const lab = this.lab;
    const ui = this.ui;
    const status = this.statusName(lab.status);
    ui.status.textContent = status;
    ui.status.dataset.status = status;
    ui.expanded.textContent = String(lab.expanded);
    ui.open.textContent = String(lab.openCount);
    const cost = lab.cost;
    ui.cost.textContent = formatCost(cost);
    ui.cost.dataset.value = cost === undefined || cost === null ? '' : String(cost);
    ui.steps.textContent = `step ${lab.steps}`;
    ui.back.disabled = lab.steps === 0;
    ui.step.disabled = status === 'found' || status === 'no-path';
    ui.run.disabled = ui.step.disabled;
    return status;
  }

  // ---- frame loop ------------------------------------------------------------------------------

  /** Runs `tick` on the shared frame loop (frame-loop.js), once: a loop already running goes on. */
  startLoop() {
    this.loop ??= frameLoop((time) => this.tick(time));
  }

  /** Stops the frame loop. */
  stopLoop() {
    this.loop?.stop();
    this.loop = null;
  }

  touch() {
    this.dirty = true;
  }

  changed() {
    this.root.dispatchEvent(new CustomEvent('pathlab-change', { detail: this.currentConfig() }));
  }
}
