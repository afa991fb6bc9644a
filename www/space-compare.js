// Compare mode on graphs and hexes (space-view.js): two to four algorithms side by side on the
// same graph or hexes, one pane each (a canvas painted by GraphPainter or HexPainter and its
// read-outs), stepping in sync under one set of controls, as compare.js does on the square
// grid: both are compare-view.js, with the same data-testid hooks (compare, compare-pick-N,
// compare-view, compare-panes, compare-pane with data-algo, compare-status, compare-expanded,
// compare-open, compare-cost, compare-steps, compare-why, compare-note, compare-tick,
// compare-step, compare-back, compare-reset, compare-play, compare-run, compare-exit). Each pane
// is a SpaceLab.cloneWith(algo) of the page's space with its start, goal and settings; an
// algorithm the core cannot run on this space gets a pane that says why. The page's own search
// is left as it was and comes back on exit. Every text is set with textContent.

import { el } from './dom.js';
import { statusName } from './pkg/pathlab_spaces.js';
import { attachCompareView } from './compare-view.js';
import { GraphPainter, HexPainter } from './space-paint.js';

/**
 * Wires compare mode into the SpaceApp `app`. Returns `{ section, fillPicks(), enter(names,
 * options), exit(), refresh(), names(), destroy() }`: `names` lists the algorithms compared
 * (null when off), `refresh` builds the panes again after the space changed (a map loaded while
 * comparing).
 */
export function attachSpaceCompare(app) {
  const graph = app.space === 'graph';
  const choices = () => {
    try {
      return app.lab.algorithms();
    } catch {
      return [];
    }
  };
  const labelOf = (algo) => app.algoLabel(algo);

  const compare = attachCompareView(app, {
    statusName,
    where: graph ? 'graph' : 'map of hexes',
    labelOf,
    makeLab: (algo) => app.lab.cloneWith(algo),
    pane: (algo) => ({
      canvas: { 'data-space': app.space, 'aria-label': `${labelOf(algo)} on the ${graph ? 'graph' : 'hexes'}` },
      wrapClass: 'pl-grid-wrap pl-compare-wrap pl-space-wrap',
      painter(canvas) {
        if (graph) {
          const painter = new GraphPainter(canvas);
          painter.setPalette(app.palette);
          painter.setWorld(app.painter.world);
          return painter;
        }
        const painter = new HexPainter(canvas);
        painter.setPalette(app.palette);
        painter.setCells(app.places(), app.lab.layout);
        return painter;
      },
    }),
    summary() {
      const labels = app.labels();
      const ends = `start ${labels[app.lab.start] ?? ''}, goal ${labels[app.lab.goal] ?? ''}`;
      return `${app.mapTitle || (graph ? 'This graph' : 'These hexes')}, ${ends}. Heuristic: ${app.ui.heuristic.selectedOptions[0]?.textContent ?? ''}${app.lab.weight !== 1 ? ` · Weight: ${app.lab.weight}` : ''}.`;
    },
    viewClass: 'pl-space-compare',
    size: { min: 180, ratio: 0.9, chrome: 300, resize: (p, width, maxHeight, dpr) => p.painter.resize(width, maxHeight, dpr) },
    paintPane: (p) => app.paintLab(p.lab, p.painter, { pane: true }),
    advance(p, n, finished) {
      for (let k = 0; k < n && !finished(p); k++) p.lab.step();
    },
    maxPerFrame: 5000,
    relayout: () => app.layout(true),
  });
  const { picks } = compare;

  /** Fills the picks with the algorithms, those that cannot run on this space greyed out. */
  function fillPicks() {
    const list = choices();
    const first = app.lab.algorithm;
    const second = first === 'dijkstra' ? 'astar' : 'dijkstra';
    picks.forEach((select, i) => {
      const keep = select.value;
      const options = list.map((c) =>
        el('option', {
          value: c.name,
          text: c.ok ? labelOf(c.name) : `${labelOf(c.name)} (square grid only)`,
          disabled: !c.ok,
          title: c.ok ? labelOf(c.name) : `${labelOf(c.name)}: ${c.why ?? 'needs the square grid'}`,
        }));
      if (i >= 2) options.unshift(el('option', { value: '', text: '(none)' }));
      select.replaceChildren(...options);
      const fallback = [first, second, '', ''][i];
      select.value = keep && list.some((c) => c.name === keep && c.ok) ? keep : fallback;
    });
  }

  return {
    section: compare.section,
    fillPicks,
    enter: compare.enter,
    exit: compare.exit,
    /** The space changed under the comparison (a map loaded): the same algorithms on the new one. */
    refresh() {
      if (compare.showing()) compare.enter(compare.names());
    },
    names: compare.names,
    destroy: compare.destroy,
  };
}
