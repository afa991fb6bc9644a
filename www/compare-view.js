// What compare mode is on every page (compare.js on the square grid, space-compare.js on graphs
// and hexes): the panel's Compare section with its picks, and the view that takes the place of
// the page's main area while it is on: two to four panes, one search each, stepping in sync
// under one set of controls (each step moves every pane that has not finished by one step), the
// keys, playing, laying the panes out, their read-outs, entering and leaving. What differs
// between the pages (how a pane's search is made and painted, what its read-outs and notes say,
// the summary over the panes, the grid's chart) comes in `spec`. Every text is set with
// textContent.

import { el } from './dom.js';
import { SPEEDS, MAX_COMPARE } from './config.js';
import { ensureStylesheet, formatCost } from './warnings.js';
import { transportBar } from './page-app.js';
import { frameLoop } from './frame-loop.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there).
 * @typedef {Pick<import('./page-context.js').PageContext, 'changed' | 'config' | 'lastSize' | 'root' | 'say' | 'setPlaying' | 'showSpeed' | 'touch'>} CompareViewContext
 */

/** The transport's titles in the compare view: each button acts on every pane. */
const EVERY_PANE = {
  label: 'Controls for every pane',
  reset: 'Every pane back to step 0 (Home)',
  back: 'Every pane one step back (←)',
  step: 'Every pane one step (→)',
  play: 'Play or pause every pane (space)',
  run: 'Every pane to the end (End)',
};

/** One colour per pane, in the chart and on the pane: Okabe-Ito blue, vermillion, bluish green, reddish purple. */
export const PANE_COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7'];

/**
 * Compare mode for `app` (the page: root, lab, config, say, setPlaying, showSpeed, lastSize,
 * layout, touch, changed). `spec`:
 * - `statusName(status)`: the name of a search's status (from the page's wasm module);
 * - `where`: what the page shows, for the texts ('map', 'graph', 'map of hexes');
 * - `labelOf(algo)`: an algorithm's name on its pane, `headingOf(algo)` in the heading;
 * - `makeLab(algo)`: a copy of the page's search with `algo` (throws when it cannot run);
 * - `ready(names)`: optional; a promise to wait for before the panes of `names` are made (a
 *   module to load), or null when there is nothing to wait for;
 * - `pane(algo, lab, error)`: what differs on a pane: `{ settings, costLabel, moves, badges,
 *   note, canvas (extra attributes), wrapClass, painter(canvas) }`;
 * - `summary()`: the line under the heading; `viewClass`: extra classes of the view;
 *   `chart`: an element put under the panes, or null;
 * - `size`: `{ min, ratio, chrome, resize(pane, width, maxHeight, dpr) }`, how large a pane is
 *   drawn and how its painter is resized;
 * - `paintPane(pane)`: paints a pane's search; `advance(pane, n)`: moves it on by up to n steps;
 *   `maxPerFrame`: the most steps a frame of playing takes;
 * - `onLayout()`, `onEnter()`, `onLeave()`, `relayout()`: hooks (the grid's chart, the page's
 *   own layout on leaving).
 * Returns `{ section, picks, enterButton, enter, exit, leave, names, panes, ui, showing, destroy }`.
 * @param {CompareViewContext} app
 */
export function attachCompareView(app, spec) {
  ensureStylesheet();
  const { statusName, labelOf } = spec;
  const headingOf = spec.headingOf ?? labelOf;
  const id = (name) => `pl-${name}-${Math.random().toString(36).slice(2, 8)}`;

  // ---- the panel's Compare section ----
  const picks = [];
  for (let i = 0; i < MAX_COMPARE; i++) {
    picks.push(el('select', { testid: `compare-pick-${i + 1}`, id: id(`compare-pick-${i + 1}`) }));
  }
  const enterButton = el('button', {
    type: 'button', testid: 'compare', class: 'pl-btn pl-small pl-primary', text: 'Compare side by side',
    title: `Show the chosen algorithms side by side on this ${spec.where}, stepping together`,
  });
  const section = el(
    'section',
    { class: 'pl-section pl-compare-picker' },
    el('h2', { text: 'Compare' }),
    el('p', { class: 'pl-hint', text: `Up to four algorithms on this ${spec.where}, with these settings, stepping together.` }),
    ...picks.map((select, i) => el('label', { class: 'pl-field' }, el('span', { text: `Pane ${i + 1}` }), select)),
    enterButton,
  );
  enterButton.addEventListener('click', () => {
    const names = [...new Set(picks.map((p) => p.value).filter(Boolean))];
    if (names.length < 2) {
      app.say('Compare: choose at least two different algorithms.');
      return;
    }
    enter(names, { focus: true });
  });

  // ---- the compare view ----
  let view = null;
  let panes = [];
  /** @type {import("./frame-loop.js").FrameLoop | null} */
  let loop = null;
  let playing = false;
  let carry = 0;
  let lastTime = 0;
  let dirty = true;
  let resizeObserver = null;
  let ui = {};

  const mainOf = () => /** @type {HTMLElement | null} */ (app.root.querySelector(':scope > .pl-main'));
  const finished = (pane) => {
    const s = statusName(pane.lab.status);
    return s === 'found' || s === 'no-path';
  };
  const live = () => panes.filter((p) => p.lab);
  const allFinished = () => live().every(finished);
  /** The shared step count: every pane that has not finished stands at it. */
  const tick = () => Math.max(0, ...live().map((p) => p.lab.steps));

  function makePane(algo, index) {
    let lab = null;
    let error = null;
    try {
      lab = spec.makeLab(algo);
    } catch (e) {
      error = e.message;
    }
    const own = spec.pane(algo, lab, error);
    const colour = PANE_COLOURS[index % PANE_COLOURS.length];
    const r = {};
    const readout = (key, label) => {
      r[key] = el('output', { testid: `compare-${key}`, class: `pl-value pl-${key}` });
      return el('div', { class: 'pl-readout' }, el('span', { class: 'pl-label', text: label }), r[key]);
    };
    const canvas = el('canvas', {
      class: 'pl-canvas pl-compare-canvas',
      testid: 'compare-grid',
      role: 'img',
      ...own.canvas,
    });
    const readouts = el(
      'div',
      { class: 'pl-readouts pl-compare-readouts' },
      readout('status', 'Status'),
      readout('expanded', 'Expanded'),
      readout('open', 'Open'),
      readout('cost', own.costLabel ?? 'Path cost'),
      own.moves ? readout('moves', 'Moves') : null,
    );
    r.steps = el('span', { class: 'pl-steps', testid: 'compare-steps' });
    readouts.append(r.steps);
    const note = el('p', { class: 'pl-hint pl-compare-note', testid: 'compare-note' });
    if (error) note.textContent = `${labelOf(algo)} cannot run here: ${error}`;
    else if (own.note) note.textContent = own.note;
    r.why = el('p', { class: 'pl-hint pl-compare-note', testid: 'compare-why', 'aria-live': 'polite' });
    const wrap = el('div', { class: own.wrapClass }, canvas);
    const node = el(
      'article',
      { class: 'pl-compare-pane', testid: 'compare-pane', 'data-algo': algo, style: `--pane: ${colour}`, 'aria-label': labelOf(algo) },
      el('h3', { class: 'pl-compare-title' }, el('span', { class: 'pl-compare-swatch', 'aria-hidden': 'true' }), el('span', { text: labelOf(algo) })),
      own.badges ?? null,
      wrap,
      readouts,
      r.why,
      note,
    );
    const painter = lab ? own.painter(canvas) : null;
    return { algo, lab, error, settings: own.settings ?? null, colour, node, canvas, wrap, painter, r, size: '' };
  }

  function build(names) {
    const button = (key, label, title, extra = '') =>
      (ui[key] = el('button', { type: 'button', testid: `compare-${key}`, class: `pl-btn pl-${key} ${extra}`.trim(), title, text: label }));
    ui.speed = el('input', {
      type: 'range', testid: 'compare-speed', min: '1', max: String(SPEEDS.length), step: '1',
      value: String(app.config.speed), 'aria-label': 'Speed',
    });
    ui.speedLabel = el('span', { class: 'pl-speed-label' });
    ui.tick = el('span', { class: 'pl-steps', testid: 'compare-tick', 'aria-live': 'polite' });
    ui.panes = el('div', {
      class: 'pl-compare-panes',
      testid: 'compare-panes',
      'data-count': String(names.length),
      tabindex: '0',
      role: 'group',
      'aria-label': 'The searches side by side. Keys: right arrow steps, left arrow goes back, space plays, Home resets, End runs to the end, Escape leaves.',
    });
    ui.chart = spec.chart ? spec.chart() : null;
    const transport = transportBar(ui, button, EVERY_PANE, ui.tick);
    const bar = el(
      'div',
      { class: 'pl-compare-bar' },
      el(
        'div',
        {},
        el('h2', { class: 'pl-compare-heading', text: `Comparing ${names.map(headingOf).join(', ')}` }),
        el('p', { class: 'pl-hint pl-compare-summary', testid: 'compare-summary', text: spec.summary() }),
      ),
      button('exit', 'Back to one search', 'Leave compare mode (Escape)', 'pl-small'),
    );
    view = el(
      'section',
      { class: `pl-compare ${spec.viewClass ?? ''}`.trim(), testid: 'compare-view', 'aria-label': 'Algorithms compared side by side' },
      bar, transport, ui.panes, ui.chart,
    );
    wire();
  }

  function wire() {
    ui.step.addEventListener('click', () => act('step'));
    ui.back.addEventListener('click', () => act('back'));
    ui.reset.addEventListener('click', () => act('reset'));
    ui.run.addEventListener('click', () => act('run'));
    ui.play.addEventListener('click', () => togglePlay());
    ui.exit.addEventListener('click', () => exit({ focus: true }));
    ui.speed.addEventListener('input', () => {
      app.config.speed = Number(ui.speed.value);
      app.showSpeed();
      showSpeed();
    });
    view.addEventListener('keydown', (event) => {
      // Keys in the view are the view's: the page's own key handler (on the root) must not
      // also step the hidden search.
      event.stopPropagation();
      const tag = event.target?.tagName;
      if (event.key === 'Escape') {
        event.preventDefault();
        exit({ focus: true });
        return;
      }
      if (['INPUT', 'SELECT', 'TEXTAREA'].includes(tag) || event.altKey || event.ctrlKey || event.metaKey) return;
      // On a button, space and Enter press it; the arrows, Home and End still act.
      if (tag === 'BUTTON' && (event.key === ' ' || event.key === 'Enter')) return;
      const actions = {
        ' ': () => togglePlay(),
        ArrowRight: () => act('step'),
        ArrowLeft: () => act('back'),
        Home: () => act('reset'),
        End: () => act('run'),
      };
      if (actions[event.key]) {
        event.preventDefault();
        actions[event.key]();
      }
    });
  }

  function showSpeed() {
    ui.speed.value = String(app.config.speed);
    ui.speedLabel.textContent = `${SPEEDS[app.config.speed - 1]}/s`;
  }

  /** One action on every pane, in sync. */
  function act(what) {
    setPlaying(false);
    if (what === 'step') {
      for (const p of live()) if (!finished(p)) p.lab.step();
    } else if (what === 'back') {
      const t = tick();
      if (t > 0) for (const p of live()) if (p.lab.steps === t) p.lab.back();
    } else if (what === 'reset') {
      for (const p of live()) p.lab.reset();
    } else if (what === 'run') {
      for (const p of live()) p.lab.run();
    }
    dirty = true;
  }

  function togglePlay() {
    if (!playing && allFinished()) for (const p of live()) p.lab.reset();
    setPlaying(!playing);
    dirty = true;
  }

  function setPlaying(on) {
    playing = on;
    carry = 0;
    lastTime = 0;
    if (!ui.play) return;
    ui.play.textContent = on ? 'Pause' : 'Play';
    ui.play.setAttribute('aria-pressed', on ? 'true' : 'false');
  }

  function layout() {
    if (!view) return;
    spec.onLayout?.();
    const count = panes.length;
    const columns = Math.max(1, Math.round(ui.panes.clientWidth / Math.max(1, panes[0]?.node.clientWidth || 1)));
    const rows = Math.ceil(count / columns);
    const dpr = window.devicePixelRatio || 1;
    const { min, ratio, chrome, resize } = spec.size;
    for (const p of panes) {
      if (!p.painter) continue;
      const width = p.wrap.clientWidth;
      if (!width) continue;
      const maxHeight = Math.max(min, Math.min(width * ratio, (window.innerHeight - chrome) / rows));
      const key = `${width}x${maxHeight}@${dpr}`;
      if (key === p.size) continue;
      p.size = key;
      resize(p, width, maxHeight, dpr);
      dirty = true;
    }
  }

  function paint() {
    for (const p of panes) {
      if (!p.lab) {
        p.r.status.textContent = 'cannot run';
        p.r.status.dataset.status = 'no-path';
        continue;
      }
      const lab = p.lab;
      if (p.size) spec.paintPane(p);
      const status = statusName(lab.status);
      p.r.status.textContent = status;
      p.r.status.dataset.status = status;
      p.r.expanded.textContent = String(lab.expanded);
      p.r.open.textContent = String(lab.openCount);
      const cost = lab.cost;
      p.r.cost.textContent = formatCost(cost);
      p.r.cost.dataset.value = cost === undefined || cost === null ? '' : String(cost);
      if (p.r.moves) {
        const agent = lab.agent();
        p.r.moves.textContent = agent ? String(agent.moves) : '0';
      }
      p.r.steps.textContent = `step ${lab.steps}${finished(p) ? ', finished' : ''}`;
      p.node.dataset.status = status;
      const why = status === 'no-path' ? (lab.gaveUp() ?? 'There is no path: the open list ran empty.') : '';
      if (p.r.why.textContent !== why) p.r.why.textContent = why;
    }
    const t = tick();
    ui.tick.textContent = `step ${t}`;
    ui.back.disabled = t === 0;
    ui.step.disabled = allFinished();
    ui.run.disabled = ui.step.disabled;
  }

  function frame(time) {
    if (playing) {
      const dt = lastTime ? Math.min(100, time - lastTime) : 1000 / 60;
      lastTime = time;
      carry += (SPEEDS[app.config.speed - 1] * dt) / 1000;
      const n = Math.min(spec.maxPerFrame ?? Infinity, Math.floor(carry));
      if (n > 0) {
        carry -= n;
        for (const p of live()) if (!finished(p)) spec.advance(p, n, finished);
        dirty = true;
      }
      if (allFinished()) setPlaying(false);
    }
    if (!dirty) return;
    dirty = false;
    paint();
  }

  // ---- entering and leaving ----

  function enter(names, options = {}) {
    // What the panes need loaded first (the grid page: the module with every search).
    const wait = spec.ready?.(names);
    if (!wait) {
      enterNow(names, options);
      return;
    }
    wait.then(
      () => enterNow(names, options),
      (e) => app.say(`Compare: ${e.message}`),
    );
  }

  function enterNow(names, { focus = false, step = 0, autoplay = false } = {}) {
    if (view) leave();
    app.setPlaying(false);
    spec.beforeEnter?.();
    ui = {};
    build(names);
    panes = names.map((algo, i) => makePane(algo, i));
    ui.panes.replaceChildren(...panes.map((p) => p.node));
    const main = mainOf();
    if (main) {
      main.hidden = true;
      main.after(view);
    } else {
      app.root.append(view);
    }
    app.root.classList.add('pl-comparing');
    for (const p of panes) if (p.error) app.say(`Compare: ${labelOf(p.algo)} cannot run on this ${spec.where}: ${p.error}`);
    if (step > 0) for (const p of live()) p.lab.seek(step);
    showSpeed();
    resizeObserver = new ResizeObserver(() => layout());
    resizeObserver.observe(ui.panes);
    window.addEventListener('resize', layout);
    layout();
    dirty = true;
    loop = frameLoop(frame);
    spec.onEnter?.();
    if (autoplay && !allFinished()) setPlaying(true);
    if (focus) ui.step.focus();
    app.changed();
  }

  /** Removes the view and frees the panes' searches. */
  function leave() {
    spec.onLeave?.();
    loop?.stop();
    loop = null;
    setPlaying(false);
    resizeObserver?.disconnect();
    resizeObserver = null;
    window.removeEventListener('resize', layout);
    for (const p of panes) p.lab?.free();
    panes = [];
    view?.remove();
    view = null;
    app.root.classList.remove('pl-comparing');
  }

  function exit({ focus = false } = {}) {
    if (!view) return;
    const names = panes.map((p) => p.algo);
    leave();
    const main = mainOf();
    if (main) main.hidden = false;
    // The Compare section remembers the last comparison.
    names.forEach((n, i) => {
      if (picks[i]) picks[i].value = n;
    });
    for (let i = names.length; i < picks.length; i++) if (i >= 2) picks[i].value = '';
    app.lastSize = '';
    spec.relayout();
    app.touch();
    app.changed();
    if (focus) enterButton.focus();
  }

  return {
    section,
    picks,
    enterButton,
    enter,
    exit,
    leave,
    names: () => (view ? panes.map((p) => p.algo) : null),
    panes: () => panes,
    ui: () => ui,
    showing: () => view !== null,
    destroy() {
      leave();
      section.remove();
    },
  };
}
