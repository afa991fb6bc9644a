// The explanation of a worked example: a preset in maps/presets.json may carry `explain` (what
// to notice, with the course's numbers) and `source` (the course document, by its title). The
// page shows both, as text only, in a panel under the header when the preset is loaded (from
// the map menu or `map=NAME`). Loaded only for such a preset (pathlab.js mount).

import { el } from './dom.js';

/**
 * Shows the explanation of preset `entry` in the page built in `root` (replacing one shown
 * before).
 * @param {HTMLElement} root
 * @param {{ title?: unknown, explain?: unknown, source?: unknown }} entry
 */
export function showExplain(root, entry) {
  root.querySelector(':scope > .pl-explain')?.remove();
  const words = (v) => (typeof v === 'string' ? v : '');
  const panel = el(
    'section',
    { class: 'pl-explain', testid: 'explain', 'aria-label': 'About this example' },
    el('h2', { text: `Worked example: ${words(entry.title)}` }),
    el('p', { class: 'pl-explain-text', text: words(entry.explain) }),
  );
  if (words(entry.source)) panel.append(el('p', { class: 'pl-explain-source', text: `Source: ${words(entry.source)}` }));
  const header = root.querySelector(':scope > .pl-header');
  if (header) header.after(panel);
  else root.prepend(panel);
}
