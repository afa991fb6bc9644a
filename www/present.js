// The path-finding page in a classroom: panels that fold, and a presentation mode.
//
// Every panel beside the grid (Cell, Last step, the pseudocode, the open list), the legend and
// every section of the settings gets a button at its heading that folds it to the heading and
// back; what is folded is remembered for the visit (sessionStorage), so it stays so across
// reloads but a new visit starts with everything open.
//
// Presentation mode (the "Present" button, or `present=1` in the URL or mount()'s config) is
// for a projector: bigger text and a bigger grid; the settings column steps aside (the button
// brings it back) and the grid, the controls, the read-outs and the study column stay.

import { el } from './dom.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there).
 * @typedef {Pick<import('./page-context.js').PageContext, 'changed' | 'config' | 'layout' | 'narrate' | 'root' | 'ui'>} PresentContext
 */

/** Where the folded panels' names are kept for the visit. */
export const FOLDED_KEY = 'pathlab.folded.v1';

/** The class of the page's root in presentation mode. */
export const PRESENTING = 'pl-presenting';

function readFolded() {
  try {
    const list = JSON.parse(window.sessionStorage.getItem(FOLDED_KEY) ?? '[]');
    return new Set(Array.isArray(list) ? list.filter((v) => typeof v === 'string') : []);
  } catch {
    return new Set();
  }
}

function saveFolded(folded) {
  try {
    window.sessionStorage.setItem(FOLDED_KEY, JSON.stringify([...folded]));
  } catch {
    // Storage may be off (a private window's settings): folding still works for this page.
  }
}

/** A panel's name for the folded list and its button: its heading's first words, or `fallback`. */
function panelName(box) {
  if (box.classList.contains('pl-code-box')) return 'Pseudocode';
  if (box.classList.contains('pl-open-box')) return 'Open list';
  return box.querySelector(':scope > h2')?.textContent?.trim() || 'Panel';
}

/**
 * Adds the fold buttons and the presentation mode to the grid page `app`. Returns
 * `{ setPresenting(on), destroy() }`.
 * @param {PresentContext} app
 */
export function attachPresent(app) {
  const root = app.root;
  const folded = readFolded();
  const buttons = [];
  for (const box of root.querySelectorAll('.pl-side > .pl-section, .pl-panel > .pl-section, .pl-side .pl-study-box, .pl-stage > .pl-legend-section')) {
    const name = panelName(box);
    const fold = el('button', { type: 'button', class: 'pl-fold', testid: `fold-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}` });
    const show = (on) => {
      box.classList.toggle('pl-folded', on);
      fold.textContent = on ? '+' : '−';
      fold.setAttribute('aria-expanded', on ? 'false' : 'true');
      fold.setAttribute('aria-label', `${on ? 'Show' : 'Fold'} ${name}`);
      fold.title = on ? `Show ${name}` : `Fold ${name} to its heading`;
    };
    show(folded.has(name));
    fold.addEventListener('click', () => {
      const on = !box.classList.contains('pl-folded');
      show(on);
      if (on) folded.add(name);
      else folded.delete(name);
      saveFolded(folded);
    });
    box.querySelector(':scope > h2')?.after(fold);
    buttons.push(fold);
  }

  const present = el('button', {
    type: 'button', testid: 'present', class: 'pl-btn pl-small pl-present-btn', text: 'Present', 'aria-pressed': 'false',
    title: 'Presentation mode: bigger grid and text for a projector (present=1)',
  });
  app.ui.map.closest('.pl-map-controls')?.append(present);

  function setPresenting(on) {
    root.classList.toggle(PRESENTING, on);
    present.setAttribute('aria-pressed', on ? 'true' : 'false');
    present.textContent = on ? 'Leave presentation' : 'Present';
    // The header and the columns change size: lay the grid out for them.
    requestAnimationFrame(() => app.layout());
  }

  present.addEventListener('click', () => {
    const on = !root.classList.contains(PRESENTING);
    app.config.present = on;
    setPresenting(on);
    app.narrate(on ? 'Presentation mode: bigger grid and text; "Leave presentation" brings the settings back.' : 'Presentation mode is off.');
    app.changed();
  });
  if (app.config.present && !app.config.embed) setPresenting(true);

  return {
    setPresenting,
    destroy() {
      for (const b of buttons) b.remove();
      present.remove();
      root.classList.remove(PRESENTING);
    },
  };
}
