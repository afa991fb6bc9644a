// The page entry point: reads the URL query, mounts Pathlab on #app, and keeps the query in
// step with the settings (history.replaceState), so a reload or a copied link shows the same.
import { mount } from './pathlab.js';
import { toQuery } from './config.js';
import { queryObject } from './values.js';

const root = document.getElementById('app');
root.addEventListener('pathlab-change', (event) => {
  const config = { ...event.detail };
  if (!config.map) delete config.map;
  const query = toQuery(config);
  history.replaceState(null, '', query ? `?${query}` : location.pathname);
});

try {
  window.pathlab = await mount(root, queryObject(location.search));
} catch (e) {
  const p = document.createElement('p');
  p.className = 'pl-fatal';
  p.setAttribute('role', 'alert');
  p.textContent = `Pathlab could not start: ${e.message}`;
  root.replaceChildren(p);
  throw e;
}
