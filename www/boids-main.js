// The boid page's entry point: reads the URL query, mounts the boid world on #app, and keeps
// the query in step with the settings (history.replaceState), so a reload or a copied link
// shows the same scenario, agent count and seed.
import { mountBoids } from './boids.js';
import { boidQuery } from './boids-config.js';
import { queryObject } from './values.js';

const root = document.getElementById('app');
root.addEventListener('boids-change', (event) => {
  const query = boidQuery(event.detail);
  history.replaceState(null, '', query ? `?${query}` : location.pathname);
});

try {
  window.boidlab = await mountBoids(root, queryObject(location.search));
} catch (e) {
  const p = document.createElement('p');
  p.className = 'pl-fatal';
  p.setAttribute('role', 'alert');
  p.textContent = `The boid world could not start: ${e.message}`;
  root.replaceChildren(p);
  throw e;
}
