// The crowd page's entry point: reads the URL query, mounts the crowd page on #app, and keeps
// the query in step with the settings (history.replaceState), so a reload or a copied link
// shows the same scene, agent count, seed and parameters.
import { mountCrowd } from './crowd.js';
import { crowdQuery } from './crowd-config.js';
import { queryObject } from './values.js';

const root = document.getElementById('app');
let defaultScene = null;
root.addEventListener('crowd-change', (event) => {
  const query = crowdQuery(event.detail, defaultScene);
  history.replaceState(null, '', query ? `?${query}` : location.pathname);
});

try {
  window.crowdlab = await mountCrowd(root, queryObject(location.search));
  defaultScene = window.crowdlab.app.names[0];
} catch (e) {
  const p = document.createElement('p');
  p.className = 'pl-fatal';
  p.setAttribute('role', 'alert');
  p.textContent = `The crowd page could not start: ${e.message}`;
  root.replaceChildren(p);
  throw e;
}
