// The boid page's entry point: reads the URL query, mounts the boid world on #app, and keeps
// the query in step with the settings (history.replaceState), so a reload or a copied link
// shows the same scenario, agent count and seed.
import { mountBoids } from './boids.js';
import { boidQuery } from './boids-config.js';
import { mountFromUrl } from './sim-page.js';

window.boidlab = await mountFromUrl('boids-change', mountBoids, boidQuery, 'The boid world');
