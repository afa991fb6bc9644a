// Measures the boid page of several builds side by side in one Chromium: 20,000 flocking
// agents, the page's own fps and step-ms read-outs, and the time a frame's drawing takes.
// Each build is a directory holding a whole page (a copy of www/ with its pkg/ built), or
// `current` for www itself. The builds take turns, each page opened, run to step 480 (so that
// the flocks form, and so that each build is measured on flocks of the same age: they grow
// denser, and dearer to step, for minutes), sampled for 4 s, measured drawing 20 frames and
// closed, for a few rounds.
//
// Usage: node scripts/boids-page-ab.mjs DIR|current DIR|current... [--rounds 3] [--agents 20000]
// (The directories are copied under www/pkg/ab/ for the run and removed afterwards.)
import { start, text } from '../tests/support/browser.mjs';
import { commandLine, copyBuilds, removeCopies } from './ab-builds.mjs';

const { args, option } = commandLine();
const rounds = Number(option('--rounds', 3));
const agents = Number(option('--agents', 20000));
const builds = copyBuilds(args, 'boids.html', 'boids.html', 1, 'node scripts/boids-page-ab.mjs DIR|current DIR|current... [--rounds N] [--agents N]');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const env = await start();
try {
  const results = builds.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < builds.length; j++) {
      const k = (j + r) % builds.length;
      const page = await env.browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await page.goto(`${env.base}${builds[k].path}?scenario=flock&agents=${agents}&seed=1`);
      await page.waitForFunction(() => window.boidlab && document.querySelector('[data-testid="agents"]')?.textContent !== '');
      await page.waitForFunction(() => window.boidlab.app.boids.steps >= 480, null, { timeout: 60000, polling: 100 });
      const samples = [];
      for (let s = 0; s < 8; s++) {
        await page.waitForTimeout(500);
        samples.push({ stepMs: Number(await text(page, 'step-ms')), fps: Number(await text(page, 'fps')) });
      }
      const drawMs = await page.evaluate(() => {
        const app = window.boidlab.app;
        app.setPlaying(false);
        app.draw();
        const t0 = performance.now();
        for (let n = 0; n < 20; n++) app.draw();
        return (performance.now() - t0) / 20;
      });
      results[k].push({ stepMs: median(samples.map((x) => x.stepMs)), fps: median(samples.map((x) => x.fps)), drawMs });
      await page.close();
    }
  }
  console.log(`boid page, flock of ${agents}: median of 8 read-outs from step 480 on, per round (${rounds} rounds, builds taking turns)`);
  builds.forEach((b, k) => {
    const rs = results[k];
    const f = (key, d) => rs.map((x) => x[key].toFixed(d)).join(' ');
    console.log(`${b.name.padEnd(16)} fps ${f('fps', 0)} | step ms ${f('stepMs', 2)} | draw ms ${f('drawMs', 2)}`);
  });
} finally {
  await env.close();
  removeCopies();
}
