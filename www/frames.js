// The animation loop of the agent pages (boids.html, crowd.html): one requestAnimationFrame
// callback that measures frames per second, steps the simulation while playing, draws when
// something changed and refreshes the read-outs at most four times a second (or after a draw).

/**
 * Starts the loop for `app`, which provides `playing`, `dirty`, `timedStep()`, `draw()`,
 * `readouts(now)` and `lastReadout`; the loop keeps `app.fps` and `app.frame` (the pending
 * request, for cancelAnimationFrame).
 */
export function startFrames(app) {
  app.frames = 0;
  app.fpsSince = performance.now();
  const tick = (now) => {
    app.frame = requestAnimationFrame(tick);
    frameTick(app, now);
  };
  app.frame = requestAnimationFrame(tick);
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
