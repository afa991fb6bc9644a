// Compare mode on graphs and hexes (space-view.js): two to four algorithms side by side on the
// same graph or hexes, one pane each (a canvas painted by GraphPainter or HexPainter and its
// read-outs), stepping in sync under one set of controls, as compare.js does on the square
// grid and with the same data-testid hooks (compare, compare-pick-N, compare-view,
// compare-panes, compare-pane with data-algo, compare-status, compare-expanded, compare-open,
// compare-cost, compare-steps, compare-why, compare-note, compare-tick, compare-step,
// compare-back, compare-reset, compare-play, compare-run, compare-exit). Each pane is a
// SpaceLab.cloneWith(algo) of the page's space with its start, goal and settings; an algorithm
// the core cannot run on this space gets a pane that says why. The page's own search is left as
// it was and comes back on exit. Every text is set with textContent.

import { el } from './dom.js';
import { SPEEDS, MAX_COMPARE } from './config.js';
import { statusName } from './pkg/pathlab_spaces.js';
import { ensureStylesheet } from './warnings.js';
import { PANE_COLOURS } from './compare.js';
import { GraphPainter, HexPainter } from './space-paint.js';

function formatCost(cost) {
  if (cost === undefined || cost === null) return '';
  return Number.isInteger(cost) ? String(cost) : cost.toFixed(2);
}

/**
 * Wires compare mode into the SpaceApp `app`. Returns `{ enter(names, options), refresh(),
 * names(), destroy() }`: `names` lists the algorithms compared (null when off), `refresh`
 * builds the panes again after the space changed (a map loaded while comparing).
 */
export function attachSpaceCompare(app) {
  ensureStylesheet();
  const graph = app.space === 'graph';
  const choices = () => {
    try {
      return app.lab.algorithms();
    } catch {
      return [];
    }
  };
  const labelOf = (algo) => app.algoLabel(algo);
  const id = (name) => `pl-${name}-${Math.random().toString(36).slice(2, 8)}`;

  // ---- the panel's Compare section ----
  const picks = [];
  for (let i = 0; i < MAX_COMPARE; i++) {
    picks.push(el('select', { testid: `compare-pick-${i + 1}`, id: id(`compare-pick-${i + 1}`) }));
  }
  /** Fills the picks with the algorithms, those that cannot run on this space greyed out. */
  function fillPicks() {
    const list = app.sortedChoices(choices());
    const first = app.lab.algorithm;
    const second = first === 'dijkstra' ? 'astar' : 'dijkstra';
    picks.forEach((select, i) => {
      const keep = select.value;
      const options = list.map((c) =>
        el('option', {
          value: c.name,
          text: c.ok ? labelOf(c.name) : `${labelOf(c.name)} (square grid only)`,
          disabled: !c.ok,
          title: c.ok ? labelOf(c.name) : `${labelOf(c.name)}: ${c.why ?? 'needs the square grid'}`,
        }));
      if (i >= 2) options.unshift(el('option', { value: '', text: '(none)' }));
      select.replaceChildren(...options);
      const fallback = [first, second, '', ''][i];
      select.value = keep && list.some((c) => c.name === keep && c.ok) ? keep : fallback;
    });
  }
  const enterButton = el('button', {
    type: 'button', testid: 'compare', class: 'pl-btn pl-small pl-primary', text: 'Compare side by side',
    title: `Show the chosen algorithms side by side on this ${graph ? 'graph' : 'map of hexes'}, stepping together`,
  });
  const section = el(
    'section',
    { class: 'pl-section pl-compare-picker' },
    el('h2', { text: 'Compare' }),
    el('p', { class: 'pl-hint', text: `Up to four algorithms on this ${graph ? 'graph' : 'map of hexes'}, with these settings, stepping together.` }),
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
  let frame = 0;
  let playing = false;
  let carry = 0;
  let lastTime = 0;
  let dirty = true;
  let resizeObserver = null;
  let ui = {};

  const mainOf = () => app.root.querySelector(':scope > .pl-main');
  const finished = (pane) => {
    const s = statusName(pane.lab.status);
    return s === 'found' || s === 'no-path';
  };
  const live = () => panes.filter((p) => p.lab);
  const allFinished = () => live().every(finished);
  const tick = () => Math.max(0, ...live().map((p) => p.lab.steps));

  function makePane(algo, index) {
    let lab = null;
    let error = null;
    try {
      lab = app.lab.cloneWith(algo);
    } catch (e) {
      error = e.message;
    }
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
      'data-space': app.space,
      'aria-label': `${labelOf(algo)} on the ${graph ? 'graph' : 'hexes'}`,
    });
    const readouts = el(
      'div',
      { class: 'pl-readouts pl-compare-readouts' },
      readout('status', 'Status'),
      readout('expanded', 'Expanded'),
      readout('open', 'Open'),
      readout('cost', 'Path cost'),
    );
    r.steps = el('span', { class: 'pl-steps', testid: 'compare-steps' });
    readouts.append(r.steps);
    const note = el('p', { class: 'pl-hint pl-compare-note', testid: 'compare-note' });
    if (error) note.textContent = `${labelOf(algo)} cannot run here: ${error}`;
    r.why = el('p', { class: 'pl-hint pl-compare-note', testid: 'compare-why', 'aria-live': 'polite' });
    const wrap = el('div', { class: 'pl-grid-wrap pl-compare-wrap pl-space-wrap' }, canvas);
    const node = el(
      'article',
      { class: 'pl-compare-pane', testid: 'compare-pane', 'data-algo': algo, style: `--pane: ${colour}`, 'aria-label': labelOf(algo) },
      el('h3', { class: 'pl-compare-title' }, el('span', { class: 'pl-compare-swatch', 'aria-hidden': 'true' }), el('span', { text: labelOf(algo) })),
      wrap,
      readouts,
      r.why,
      note,
    );
    let painter = null;
    if (lab) {
      painter = graph ? new GraphPainter(canvas) : new HexPainter(canvas);
      painter.setPalette(app.palette);
      if (graph) painter.setWorld(app.painter.world);
      else painter.setCells(app.places(), app.lab.layout);
    }
    return { algo, lab, error, colour, node, canvas, wrap, painter, r, size: '' };
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
    const transport = el(
      'div',
      { class: 'pl-transport', role: 'toolbar', 'aria-label': 'Controls for every pane' },
      button('reset', 'Reset', 'Every pane back to step 0 (Home)'),
      button('back', '◀ Back', 'Every pane one step back (←)'),
      button('step', 'Step ▶', 'Every pane one step (→)'),
      button('play', 'Play', 'Play or pause every pane (space)'),
      button('run', 'Run to end', 'Every pane to the end (End)'),
      el('label', { class: 'pl-speed' }, el('span', { class: 'pl-label', text: 'Speed' }), ui.speed, ui.speedLabel),
      ui.tick,
    );
    const labels = app.labels();
    const ends = `start ${labels[app.lab.start] ?? ''}, goal ${labels[app.lab.goal] ?? ''}`;
    const summary = `${app.mapTitle || (graph ? 'This graph' : 'These hexes')}, ${ends}. Heuristic: ${app.ui.heuristic.selectedOptions[0]?.textContent ?? ''}${app.lab.weight !== 1 ? ` · Weight: ${app.lab.weight}` : ''}.`;
    const bar = el(
      'div',
      { class: 'pl-compare-bar' },
      el(
        'div',
        {},
        el('h2', { class: 'pl-compare-heading', text: `Comparing ${names.map(labelOf).join(', ')}` }),
        el('p', { class: 'pl-hint pl-compare-summary', testid: 'compare-summary', text: summary }),
      ),
      button('exit', 'Back to one search', 'Leave compare mode (Escape)', 'pl-small'),
    );
    view = el('section', { class: 'pl-compare pl-space-compare', testid: 'compare-view', 'aria-label': 'Algorithms compared side by side' }, bar, transport, ui.panes);
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
      // The view's keys are its own: the page's key handler (on the root) must not also step
      // the hidden search.
      event.stopPropagation();
      const tag = event.target?.tagName;
      if (event.key === 'Escape') {
        event.preventDefault();
        exit({ focus: true });
        return;
      }
      if (['INPUT', 'SELECT', 'TEXTAREA'].includes(tag) || event.altKey || event.ctrlKey || event.metaKey) return;
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
    const count = panes.length;
    const columns = Math.max(1, Math.round(ui.panes.clientWidth / Math.max(1, panes[0]?.node.clientWidth || 1)));
    const rows = Math.ceil(count / columns);
    const dpr = window.devicePixelRatio || 1;
    for (const p of panes) {
      if (!p.painter) continue;
      const width = p.wrap.clientWidth;
      if (!width) continue;
      const maxHeight = Math.max(180, Math.min(width * 0.9, (window.innerHeight - 300) / rows));
      const key = `${width}x${maxHeight}@${dpr}`;
      if (key === p.size) continue;
      p.size = key;
      p.painter.resize(width, maxHeight, dpr);
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
      if (p.size) app.paintLab(lab, p.painter, { pane: true });
      const status = statusName(lab.status);
      p.r.status.textContent = status;
      p.r.status.dataset.status = status;
      p.r.expanded.textContent = String(lab.expanded);
      p.r.open.textContent = String(lab.openCount);
      const cost = lab.cost;
      p.r.cost.textContent = formatCost(cost);
      p.r.cost.dataset.value = cost === undefined || cost === null ? '' : String(cost);
      p.r.steps.textContent = `step ${lab.steps}${finished(p) ? ', finished' : ''}`;
      p.node.dataset.status = status;
      let why = '';
      if (status === 'no-path') why = lab.gaveUp() ?? 'There is no path: the open list ran empty.';
      if (p.r.why.textContent !== why) p.r.why.textContent = why;
    }
    const t = tick();
    ui.tick.textContent = `step ${t}`;
    ui.back.disabled = t === 0;
    ui.step.disabled = allFinished();
    ui.run.disabled = ui.step.disabled;
  }

  function loop(time) {
    frame = requestAnimationFrame(loop);
    if (playing) {
      const dt = lastTime ? Math.min(100, time - lastTime) : 1000 / 60;
      lastTime = time;
      carry += (SPEEDS[app.config.speed - 1] * dt) / 1000;
      const n = Math.min(5000, Math.floor(carry));
      if (n > 0) {
        carry -= n;
        for (const p of live()) for (let k = 0; k < n && !finished(p); k++) p.lab.step();
        dirty = true;
      }
      if (allFinished()) setPlaying(false);
    }
    if (!dirty) return;
    dirty = false;
    paint();
  }

  // ---- entering and leaving ----

  function enter(names, { focus = false, step = 0, autoplay = false } = {}) {
    if (view) leave();
    app.setPlaying(false);
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
    for (const p of panes) if (p.error) app.say(`Compare: ${labelOf(p.algo)} cannot run on this ${graph ? 'graph' : 'map of hexes'}: ${p.error}`);
    if (step > 0) for (const p of live()) p.lab.seek(step);
    showSpeed();
    resizeObserver = new ResizeObserver(() => layout());
    resizeObserver.observe(ui.panes);
    window.addEventListener('resize', layout);
    layout();
    dirty = true;
    frame = requestAnimationFrame(loop);
    if (autoplay && !allFinished()) setPlaying(true);
    if (focus) ui.step.focus();
    app.changed();
  }

  function leave() {
    cancelAnimationFrame(frame);
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
    names.forEach((n, i) => {
      if (picks[i]) picks[i].value = n;
    });
    for (let i = names.length; i < picks.length; i++) if (i >= 2) picks[i].value = '';
    app.lastSize = '';
    app.layout(true);
    app.touch();
    app.changed();
    if (focus) enterButton.focus();
  }

  return {
    section,
    fillPicks,
    enter,
    exit,
    /** The space changed under the comparison (a map loaded): the same algorithms on the new one. */
    refresh() {
      if (view) enter(panes.map((p) => p.algo));
    },
    names: () => (view ? panes.map((p) => p.algo) : null),
    destroy() {
      leave();
      section.remove();
    },
  };
}
