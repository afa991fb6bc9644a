// The map editor's controls in the panel's Edit section: an erase brush beside walls, mud and
// water; generators (a maze by recursive backtracking, random fill with a wall density, rooms
// joined by doors), each from a seed, run in the core (Lab.generate); and resizing, which keeps
// the cells that still fit and fills new ones with ground. A map that was a preset becomes the
// user's own map once its cells are edited, so the URL stops naming the preset and the map is
// saved in the browser instead (persist.js).

import { el, options } from './dom.js';
import { MAX_SEED, quote } from './values.js';
import { MAX_SIDE } from './share.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there).
 * @typedef {Pick<import('./page-context.js').PageContext, 'changed' | 'lab' | 'mapName' | 'mapTitle' | 'memory' | 'nameOwnMap' | 'narrate' | 'root' | 'say' | 'showNewMap' | 'ui'>} EditorContext
 */

const GENERATORS = [
  ['maze', 'Maze'],
  ['rooms', 'Rooms with doors'],
  ['random', 'Random walls'],
];


/**
 * The cell values of the shown map, copied out of wasm memory.
 * @param {Pick<import('./page-context.js').PageContext, 'lab' | 'memory'>} app
 */
export function readCells(app) {
  const lab = app.lab;
  return new Uint8Array(app.memory.buffer, lab.cellsPtr(), lab.width * lab.height).slice();
}

/**
 * Wires the editor's controls into `app.ui.editSection`. Returns `{ destroy() }`.
 * @param {EditorContext} app
 */
export function attachEditor(app) {
  const ui = app.ui;
  const section = ui.editSection;
  const id = (name) => `pl-${name}-${Math.random().toString(36).slice(2, 8)}`;

  // The erase brush paints ground; it goes after walls.
  const walls = ui.brush.querySelector('option[value="0"]');
  const erase = el('option', { value: '1', text: 'Erase (ground)' });
  if (walls) walls.after(erase);
  else ui.brush.append(erase);

  const generator = el('select', { testid: 'generator', id: id('generator') });
  options(generator, GENERATORS.map((g) => g[0]), Object.fromEntries(GENERATORS));
  const density = el('input', {
    type: 'range', testid: 'density', min: '0', max: '90', step: '1', value: '30',
  });
  const densityLabel = el('output', { class: 'pl-density-value', 'aria-live': 'polite' });
  const densityField = el(
    'label',
    { class: 'pl-field pl-density', hidden: true },
    el('span', { text: 'Wall density' }),
    el('span', { class: 'pl-range' }, density, densityLabel),
  );
  const seed = el('input', {
    type: 'number', testid: 'seed', min: '0', max: String(MAX_SEED), step: '1', value: String(app.lab.settings().seed), inputmode: 'numeric',
    title: 'The seed of Generate, and of crash and turn\'s random side rule',
  });
  const dice = el('button', {
    type: 'button', testid: 'new-seed', class: 'pl-btn pl-small', text: 'New seed',
    title: 'Pick a random seed and generate',
  });
  const generate = el('button', {
    type: 'button', testid: 'generate', class: 'pl-btn pl-small pl-primary', text: 'Generate',
    title: 'Replace the map with a generated one of the same size',
  });
  const width = el('input', {
    type: 'number', testid: 'width', min: '1', max: String(MAX_SIDE), step: '1', inputmode: 'numeric', 'aria-label': 'Width in cells',
  });
  const height = el('input', {
    type: 'number', testid: 'height', min: '1', max: String(MAX_SIDE), step: '1', inputmode: 'numeric', 'aria-label': 'Height in cells',
  });
  const resize = el('button', {
    type: 'button', testid: 'resize', class: 'pl-btn pl-small', text: 'Resize',
    title: 'Change the size: cells that still fit stay, new cells are ground',
  });

  const block = el(
    'div',
    { class: 'pl-editor' },
    el('h3', { text: 'Generate' }),
    el('label', { class: 'pl-field' }, el('span', { text: 'Kind' }), generator),
    densityField,
    el('label', { class: 'pl-field' }, el('span', { text: 'Seed' }), seed),
    el('div', { class: 'pl-row' }, generate, dice),
    el('h3', { text: 'Size' }),
    el(
      'div',
      { class: 'pl-row pl-size' },
      el('label', { class: 'pl-size-field' }, el('span', { text: 'Width' }), width),
      el('span', { 'aria-hidden': 'true', text: '×' }),
      el('label', { class: 'pl-size-field' }, el('span', { text: 'Height' }), height),
      resize,
    ),
  );
  section.append(block);

  const showDensity = () => {
    densityLabel.textContent = `${density.value} %`;
    densityField.hidden = generator.value !== 'random';
  };
  const showSize = () => {
    if (document.activeElement !== width) width.value = String(app.lab.width);
    if (document.activeElement !== height) height.value = String(app.lab.height);
  };
  showDensity();
  showSize();

  /** A whole number from `min` to `max`, or null after a message naming `name`. */
  function whole(input, name, min, max, what) {
    const raw = input.value.trim();
    const value = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
    if (value >= min && value <= max) return value;
    app.say(`${name}: ${what}; got ${quote(raw)}. The map is unchanged.`);
    return null;
  }

  function run() {
    const kind = generator.value;
    const s = whole(seed, 'Seed', 0, MAX_SEED, `a seed is a whole number from 0 to ${MAX_SEED}`);
    if (s === null) return;
    const d = Number(density.value) / 100;
    try {
      app.lab.generate(kind, s, d);
    } catch (e) {
      app.say(`Generate: ${e.message}. The map is unchanged.`);
      return;
    }
    const name = { maze: 'maze', rooms: 'rooms with doors', random: 'random walls' }[kind] ?? kind;
    const extra = kind === 'random' ? `, ${density.value} % walls` : '';
    app.showNewMap(`Generated: ${name}${extra}, seed ${s}`, 'generate');
    const promise = {
      maze: 'A perfect maze, carved by recursive backtracking: every open cell is reachable by exactly one route, so start and goal are connected.',
      rooms: 'Every room is reachable through its doors, so start and goal are connected.',
      random: 'Start and goal lie in the largest open region, when there is one; nothing promises a path.',
    }[kind];
    app.narrate(`Generated a ${app.lab.width} × ${app.lab.height} map from seed ${s}. ${promise}`);
    app.changed();
  }

  function resizeMap() {
    const limit = `a map may be 1 to ${MAX_SIDE} cells`;
    const w = whole(width, 'Width', 1, MAX_SIDE, `${limit} wide`);
    if (w === null) return;
    const h = whole(height, 'Height', 1, MAX_SIDE, `${limit} high`);
    if (h === null) return;
    const lab = app.lab;
    const [ow, oh] = [lab.width, lab.height];
    if (w === ow && h === oh) return;
    const old = readCells(app);
    const cells = new Uint8Array(w * h).fill(1);
    for (let y = 0; y < Math.min(h, oh); y++) {
      cells.set(old.subarray(y * ow, y * ow + Math.min(w, ow)), y * w);
    }
    const ends = [['start', lab.startX, lab.startY], ['goal', lab.goalX, lab.goalY]];
    try {
      lab.loadCells(w, h, cells);
    } catch (e) {
      app.say(`Resize: ${e.message}. The map is unchanged.`);
      return;
    }
    // Start and goal stay where they were when they still fit (their cells are open).
    for (const [which, x, y] of ends) {
      if (x >= w || y >= h) continue;
      try {
        if (which === 'start') lab.setStart(x, y);
        else lab.setGoal(x, y);
      } catch {
        // The other end took a default place on this cell; this one keeps its default.
      }
    }
    const base = app.mapTitle?.replace(/ \(resized\)$/, '') || 'map';
    app.showNewMap(`${base} (resized)`, 'resize');
    app.narrate(`Resized from ${ow} × ${oh} to ${w} × ${h}: cells that fit were kept, new cells are ground.`);
    app.changed();
  }

  function onEdit(event) {
    const what = event.detail?.what;
    // A map whose cells change is the user's own map, marked as edited; a preset stops being
    // named in the URL.
    const base = app.mapTitle || app.mapName || 'map';
    if (['paint', 'erase', 'clear'].includes(what) && (app.mapName || !base.endsWith('(edited)'))) {
      const preset = app.mapName;
      const title = base.endsWith('(edited)') ? base : `${base} (edited)`;
      app.nameOwnMap(title);
      if (preset) app.changed();
    }
    showSize();
  }

  generator.addEventListener('change', showDensity);
  density.addEventListener('input', showDensity);
  generate.addEventListener('click', run);
  dice.addEventListener('click', () => {
    seed.value = String(Math.floor(Math.random() * (MAX_SEED + 1)));
    run();
  });
  resize.addEventListener('click', resizeMap);
  for (const input of [width, height]) {
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') resizeMap();
    });
  }
  seed.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') run();
  });
  // The page's seed also tosses crash and turn's coin (hand=random).
  seed.addEventListener('change', () => {
    const raw = seed.value.trim();
    const s = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
    if (!(s <= MAX_SEED)) return;
    app.lab.setSeed(s);
    app.changed();
  });
  app.root.addEventListener('pathlab-edit', onEdit);

  return {
    destroy() {
      app.root.removeEventListener('pathlab-edit', onEdit);
    },
  };
}
