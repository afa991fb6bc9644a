// Costs on links, in the panel's Links section: teleports (a jump from one cell to another at a
// chosen cost, with the estimate that goes with them) and slopes (a height per cell: a move
// costs more uphill than downhill, so the way there and the way back differ). The rules live in
// the core (Lab.setTeleports, Lab.setSlopes, Lab.cheapestCost, Lab.cheapestBack); this module
// adds the grid tools, draws the links over the grid (a layer of the Painter), warns when the
// plain estimate is blind to teleports, and reads and writes the URL keys:
//
//   teleports=FX.FY.TX.TY.COST.BOTH_FX.FY.TX.TY.COST.BOTH...
//       one teleport per `_`-separated item: entry cell (FX, FY), exit cell (TX, TY), the cost
//       of the jump (a number >= 0, at most three decimals, so `2.5` makes the item seven
//       dot-separated parts; the cost is what lies between the fourth and the last dot) and
//       BOTH = 1 when it also leads back, 0 when it is one-way. At most 64 teleports.
//   teleport-h=plain|teleports
//       the estimate with teleports: `plain` is the grid's heuristic, blind to them (it can
//       overestimate); `teleports` (the default) knows them and never overestimates.
//   heights=W.H.CELLS
//       a height from 0 to 9 per cell, in share.js's grid text form (run-length, base64url);
//       W and H must be the map's size.
//   uphill=U, downhill=D
//       the extra cost per unit of height climbed and descended (defaults 2 and 0.5).
//
// Teleports and slopes do not go together on one map: setting one removes the other. Loading,
// generating or resizing a map removes both (the core does). Every value from a URL is
// checked; a bad one gives a message (as text, never markup) and the map is kept.

import { el, options } from './dom.js';
import { quote, text } from './values.js';
import { decodeGrid, encodeGrid } from './share.js';
import { formatCost, nameOf } from './warnings.js';
import { statusName, Terrain } from './pkg/pathlab_wasm.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there).
 * @typedef {Pick<import('./page-context.js').PageContext, 'canvas' | 'changed' | 'config' | 'hover' | 'lab' | 'layers' | 'mapChanged' | 'narrate' | 'painter' | 'root' | 'say' | 'settings' | 'showNewMap' | 'syncSettings' | 'touch' | 'ui'>} LinksContext
 */

/** The most teleports a map may have (the core's limit). */
export const MAX_TELEPORTS = 64;
/** The highest height the brush and the links paint. */
export const MAX_HEIGHT = 9;
/** The largest teleport cost, and the largest cost per unit of height. */
export const MAX_LINK_COST = 10000;
/** Default extra cost per unit of height climbed and descended. */
export const DEFAULT_UPHILL = 2;
export const DEFAULT_DOWNHILL = 0.5;
/** The estimate used with teleports unless told otherwise. */
export const DEFAULT_TELEPORT_H = 'teleports';

/** The URL keys this module reads and writes (config.js passes them through unchecked). */
export const LINK_KEYS = ['teleports', 'teleport-h', 'heights', 'uphill', 'downhill'];

const TELEPORT_H = {
  plain: 'plain (blind to teleports)',
  teleports: 'teleport-aware',
};

/** Colour of teleports on the grid (dark violet: apart from the state colours and the path). */
const TELEPORT_COLOR = '#6a2c91';
/** Colour of height shading, contours and numbers. */
const HEIGHT_RGB = [107, 74, 31];

// ---- URL values ----------------------------------------------------------------------------

/** A cost as the URL writes it: at most three decimals, no exponent. */
function costText(cost) {
  return String(Number(cost.toFixed(3)));
}

/** Teleports `[[fx, fy, tx, ty, cost, both], ...]` as the `teleports=` text. */
export function encodeTeleports(list) {
  return list.map(([fx, fy, tx, ty, cost, both]) => `${fx}.${fy}.${tx}.${ty}.${costText(cost)}.${both ? 1 : 0}`).join('_');
}

const ITEM = /^(\d{1,5})\.(\d{1,5})\.(\d{1,5})\.(\d{1,5})\.(\d{1,5}(?:\.\d{1,3})?)\.([01])$/;

/**
 * Reads a `teleports=` value (the text form, or an array of six-number arrays from mount()).
 * Returns `[[fx, fy, tx, ty, cost, both], ...]` or throws an Error saying what is wrong. The
 * cells are not checked against a map here (see checkTeleports).
 */
export function parseTeleports(value) {
  const items = Array.isArray(value)
    ? value.map((t) => (Array.isArray(t) ? t.join('.') : String(t)))
    : text(value).split('_');
  if (items.length > MAX_TELEPORTS) throw new Error(`${items.length} teleports, but a map may have at most ${MAX_TELEPORTS}`);
  return items.map((item, k) => {
    const m = ITEM.exec(item.trim());
    if (!m) {
      throw new Error(`teleport ${k + 1} is ${quote(item)}, not FX.FY.TX.TY.COST.BOTH (entry and exit cells as whole numbers, a cost such as 1 or 2.5, then 1 for both ways or 0 for one way)`);
    }
    const cost = Number(m[5]);
    if (!(cost <= MAX_LINK_COST)) throw new Error(`teleport ${k + 1} costs ${m[5]}, over the limit of ${MAX_LINK_COST}`);
    return [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), cost, m[6] === '1' ? 1 : 0];
  });
}

/**
 * What is wrong with `list` on a `width` x `height` map whose cell (x, y) is a wall when
 * `isWall(x, y)`: a sentence, or null when every teleport fits.
 */
export function checkTeleports(list, width, height, isWall) {
  for (const [k, [fx, fy, tx, ty]] of list.entries()) {
    for (const [what, x, y] of [['entry', fx, fy], ['exit', tx, ty]]) {
      if (x >= width || y >= height) return `teleport ${k + 1}: its ${what} (${x},${y}) is outside the ${width} x ${height} map`;
      if (isWall(x, y)) return `teleport ${k + 1}: its ${what} (${x},${y}) is a wall`;
    }
    if (fx === tx && fy === ty) return `teleport ${k + 1} leads from (${fx},${fy}) to the same cell`;
  }
  return null;
}

/** Reads a cost per unit of height (`uphill=`, `downhill=`): a number from 0 to MAX_LINK_COST, or null. */
export function parseSlopeCost(value) {
  const t = text(value);
  if (!/^\d{1,5}(\.\d{1,4})?$/.test(t)) return null;
  const n = Number(t);
  return n <= MAX_LINK_COST ? n : null;
}

// ---- the module --------------------------------------------------------------------------------

/** Adds links.css to the document once. */
function ensureStylesheet() {
  const href = new URL('./links.css', import.meta.url).href;
  if ([.../** @type {NodeListOf<HTMLLinkElement>} */ (document.querySelectorAll('link[rel="stylesheet"]'))].some((l) => l.href === href)) return;
  document.head.append(el('link', { rel: 'stylesheet', href }));
}

function at(x, y) {
  return `(${x},${y})`;
}

/** The cells of the straight line from a to b (Bresenham), a and b included. */
function lineCells(a, b) {
  const out = [];
  let { x, y } = a;
  const dx = Math.abs(b.x - x);
  const dy = -Math.abs(b.y - y);
  const sx = x < b.x ? 1 : -1;
  const sy = y < b.y ? 1 : -1;
  let err = dx + dy;
  for (;;) {
    out.push([x, y]);
    if (x === b.x && y === b.y) return out;
    const e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y += sy;
    }
  }
}

/**
 * Adds the Links section to `app`'s panel, its tools on the grid, its drawing (app.layers) and
 * its read-outs. Returns `{ start(), update(), config(), blind(), destroy() }`: `start` applies
 * the URL's link keys once the map is loaded, `update` follows each repaint of the read-outs,
 * `config` gives the link keys for the URL and share links, `blind` says whether teleports
 * are on the map with the plain estimate.
 * @param {LinksContext} app
 */
export function attachLinks(app) {
  ensureStylesheet();
  const ui = app.ui;
  const canvas = app.canvas;
  const uid = (name) => `pl-${name}-${Math.random().toString(36).slice(2, 8)}`;

  // What the Lab holds, read back after every change (the Lab is the one source of truth).
  let view = { kind: 'none', teleports: [], heuristic: '', uphill: DEFAULT_UPHILL, downhill: DEFAULT_DOWNHILL };
  let heights = new Uint8Array(0);
  let heightImage = null; // { canvas, key } for the shading
  let linksVersion = 0;
  let tool = 'edit'; // edit | teleport | height
  let pending = null; // a teleport's entry, waiting for its exit
  let drag = null;
  let shown = '';
  let cheapest = { key: '', there: null, back: null };

  // ---- the controls ----
  const teleportTool = el('button', {
    type: 'button', testid: 'teleport-tool', class: 'pl-btn pl-small pl-links-tool', 'aria-pressed': 'false',
    text: 'Add teleport', title: 'Click the entry cell, then the exit cell (or drag from one to the other)',
  });
  const cost = el('input', {
    type: 'number', testid: 'teleport-cost', id: uid('teleport-cost'), min: '0', max: String(MAX_LINK_COST), step: '0.5', value: '1', inputmode: 'decimal',
  });
  const both = el('input', { type: 'checkbox', testid: 'teleport-both', id: uid('teleport-both') });
  const heuristic = el('select', { testid: 'teleport-heuristic', id: uid('teleport-heuristic') });
  options(heuristic, Object.keys(TELEPORT_H), TELEPORT_H);
  heuristic.value = DEFAULT_TELEPORT_H;
  const list = el('ul', { class: 'pl-links-list', testid: 'teleport-list', 'aria-label': 'Teleports' });
  const example = el('button', {
    type: 'button', testid: 'teleport-example', class: 'pl-btn pl-small',
    text: 'Teleport example', title: 'A 20 x 8 map where A* with the plain estimate misses a teleport',
  });

  const heightTool = el('button', {
    type: 'button', testid: 'height-tool', class: 'pl-btn pl-small pl-links-tool', 'aria-pressed': 'false',
    text: 'Paint heights', title: 'Drag on the grid to give cells the chosen height',
  });
  const heightValue = el('input', {
    type: 'range', testid: 'height-value', min: '0', max: String(MAX_HEIGHT), step: '1', value: '3', 'aria-label': 'Height to paint',
  });
  const heightLabel = el('output', { class: 'pl-links-height-value', 'aria-live': 'polite' });
  const uphill = el('input', {
    type: 'number', testid: 'uphill', id: uid('uphill'), min: '0', max: String(MAX_LINK_COST), step: '0.5', value: String(DEFAULT_UPHILL), inputmode: 'decimal',
  });
  const downhill = el('input', {
    type: 'number', testid: 'downhill', id: uid('downhill'), min: '0', max: String(MAX_LINK_COST), step: '0.5', value: String(DEFAULT_DOWNHILL), inputmode: 'decimal',
  });
  const remove = el('button', {
    type: 'button', testid: 'remove-links', class: 'pl-btn pl-small', text: 'Remove links',
    title: 'Remove every teleport and height',
  });
  const hint = el('p', { class: 'pl-hint pl-links-hint', testid: 'links-hint', 'aria-live': 'polite' });
  const state = el('p', { class: 'pl-hint', testid: 'links-state' });

  const section = el(
    'section',
    { class: 'pl-section pl-links', testid: 'links' },
    el('h2', { text: 'Links' }),
    el('p', { class: 'pl-hint', text: 'Costs on links instead of cells: teleports, or heights that make a move dearer uphill than downhill. A map has one or the other.' }),
    el('h3', { text: 'Teleports' }),
    el('div', { class: 'pl-row' }, teleportTool, example),
    el('label', { class: 'pl-field' }, el('span', { text: 'Cost of a new teleport' }), cost),
    el('label', { class: 'pl-links-check' }, both, el('span', { text: 'Both ways' })),
    el('label', { class: 'pl-field' }, el('span', { text: 'Estimate' }), heuristic),
    list,
    el('h3', { text: 'Slopes' }),
    el('div', { class: 'pl-row' }, heightTool),
    el('label', { class: 'pl-field' }, el('span', { text: 'Height to paint' }), el('span', { class: 'pl-range' }, heightValue, heightLabel)),
    el('label', { class: 'pl-field' }, el('span', { text: 'Uphill: extra cost per unit climbed' }), uphill),
    el('label', { class: 'pl-field' }, el('span', { text: 'Downhill: extra cost per unit descended' }), downhill),
    hint,
    state,
    remove,
  );
  ui.editSection.after(section);
  if (app.config.lock) section.hidden = true;

  // The cheapest costs there and back, beside the path cost under the grid.
  const there = el('output', { testid: 'links-there', class: 'pl-value' });
  const back = el('output', { testid: 'links-back', class: 'pl-value' });
  const costs = el(
    'div',
    { class: 'pl-readout pl-links-costs', testid: 'links-costs', hidden: true, title: 'Cheapest costs with the links (Dijkstra), each way' },
    el('span', { class: 'pl-label', text: 'Cheapest' }),
    el('span', {}, 'start → goal: ', there, ', goal → start: ', back),
  );
  ui.steps.before(costs);

  // The warning about the plain estimate goes first among the page's warnings.
  const warning = el('li', { class: 'pl-warning pl-warning-teleports', testid: 'links-warning', 'data-kind': 'teleports', hidden: true });
  const warningsBox = app.root.querySelector('[data-testid="warnings"]');
  const warningsList = warningsBox?.querySelector('.pl-warnings-list');
  // In the page only while it is shown, so that the warnings box lists only warnings in force.
  const warningHome = el('ul', { class: 'pl-warnings-list pl-links-warnings' }, warning);
  const showWarning = (on) => {
    if (!on) warningHome.remove();
    else if (!warningHome.isConnected) {
      if (warningsList) warningsList.before(warningHome);
      else (warningsBox ?? costs.parentElement).after(warningHome);
    }
  };

  // ---- reading the Lab back ----

  function refresh() {
    try {
      view = app.lab.links();
    } catch {
      view = { kind: 'none', teleports: [], heuristic: '', uphill: DEFAULT_UPHILL, downhill: DEFAULT_DOWNHILL };
    }
    heights = view.kind === 'slopes' ? app.lab.heights() : new Uint8Array(0);
    heightImage = null;
    linksVersion += 1;
    if (view.kind === 'teleports') heuristic.value = view.heuristic;
    if (view.kind === 'slopes') {
      if (document.activeElement !== uphill) uphill.value = String(view.uphill);
      if (document.activeElement !== downhill) downhill.value = String(view.downhill);
    }
    showList();
    showState();
  }

  function showList() {
    const items = view.kind === 'teleports' ? view.teleports : [];
    list.replaceChildren(
      ...items.map(([fx, fy, tx, ty, c, b], k) =>
        el(
          'li',
          { 'data-index': String(k) },
          el('span', { text: `${at(fx, fy)} ${b ? '↔' : '→'} ${at(tx, ty)} · cost ${formatCost(c)}${b ? ' · both ways' : ''}` }),
          el('button', {
            type: 'button', class: 'pl-btn pl-small pl-links-delete', testid: 'teleport-delete',
            'aria-label': `Delete teleport ${k + 1}, ${at(fx, fy)} to ${at(tx, ty)}`, title: 'Delete this teleport', text: '✕',
            onclick: () => deleteTeleport(k),
          }),
        ),
      ),
    );
    list.hidden = items.length === 0;
  }

  function showState() {
    let t;
    if (view.kind === 'teleports') t = `${view.teleports.length} teleport${view.teleports.length === 1 ? '' : 's'} on the map.`;
    else if (view.kind === 'slopes') {
      let top = 0;
      for (const h of heights) if (h > top) top = h;
      t = `Heights on the map (highest ${top}): uphill +${formatCost(view.uphill)} and downhill +${formatCost(view.downhill)} per unit.`;
    } else t = 'No links on the map.';
    state.textContent = t;
    remove.disabled = view.kind === 'none';
  }

  function showTool() {
    teleportTool.setAttribute('aria-pressed', String(tool === 'teleport'));
    heightTool.setAttribute('aria-pressed', String(tool === 'height'));
    canvas.classList.toggle('pl-links-active', tool !== 'edit');
    heightLabel.textContent = heightValue.value;
    if (tool === 'teleport') {
      hint.textContent = pending
        ? `Entry ${at(pending.x, pending.y)} chosen: click the exit cell (Escape cancels).`
        : 'Click the entry cell, then the exit cell, or drag from one to the other. Click “Add teleport” again to paint walls.';
    } else if (tool === 'height') {
      hint.textContent = `Drag on the grid to paint height ${heightValue.value}. Click “Paint heights” again to paint walls.`;
    } else hint.textContent = '';
  }

  /** After the links changed: settings, the note, warnings, the URL, a repaint. */
  function changed(narration) {
    refresh();
    app.syncSettings();
    app.mapChanged('links');
    if (narration) app.narrate(narration);
    app.touch();
    app.changed();
  }

  // ---- changing the links ----

  function flat(items) {
    return Float64Array.from(items.flat().map(Number));
  }

  /** Puts `items` on the map with the estimate `h`; says why not and returns false on error. */
  function setTeleports(items, h = heuristic.value, narration = '') {
    const hadSlopes = view.kind === 'slopes';
    try {
      app.lab.setTeleports(flat(items), h);
    } catch (e) {
      app.say(`Teleports: ${e.message}. The links are unchanged.`);
      refresh();
      return false;
    }
    const note = hadSlopes && items.length ? ' The heights were removed: a map has teleports or slopes, not both.' : '';
    changed(`${narration}${note}`.trim());
    return true;
  }

  function addTeleport(from, to) {
    const c = readCost();
    if (c === null) return;
    for (const [what, p] of [['entry', from], ['exit', to]]) {
      if (app.lab.cell(p.x, p.y) === Terrain.Wall) {
        app.say(`A teleport's ${what} cannot be a wall; ${at(p.x, p.y)} is one.`);
        return;
      }
    }
    if (from.x === to.x && from.y === to.y) return;
    const items = view.kind === 'teleports' ? view.teleports.map((t) => [...t]) : [];
    if (items.length >= MAX_TELEPORTS) {
      app.say(`A map may have at most ${MAX_TELEPORTS} teleports.`);
      return;
    }
    const b = both.checked ? 1 : 0;
    items.push([from.x, from.y, to.x, to.y, c, b]);
    setTeleports(items, heuristic.value, `Added a teleport ${at(from.x, from.y)} ${b ? '↔' : '→'} ${at(to.x, to.y)} costing ${formatCost(c)}; the search re-ran to step ${app.lab.steps}.`);
  }

  function deleteTeleport(k) {
    const items = view.teleports.filter((_, i) => i !== k).map((t) => [...t]);
    const [fx, fy, tx, ty] = view.teleports[k];
    setTeleports(items, heuristic.value, `Deleted the teleport ${at(fx, fy)} → ${at(tx, ty)}.`);
  }

  /** The new teleport's cost from its field, or null after a message. */
  function readCost() {
    const raw = cost.value.trim();
    const n = /^\d{1,5}(\.\d+)?$/.test(raw) ? Number(Number(raw).toFixed(3)) : NaN;
    if (n >= 0 && n <= MAX_LINK_COST) return n;
    app.say(`Teleport cost: expected a number from 0 to ${MAX_LINK_COST}, got ${quote(raw)}.`);
    return null;
  }

  /** A cost per unit of height from a field, or null after a message (the field is put back). */
  function readSlope(input, name, current) {
    const n = parseSlopeCost(input.value);
    if (n !== null) return n;
    app.say(`${name}: expected a number from 0 to ${MAX_LINK_COST} (at most four decimals), got ${quote(input.value)}; keeping ${current}.`);
    input.value = String(current);
    return null;
  }

  function setSlopes(cells, up, down, narration = '') {
    const hadTeleports = view.kind === 'teleports' ? view.teleports.length : 0;
    try {
      app.lab.setSlopes(cells, up, down);
    } catch (e) {
      app.say(`Slopes: ${e.message}. The links are unchanged.`);
      refresh();
      return false;
    }
    const note = hadTeleports ? ` The ${hadTeleports === 1 ? 'teleport was' : `${hadTeleports} teleports were`} removed: a map has teleports or slopes, not both.` : '';
    changed(`${narration}${note}`.trim());
    return true;
  }

  function currentSlopeCosts() {
    const up = view.kind === 'slopes' ? view.uphill : parseSlopeCost(uphill.value) ?? DEFAULT_UPHILL;
    const down = view.kind === 'slopes' ? view.downhill : parseSlopeCost(downhill.value) ?? DEFAULT_DOWNHILL;
    return [up, down];
  }

  /** Paints `value` on the cells from a to b; returns true when a height changed. */
  function paintHeights(a, b, value) {
    const w = app.lab.width;
    const n = w * app.lab.height;
    const cells = heights.length === n ? heights.slice() : new Uint8Array(n);
    let changedAny = heights.length !== n;
    for (const [x, y] of lineCells(a, b)) {
      const i = y * w + x;
      if (cells[i] !== value) {
        cells[i] = value;
        changedAny = true;
      }
    }
    if (!changedAny) return false;
    const up = readSlope(uphill, 'Uphill', currentSlopeCosts()[0]);
    const down = readSlope(downhill, 'Downhill', currentSlopeCosts()[1]);
    if (up === null || down === null) return false;
    return setSlopes(cells, up, down, `Painted height ${value}; the search re-ran to step ${app.lab.steps}.`);
  }

  function clearLinks(narration = 'Removed every teleport and height.') {
    try {
      app.lab.clearLinks();
    } catch (e) {
      app.say(`Remove links: ${e.message}`);
      return;
    }
    pending = null;
    changed(narration);
    showTool();
  }

  function setTool(next) {
    tool = tool === next ? 'edit' : next;
    pending = null;
    drag = null;
    showTool();
    app.touch();
  }

  // ---- the teaching example ----

  function loadExample() {
    const w = 20;
    const h = 8;
    const cells = new Uint8Array(w * h).fill(1);
    // A short wall across the straight way makes A* walk round it, still far from the teleport.
    for (let y = 2; y <= 5; y++) cells[y * w + 10] = 0;
    try {
      app.lab.loadCells(w, h, cells);
      app.lab.setStart(2, 4);
      app.lab.setGoal(17, 4);
      app.lab.setAlgorithm('astar');
      app.lab.setWeight(1);
    } catch (e) {
      app.say(`Teleport example: ${e.message}`);
      return;
    }
    app.showNewMap('Teleport example: plain A* misses the shortcut', 'load');
    heuristic.value = 'plain';
    both.checked = false;
    setTeleports([[2, 6, 17, 6, 1, 0]], 'plain');
    app.narrate('A teleport two cells below the start leads, for 1, to two cells below the goal: the cheapest way costs 5. The plain estimate cannot see it, so A* walks round the wall instead. Run it, then choose the teleport-aware estimate.');
  }

  // ---- the grid tools (before edit.js sees the press) ----

  const inside = (c) => c.x >= 0 && c.y >= 0 && c.x < app.lab.width && c.y < app.lab.height;
  const clamp = (c) => ({
    x: Math.min(app.lab.width - 1, Math.max(0, c.x)),
    y: Math.min(app.lab.height - 1, Math.max(0, c.y)),
  });

  function onDown(event) {
    if (tool === 'edit' || event.target !== canvas) return;
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    const c = app.painter.cellAt(event);
    if (!inside(c)) return;
    // The editor (edit.js) does not see this press: no wall is painted, no marker moves.
    event.stopPropagation();
    event.preventDefault();
    canvas.focus({ preventScroll: true });
    try {
      canvas.setPointerCapture(event.pointerId);
    } catch {
      // A synthetic event has no pointer to capture.
    }
    if (tool === 'teleport') {
      const from = pending ?? { x: c.x, y: c.y };
      if (!pending && app.lab.cell(c.x, c.y) === Terrain.Wall) {
        app.say(`A teleport's entry cannot be a wall; ${at(c.x, c.y)} is one.`);
        return;
      }
      drag = { id: event.pointerId, from, to: { x: c.x, y: c.y }, second: Boolean(pending) };
      app.touch();
    } else if (tool === 'height') {
      const value = Number(heightValue.value);
      drag = { id: event.pointerId, last: { x: c.x, y: c.y }, value };
      paintHeights(c, c, value);
    }
  }

  function onMove(event) {
    if (!drag || event.pointerId !== drag.id) return;
    const c = clamp(app.painter.cellAt(event));
    if (tool === 'teleport') {
      if (c.x !== drag.to.x || c.y !== drag.to.y) {
        drag.to = c;
        app.touch();
      }
    } else if (tool === 'height') {
      if (c.x === drag.last.x && c.y === drag.last.y) return;
      paintHeights(drag.last, c, drag.value);
      drag.last = c;
    }
  }

  function onUp(event) {
    if (!drag || event.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (canvas.hasPointerCapture?.(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
    if (tool !== 'teleport' || event.type === 'pointercancel') {
      app.touch();
      return;
    }
    const to = d.to;
    if (to.x === d.from.x && to.y === d.from.y) {
      // A click on the entry: choose it (or, the second time, cancel it).
      pending = d.second ? null : d.from;
      app.narrate(pending ? `Teleport entry ${at(pending.x, pending.y)}: now click its exit.` : 'Cancelled the new teleport.');
    } else {
      pending = null;
      addTeleport(d.from, to);
    }
    showTool();
    app.touch();
  }

  function onKey(event) {
    if (event.key === 'Escape' && (pending || drag)) {
      pending = null;
      drag = null;
      showTool();
      app.narrate('Cancelled the new teleport.');
      app.touch();
    }
  }

  // ---- edits of the map ----

  function onEdit(event) {
    const what = event.detail?.what;
    if (what === 'links' || what === 'start' || what === 'goal') return;
    if (['paint', 'erase', 'clear'].includes(what)) {
      // A wall painted on a teleport's end would make the teleport invalid for the next
      // rebuild (a change of algorithm or moves): such teleports go, with a word.
      if (view.kind !== 'teleports') return;
      const keep = view.teleports.filter(([fx, fy, tx, ty]) => app.lab.cell(fx, fy) !== Terrain.Wall && app.lab.cell(tx, ty) !== Terrain.Wall);
      if (keep.length === view.teleports.length) return;
      const gone = view.teleports.length - keep.length;
      setTeleports(keep.map((t) => [...t]), view.heuristic, '');
      app.say(`${gone === 1 ? 'A teleport was' : `${gone} teleports were`} removed: a wall was painted on ${gone === 1 ? 'its' : 'their'} end.`);
      return;
    }
    // A new map (loaded, generated, resized, restored): the core removed the links.
    pending = null;
    refresh();
  }

  // ---- drawing ----

  /** Heights: light shading (darker is higher), contour lines and, on large cells, the numbers. */
  function drawHeights(painter) {
    const w = app.lab.width;
    const h = app.lab.height;
    if (view.kind !== 'slopes' || heights.length !== w * h) return;
    const { ctx } = painter;
    const cs = painter.cellPx;
    const key = `${linksVersion}/${w}x${h}`;
    if (heightImage?.key !== key) {
      const off = document.createElement('canvas');
      off.width = w;
      off.height = h;
      const image = new ImageData(w, h);
      const px = new Uint32Array(image.data.buffer);
      const [r, g, b] = HEIGHT_RGB;
      for (let i = 0; i < heights.length; i++) {
        const a = heights[i] ? Math.round(255 * (0.06 + 0.045 * Math.min(heights[i], MAX_HEIGHT))) : 0;
        px[i] = (a << 24) | (b << 16) | (g << 8) | r;
      }
      off.getContext('2d').putImageData(image, 0, 0);
      heightImage = { canvas: off, key };
    }
    ctx.save();
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(heightImage.canvas, 0, 0, w, h, 0, 0, w * cs, h * cs);
    if (cs >= 8 && w * h <= 65536) {
      // Contours: a line on each edge between cells of different heights.
      const lines = new Path2D();
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const v = heights[y * w + x];
          if (x + 1 < w && heights[y * w + x + 1] !== v) {
            lines.moveTo((x + 1) * cs, y * cs);
            lines.lineTo((x + 1) * cs, (y + 1) * cs);
          }
          if (y + 1 < h && heights[(y + 1) * w + x] !== v) {
            lines.moveTo(x * cs, (y + 1) * cs);
            lines.lineTo((x + 1) * cs, (y + 1) * cs);
          }
        }
      }
      ctx.strokeStyle = `rgba(${HEIGHT_RGB.join(', ')}, 0.85)`;
      ctx.lineWidth = Math.max(1.5 * painter.dpr, cs * 0.05);
      ctx.stroke(lines);
    }
    if (cs >= 16 * painter.dpr && w * h <= 16384) {
      // The height in the top-right corner (the corner the g, h and f numbers leave free):
      // smaller, without its triangle, beside those numbers.
      const crowded = painter.numbersShown(w * h);
      const size = Math.round(crowded ? cs * 0.17 : Math.min(cs * 0.24, 15 * painter.dpr));
      ctx.font = `700 ${size}px system-ui, sans-serif`;
      ctx.textAlign = 'right';
      ctx.textBaseline = 'top';
      for (let i = 0; i < heights.length; i++) {
        if (!heights[i]) continue;
        const x = (i % w) * cs;
        const y = Math.floor(i / w) * cs;
        const label = crowded ? String(heights[i]) : `▲${heights[i]}`;
        ctx.lineWidth = Math.max(2, size * 0.25);
        ctx.strokeStyle = 'rgba(255, 255, 255, 0.85)';
        ctx.strokeText(label, x + cs - cs * 0.06, y + cs * 0.06);
        ctx.fillStyle = `rgb(${HEIGHT_RGB.join(', ')})`;
        ctx.fillText(label, x + cs - cs * 0.06, y + cs * 0.06);
      }
    }
    ctx.restore();
  }

  /** One teleport: ringed ends, a dashed curve with an arrow (both ends when both ways), the cost. */
  function drawTeleport(painter, [fx, fy, tx, ty, c, b], { preview = false } = {}) {
    const { ctx } = painter;
    const cs = painter.cellPx;
    const dpr = painter.dpr;
    const ax = (fx + 0.5) * cs;
    const ay = (fy + 0.5) * cs;
    const bx = (tx + 0.5) * cs;
    const by = (ty + 0.5) * cs;
    const ring = Math.max(5 * dpr, cs * 0.42);
    const width = Math.max(2 * dpr, Math.min(4 * dpr, cs * 0.07));
    ctx.save();
    // The ends.
    for (const [x, y] of [[ax, ay], [bx, by]]) {
      ctx.beginPath();
      ctx.arc(x, y, ring, 0, Math.PI * 2);
      ctx.lineWidth = width + 2 * dpr;
      ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
      ctx.stroke();
      ctx.lineWidth = width;
      ctx.strokeStyle = TELEPORT_COLOR;
      ctx.stroke();
    }
    const len = Math.hypot(bx - ax, by - ay);
    if (len < 1) {
      ctx.restore();
      return;
    }
    // A curve bowing to one side of the straight way: towards the nearer edge of the grid when
    // there is room (so it keeps clear of the middle, where paths run), else the other way.
    const ux = (bx - ax) / len;
    const uy = (by - ay) / len;
    const mx0 = (ax + bx) / 2;
    const my0 = (ay + by) / 2;
    const room = (nx, ny) => {
      const W = app.lab.width * cs;
      const H = app.lab.height * cs;
      const tx = nx > 1e-9 ? (W - mx0) / nx : nx < -1e-9 ? -mx0 / nx : Infinity;
      const ty = ny > 1e-9 ? (H - my0) / ny : ny < -1e-9 ? -my0 / ny : Infinity;
      return Math.min(tx, ty);
    };
    const left = room(uy, -ux);
    const right = room(-uy, ux);
    const near = Math.min(left, right);
    let side = left <= right ? 1 : -1;
    if (near < cs * 0.9) side = -side;
    const space = side === 1 ? left : right;
    // The curve's middle lies half the bow from the straight line: keep it on the grid.
    const bow = Math.max(cs * 0.6, Math.min(Math.max(len * 0.22, cs * 0.8), cs * 3.5, 2 * (space - cs * 0.3)));
    const cx = mx0 + uy * bow * side;
    const cy = my0 - ux * bow * side;
    // Start and end on the rings, along the curve's tangents there.
    const tip = (px, py) => {
      const d = Math.hypot(cx - px, cy - py) || 1;
      return [px + ((cx - px) / d) * ring, py + ((cy - py) / d) * ring, (px - cx) / d, (py - cy) / d];
    };
    const [sx, sy, sdx, sdy] = tip(ax, ay);
    const [ex, ey, edx, edy] = tip(bx, by);
    ctx.beginPath();
    ctx.moveTo(sx, sy);
    ctx.quadraticCurveTo(cx, cy, ex, ey);
    ctx.lineCap = 'round';
    ctx.setLineDash([]);
    ctx.lineWidth = width + 2.5 * dpr;
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.85)';
    ctx.stroke();
    ctx.setLineDash([7 * dpr, 5 * dpr].map((v) => Math.max(v, width * 2)));
    ctx.lineWidth = width;
    ctx.strokeStyle = TELEPORT_COLOR;
    ctx.globalAlpha = preview ? 0.6 : 1;
    ctx.stroke();
    ctx.setLineDash([]);
    // Arrow heads, pointing along the curve into the ring.
    const head = Math.max(7 * dpr, Math.min(cs * 0.32, 16 * dpr));
    const arrow = (x, y, dx, dy) => {
      ctx.beginPath();
      ctx.moveTo(x, y);
      ctx.lineTo(x - dx * head - dy * head * 0.5, y - dy * head + dx * head * 0.5);
      ctx.lineTo(x - dx * head + dy * head * 0.5, y - dy * head - dx * head * 0.5);
      ctx.closePath();
      ctx.fillStyle = TELEPORT_COLOR;
      ctx.fill();
      ctx.lineWidth = 1.2 * dpr;
      ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
      ctx.stroke();
    };
    arrow(ex, ey, edx, edy);
    if (b) arrow(sx, sy, sdx, sdy);
    // The cost in a label on the curve's middle.
    if (!preview || c !== null) {
      const mx = 0.25 * ax + 0.5 * cx + 0.25 * bx;
      const my = 0.25 * ay + 0.5 * cy + 0.25 * by;
      const size = Math.round(Math.max(11 * dpr, Math.min(cs * 0.34, 16 * dpr)));
      ctx.font = `700 ${size}px system-ui, sans-serif`;
      const label = formatCost(c);
      const tw = ctx.measureText(label).width;
      const pw = tw + size * 0.8;
      const ph = size * 1.35;
      ctx.beginPath();
      ctx.roundRect(mx - pw / 2, my - ph / 2, pw, ph, ph / 2);
      ctx.fillStyle = '#ffffff';
      ctx.fill();
      ctx.lineWidth = 1.5 * dpr;
      ctx.strokeStyle = TELEPORT_COLOR;
      ctx.stroke();
      ctx.fillStyle = TELEPORT_COLOR;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(label, mx, my + size * 0.04);
    }
    ctx.restore();
  }

  function drawTeleports(painter) {
    if (view.kind === 'teleports') for (const t of view.teleports) drawTeleport(painter, t);
    // The one being made: its entry ringed, and a preview to where the pointer is.
    const entry = drag && tool === 'teleport' ? drag.from : pending;
    if (!entry) return;
    const { ctx } = painter;
    const cs = painter.cellPx;
    ctx.save();
    ctx.beginPath();
    ctx.arc((entry.x + 0.5) * cs, (entry.y + 0.5) * cs, Math.max(5 * painter.dpr, cs * 0.42), 0, Math.PI * 2);
    ctx.setLineDash([4 * painter.dpr, 3 * painter.dpr]);
    ctx.lineWidth = Math.max(2 * painter.dpr, cs * 0.07);
    ctx.strokeStyle = TELEPORT_COLOR;
    ctx.stroke();
    ctx.restore();
    if (drag && tool === 'teleport' && (drag.to.x !== entry.x || drag.to.y !== entry.y)) {
      const c = Number(cost.value);
      drawTeleport(painter, [entry.x, entry.y, drag.to.x, drag.to.y, Number.isFinite(c) ? c : null, both.checked ? 1 : 0], { preview: true });
    }
  }

  const layer = {
    under: (painter) => drawHeights(painter),
    over: (painter) => drawTeleports(painter),
  };

  // ---- read-outs and the warning ----

  function cheapestCosts() {
    const lab = app.lab;
    const s = app.settings;
    const key = [linksVersion, editCount, lab.width, lab.height, lab.startX, lab.startY, lab.goalX, lab.goalY, s?.diagonal, s?.costs].join(',');
    if (cheapest.key === key) return cheapest;
    cheapest = { key, there: null, back: null };
    try {
      cheapest.there = lab.cheapestCost() ?? null;
      cheapest.back = lab.cheapestBack() ?? null;
    } catch (e) {
      app.say(`The cheapest costs with the links could not be computed: ${e.message}`);
    }
    return cheapest;
  }

  /** After each repaint of the read-outs: the cheapest costs each way and the warning. */
  function update() {
    const lab = app.lab;
    const s = app.settings;
    if (!s) return;
    hoverHeight();
    const linked = view.kind !== 'none';
    const blind = isBlind() && s.uses_heuristic;
    const status = statusName(lab.status);
    const c = lab.cost ?? null;
    const key = [linksVersion, editCount, lab.startX, lab.startY, lab.goalX, lab.goalY, s.diagonal, s.costs, blind, status, c, s.algo].join('|');
    if (key === shown) return;
    shown = key;
    costs.hidden = !linked;
    if (linked) {
      const { there: t, back: b } = cheapestCosts();
      there.textContent = t === null ? 'no path' : formatCost(t);
      there.dataset.value = t === null ? '' : String(t);
      back.textContent = b === null ? 'no path' : formatCost(b);
      back.dataset.value = b === null ? '' : String(b);
    }
    warning.hidden = !blind;
    showWarning(blind);
    if (!blind) return;
    const name = nameOf(s.algo);
    const parts = [
      el('strong', { text: 'Teleports with the plain estimate: ' }),
      `the estimate ignores the teleports, so near one it can be more than the true remaining cost (it overestimates), and ${name} may miss the cheapest path. Choose “teleport-aware” under Links.`,
    ];
    const best = cheapestCosts().there;
    delete warning.dataset.cost;
    delete warning.dataset.cheapest;
    if (status === 'found' && c !== null && best !== null) {
      const verdict = Math.abs(c - best) > 1e-9
        ? `${name} found ${formatCost(c)}; the cheapest is ${formatCost(best)}.`
        : `${name} found ${formatCost(c)}, the cheapest, this time.`;
      parts.push(' ', el('span', { class: 'pl-links-verdict', testid: 'links-verdict', text: verdict }));
      warning.dataset.cost = String(c);
      warning.dataset.cheapest = String(best);
    }
    warning.replaceChildren(...parts);
  }

  /** The hovered cell's height in the Cell panel. */
  function hoverHeight() {
    const dl = ui.cellInfo.querySelector('dl');
    if (!dl || !app.hover || view.kind !== 'slopes' || dl.querySelector('[data-key="height"]')) return;
    const v = heights[app.hover.y * app.lab.width + app.hover.x];
    if (v === undefined) return;
    dl.append(el('dt', { text: 'height' }), el('dd', { 'data-key': 'height', text: String(v) }));
  }

  function isBlind() {
    return view.kind === 'teleports' && view.heuristic === 'plain';
  }

  // Edits of the map change the cheapest costs: count them.
  let editCount = 0;
  const countEdits = (event) => {
    if (event.detail?.what !== 'links') editCount += 1;
  };

  // ---- the URL ----

  /** The link keys for the URL and share links; null leaves a key out. */
  function config() {
    const out = { teleports: null, 'teleport-h': null, heights: null, uphill: null, downhill: null };
    if (view.kind === 'teleports' && view.teleports.length) {
      out.teleports = encodeTeleports(view.teleports);
      if (view.heuristic !== DEFAULT_TELEPORT_H) out['teleport-h'] = view.heuristic;
    } else if (view.kind === 'slopes') {
      try {
        out.heights = encodeGrid({ width: app.lab.width, height: app.lab.height, cells: Array.from(heights) });
      } catch {
        out.heights = null;
      }
      if (view.uphill !== DEFAULT_UPHILL) out.uphill = String(view.uphill);
      if (view.downhill !== DEFAULT_DOWNHILL) out.downhill = String(view.downhill);
    }
    return out;
  }

  /** Applies the configuration's link keys to the loaded map; each bad value gets a message. */
  function start() {
    const c = app.config;
    const given = (key) => c[key] !== undefined && c[key] !== null && text(c[key]) !== '';
    const say = (key, detail) => app.say(`Parameter "${key}": ${detail}`);
    let h = DEFAULT_TELEPORT_H;
    if (given('teleport-h')) {
      const v = text(c['teleport-h']).toLowerCase();
      if (v in TELEPORT_H) h = v;
      else say('teleport-h', `expected plain (the grid's estimate, blind to teleports) or teleports (an estimate that knows them), got ${quote(v)}; using teleports.`);
    }
    heuristic.value = h;
    let up = DEFAULT_UPHILL;
    let down = DEFAULT_DOWNHILL;
    for (const key of ['uphill', 'downhill']) {
      if (!given(key)) continue;
      const v = parseSlopeCost(c[key]);
      if (v === null) say(key, `expected a number from 0 to ${MAX_LINK_COST} (extra cost per unit of height), got ${quote(c[key])}; using ${key === 'uphill' ? DEFAULT_UPHILL : DEFAULT_DOWNHILL}.`);
      else if (key === 'uphill') up = v;
      else down = v;
    }
    uphill.value = String(up);
    downhill.value = String(down);
    const lab = app.lab;
    if (given('teleports')) {
      let items = null;
      try {
        items = parseTeleports(c.teleports);
        const problem = checkTeleports(items, lab.width, lab.height, (x, y) => lab.cell(x, y) === Terrain.Wall);
        if (problem) throw new Error(problem);
      } catch (e) {
        say('teleports', `${e.message}. No teleports were added; the map is kept.`);
        items = null;
      }
      if (items && given('heights')) say('heights', 'ignored, because "teleports" is given too and a map has teleports or slopes, not both.');
      if (items) {
        try {
          lab.setTeleports(flat(items), h);
        } catch (e) {
          say('teleports', `${e.message}. No teleports were added; the map is kept.`);
        }
        changed('');
        return;
      }
    }
    if (given('heights')) {
      try {
        const grid = decodeGrid(text(c.heights));
        if (grid.width !== lab.width || grid.height !== lab.height) {
          throw new Error(`they are for a ${grid.width} x ${grid.height} map, but this map is ${lab.width} x ${lab.height}`);
        }
        lab.setSlopes(grid.cells, up, down);
      } catch (e) {
        say('heights', `the heights cannot be used: ${e.message}. No heights were set; the map is kept.`);
      }
      changed('');
      return;
    }
    refresh();
  }

  // ---- wiring ----

  teleportTool.addEventListener('click', () => setTool('teleport'));
  heightTool.addEventListener('click', () => setTool('height'));
  heightValue.addEventListener('input', showTool);
  example.addEventListener('click', loadExample);
  remove.addEventListener('click', () => clearLinks());
  heuristic.addEventListener('change', () => {
    if (view.kind !== 'teleports') return;
    const items = view.teleports.map((t) => [...t]);
    const h = heuristic.value;
    setTeleports(items, h, h === 'plain'
      ? 'The estimate is now blind to the teleports: it may overestimate.'
      : 'The estimate now knows the teleports: min(straight to the goal, to an entry + the jump + from its exit on), so it never overestimates.');
  });
  for (const [input, name, k] of [[uphill, 'Uphill', 0], [downhill, 'Downhill', 1]]) {
    input.addEventListener('change', () => {
      const current = currentSlopeCosts();
      const v = readSlope(input, name, current[k]);
      if (v === null || view.kind !== 'slopes') return;
      const next = [...current];
      next[k] = v;
      setSlopes(heights.slice(), next[0], next[1], `${name} costs ${formatCost(v)} per unit of height now.`);
    });
  }
  const wrap = ui.wrap;
  wrap.addEventListener('pointerdown', onDown, true);
  wrap.addEventListener('pointermove', onMove, true);
  wrap.addEventListener('pointerup', onUp, true);
  wrap.addEventListener('pointercancel', onUp, true);
  app.root.addEventListener('keydown', onKey);
  app.root.addEventListener('pathlab-edit', onEdit);
  app.root.addEventListener('pathlab-edit', countEdits);
  app.layers?.push(layer);
  refresh();
  showTool();

  return {
    start,
    update,
    config,
    blind: isBlind,
    destroy() {
      wrap.removeEventListener('pointerdown', onDown, true);
      wrap.removeEventListener('pointermove', onMove, true);
      wrap.removeEventListener('pointerup', onUp, true);
      wrap.removeEventListener('pointercancel', onUp, true);
      app.root.removeEventListener('keydown', onKey);
      app.root.removeEventListener('pathlab-edit', onEdit);
      app.root.removeEventListener('pathlab-edit', countEdits);
      const k = app.layers?.indexOf(layer) ?? -1;
      if (k >= 0) app.layers.splice(k, 1);
      section.remove();
      costs.remove();
      warningHome.remove();
    },
  };
}
