// A canvas showing a world measured in world units (the boid and crowd pages): sizing for the
// device's pixel ratio, and the world point under the pointer.

/** The base of the agent pages' painters: `canvas`, its 2-D context, `dpr` and `scale`. */
export class WorldView {
  /** `options` go to getContext('2d') (e.g. { alpha: false } for an opaque world). */
  constructor(canvas, options = {}) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d', options);
    this.scale = 1;
    this.dpr = 1;
  }

  /** Sizes the canvas to `cssWidth` CSS pixels wide for a world of `w` x `h` units. */
  resize(cssWidth, w, h) {
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    const cssHeight = Math.max(1, Math.round((cssWidth * h) / w));
    const pw = Math.max(1, Math.round(cssWidth * dpr));
    const ph = Math.max(1, Math.round(cssHeight * dpr));
    if (this.canvas.width !== pw || this.canvas.height !== ph) {
      this.canvas.width = pw;
      this.canvas.height = ph;
    }
    this.canvas.style.width = `${cssWidth}px`;
    this.canvas.style.height = `${cssHeight}px`;
    this.dpr = dpr;
    this.scale = pw / w;
  }

  /** World coordinates under a pointer event (or any { clientX, clientY }). */
  worldAt(event, w, h) {
    const r = this.canvas.getBoundingClientRect();
    return { x: ((event.clientX - r.left) / r.width) * w, y: ((event.clientY - r.top) / r.height) * h };
  }
}
