// The panels under the grid that show the inside of the search: the pseudocode with the lines
// the last step ran, and the open list as a table in the order the search will take it (the
// next cell first), with the closed list behind a disclosure. Also the words of the step
// narration. Everything is built with el() and textContent: no value is inserted as HTML.

import { statusName } from './pkg/pathlab_wasm.js';
import { el } from './dom.js';
import { expandedHead, pseudocodeFor, stepFacts } from './pseudocode.js';
import { algorithmRow, lastStepOf } from './page-app.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there).
 * @typedef {Pick<import('./page-context.js').PageContext, 'config' | 'lab' | 'playing' | 'setHover' | 'settings' | 'touch'>} PanelsContext
 */

export { settingsNote } from './pseudocode.js';

/** Rows of the open list shown; the caption gives the full count. */
export const OPEN_ROWS = 50;

/** Closed cells listed when the closed list is opened. */
export const CLOSED_ROWS = 200;

/** The column heading of the key each kind of list is ordered by. */
export const KEY_HEADING = { f: 'f', g: 'key (g)', h: 'key (h)', queue: 'queue #', stack: 'stack #' };

/** A number as the page prints it: whole numbers as they are, others to three decimals. */
export function num(v) {
  if (v === undefined || v === null) return '–';
  if (!Number.isFinite(v)) return '∞';
  return Number.isInteger(v) ? String(v) : v.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
}

function at(p) {
  return p ? `(${p[0]},${p[1]})` : '–';
}

/** Up to six items, then "and N more". */
export function list(items, show) {
  const shown = items.slice(0, 6).map(show).join(', ');
  return items.length > 6 ? `${shown} and ${items.length - 6} more` : shown;
}

/**
 * The closed list's heading. A search from the start stops when it takes the goal off the open
 * list, and that step expands nothing (the README's rule); the list (the core's closed_list)
 * counts the goal then, as a cell the search reached on the path. The heading counts it apart,
 * so that its number of expanded cells is the Expanded read-out's. (Where a search runs from
 * the goal, it expands the goal: the registry row's `goal_expanded`.)
 * @param {import('./page-context.js').PageContext['lab']} lab
 * @param {string | undefined} algo
 * @param {number} count
 */
export function closedHeading(lab, algo, count) {
  const goalApart = statusName(lab.status) === 'found' && !(algo && algorithmRow(algo)?.goal_expanded) && count === lab.expanded + 1;
  if (!goalApart) return `Closed list: ${count} ${count === 1 ? 'cell' : 'cells'}`;
  const expanded = count - 1;
  return `Closed list: ${expanded} expanded ${expanded === 1 ? 'cell' : 'cells'}, then the goal (taken off the open list, not expanded)`;
}

/**
 * The narration of a step that expanded a cell: which cell and why it came first (for the A*
 * family "f = 34 = g 20 + h 14", from the cell's read-out), which neighbours it opened with
 * what g, and which it improved, from what to what and through which parent.
 */
export function describeStep(lab, settings, last) {
  const algo = settings?.algo;
  const c = last.expanded;
  let head = `Step ${lab.steps}: ${algo === 'ida' ? 'visited' : 'expanded'} ${at(c)}`;
  let info = null;
  try {
    info = lab.cellInfo(c[0], c[1]);
  } catch {
    info = null;
  }
  const g = info?.g;
  if (info && g !== null && g !== undefined) {
    head += expandedHead(algo, info, g, settings?.weight ?? 1, num);
  }
  const known = (o) => o.old_g !== null && o.old_g !== undefined;
  // IDA* reports each visit as an opening of the visited cell itself.
  const opened = algo === 'ida' ? [] : last.opened;
  const fresh = opened.filter((o) => !known(o));
  const better = opened.filter(known);
  const parts = [head];
  if (fresh.length) parts.push(`opened ${list(fresh, (o) => `${at(o.at)} with g ${num(o.g)}`)}`);
  if (better.length) {
    parts.push(list(better, (o) => `${at(o.at)} improved g ${num(o.old_g)} → ${num(o.g)} via ${at(o.via)}`));
  }
  if (!fresh.length && !better.length && algo !== 'ida') parts.push('no neighbour was opened or improved');
  let text = `${parts.join('; ')}.`;
  if (lab.cost !== undefined && lab.cost !== null) text += ` That is the goal: path cost ${num(lab.cost)}.`;
  return text;
}

/**
 * The boxes of the study panels, on every page (Panels here; space-view.js's SpacePanels for
 * graphs and hexes extend it): the pseudocode, the open-list table (`what`: the heading of its
 * place column, 'cell', 'node' or 'hex') and the closed list behind a disclosure (`closedCells`,
 * its list). `element` holds them all; the closed list's toggle calls `showClosed`.
 */
export class StudyBoxes {
  /**
   * @param {string} what
   * @param {HTMLElement} closedCells
   */
  constructor(what, closedCells) {
    const id = Math.random().toString(36).slice(2, 8);
    this.codeTitle = el('h2', { id: `pl-code-title-${id}`, text: 'Pseudocode' });
    this.code = el('ol', { class: 'pl-code', testid: 'pseudocode', 'aria-labelledby': `pl-code-title-${id}` });
    this.openTitle = el('h2', { id: `pl-open-title-${id}`, text: 'Open list' });
    this.caption = el('p', { class: 'pl-open-caption', testid: 'open-caption', 'aria-live': 'off' });
    this.keyHeading = el('th', { scope: 'col', class: 'pl-num', text: 'f' });
    this.hHeading = el('th', { scope: 'col', class: 'pl-num pl-h', text: 'h' });
    this.rows = el('tbody');
    this.closedSummary = el('summary', { text: 'Closed list' });
    this.closedCells = closedCells;
    this.table = el(
      'table',
      { class: 'pl-open', testid: 'open-list', 'aria-labelledby': `pl-open-title-${id}` },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { scope: 'col', class: 'pl-num', text: '#' }),
          el('th', { scope: 'col', text: what }),
          el('th', { scope: 'col', class: 'pl-num', text: 'g' }),
          this.hHeading,
          this.keyHeading,
          el('th', { scope: 'col', text: 'parent' }),
          el('th', { scope: 'col', text: 'last step' }),
        ),
      ),
      this.rows,
    );
    this.closed = el('details', { class: 'pl-closed', testid: 'closed-list' }, this.closedSummary, closedCells);
    this.element = el(
      'section',
      { class: 'pl-study pl-full', 'aria-label': 'Inside the search' },
      el('div', { class: 'pl-study-box pl-code-box' }, this.codeTitle, this.code),
      el(
        'div',
        { class: 'pl-study-box pl-open-box' },
        this.openTitle,
        this.caption,
        el('div', { class: 'pl-table-wrap', tabindex: '0', role: 'region', 'aria-labelledby': `pl-open-title-${id}` }, this.table),
        this.closed,
      ),
    );
    this.closed.addEventListener('toggle', () => this.showClosed());
  }

  /** The closed list's entries, when it is open (each page's panels fill it in). */
  showClosed() {
    throw new Error('StudyBoxes.showClosed: the panels class provides it');
  }
}

/** Marks the pseudocode lines (`code`'s items) whose tags are in `active` as the step's. */
export function markActive(code, active) {
  code.dataset.active = [...active].join(' ');
  for (const li of code.children) {
    const on = active.has(li.dataset.tag);
    li.classList.toggle('pl-active', on);
    if (on) li.setAttribute('aria-current', 'step');
    else li.removeAttribute('aria-current');
  }
}

/** The pseudocode and open-list panels of one page. */
export class Panels extends StudyBoxes {
  /** @param {PanelsContext} app */
  constructor(app) {
    super('cell', el('ul', { class: 'pl-closed-cells' }));
    this.app = app;
    this.codeKey = '';
  }

  /** Shows the state after the last change; `overlay` is the frame's `Lab.overlay()`. */
  update(overlay) {
    if (this.app.config.embed) return;
    // While playing, ten times a second is plenty (a large map may play at 60 frames a
    // second); a pause repaints, and so shows the step it paused on.
    const now = performance.now();
    if (this.app.playing && now - (this.shown ?? 0) < 100) return;
    this.shown = now;
    const lab = this.app.lab;
    const settings = this.app.settings ?? lab.settings();
    const last = lastStepOf(lab);
    this.showCode(settings, last, overlay);
    this.showOpen(settings, last);
    this.closedSummary.textContent = closedHeading(lab, settings.algo, this.closedCount());
    if (this.closed.open) this.showClosed();
  }

  showCode(settings, last, overlay) {
    const lab = this.app.lab;
    const code = pseudocodeFor(settings.algo);
    if (this.codeKey !== settings.algo) {
      this.codeKey = settings.algo;
      this.codeTitle.textContent = `Pseudocode: ${code.title}`;
      this.code.replaceChildren(
        ...code.lines.map(([tag, text]) => el('li', { class: 'pl-code-line', 'data-tag': tag }, el('code', { text }))),
      );
    }
    const status = statusName(this.app.lab.status);
    const facts = stepFacts(last, status, lab.steps, settings.start, overlay);
    markActive(this.code, new Set(code.active(facts)));
  }

  showOpen(settings, last) {
    const lab = this.app.lab;
    let view;
    try {
      view = lab.openList(OPEN_ROWS);
    } catch {
      view = { key: 'f', rule: null, exact: false, entries: [] };
    }
    const total = lab.openCount;
    // The core's words for the order (for the skeleton: its list, or a·g + b·h with its a and b).
    const rule = view.rule ?? algorithmRow(settings.algo)?.order_rule;
    const stack = settings.algo === 'ida';
    // The skeleton's list is what its plug-ins make it: a queue, a stack, or a priority list.
    const skeleton = settings.algo === 'template';
    this.openTitle.textContent = stack ? 'Stack (IDA* keeps no open list)' : skeleton ? `Open list: ${settings.list}` : 'Open list';
    this.keyHeading.textContent = skeleton && view.key === 'f' ? `f = ${num(settings.ga)}·g + ${num(settings.hb)}·h` : (KEY_HEADING[view.key] ?? view.key);
    // Without a heuristic (BFS, DFS, Dijkstra) h is 0 everywhere: no column for it.
    this.table.classList.toggle('pl-no-h', !settings.uses_heuristic);
    let caption;
    if (stack) caption = `${total} cells on the stack, deepest first: the next visit starts from the top.`;
    else if (settings.algo === 'bi-astar') {
      // Two lists: the one shown is that of the side the next step expands.
      caption = `The list of the side that expands next, ${rule}; ${total} open on both sides together.`;
      if (view.entries.length === OPEN_ROWS) caption += ` Showing the first ${OPEN_ROWS}.`;
    } else {
      caption = `${total} ${total === 1 ? 'cell' : 'cells'}, ${rule ?? 'by key'}`;
      if (!view.exact) caption += ' (approximate order)';
      caption += '.';
      if (total > view.entries.length && view.entries.length > 0) caption += ` Showing the first ${view.entries.length}.`;
    }
    if (view.entries.length === 0) caption += ' Nothing is waiting.';
    this.caption.textContent = caption;

    // What the last step did to each neighbour: opened fresh, or improved (old g, via).
    const changes = new Map();
    for (const o of last.opened ?? []) changes.set(`${o.at[0]},${o.at[1]}`, o);
    const finished = ['found', 'no-path'].includes(statusName(this.app.lab.status));
    const rows = view.entries.map((e, i) => {
      const change = changes.get(`${e.x},${e.y}`);
      const improved = change && change.old_g !== null && change.old_g !== undefined && !stack;
      let note = '';
      if (i === 0 && !finished) note = stack ? 'top' : 'next';
      if (improved) note = `${note ? `${note} · ` : ''}g ${num(change.old_g)} → ${num(change.g)} via ${at(change.via)}`;
      else if (change && !stack) note = `${note ? `${note} · ` : ''}new`;
      const cell = el('button', {
        type: 'button',
        class: 'pl-cell-button',
        text: at([e.x, e.y]),
        title: 'Show this cell on the grid',
        onclick: () => this.showCell(e.x, e.y),
      });
      const classes = ['pl-open-row'];
      if (i === 0 && !finished) classes.push('pl-next');
      if (improved) classes.push('pl-improved');
      else if (change && !stack) classes.push('pl-new');
      const row = el(
        'tr',
        { class: classes.join(' '), 'data-x': String(e.x), 'data-y': String(e.y), 'data-g': String(e.g), 'data-key': String(e.key) },
        el('td', { class: 'pl-num', text: String(i + 1) }),
        el('th', { scope: 'row' }, cell),
        el('td', { class: 'pl-num', text: num(e.g) }),
        el('td', { class: 'pl-num pl-h', text: num(e.h) }),
        el('td', { class: 'pl-num pl-key', text: num(e.key) }),
        el('td', { text: at(e.parent) }),
        el('td', { class: 'pl-note', text: note || '\u00a0' }),
      );
      if (i === 0 && !finished) row.setAttribute('aria-label', `Next: ${at([e.x, e.y])}`);
      return row;
    });
    const focused = this.rows.contains(document.activeElement) ? document.activeElement?.closest('tr')?.dataset : null;
    this.rows.replaceChildren(...rows);
    this.keepInSight(focused);
  }

  /**
   * After the rows are built again: the keyboard stays on the cell it was on (or on the list's
   * box, when that cell left the list), and the row of a cheaper way found by the last step is
   * scrolled into sight inside the box, under its sticky heading.
   * @param {DOMStringMap | null | undefined} focused
   */
  keepInSight(focused) {
    const box = /** @type {HTMLElement} */ (this.table.parentElement);
    if (focused) {
      const row = this.rows.querySelector(`tr[data-x="${Number(focused.x)}"][data-y="${Number(focused.y)}"]`);
      (row?.querySelector('button') ?? box).focus({ preventScroll: true });
    }
    const row = this.rows.querySelector('tr.pl-improved');
    if (!row) return;
    const b = box.getBoundingClientRect();
    const r = row.getBoundingClientRect();
    const head = this.table.tHead?.offsetHeight ?? 0;
    if (r.top < b.top + head || r.bottom > b.bottom) box.scrollTop += r.top - b.top - head - Math.max(0, (b.height - head - r.height) / 2);
  }

  /** Points the grid's highlight and the cell read-out at (x, y). */
  showCell(x, y) {
    this.app.setHover({ x, y });
    this.app.touch();
  }

  closedCount() {
    try {
      return this.app.lab.closedList(0).count;
    } catch {
      return 0;
    }
  }

  showClosed() {
    if (!this.closed.open) return;
    let view;
    try {
      view = this.app.lab.closedList(CLOSED_ROWS);
    } catch {
      return;
    }
    const items = view.cells.map((c) =>
      el('li', {}, el('button', {
        type: 'button',
        class: 'pl-cell-button',
        text: `${at([c.x, c.y])} g ${num(c.g)}`,
        onclick: () => this.showCell(c.x, c.y),
      })),
    );
    if (view.count > view.cells.length) items.push(el('li', { class: 'pl-more', text: `and ${view.count - view.cells.length} more` }));
    this.closedCells.replaceChildren(...items);
    this.closedCells.setAttribute('aria-label', `Closed cells in map order, row by row (${view.count})`);
  }
}
