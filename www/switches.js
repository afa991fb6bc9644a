// The search's switches, a deferred module (pathlab.js loads it after the first grid, or before
// it when the URL gives one of its keys): "build your own search" (algo=template: the open-list
// kind, f = a·g + b·h, what g counts, re-opening, and a menu of classic settings that fills
// them in), A*'s re-opening of closed nodes, IDA*'s threshold rule, the neighbour order, and the
// heuristic check (hcheck=1: every cell where h is inadmissible or inconsistent, coloured on the
// grid, with counts and the worst cell). The rules are the core's; this module wires controls
// and paints the check from a zero-copy view of the flags. Every text is set with textContent.

import { classics, switchDefaults } from './pkg/pathlab_wasm.js';
import { el, options } from './dom.js';
import { MAX_WEIGHT } from './config.js';
import { algorithmRow } from './page-app.js';

/** The skeleton's plug-ins, by their URL keys (the registry's setting `plug-ins`). */
const PLUG_INS = ['list', 'ga', 'hb', 'gcount'];

/**
 * The switches of the Lab's settings `s` that differ from the core's defaults, by their URL
 * keys (the skeleton's plug-ins only while the skeleton is shown), with the heuristic check:
 * what the address, the saved settings and a share link carry.
 * @param {Record<string, any>} s the Lab's settings
 * @param {boolean} hcheck whether the heuristic check is on
 * @param {Record<string, any>} defaults the core's defaults (`switchDefaults()`)
 */
export function switchConfig(s, hcheck, defaults) {
  /** @type {Record<string, any>} */
  const out = {};
  const takes = algorithmRow(s.algo)?.settings ?? [];
  for (const key of ['reopen', 'threshold', 'order', ...PLUG_INS]) {
    if (PLUG_INS.includes(key) && !takes.includes('plug-ins')) continue;
    if (s[key] !== defaults[key]) out[key] = s[key];
  }
  if (hcheck) out.hcheck = true;
  return out;
}

/** The colours of the heuristic check: h above the true cost, h dropping by more than a move. */
export const HCHECK_STYLE = {
  inadmissible: { color: '#d1007a', label: 'h too high (inadmissible)' },
  inconsistent: { color: '#e69f00', label: 'h drops more than a move costs (inconsistent)' },
};

/**
 * @typedef {Pick<import('./page-context.js').PageContext, 'config' | 'lab' | 'layers' | 'memory' | 'root' | 'say' | 'syncSettings' | 'touch' | 'changed' | 'known' | 'ui'>} SwitchesContext
 */

/** Formats a number for the read-out: whole numbers as they are, others to two places. */
function num(v) {
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

/**
 * Adds the Variants section under the Search section, its grid layer and its URL keys.
 * Returns `{ apply(config), sync(settings), destroy() }`: `apply` sets the switches a
 * configuration gives (each refusal said with its key), `sync` shows the settings.
 * @param {SwitchesContext} app
 */
export function attachSwitches(app) {
  const ui = app.ui;
  /** @type {Array<{ name: string, label: string, list: string, ga: number, hb: number, gcount: string }>} */
  const classicRows = classics();
  /** @type {Record<string, any>} */
  const defaults = switchDefaults();
  ui.classic = el('select', { testid: 'classic', 'aria-label': 'Classic settings' });
  options(ui.classic, classicRows.map((c) => c.name), Object.fromEntries(classicRows.map((c) => [c.name, c.label])));
  ui.classic.prepend(el('option', { value: '', text: 'Choose to fill in…' }));
  ui.classic.value = '';
  ui.list = el('select', { testid: 'list', 'aria-label': 'Open list' });
  options(ui.list, [...app.known.list], { queue: 'queue (first in, first out)', stack: 'stack (last in, first out)', priority: 'priority: lowest f first' });
  const factor = (key) => el('input', { type: 'number', testid: key, min: '0', max: String(MAX_WEIGHT), step: '0.1', inputmode: 'decimal' });
  ui.ga = factor('ga');
  ui.hb = factor('hb');
  ui.gcount = el('select', { testid: 'gcount', 'aria-label': 'g counts' });
  options(ui.gcount, [...app.known.gcount], { costs: 'the moves’ costs', edges: 'the moves (edges)' });
  ui.reopen = el('input', { type: 'checkbox', testid: 'reopen' });
  ui.threshold = el('select', { testid: 'threshold', 'aria-label': 'IDA* threshold' });
  options(ui.threshold, [...app.known.threshold], { next: 'next: the lowest f cut off', 'plus-one': '+1 (the book’s rule)' });
  ui.order = el('input', { type: 'text', testid: 'order', maxlength: '4', size: '5', spellcheck: 'false', 'aria-label': 'Neighbour order' });
  ui.hcheck = el('input', { type: 'checkbox', testid: 'hcheck' });
  ui.hcheckReadout = el('p', { testid: 'hcheck-readout', class: 'pl-hint', hidden: true });

  const field = (text, input, title = '') => el('label', { class: 'pl-field', title }, el('span', { text }), input);
  const check = (text, input, title) => el('label', { class: 'pl-check', title }, input, el('span', { text }));
  const skeleton = el(
    'fieldset',
    { class: 'pl-fieldset', testid: 'skeleton', hidden: true },
    el('legend', { text: 'Build your own search' }),
    field('Classic settings', ui.classic, 'Fills in the plug-ins that make the skeleton run as this search'),
    field('Open list', ui.list),
    field('a in f = a·g + b·h', ui.ga),
    field('b in f = a·g + b·h', ui.hb),
    field('g counts', ui.gcount),
  );
  const reopenField = check('Re-open closed nodes when a cheaper way is found', ui.reopen, 'As the book’s A* pseudocode: a closed node reached more cheaply goes back on the open list');
  const thresholdField = field('Next threshold', ui.threshold, 'IDA*: the lowest f that was cut off, or the old threshold + 1');
  const orderField = field('Neighbour order', ui.order, 'The order straight neighbours are tried, which decides ties; diagonal ones follow in the order NE, SE, SW, NW');
  const section = el(
    'section',
    { class: 'pl-section', testid: 'switches' },
    el('h2', { text: 'Variants and checks' }),
    skeleton,
    reopenField,
    thresholdField,
    orderField,
    check('Check the heuristic on the map', ui.hcheck, 'Colours every cell where h is above the true cost to the goal, or drops by more than a move costs'),
    ui.hcheckReadout,
  );
  ui.note.closest('section').after(section);

  /** Runs a Lab setter; a refusal is said with the control's name. */
  const set = (what, call) => {
    try {
      call();
      return true;
    } catch (e) {
      app.say(`${what}: ${e.message}`);
      return false;
    }
  };
  const setSkeleton = (list, ga, hb, gcount) => set('Build your own search', () => app.lab.setSkeleton(list, ga, hb, gcount));
  const after = () => {
    app.syncSettings();
    dirty = true;
    app.touch();
    app.changed();
  };
  const plugIns = () => {
    const s = app.lab.settings();
    const read = (input, old) => {
      const v = Number(input.value);
      return input.value.trim() !== '' && Number.isFinite(v) ? v : old;
    };
    setSkeleton(ui.list.value, read(ui.ga, s.ga), read(ui.hb, s.hb), ui.gcount.value);
    ui.classic.value = '';
    after();
  };
  for (const input of [ui.list, ui.ga, ui.hb, ui.gcount]) input.addEventListener('change', plugIns);
  ui.classic.addEventListener('change', () => {
    const c = classicRows.find((r) => r.name === ui.classic.value);
    if (!c) return;
    setSkeleton(c.list, c.ga, c.hb, c.gcount);
    after();
    ui.classic.value = c.name;
  });
  ui.reopen.addEventListener('change', () => {
    set('Re-open', () => app.lab.setReopen(ui.reopen.checked));
    after();
  });
  ui.threshold.addEventListener('change', () => {
    set('Next threshold', () => app.lab.setThreshold(ui.threshold.value));
    after();
  });
  ui.order.addEventListener('change', () => {
    set('Neighbour order', () => app.lab.setOrder(ui.order.value.trim().toLowerCase()));
    after();
  });
  ui.hcheck.addEventListener('change', () => {
    after();
  });

  // The heuristic check: computed again only when the map, its ends or the settings change.
  let dirty = true;
  const markDirty = () => {
    dirty = true;
  };
  app.root.addEventListener('pathlab-edit', markDirty);
  app.root.addEventListener('pathlab-change', markDirty);
  /** @type {{ inadmissible: number, inconsistent: number, worst: any, worst_drop: any } | null} */
  let found = null;
  const refresh = () => {
    if (!dirty) return;
    dirty = false;
    found = app.lab.heuristicCheck();
    const s = app.lab.settings();
    const parts = [`${found.inadmissible} cell${found.inadmissible === 1 ? '' : 's'} inadmissible, ${found.inconsistent} inconsistent (${s.heuristic}, ${s.diagonal}, ${s.costs} costs).`];
    if (found.worst) {
      const w = found.worst;
      parts.push(`Worst: (${w.x},${w.y}), h ${num(w.h)} where the cheapest way to the goal costs ${num(w.exact)}.`);
    }
    if (found.worst_drop) {
      const d = found.worst_drop;
      parts.push(`Largest drop: (${d.x},${d.y}) → (${d.to[0]},${d.to[1]}), ${num(d.excess)} more than the move costs.`);
    }
    if (!found.worst && !found.worst_drop) parts.push('h never overestimates and never drops by more than a move costs here.');
    ui.hcheckReadout.textContent = parts.join(' ');
  };
  const layer = {
    /** @param {import('./paint.js').Painter} painter */
    over(painter) {
      if (!ui.hcheck.checked) return;
      refresh();
      const w = app.lab.width;
      const n = w * app.lab.height;
      const flags = new Uint8Array(app.memory.buffer, app.lab.hcheckPtr(), n);
      const { ctx } = painter;
      const cs = painter.cellPx;
      const line = Math.max(1.5, cs * 0.09);
      ctx.lineWidth = line;
      for (let i = 0; i < n; i++) {
        const f = flags[i];
        if (!f) continue;
        const x = (i % w) * cs;
        const y = Math.floor(i / w) * cs;
        if (f & 1) {
          ctx.strokeStyle = HCHECK_STYLE.inadmissible.color;
          ctx.strokeRect(x + line / 2, y + line / 2, cs - line, cs - line);
        }
        if (f & 2) {
          ctx.fillStyle = HCHECK_STYLE.inconsistent.color;
          ctx.beginPath();
          ctx.moveTo(x + cs, y);
          ctx.lineTo(x + cs, y + cs * 0.4);
          ctx.lineTo(x + cs * 0.6, y);
          ctx.closePath();
          ctx.fill();
        }
      }
    },
  };
  app.layers.push(layer);

  return {
    /** Sets the switches `config` gives; each refusal says its key, and the default stays. */
    apply(config) {
      const s = app.lab.settings();
      if (config.list !== null || config.ga !== null || config.hb !== null || config.gcount !== null) {
        const ok = set('Parameter "list", "ga", "hb" or "gcount"', () =>
          app.lab.setSkeleton(config.list ?? s.list, config.ga ?? s.ga, config.hb ?? s.hb, config.gcount ?? s.gcount),
        );
        if (ok && config.algo !== 'template') app.say('Parameters "list", "ga", "hb" and "gcount" set the plug-ins of algo=template; they change nothing for the algorithm shown.');
      }
      if (config.reopen) set('Parameter "reopen"', () => app.lab.setReopen(true));
      if (config.threshold !== null) set('Parameter "threshold"', () => app.lab.setThreshold(config.threshold));
      if (config.order !== null) set('Parameter "order"', () => app.lab.setOrder(config.order));
      ui.hcheck.checked = config.hcheck;
      dirty = true;
    },
    /** The switches away from their defaults, by URL key (see switchConfig). */
    config() {
      return switchConfig(app.lab.settings(), ui.hcheck.checked, defaults);
    },
    /** Shows `s` (the Lab's settings) in the controls: the parts the algorithm takes (its registry row's settings). */
    sync(s) {
      const takes = algorithmRow(s.algo)?.settings ?? [];
      skeleton.hidden = !takes.includes('plug-ins');
      reopenField.hidden = !takes.includes('reopen');
      thresholdField.hidden = !takes.includes('threshold');
      orderField.hidden = !takes.includes('order');
      ui.list.value = s.list;
      ui.gcount.value = s.gcount;
      if (document.activeElement !== ui.ga) ui.ga.value = String(s.ga);
      if (document.activeElement !== ui.hb) ui.hb.value = String(s.hb);
      ui.reopen.checked = s.reopen;
      ui.threshold.value = s.threshold;
      if (document.activeElement !== ui.order) ui.order.value = s.order;
      ui.hcheckReadout.hidden = !ui.hcheck.checked;
      if (ui.hcheck.checked) refresh();
    },
    destroy() {
      app.root.removeEventListener('pathlab-edit', markDirty);
      app.root.removeEventListener('pathlab-change', markDirty);
      const k = app.layers.indexOf(layer);
      if (k >= 0) app.layers.splice(k, 1);
      section.remove();
    },
  };
}
