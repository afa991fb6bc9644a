// The boid page's worker thread: a copy of the page's world that takes the steps while the page
// plays, so that drawing on the main thread does not wait for them (see boids-link.js). Messages,
// handled in order; every answer carries the copy's motion (Boids.motion) and the message's seq:
//   { type: 'create', scenario, agents, seed }  build the copy (as the page built its world)
//   { type: 'call', seq, method, args }         a change the page made to its world, made again;
//                                               answered { type: 'called', seq, bytes }
//   { type: 'motion', bytes }                   the page's motion, put in (no answer)
//   { type: 'step', seq }                       one step; answered { type: 'stepped', seq, ms, bytes }
//   { type: 'look', seq, step }                 the motion, after one step if `step`; answered
//                                               { type: 'look', seq, bytes } (for tests)
// An error is answered { type: 'error', message }; the page then steps on its own.
import init, { Boids } from './pkg/pathlab_world.js';

// The worker's global scope. The type check (jsconfig.json) reads every script with the DOM's
// types, in which `self` is a Window; a dedicated worker's postMessage and onmessage have the
// signatures of a Worker's.
const scope = /** @type {Worker} */ (/** @type {unknown} */ (self));

let boids = null;
let ready = false;
const queue = [];

function reply(type, seq, extra = {}) {
  const bytes = boids.motion();
  scope.postMessage({ type, seq, bytes, ...extra }, [bytes.buffer]);
}

function handle(m) {
  switch (m.type) {
    case 'create':
      boids?.free();
      boids = new Boids(m.scenario, m.agents, m.seed);
      scope.postMessage({ type: 'ready' });
      break;
    case 'call':
      // The page's own call may have failed the same way; the copy stays like the page's world.
      try {
        boids[m.method](...m.args);
      } catch {
        // nothing to add: the page has said what went wrong
      }
      reply('called', m.seq);
      break;
    case 'motion':
      boids.setMotion(m.bytes);
      break;
    case 'step': {
      const t = performance.now();
      boids.step(1);
      reply('stepped', m.seq, { ms: performance.now() - t });
      break;
    }
    case 'look':
      if (m.step) boids.step(1);
      reply('look', m.seq);
      break;
    default:
      throw new Error(`unknown message ${String(m.type)}`);
  }
}

function drain() {
  while (queue.length > 0) {
    const m = queue.shift();
    try {
      handle(m);
    } catch (e) {
      queue.length = 0;
      scope.postMessage({ type: 'error', message: `${m.type}: ${e?.message ?? e}` });
    }
  }
}

scope.onmessage = (event) => {
  queue.push(event.data);
  if (ready) drain();
};

init().then(
  () => {
    ready = true;
    drain();
  },
  (e) => scope.postMessage({ type: 'error', message: `loading: ${e?.message ?? e}` }),
);
