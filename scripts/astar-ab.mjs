// Times A* in several builds of the path-finding wasm module side by side in one Chromium page.
// Each build is a directory holding pathlab_wasm.js and pathlab_wasm_bg.wasm (a copy of www/pkg
// made after `scripts/build-wasm.sh`); `current` names www/pkg itself. On the 512 x 512
// MovingAI map AR0011SR (the timeline-perf map), each build runs A* (octile, 8-way) from the
// map's usual start to a far goal in the page's way, `advance(10)` calls (ten steps a frame,
// as at 600 steps a second) to the end, five times a turn. The builds take turns, round after
// round (the order rotated every round), so that a busy machine slows them alike. Printed:
// each build's median and fastest turn (ms per run), and the median of its per-round ratios
// to the first build.
//
// Usage: node scripts/astar-ab.mjs DIR|current DIR|current... [--rounds 9]
// (The directories are copied under www/pkg/ab/ for the run and removed afterwards.)
import { start } from '../tests/support/browser.mjs';
import { commandLine, copyBuilds, removeCopies } from './ab-builds.mjs';

const { args, option } = commandLine();
const rounds = Number(option('--rounds', 9));
const builds = copyBuilds(args, 'pathlab_wasm.js', './pkg/pathlab_wasm.js', 2, 'node scripts/astar-ab.mjs DIR|current DIR|current... [--rounds N]');

const env = await start();
try {
  const page = await env.browser.newPage();
  await page.goto(`${env.base}requests.html`);
  const rows = await page.evaluate(
    async ({ builds, rounds }) => {
      const text = await (await fetch('maps/movingai/AR0011SR.map')).text();
      const labs = [];
      for (const b of builds) {
        const m = await import(b.path);
        await m.default();
        const lab = new m.Lab(4, 4);
        lab.loadMovingAi(text);
        lab.setDiagonal('no-corner-cutting');
        lab.setHeuristic('octile');
        lab.setAlgorithm('astar');
        lab.setStart(184, 164);
        lab.setGoal(460, 186);
        labs.push(lab);
      }
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      // Five runs a turn: one run takes only milliseconds.
      const run = (lab) => {
        let ms = 0;
        for (let k = 0; k < 5; k++) {
          lab.reset();
          const t0 = performance.now();
          while (lab.advance(10) === 10);
          ms += performance.now() - t0;
        }
        return ms / 5;
      };
      labs.forEach(run);
      const times = labs.map(() => []);
      const ratios = labs.map(() => []);
      for (let r = 0; r < rounds; r++) {
        const t = [];
        for (let j = 0; j < labs.length; j++) {
          const k = (j + r) % labs.length;
          t[k] = run(labs[k]);
          times[k].push(t[k]);
        }
        for (let k = 0; k < labs.length; k++) ratios[k].push(t[k] / t[0]);
      }
      return labs.map((lab, k) => ({
        median: median(times[k]),
        fastest: Math.min(...times[k]),
        ratio: median(ratios[k]),
        steps: lab.steps,
        status: lab.status,
        cost: lab.cost,
      }));
    },
    { builds, rounds },
  );
  console.log(`A* on AR0011SR (512 x 512), advance(10) to the end; ${rounds} rounds, builds taking turns`);
  console.log('build                 median ms  fastest ms   steps  cost        vs first (median of ratios)');
  rows.forEach((b, k) => {
    console.log(
      `${builds[k].name.padEnd(20)} ${b.median.toFixed(2).padStart(10)} ${b.fastest.toFixed(2).padStart(11)} ` +
        `${String(b.steps).padStart(7)}  ${b.cost?.toFixed(3).padEnd(10)}  ${b.ratio.toFixed(3)}`,
    );
  });
} finally {
  await env.close();
  removeCopies();
}
