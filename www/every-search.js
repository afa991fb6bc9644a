// The module with every search (pkg/pathlab_searches.js: the grid page's Lab built with every
// algorithm) and the move of the page's search into it; and the copies of the page's search
// (with its links) that compare mode and the run export step on their own. The grid page's
// first module (pathlab_wasm) runs only the searches of firstAlgorithms(); pathlab.js loads
// this module, and through it pathlab_searches, when another is chosen or compared
// (App.useEverySearch).
import { statusName } from './pkg/pathlab_wasm.js';

let searchesReady = null;

/**
 * Gives `target` the teleports or slopes of `source` (Labs of either module; a Lab without
 * `links`, as on graphs and hexes, has none). Throws when `target` refuses them.
 * @param {any} source
 * @param {any} target
 */
export function copyLinks(source, target) {
  const links = typeof source.links === 'function' ? source.links() : null;
  if (links?.kind === 'teleports') {
    const flat = links.teleports.flatMap(([fx, fy, tx, ty, cost, both]) => [fx, fy, tx, ty, cost, both ? 1 : 0]);
    target.setTeleports(Float64Array.from(flat), links.heuristic);
  } else if (links?.kind === 'slopes') {
    target.setSlopes(source.heights(), links.uphill, links.downhill);
  }
}

/**
 * A copy of the page's map (cells, start, goal, settings) with `algo`, at step 0, carrying the
 * map's links too (teleports and their estimate, or heights and slope costs; links.js), so that
 * a compared search, or the run export's replay, costs its moves as the page's own does.
 * Lab.cloneMap copies the cells and settings only. Throws, freeing the copy, when the algorithm
 * cannot run with those links.
 */
export function cloneWithLinks(lab, algo) {
  const copy = lab.cloneMap(algo);
  try {
    copyLinks(lab, copy);
  } catch (e) {
    copy.free();
    throw new Error(`${e.message} (the map has ${lab.links().kind === 'slopes' ? 'slopes' : 'teleports'})`);
  }
  return copy;
}

/**
 * Loads and starts the module with every search once per page.
 * @returns {Promise<{ Lab: any, memory: WebAssembly.Memory }>}
 */
export function loadSearches() {
  searchesReady ??= import('./pkg/pathlab_searches.js')
    .then(async (m) => ({ Lab: m.Lab, memory: (await m.default()).memory }))
    .catch((e) => {
      searchesReady = null;
      throw new Error(`the module with the other searches could not be loaded (${e.message})`);
    });
  return searchesReady;
}

/**
 * A Lab of `EveryLab` (the other module's class) with the map, ends, settings, teleports or
 * slopes and step of `old` (whose cells are read in `memory`), which is freed; as if nothing
 * had happened. Throws, leaving `old` as it was, when one of them is refused.
 * @param {any} old
 * @param {WebAssembly.Memory} memory
 * @param {any} EveryLab
 */
export function moveLab(old, memory, EveryLab) {
  const { width: w, height: h } = old;
  const s = old.settings();
  const finished = ['found', 'no-path'].includes(statusName(old.status));
  const steps = old.steps;
  const lab = new EveryLab(w, h);
  try {
    lab.loadCells(w, h, new Uint8Array(memory.buffer, old.cellsPtr(), w * h).slice());
    // Each end where it was, in the order that never puts the start on the goal's cell.
    if (s.start[0] === lab.goalX && s.start[1] === lab.goalY) {
      lab.setGoal(s.goal[0], s.goal[1]);
      lab.setStart(s.start[0], s.start[1]);
    } else {
      lab.setStart(s.start[0], s.start[1]);
      lab.setGoal(s.goal[0], s.goal[1]);
    }
    /** @type {Array<() => void>} */
    const settings = [
      () => lab.setAlgorithm(s.algo),
      () => lab.setDiagonal(s.diagonal),
      () => lab.setCosts(s.costs),
      () => lab.setHeuristic(s.heuristic),
      () => lab.setWeight(s.weight),
      () => lab.setLookahead(s.lookahead),
      () => lab.setSensor(s.sensor),
      () => lab.setCluster(s.cluster),
      () => lab.setHand(s.hand),
      () => lab.setSeed(s.seed),
      () => lab.setFog(s.fog),
      () => lab.setReopen(s.reopen),
      () => lab.setThreshold(s.threshold),
      () => lab.setOrder(s.order),
      () => lab.setSkeleton(s.list, s.ga, s.hb, s.gcount),
    ];
    // Twice: a setting refused beside the defaults is taken once the others are in place.
    for (const pass of [1, 2]) {
      for (const set of settings) {
        try {
          set();
        } catch (e) {
          if (pass === 2) throw e;
        }
      }
    }
    copyLinks(old, lab);
    if (finished) lab.run();
    else if (steps > 0) lab.seek(steps);
  } catch (e) {
    lab.free();
    throw new Error(`the search could not be moved to the module with every search (${e.message})`);
  }
  old.free();
  return lab;
}
