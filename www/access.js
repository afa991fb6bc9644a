// Reaching Pathlab without a mouse and without good eyesight or a good projector.
//
// Keys on the grid (the canvas takes focus with Tab): the page's own keys step the search
// (→ step, ← back, space play/pause, Home reset, End run to the end). This module adds a
// cell cursor for editing: Shift+arrows move it (it starts on the start cell), Enter paints
// the cell under it with the brush or, on a wall or a cell of the brush's kind, erases it, as
// a click does; S and G put the start or the goal there; Escape hides it. The cursor is the
// hover box the mouse shows, so the Cell panel reads out its g, h and f, and a hidden live
// region says where it is.
//
// High contrast (the `contrast` button, `contrast=1` in the URL and embed code; without the
// key, the system's "more contrast" setting turns it on): the painter switches to
// HIGH_CONTRAST (paint.js) and the page's CSS to darker ink and stronger borders.

import { el } from './dom.js';
import { PALETTE, HIGH_CONTRAST, LEGEND } from './paint.js';
import { refuseLocked } from './embed.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there).
 * @typedef {Pick<import('./page-context.js').PageContext, 'brush' | 'canvas' | 'changed' | 'config' | 'edited' | 'hover' | 'lab' | 'messages' | 'narrate' | 'painter' | 'refused' | 'root' | 'say' | 'setHover' | 'touch' | 'ui'>} AccessContext
 */

/** The keys of the grid, in words: the canvas's description for screen readers. */
export const GRID_KEYS =
  'Keys: right arrow steps, left arrow steps back, space plays or pauses, Home resets, End runs to the end. ' +
  'Shift with the arrows moves a cell cursor; Enter paints or erases the cell under it with the brush (the Inspect tool only reads it); ' +
  'S or G puts the start or the goal there; Escape hides the cursor.';

const WALL = 0;
const GROUND = 1;
const MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * Wires the grid's editing keys and the high-contrast switch. Returns `{ destroy() }`.
 * @param {AccessContext} app
 */
export function attachAccess(app) {
  const ui = app.ui;
  const canvas = app.canvas;
  const id = `pl-grid-keys-${Math.random().toString(36).slice(2, 8)}`;
  const help = el('p', { id, class: 'pl-sr-only', text: GRID_KEYS });
  const live = el('div', { class: 'pl-sr-only', testid: 'cursor', 'aria-live': 'polite' });
  ui.wrap.append(help, live);
  canvas.setAttribute('aria-describedby', id);
  canvas.setAttribute('aria-keyshortcuts', 'ArrowRight ArrowLeft Space Home End Shift+ArrowUp Shift+ArrowDown Shift+ArrowLeft Shift+ArrowRight Enter S G Escape');
  ui.editSection.querySelector('.pl-hint')?.after(
    el('p', { class: 'pl-hint', text: 'Keyboard: on the grid, Shift+arrows move a cell cursor, Enter paints or erases there, S and G move the start and goal.' }),
  );

  let cursor = null;

  function describe(x, y) {
    let text = `Cell (${x},${y})`;
    try {
      const info = app.lab.cellInfo(x, y);
      const terrain = info.terrain === WALL ? 'wall' : info.terrain === GROUND ? 'ground' : `terrain ×${info.terrain}`;
      text += `: ${terrain}, ${info.state}`;
    } catch {
      // The cell is off the map after a resize; its number is enough.
    }
    if (x === app.lab.startX && y === app.lab.startY) text += ', the start';
    if (x === app.lab.goalX && y === app.lab.goalY) text += ', the goal';
    return `${text}.`;
  }

  function show() {
    app.setHover(cursor);
    live.textContent = cursor ? describe(cursor.x, cursor.y) : '';
    app.touch();
  }

  /** Moves the cursor by (dx, dy) from the box shown (the mouse may have moved it); it starts on the start. */
  function moveCursor([dx, dy]) {
    const lab = app.lab;
    const active = cursor && app.hover;
    const from = active ? app.hover : { x: lab.startX, y: lab.startY };
    cursor = {
      x: Math.min(lab.width - 1, Math.max(0, from.x + (active ? dx : 0))),
      y: Math.min(lab.height - 1, Math.max(0, from.y + (active ? dy : 0))),
    };
    show();
  }

  function paintHere() {
    const { x, y } = cursor;
    const lab = app.lab;
    const under = lab.cell(x, y);
    const brush = app.brush();
    if (brush === null) {
      // The Inspect tool: Enter reads the cell (the Cell panel), as a click does.
      show();
      return;
    }
    const value = under === WALL || under === brush ? GROUND : brush;
    let painted = 0;
    try {
      painted = lab.paintLine(x, y, x, y, value);
    } catch (error) {
      app.refused(error.message);
      return;
    }
    if (painted > 0) app.edited(value === GROUND ? 'erase' : 'paint');
    else if ((x === lab.startX && y === lab.startY) || (x === lab.goalX && y === lab.goalY)) {
      app.refused('The start and goal cells are not painted; move them first (S or G on another cell).');
    }
    show();
  }

  function placeEnd(which) {
    const { x, y } = cursor;
    const lab = app.lab;
    if (lab.cell(x, y) === WALL) {
      app.refused(`The ${which} cannot go on a wall; it stays where it was.`);
      return;
    }
    const other = which === 'start' ? [lab.goalX, lab.goalY] : [lab.startX, lab.startY];
    if (x === other[0] && y === other[1]) {
      app.refused(`The ${which} cannot go on the ${which === 'start' ? 'goal' : 'start'}.`);
      return;
    }
    try {
      if (which === 'start') lab.setStart(x, y);
      else lab.setGoal(x, y);
    } catch (error) {
      app.refused(error.message);
      return;
    }
    app.edited(which);
    show();
  }

  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const key = event.key;
    let action = null;
    if (event.shiftKey && MOVES[key]) action = () => moveCursor(MOVES[key]);
    else if (key === 'Escape' && cursor) {
      action = () => {
        cursor = null;
        show();
      };
    } else if (key === 'Enter' || key === 's' || key === 'S' || key === 'g' || key === 'G') {
      action = () => {
        if (refuseLocked(app)) return;
        if (!cursor || !app.hover) {
          moveCursor([0, 0]);
          return;
        }
        cursor = { x: app.hover.x, y: app.hover.y };
        if (key === 'Enter') paintHere();
        else placeEnd(key.toLowerCase() === 's' ? 'start' : 'goal');
      };
    }
    if (!action) return;
    // Handled here, so the page's own keys (Shift+→ would step) do not act on it too.
    event.preventDefault();
    event.stopPropagation();
    action();
  }

  function onBlur() {
    if (!cursor) return;
    cursor = null;
    app.setHover(null);
    live.textContent = '';
  }

  // ---- high contrast ----------------------------------------------------------------------

  const contrast = el('button', {
    type: 'button', testid: 'contrast', class: 'pl-btn pl-small', text: 'High contrast', 'aria-pressed': 'false',
    title: 'Darker colours and stronger lines, for projectors and low vision',
  });
  ui.map.closest('.pl-map-controls')?.append(contrast);

  function setContrast(on) {
    app.root.classList.toggle('pl-contrast', on);
    contrast.setAttribute('aria-pressed', on ? 'true' : 'false');
    const palette = on ? HIGH_CONTRAST : PALETTE;
    app.painter.setPalette(palette);
    for (const item of LEGEND) {
      /** @type {HTMLElement | null} */ (app.root.querySelector(`.pl-swatch-${item.key}`))?.style.setProperty('--swatch', palette[item.key]);
    }
    app.touch();
  }

  const given = (app.config.given ?? []).includes('contrast');
  const prefers = !given && Boolean(window.matchMedia?.('(prefers-contrast: more)').matches);
  if (app.config.contrast || prefers) setContrast(true);

  contrast.addEventListener('click', () => {
    const on = !app.root.classList.contains('pl-contrast');
    app.config.contrast = on;
    setContrast(on);
    app.narrate(on ? 'High-contrast colours are on.' : 'The usual colours are back.');
    app.changed();
  });

  canvas.addEventListener('keydown', onKey);
  canvas.addEventListener('blur', onBlur);
  return {
    destroy() {
      canvas.removeEventListener('keydown', onKey);
      canvas.removeEventListener('blur', onBlur);
    },
  };
}
