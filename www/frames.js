// The frame of the agent pages (boids.html, crowd.html), on the frame loop every page runs on
// (frame-loop.js): `startFrames` runs a frame that measures frames per second, steps the
// simulation while playing, draws when something changed and refreshes the read-outs at most
// four times a second (or after a draw); also the play toggle and the step timing both pages
// show.

import { frameLoop } from './frame-loop.js';

/**
 * Starts the agent pages' loop for `app`, which provides `playing`, `dirty`, `timedStep()`,
 * `draw()`, `readouts(now)` and `lastReadout`; the loop keeps `app.fps`, and `app.loop` (the
 * running loop: `app.loop.stop()` ends it).
 */
export function startFrames(app) {
  app.frames = 0;
  app.fpsSince = performance.now();
  app.loop = frameLoop((now) => frameTick(app, now));
}

/** One frame of the loop (exported so a page can run one by hand). */
export function frameTick(app, now) {
  app.frames += 1;
  if (now - app.fpsSince >= 500) {
    app.fps = (app.frames * 1000) / (now - app.fpsSince);
    app.frames = 0;
    app.fpsSince = now;
  }
  if (app.playing) {
    app.timedStep();
    app.dirty = true;
  }
  if (app.dirty) app.draw();
  if (now - app.lastReadout >= 250 || app.dirty) app.readouts(now);
  app.dirty = false;
}

/** Shows whether `app` plays on its `ui.play` toggle button (text and aria-pressed). */
export function setPlaying(app, on) {
  app.playing = on;
  app.ui.play.textContent = on ? 'Pause' : 'Play';
  app.ui.play.setAttribute('aria-pressed', on ? 'true' : 'false');
}

/** Runs `step()` and folds its time into `app.stepMs` (see foldStepMs). */
export function timed(app, step) {
  const t = performance.now();
  step();
  foldStepMs(app, performance.now() - t);
}

/** Folds a step's time into `app.stepMs`: an exponential average, weight 0.1. */
export function foldStepMs(app, ms) {
  app.stepMs = app.stepMs === null ? ms : app.stepMs * 0.9 + ms * 0.1;
}
