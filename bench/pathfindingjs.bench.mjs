// Pathlab's wasm A* against PathFinding.js's A* (npm `pathfinding`, the library most teaching
// pages use) in one Chromium page, on the same MovingAI problems, interleaved. A benchmark: no
// timing is asserted; every cost is (both sides must find the `.scen` optimum).
//
// One map per family of the MovingAI folder (the first by name, as bench/warthog.mjs picks),
// PROBLEMS problems spread evenly over its .scen file, both sides under the same rules:
// 8-connected, no corner cutting (PathFinding.js's `OnlyWhenNoObstacles`), straight 1 and
// diagonal sqrt 2, octile estimate, weight 1. Each round runs every map's problems with both,
// the side that goes first alternating. PathFinding.js marks its nodes in the grid it searches,
// so every search needs a fresh grid: its `grid.clone()` is timed apart from its `findPath`.
// Pathlab's `Lab` reuses its tables: `reset()`, `setStart`, `setGoal`, `run()` (moving an end
// of a finished search re-runs it to the end, as the page shows, hence the reset first).
//
// Printed per map: the median time of each side over the rounds (ms for all the problems),
// Pathlab's ns per expansion, and PathFinding.js / Pathlab for the search alone and with the
// clone, as the median (min to max) of the per-round ratios; then their geometric means over
// the maps. Saved to tests/artifacts/pathfindingjs.json.
//
//   ./scripts/bench.sh pathfindingjs
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT, movingaiFolder } from '../tests/support/browser.mjs';
import { readMovingAi, readScen } from '../tests/support/dijkstra.mjs';
import { benchSuite, median } from './support.mjs';

const PROBLEMS = Number(process.env.PF_PROBLEMS ?? 60);
const ROUNDS = Number(process.env.PF_ROUNDS ?? 5);

/** One map per family (the first by name that has a .scen file). */
function chooseMaps() {
  const folder = movingaiFolder();
  const maps = [];
  for (const family of readdirSync(folder).sort()) {
    let names;
    try {
      names = readdirSync(join(folder, family)).filter((f) => f.endsWith('.map') && existsSync(join(folder, family, `${f}.scen`)));
    } catch {
      continue;
    }
    if (names.length) maps.push({ name: `${family}/${names.sort()[0].replace(/\.map$/, '')}`, file: join(folder, family, names.sort()[0]) });
  }
  return maps;
}

/**
 * PathFinding.js and its one dependency (`heap`) as one script for the page, from their
 * CommonJS sources in node_modules: each file becomes a function of (module, exports,
 * require), and `require` resolves relative paths and the package names. Sets `window.PF`.
 */
function pathfindingBundle() {
  const files = new Map();
  const add = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) add(path);
      else if (entry.name.endsWith('.js')) files.set(relative(join(ROOT, 'node_modules'), path), readFileSync(path, 'utf8'));
    }
  };
  add(join(ROOT, 'node_modules', 'pathfinding', 'src'));
  add(join(ROOT, 'node_modules', 'heap', 'lib'));
  const modules = [...files].map(([name, source]) => `${JSON.stringify(name)}: function (module, exports, require) {\n${source}\n}`);
  return `(() => {
  const sources = {${modules.join(',\n')}};
  const cache = {};
  const dirOf = (name) => name.slice(0, name.lastIndexOf('/'));
  const resolve = (from, wanted) => {
    if (wanted === 'heap') return 'heap/lib/heap.js';
    const parts = (dirOf(from) + '/' + wanted).split('/');
    const out = [];
    for (const p of parts) {
      if (p === '..') out.pop();
      else if (p !== '.') out.push(p);
    }
    const name = out.join('/');
    return name.endsWith('.js') ? name : name + '.js';
  };
  const load = (name) => {
    if (cache[name]) return cache[name].exports;
    const module = { exports: {} };
    cache[name] = module;
    sources[name].call(window, module, module.exports, (wanted) => load(resolve(name, wanted)));
    return module.exports;
  };
  window.PF = load('pathfinding/src/PathFinding.js');
})();`;
}

describe('wasm A* against PathFinding.js in one page', () => {
  const env = benchSuite('pathfindingjs');
  const { figures, save } = env;

  test(`${PROBLEMS} problems of one map per family, ${ROUNDS} interleaved rounds`, async (t) => {
    const maps = chooseMaps().map((m) => {
      const text = readFileSync(m.file, 'utf8');
      const all = readScen(readFileSync(`${m.file}.scen`, 'utf8'));
      const problems = Array.from({ length: Math.min(PROBLEMS, all.length) }, (_, i) => all[Math.floor((i * all.length) / Math.min(PROBLEMS, all.length))]);
      const { width, height, open } = readMovingAi(text);
      return { name: m.name, text, width, height, open, problems };
    });
    const page = await env.browser.newPage();
    await page.goto(`${env.base}requests.html`);
    await page.waitForFunction(() => document.querySelector('canvas'));
    await page.addScriptTag({ content: pathfindingBundle() });
    const rows = await page.evaluate(
      async ({ maps, rounds }) => {
        const { default: init, Lab } = await import('./pkg/pathlab_wasm.js');
        await init();
        const PF = window.PF;
        const octile = (dx, dy) => (dx < dy ? (Math.SQRT2 - 1) * dx + dy : (Math.SQRT2 - 1) * dy + dx);
        const finder = new PF.AStarFinder({ diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles, heuristic: octile });
        const length = (path) => {
          let sum = 0;
          for (let k = 1; k < path.length; k++) sum += path[k][0] !== path[k - 1][0] && path[k][1] !== path[k - 1][1] ? Math.SQRT2 : 1;
          return sum;
        };
        const sides = maps.map((m) => {
          const lab = new Lab(4, 4);
          lab.loadMovingAi(m.text);
          lab.setDiagonal('no-corner-cutting');
          lab.setHeuristic('octile');
          lab.setAlgorithm('astar');
          const matrix = Array.from({ length: m.height }, (_, y) => Array.from({ length: m.width }, (_, x) => (m.open[y * m.width + x] ? 0 : 1)));
          return { lab, grid: new PF.Grid(m.width, m.height, matrix) };
        });
        // Untimed: both find the optimum on every problem; Pathlab's expansions.
        const checks = maps.map((m, i) => {
          const { lab, grid } = sides[i];
          let expanded = 0;
          let worst = 0;
          let worstAt = null;
          for (const p of m.problems) {
            lab.reset(); // else moving an end re-runs the finished search to its end
            lab.setStart(p.start[0], p.start[1]);
            lab.setGoal(p.goal[0], p.goal[1]);
            lab.run();
            expanded += lab.expanded;
            const theirs = length(finder.findPath(p.start[0], p.start[1], p.goal[0], p.goal[1], grid.clone()));
            // The .scen file rounds its optimum to as many decimals as it prints (two in bg512).
            const decimals = (p.text.split('.')[1] ?? '').length;
            const slack = 0.5 * 10 ** -decimals + 1e-6;
            const off = Math.max(Math.abs(lab.cost - p.optimal), Math.abs(theirs - p.optimal)) / slack;
            if (off > worst) [worst, worstAt] = [off, { problem: p, ours: lab.cost, theirs }];
          }
          return { expanded, worst, worstAt };
        });
        // Chromium's clock counts in steps of 0.1 ms: a map whose problems take Pathlab less
        // than 30 ms in all is run several times a turn, and its times divided back.
        const passes = maps.map((m, i) => {
          const { lab } = sides[i];
          const t0 = performance.now();
          for (const p of m.problems) {
            lab.reset(); // else moving an end re-runs the finished search to its end
            lab.setStart(p.start[0], p.start[1]);
            lab.setGoal(p.goal[0], p.goal[1]);
            lab.run();
          }
          return Math.max(1, Math.ceil(30 / Math.max(performance.now() - t0, 0.1)));
        });
        const ours = (i) => {
          const { lab } = sides[i];
          const t0 = performance.now();
          for (let pass = 0; pass < passes[i]; pass++) {
            for (const p of maps[i].problems) {
              lab.reset(); // else moving an end re-runs the finished search to its end
            lab.setStart(p.start[0], p.start[1]);
              lab.setGoal(p.goal[0], p.goal[1]);
              lab.run();
            }
          }
          return (performance.now() - t0) / passes[i];
        };
        const theirs = (i) => {
          const { grid } = sides[i];
          let search = 0;
          let clone = 0;
          for (let pass = 0; pass < passes[i]; pass++) {
            for (const p of maps[i].problems) {
              const t0 = performance.now();
              const fresh = grid.clone();
              const t1 = performance.now();
              finder.findPath(p.start[0], p.start[1], p.goal[0], p.goal[1], fresh);
              search += performance.now() - t1;
              clone += t1 - t0;
            }
          }
          return { search: search / passes[i], clone: clone / passes[i] };
        };
        const times = maps.map(() => ({ ours: [], search: [], clone: [] }));
        for (let r = 0; r < rounds; r++) {
          maps.forEach((_, i) => {
            let mine;
            let pf;
            if ((r + i) % 2 === 0) {
              mine = ours(i);
              pf = theirs(i);
            } else {
              pf = theirs(i);
              mine = ours(i);
            }
            times[i].ours.push(mine);
            times[i].search.push(pf.search);
            times[i].clone.push(pf.clone);
          });
        }
        return maps.map((m, i) => ({ name: m.name, problems: m.problems.length, ...checks[i], ...times[i] }));
      },
      { maps: maps.map(({ name, text, width, height, open, problems }) => ({ name, text, width, height, open, problems })), rounds: ROUNDS },
    );
    const summary = rows.map((r) => {
      const search = r.search.map((s, k) => s / r.ours[k]);
      const whole = r.search.map((s, k) => (s + r.clone[k]) / r.ours[k]);
      return {
        map: r.name,
        problems: r.problems,
        expanded: r.expanded,
        worstCostError: r.worst, // in units of the .scen's rounding
        worstAt: r.worstAt,
        oursMs: median(r.ours),
        pfSearchMs: median(r.search),
        pfCloneMs: median(r.clone),
        nsPerExpansion: (median(r.ours) * 1e6) / r.expanded,
        searchRatio: { median: median(search), min: Math.min(...search), max: Math.max(...search) },
        withCloneRatio: { median: median(whole), min: Math.min(...whole), max: Math.max(...whole) },
      };
    });
    const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
    figures.rounds = ROUNDS;
    figures.maps = summary;
    figures.geomeanSearch = geomean(summary.map((s) => s.searchRatio.median));
    figures.geomeanWithClone = geomean(summary.map((s) => s.withCloneRatio.median));
    save();
    const f = (x, d = 2) => x.toFixed(d);
    for (const s of summary) {
      t.diagnostic(
        `${s.map.padEnd(24)} Pathlab ${f(s.oursMs)} ms (${f(s.nsPerExpansion, 0)} ns/exp), PathFinding.js ${f(s.pfSearchMs)} ms + clone ${f(s.pfCloneMs)} ms; ` +
          `PF/Pathlab search ${f(s.searchRatio.median)} (${f(s.searchRatio.min)}-${f(s.searchRatio.max)}), with clone ${f(s.withCloneRatio.median)} (${f(s.withCloneRatio.min)}-${f(s.withCloneRatio.max)})`,
      );
    }
    t.diagnostic(`geometric mean PF/Pathlab: search alone ${f(figures.geomeanSearch)}, with the clone ${f(figures.geomeanWithClone)} (target: search alone >= 5 on every family)`);
    for (const s of summary) assert.ok(s.worstCostError <= 1, `${s.map}: a cost is off the .scen optimum by more than its rounding: ${JSON.stringify(s.worstAt)}`);
    await page.close();
  });
});
