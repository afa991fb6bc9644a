// Times the wasm boid step of several builds side by side in one Chromium page. Each build is
// a directory holding pathlab_world.js and pathlab_world_bg.wasm (a copy of www/pkg made after
// `scripts/build-wasm.sh`); `current` names www/pkg itself. Worlds of the flock scenario at
// 1,000 to 50,000 agents run 120 steps (or --warm N) in each build, so that flocks form (they
// grow denser for several hundred steps more), then the builds take turns, round after
// round (the order rotated every round), so that a busy machine slows them alike. Printed per
// size: each build's median and fastest round (ms per step) and the median of its per-round
// ratios to the first build.
//
// With --ages 120,600,1800,3600 each world is measured at each of those ages in turn (flocks
// keep densifying for thousands of steps), instead of once after --warm steps.
//
// Usage: node scripts/boids-ab.mjs DIR|current DIR|current... [--rounds 9]
//        [--sizes 1000,5000,20000,50000] [--warm 120] [--ages 120,600,...]
// (The directories are copied under www/pkg/ab/ for the run and removed afterwards.)
import { start } from '../tests/support/browser.mjs';
import { commandLine, copyBuilds, removeCopies } from './ab-builds.mjs';

const { args, option } = commandLine();
const rounds = Number(option('--rounds', 9));
const sizes = option('--sizes', '1000,5000,20000,50000').split(',').map(Number);
const warm = Number(option('--warm', 120));
const ages = option('--ages', String(warm)).split(',').map(Number);
const builds = copyBuilds(args, 'pathlab_world.js', './pkg/pathlab_world.js', 2,
  'node scripts/boids-ab.mjs DIR|current DIR|current... [--rounds N] [--sizes a,b,c] [--warm N] [--ages a,b,c]');

const env = await start();
try {
  const page = await env.browser.newPage();
  await page.goto(`${env.base}boids.html?agents=0`);
  await page.waitForFunction(() => window.boidlab);
  const rows = await page.evaluate(
    async ({ builds, sizes, rounds, ages }) => {
      const modules = [];
      for (const b of builds) {
        const m = await import(b.path);
        await m.default();
        modules.push(m);
      }
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const out = [];
      for (const n of sizes) {
        const worlds = modules.map((m) => new m.Boids('flock', n, 1));
        const age = worlds.map(() => 0);
        for (const until of ages) {
        worlds.forEach((w, k) => {
          // One call runs at most 240 steps.
          while (age[k] < until) {
            const run = Math.min(200, until - age[k]);
            w.step(run);
            age[k] += run;
          }
        });
        const steps = n >= 20000 ? 10 : 40;
        const times = worlds.map(() => []);
        const ratios = worlds.map(() => []);
        for (let r = 0; r < rounds; r++) {
          const t = [];
          for (let j = 0; j < worlds.length; j++) {
            const k = (j + r) % worlds.length;
            const t0 = performance.now();
            worlds[k].step(steps);
            t[k] = (performance.now() - t0) / steps;
            times[k].push(t[k]);
          }
          for (let k = 0; k < worlds.length; k++) ratios[k].push(t[k] / t[0]);
        }
        // The timed steps count towards the age.
        for (let k = 0; k < worlds.length; k++) age[k] += rounds * steps;
        out.push({
          agents: n,
          age: until,
          builds: times.map((ts, k) => ({ median: median(ts), fastest: Math.min(...ts), ratio: median(ratios[k]) })),
        });
        }
        for (const w of worlds) w.free();
      }
      return out;
    },
    { builds, sizes, rounds, ages },
  );
  console.log(`wasm step, flock scenario; ${rounds} rounds, builds taking turns`);
  console.log('agents   age  build                 median ms  fastest ms  ns/agent  vs first (median of ratios)');
  for (const r of rows) {
    r.builds.forEach((b, k) => {
      console.log(
        `${String(r.agents).padStart(6)} ${String(r.age).padStart(5)}  ${builds[k].name.padEnd(20)} ${b.median.toFixed(3).padStart(10)} ` +
          `${b.fastest.toFixed(3).padStart(11)} ${Math.round((b.fastest * 1e6) / r.agents).toString().padStart(9)}  ` +
          `${b.ratio.toFixed(3)}`,
      );
    });
  }
} finally {
  await env.close();
  removeCopies();
}
