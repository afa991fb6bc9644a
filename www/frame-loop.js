// The frame loop every page runs on: `frameLoop(tick)` is the one requestAnimationFrame loop of
// the path-finding page and its compare view, the graph and hex views, the path-request page,
// and (through frames.js) the boid and crowd pages. Kept apart from frames.js so that the
// path-finding page's first paint loads only this.

/**
 * A running frame loop (see frameLoop).
 * @typedef {{ stop(): void }} FrameLoop
 */

/**
 * Calls `tick(now)` once per animation frame, `now` being the frame's timestamp, until the
 * returned loop's `stop()`. The next frame is asked for before `tick` runs, so a `tick` that
 * throws does not stop the loop.
 * @param {(now: number) => void} tick
 * @returns {FrameLoop}
 */
export function frameLoop(tick) {
  let pending = 0;
  let stopped = false;
  const run = (now) => {
    if (stopped) return;
    pending = requestAnimationFrame(run);
    tick(now);
  };
  pending = requestAnimationFrame(run);
  return {
    stop() {
      stopped = true;
      cancelAnimationFrame(pending);
    },
  };
}
