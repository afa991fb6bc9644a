// The timeline under the grid: a scrubber over the whole run, from step 0 to the step that
// ends it. Dragging it, clicking on it or using its keys puts the search at that step
// (`Lab.seek`, which starts from the nearest checkpoint the core keeps, so any step of a
// 100,000-step run is there at once).
//
// How long the run is: the core finds out by running a copy of the search ahead in the
// background (`Lab.explore`), a slice of steps per frame sized to take a few milliseconds,
// leaving checkpoints behind it. Until it knows, the scrubber reaches as far as the copy has
// got and grows as it goes (a frame or two for 100,000 steps); after an edit, it starts over.
// On maps too large for the core to keep even one copy of the search (above about 1,600 x
// 1,600 cells), nothing runs ahead: the scrubber reaches as far as the search has been.
//
// Keys on the scrubber are those of the grid: space plays or pauses, the arrows step and go
// back, Home resets, End runs to the end; Page Up and Page Down jump a tenth of the run.

import { el } from './dom.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there).
 * @typedef {Pick<import('./page-context.js').PageContext, 'act' | 'lab' | 'narrateStep' | 'playing' | 'setPlaying' | 'step' | 'togglePlay' | 'touch'>} TimelineContext
 */

/** Milliseconds per frame the background exploration aims to use. */
const EXPLORE_MS = 6;

/**
 * The scrubber itself, on every page (Timeline here for the square grid; space-view.js's
 * SpaceTimeline for graphs and hexes): the range and its read-out, seeking, and the keys.
 * `app` is the page (pathlab.js's App or space-view.js's SpaceApp).
 * @template {TimelineContext} [C=TimelineContext] What the page gives (a subclass may ask for more).
 */
export class Scrubber {
  /** @param {C} app */
  constructor(app) {
    /** @type {C} */
    this.app = app;
    const id = `pl-timeline-${Math.random().toString(36).slice(2, 8)}`;
    this.input = el('input', {
      type: 'range',
      id,
      testid: 'timeline',
      class: 'pl-timeline-range',
      min: '0',
      max: '0',
      step: '1',
      value: '0',
      'aria-describedby': `${id}-total`,
    });
    this.total = el('output', { id: `${id}-total`, testid: 'timeline-total', class: 'pl-timeline-total', for: id });
    this.element = el(
      'div',
      { class: 'pl-timeline' },
      el('label', { for: id, class: 'pl-label', text: 'Step' }),
      this.input,
      this.total,
    );
    this.input.addEventListener('input', () => this.seek(Number(this.input.value)));
    this.input.addEventListener('keydown', (event) => this.key(event));
  }

  /** Shows step `steps` on a run of `max` steps; `words` says it, `total` is the run's length if known. */
  show(steps, max, words, label, total) {
    this.input.max = String(max);
    this.input.value = String(steps);
    this.input.setAttribute('aria-valuetext', words);
    this.total.textContent = label;
    this.total.dataset.total = total === null || total === undefined ? '' : String(total);
    this.total.title = words;
  }

  /** Puts the search at step `k` and tells what that step did. */
  seek(k) {
    const app = this.app;
    app.setPlaying(false);
    app.lab.seek(k);
    app.narrateStep();
    app.touch();
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const app = this.app;
    const steps = app.lab.steps;
    const max = Number(this.input.max);
    const jump = Math.max(1, Math.round(max / 10));
    const back = () => app.act(() => app.lab.back(), 'back');
    const actions = {
      ' ': () => app.togglePlay(),
      ArrowRight: () => app.step(),
      ArrowUp: () => app.step(),
      ArrowLeft: back,
      ArrowDown: back,
      Home: () => app.act(() => app.lab.reset(), 'reset'),
      End: () => app.act(() => app.lab.run(), 'run'),
      PageUp: () => this.seek(Math.min(max, steps + jump)),
      PageDown: () => this.seek(Math.max(0, steps - jump)),
    };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }
}

export class Timeline extends Scrubber {
  /** @param {TimelineContext} app */
  constructor(app) {
    super(app);
    this.slice = 4000;
  }

  /**
   * Once per frame: another slice of the background run, while there is exploring left to do
   * (not while playing: the frame then belongs to the search and the painting).
   */
  frame() {
    const lab = this.app.lab;
    if (!lab.exploring || this.app.playing) return;
    const t0 = performance.now();
    lab.explore(this.slice);
    const ms = performance.now() - t0;
    this.slice = Math.min(400000, Math.max(500, Math.round((this.slice * EXPLORE_MS) / Math.max(ms, 0.25))));
    this.update();
  }

  /** Shows where the search stands on the run. */
  update() {
    const lab = this.app.lab;
    const steps = lab.steps;
    const total = lab.totalSteps;
    const max = total ?? Math.max(lab.exploredSteps, steps);
    let words;
    if (total !== undefined) words = `step ${steps} of ${total}`;
    // The core stopped looking after millions of steps (an agent walking in circles), or
    // does not look at all on maps too large to copy.
    else if (!lab.exploring) words = `step ${steps} of at least ${max}`;
    else words = `step ${steps} of at least ${max} (finding the end…)`;
    this.show(steps, max, words, total !== undefined ? `${steps} / ${total}` : `${steps} / ${max}+`, total);
  }
}
