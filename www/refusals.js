// The algorithm menu marks the algorithms the current map and settings refuse: "(cannot run
// here)" after the label, the reason as the option's title, and every reason in a list under
// the menu that describes it (aria-describedby), so screen readers read them with the menu. The
// core answers without building anything (Lab.refusal, search::refusal in Rust); the marks are
// worked out again a moment after the map or a setting changes (a paint stroke on a big map
// changes it every frame, and each answer scans the cells). Loaded after the first grid.

import { el } from './dom.js';
import { algorithmRow, inPageWords } from './page-app.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there).
 * @typedef {Pick<import('./page-context.js').PageContext, 'lab' | 'root' | 'settings' | 'ui'>} RefusalsContext
 */

/** What an algorithm the map and settings refuse says after its label in the menu. */
export const REFUSED_MARK = ' (cannot run here)';

/** Milliseconds after a change before the marks are worked out again. */
const DELAY = 150;

/**
 * Adds the marks to `app.ui.algo`. Returns `{ update(), destroy() }`: `update` is called with
 * each repaint of the read-outs and asks again only when the map or the settings changed.
 * @param {RefusalsContext} app
 */
export function attachRefusals(app) {
  const select = app.ui.algo;
  const list = el('ul', { id: `pl-refusals-${Math.random().toString(36).slice(2, 8)}`, class: 'pl-refusal-list' });
  const summary = el('summary', { class: 'pl-hint' });
  const box = el('details', { class: 'pl-refusals', testid: 'algo-refusals', hidden: true }, summary, list);
  (select.closest('label') ?? select).after(box);
  select.setAttribute('aria-describedby', list.id);

  let version = 0;
  let shown = '';
  let timer = 0;
  const onChange = () => {
    version += 1;
  };
  const types = ['pathlab-edit', 'pathlab-change'];
  for (const type of types) app.root.addEventListener(type, onChange);

  function mark(key) {
    shown = key;
    const reasons = [];
    for (const option of select.options) {
      const row = algorithmRow(option.value);
      if (!row) continue;
      let why = null;
      try {
        why = app.lab.refusal(option.value) ?? null;
      } catch (e) {
        why = e.message;
      }
      option.textContent = why ? `${row.label}${REFUSED_MARK}` : row.label;
      if (why) {
        option.title = inPageWords(why);
        option.dataset.refused = option.title;
        reasons.push([row.label, option.title]);
      } else {
        option.removeAttribute('title');
        delete option.dataset.refused;
      }
    }
    box.hidden = reasons.length === 0;
    summary.textContent = `${reasons.length} ${reasons.length === 1 ? 'algorithm is' : 'algorithms are'} marked “cannot run here”: why`;
    list.replaceChildren(...reasons.map(([label, why]) => el('li', {}, el('strong', { text: `${label}: ` }), why)));
  }

  return {
    update() {
      const s = app.settings;
      if (!s) return;
      const lab = app.lab;
      const key = [version, lab.width, lab.height, s.heuristic, s.diagonal, s.costs, s.weight, s.lookahead, s.sensor, s.cluster, s.hand].join('|');
      if (key === shown || timer) return;
      timer = setTimeout(() => {
        timer = 0;
        if (app.root.isConnected) mark(key);
      }, shown ? DELAY : 0);
    },
    destroy() {
      clearTimeout(timer);
      for (const type of types) app.root.removeEventListener(type, onChange);
      box.remove();
    },
  };
}
