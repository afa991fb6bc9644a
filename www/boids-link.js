// Steps the boid page's world in a worker thread (boids-worker.js) while the page plays, so that a
// frame costs the drawing only and the step runs beside it on another core.
//
// The page keeps its own world, on which it reads, draws, inspects and changes everything as
// before; the worker holds a copy. `WorldLink.boids` is the page's world behind a proxy: every
// call that changes the world is made on the page's world and sent to the copy, which makes it
// too. While playing, each frame asks the copy for one step (if none is under way). The copy
// answers every step and every change with its motion (positions, velocities, headings,
// memories and the step count), and the page puts the answer to the latest message it sent
// into its world; older answers are dropped. So the page shows the copy's world, with every
// change made after the steps before it. A step taken on the page itself (the Step button, or
// without a worker) sends the page's motion to the copy instead. Without workers, or after an
// error in the worker, the page steps its own world as it did before.

/** The Boids methods that change a world, made again on the copy (`step` sends motion). */
export const CHANGES = new Set([
  'reset',
  'setParam',
  'setCombine',
  'setCollisions',
  'setSpline',
  'addAgents',
  'removeAgents',
  'paintLine',
  'clearWalls',
  'addCircle',
  'clearCircles',
  'setGoal',
]);

export class WorldLink {
  /**
   * `boids` is the page's world, just built with `scenario`, `agents` and `seed`.
   * `onMotion(ms)` is called after the copy's motion has been put into the page's world (`ms`:
   * the copy's step time, or null after a change); `onLost(message)` when the worker fails (the
   * page then steps on its own).
   */
  constructor(boids, { scenario, agents, seed }, { onMotion, onLost }) {
    this.raw = boids;
    this.onMotion = onMotion;
    this.onLost = onLost;
    this.ready = false;
    this.lost = false;
    this.inFlight = false;
    this.owed = 0;
    // Numbers the messages that change the copy: only the answer to the latest is put in.
    this.sent = 0;
    this.looks = new Map();
    this.boids = this.proxy(boids);
    try {
      this.worker = new Worker(new URL('./boids-worker.js', import.meta.url), { type: 'module' });
    } catch (e) {
      this.lose(`no worker thread (${e.message}); stepping on the page`);
      return;
    }
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => this.lose(`the worker thread failed (${event.message ?? 'no message'})`);
    this.worker.postMessage({ type: 'create', scenario, agents, seed });
  }

  /** True while the worker takes the steps. */
  get active() {
    return this.ready && !this.lost;
  }

  proxy(raw) {
    const link = this;
    return new Proxy(raw, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== 'function') return value;
        if (prop === 'step') {
          return (...args) => {
            const r = value.apply(target, args);
            link.sendMotion();
            return r;
          };
        }
        if (typeof prop === 'string' && CHANGES.has(prop)) {
          return (...args) => {
            try {
              return value.apply(target, args);
            } finally {
              link.send({ type: 'call', method: prop, args });
            }
          };
        }
        return value.bind(target);
      },
    });
  }

  /** Sends a message that changes the copy, numbered. */
  send(message, transfer = []) {
    if (this.lost || !this.worker) return;
    this.sent += 1;
    this.worker.postMessage({ ...message, seq: this.sent }, transfer);
  }

  /** Sends the page's motion: the copy becomes equal to the page's world. */
  sendMotion() {
    if (this.lost || !this.worker) return;
    const bytes = this.raw.motion();
    this.send({ type: 'motion', bytes }, [bytes.buffer]);
  }

  /**
   * Asks for one more step (called once per frame while playing). Steps are asked for one at a
   * time; one still owed when an answer arrives is asked for at once, so that an answer coming
   * just after a frame does not cost a step (at most two are owed). Returns false when the page
   * must step itself.
   */
  request() {
    if (!this.active) return false;
    this.owed = Math.min(2, this.owed + 1);
    this.pump();
    return true;
  }

  /** Forgets the steps owed (on pause). */
  halt() {
    this.owed = 0;
  }

  pump() {
    if (this.inFlight || this.owed === 0 || !this.active) return;
    this.owed -= 1;
    this.inFlight = true;
    this.send({ type: 'step' });
  }

  receive(m) {
    if (m.type === 'ready') {
      this.ready = true;
    } else if (m.type === 'error') {
      this.lose(`the worker thread stopped: ${m.message}`);
    } else if (m.type === 'look') {
      this.looks.get(m.seq)?.(m.bytes);
      this.looks.delete(m.seq);
    } else if (m.type === 'stepped' || m.type === 'called') {
      if (m.type === 'stepped') this.inFlight = false;
      if (m.seq !== this.sent) return;
      try {
        this.raw.setMotion(m.bytes);
      } catch (e) {
        this.lose(`the worker's world no longer fits the page's (${e.message})`);
        return;
      }
      this.onMotion(m.type === 'stepped' ? m.ms : null);
      this.pump();
    }
  }

  lose(message) {
    if (this.lost) return;
    this.lost = true;
    this.inFlight = false;
    this.worker?.terminate();
    for (const done of this.looks.values()) done(null);
    this.looks.clear();
    this.onLost(message);
  }

  /**
   * For tests, with the page paused and the answers in: whether the page's world is the copy's
   * (their motions equal byte for byte), and whether it still is after both take one step (the
   * page's on its own: so nothing that steering depends on differs). Resolves to
   * `{ same, sameAfterStep }`, both false when the worker is gone.
   */
  async verify() {
    const look = (step) =>
      new Promise((resolve) => {
        if (this.lost || !this.worker) return resolve(null);
        this.send({ type: 'look', step });
        this.looks.set(this.sent, resolve);
      });
    const equal = (a, b) => a !== null && b !== null && a.length === b.length && a.every((x, i) => x === b[i]);
    const now = await look(false);
    const same = equal(now, this.raw.motion());
    const next = await look(true);
    this.raw.step(1);
    return { same, sameAfterStep: equal(next, this.raw.motion()) };
  }

  destroy() {
    this.worker?.terminate();
    this.lost = true;
  }
}
