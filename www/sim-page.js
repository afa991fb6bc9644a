// The parts the simulation pages share (boids.html, crowd.html, requests.html): the outline
// and the header with links to the other pages, the transport bar and its keys, and number
// fields for whole numbers that explain a bad entry and show the last good value again.
// Functions that drive a page take the page's app, which provides `ui` (its controls by
// data-testid), `config`, `playing`, `setPlaying(on)`, `step()`, `rebuild(why)` and
// `say(text)` (see boids.js, crowd.js). SimApp is what the three pages' apps have in common.

import { controls, el, MessageArea, titleHeader } from './dom.js';
import { MAX_SEED, parseWhole, queryObject, quote } from './values.js';

/** How many messages a page keeps on show. */
const MAX_MESSAGES = 12;

/**
 * A function that loads a wasm module once per page: `init` the first time it is called;
 * resolves to the module's exports (with memory).
 */
export function loadOnce(init) {
  let ready = null;
  return () => (ready ??= init());
}

/**
 * What the apps of the simulation pages share (boids.js, crowd.js, requests.js): the element
 * they are mounted in, the wasm exports, the configuration, the message area, the flags the
 * frame loop reads (`playing`; `dirty`, set by `touch()` to ask for a repaint), and a
 * `changeEvent` (such as 'crowd-change') sent with `settings()` when the settings change.
 */
export class SimApp {
  constructor(root, wasm, config, changeEvent) {
    this.root = root;
    this.wasm = wasm;
    this.config = config;
    this.notes = new MessageArea(MAX_MESSAGES);
    this.changeEvent = changeEvent;
    this.playing = false;
    this.dirty = true;
  }

  /**
   * Starts the page's `ui` (its controls by data-testid), with the message area in it; returns
   * it with dom.js's `button` and `readout` for it.
   */
  startUi() {
    /** @type {Record<string, any>} */
    const ui = {};
    this.ui = ui;
    ui.message = this.notes.list;
    ui.messageBox = this.notes.box;
    return { ui, ...controls(ui) };
  }

  /** `fn()`, or, when it throws, undefined with its message said, prefixed by `what`. */
  tryCall(fn, what) {
    try {
      return fn();
    } catch (e) {
      this.say(`${what}: ${e.message}`);
      return undefined;
    }
  }

  touch() {
    this.dirty = true;
  }

  /** The settings as the page's URL keys hold them (each page says which). */
  settings() {
    return { ...this.config };
  }

  changed() {
    this.root.dispatchEvent(new CustomEvent(this.changeEvent, { detail: this.settings(), bubbles: true }));
  }

  say(text) {
    this.notes.say(text);
  }

  clearMessages() {
    this.notes.clear();
  }
}

/**
 * A simulation page's entry point: mounts the page on #app with `mount(root, settings)` from the
 * URL's query, keeps the address in step with the settings (`changeEvent` carries them and
 * `query(settings)` writes them), so that a reload or a copied link shows the same, and shows a
 * failure to start as a message naming `what`. Resolves to mount's handle.
 */
export async function mountFromUrl(changeEvent, mount, query, what) {
  const root = document.getElementById('app');
  root.addEventListener(changeEvent, (event) => {
    const q = query(/** @type {CustomEvent} */ (event).detail);
    history.replaceState(null, '', q ? `?${q}` : location.pathname);
  });
  try {
    return await mount(root, queryObject(location.search));
  } catch (e) {
    root.replaceChildren(el('p', { class: 'pl-fatal', role: 'alert', text: `${what} could not start: ${e.message}` }));
    throw e;
  }
}

/** Elements whose keys belong to them (typing a number, choosing an option, pressing). */
const OWN_KEYS = ['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'];

/** A number field for a whole number from 0 to `max`: a seed, an agent count. */
export function wholeField(testid, max, label) {
  return el('input', {
    type: 'number',
    testid,
    min: '0',
    max: String(max),
    step: '1',
    inputmode: 'numeric',
    'aria-label': label,
  });
}

/**
 * Checks `input` whenever it changes: a whole number from 0 to `max` goes to `apply(n)`;
 * anything else is explained with `say`, naming the field and the range, and the field shows
 * `current()` again, so a typing slip never reaches the world.
 */
export function onWholeChange(input, name, max, { current, apply, say }) {
  input.addEventListener('change', () => {
    const n = parseWhole(input.value, max);
    if (n === null) {
      say(`${name}: expected a whole number from 0 to ${max}, got ${quote(input.value)}; keeping ${current()}.`);
      input.value = String(current());
      return;
    }
    apply(n);
  });
}

/**
 * The Seed and Agents fields of a page that rebuilds its world from `app.config`: a good
 * value goes into the configuration and rebuilds; `count()` is the number of agents now.
 */
export function wireSeedAndCount(app, maxAgents, count) {
  const say = (text) => app.say(text);
  onWholeChange(app.ui.seed, 'Seed', MAX_SEED, {
    current: () => app.config.seed,
    apply: (seed) => {
      app.config.seed = seed;
      app.rebuild('seed');
    },
    say,
  });
  onWholeChange(app.ui.count, 'Agents', maxAgents, {
    current: count,
    apply: (n) => {
      app.config.agents = n;
      app.rebuild('agents');
    },
    say,
  });
}

/**
 * The transport bar of a page that rebuilds its world from a seed: Reset, Step and Play (with
 * `titles`), then its Seed and Agents fields (`ui.seed`, `ui.count`).
 */
export function seededTransport(ui, button, titles) {
  return transportBar(button, titles, barField('Seed', ui.seed), barField('Agents', ui.count));
}

/** A labelled field in the transport bar (a seed, an agent count). */
export function barField(label, input) {
  return el('label', { class: 'pl-field pl-inline pl-bar-field pl-full' }, el('span', { text: label }), input);
}

/**
 * The transport bar: Reset, Step and Play, made with `button` from dom.js's `controls` (so
 * each is kept in the page's `ui`), with the tooltips in `titles`, then `extra` (fields, more
 * buttons).
 */
export function transportBar(button, titles, ...extra) {
  return el(
    'div',
    { class: 'pl-transport', role: 'toolbar', 'aria-label': 'Simulation controls' },
    button('reset', 'Reset', titles.reset),
    button('step', 'Step ▶', titles.step),
    button('play', 'Play', titles.play),
    ...extra,
  );
}

/**
 * The page header: "Pathlab" with the page's `subtitle`, the page's picker (a select) under
 * `pickerLabel`, and `links` to the other pages as `[href, testid, text]`.
 */
/** Every page of the site: file, the link's data-testid, and its words in the other pages' navs. */
export const SITE_PAGES = [
  ['index.html', 'nav-pathfinding', '← Grid path-finding'],
  ['boids.html', 'nav-boids', 'Steering and flocking'],
  ['crowd.html', 'nav-crowds', 'Crowds'],
  ['requests.html', 'nav-requests', 'Many agents, one search budget'],
];

/**
 * The links of a page's header to every other page of the site (`here`: this page's file), so
 * that each page reaches each other one.
 * @param {string} here
 */
export function siteLinks(here) {
  return SITE_PAGES.filter(([href]) => href !== here);
}

/**
 * A simulation page's header: its title with `subtitle`, its picker (a select labelled
 * `pickerLabel`) and the links to the other pages of the site (`here`: this page's file).
 */
export function pageHeader(subtitle, pickerLabel, picker, here) {
  return titleHeader(
    subtitle,
    el(
      'div',
      { class: 'pl-map-controls' },
      el('label', { class: 'pl-field pl-inline' }, el('span', { text: pickerLabel }), picker),
      ...siteLinks(here).map(([href, testid, text]) => el('a', { class: 'pl-nav', href, testid, text })),
    ),
  );
}

/** Fills `root` with the page: header, messages, then the stage beside the panel. */
export function layOut(root, pageClass, embed, { header, messages, stage, panel }) {
  root.classList.add('pathlab', pageClass);
  root.classList.toggle('pl-embed', embed);
  root.replaceChildren(header, messages, el('div', { class: 'pl-main' }, stage, panel));
}

/** Play toggles playing, Step takes one step, Reset rebuilds from the seed. */
export function wireTransport(app) {
  app.ui.play.addEventListener('click', () => app.setPlaying(!app.playing));
  app.ui.step.addEventListener('click', () => app.step());
  app.ui.reset.addEventListener('click', () => app.rebuild('reset'));
}

/**
 * The keys of a page, for its root's keydown: space plays or pauses, → steps, Home resets.
 * Keys typed into a control or pressed with Alt, Ctrl or Meta are left to the browser. A page
 * that answers keys on its canvas passes `canvasKey(event)`, which returns true when it used
 * the key.
 */
export function transportKey(app, event, canvasKey = null) {
  const tag = event.target?.tagName;
  if (OWN_KEYS.includes(tag) || event.altKey || event.ctrlKey || event.metaKey) return;
  if (canvasKey && tag === 'CANVAS' && canvasKey(event)) {
    event.preventDefault();
    return;
  }
  const actions = {
    ' ': () => app.setPlaying(!app.playing),
    ArrowRight: () => app.step(),
    Home: () => app.rebuild('reset'),
  };
  const action = actions[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
}
