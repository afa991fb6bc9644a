// The URL's `step=N` on the path-finding page (pathlab.js): the search is taken to step N a
// slice at a time, so that a huge `step` never freezes the tab. Loaded only for such a link.

/** How long each animation frame works on the way to a far `step` (milliseconds): the rest of
 * the frame paints and answers input. */
export const SLICE_MS = 12;

/**
 * Takes `app`'s search to step `target` (the URL's `step`) a slice at a time: one slice of at
 * most SLICE_MS per animation frame (the page runs `app.nextSlice` in its next frame), and the
 * rest of the frame paints and answers input. The first slice runs at once, so a step reached in
 * it is shown in the first paint. Otherwise this returns the function that goes on (the page
 * calls it once it is all there): it says how far it has come, and any key or click on the page
 * stops it where it is.
 * @param {{ lab: any, root: HTMLElement, finished(): boolean, narrate(text: string): void, narrateStep(): void, touch(): void, nextSlice: (() => void) | null }} app
 * @param {number} target
 * @returns {(() => void) | null}
 */
export function goToStep(app, target) {
  let chunk = 64;
  const slice = () => {
    const t0 = performance.now();
    while (app.lab.steps < target && !app.finished() && performance.now() - t0 < SLICE_MS) {
      const t = performance.now();
      app.lab.advance(Math.min(chunk, target - app.lab.steps));
      // Grow the chunk while it is cheap; shrink it when one takes a good part of the slice.
      chunk = performance.now() - t < SLICE_MS / 8 ? Math.min(chunk * 2, 1 << 20) : Math.max(1, chunk >> 1);
    }
    return app.lab.steps >= target || app.finished();
  };
  if (slice()) return null;
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  const events = ['keydown', 'pointerdown'];
  const say = (text) => app.narrate(text);
  const go = () => {
    if (!app.root.isConnected) return;
    if (stopped) {
      say(`Stopped at step ${app.lab.steps.toLocaleString('en')} on the way to step ${target.toLocaleString('en')}.`);
    } else if (!slice()) {
      const share = Math.floor((100 * app.lab.steps) / target);
      say(`Going to step ${target.toLocaleString('en')}: ${share}% (step ${app.lab.steps.toLocaleString('en')}); a key or a click stops it here.`);
      app.touch();
      app.nextSlice = go;
      return;
    } else if (app.lab.steps >= target) {
      // There: the Last step panel describes step N as if the user had stepped to it.
      app.narrateStep();
    } else {
      say(`At step ${app.lab.steps.toLocaleString('en')}: the search ended before step ${target.toLocaleString('en')}.`);
    }
    for (const e of events) app.root.removeEventListener(e, stop, { capture: true });
    app.touch();
  };
  return () => {
    for (const e of events) app.root.addEventListener(e, stop, { capture: true, once: true });
    go();
  };
}
