// The page entry point: reads the URL query (and the fragment, where a long address keeps its
// map), mounts Pathlab on #app, and keeps the address in step with the settings
// (history.replaceState), so a reload or a copied link shows the same.
import { mount } from './pathlab.js';
import { toQuery } from './config.js';
import { addressObject, addressText } from './values.js';

const root = document.getElementById('app');
const address = addressObject(location.search, location.hash);
// A lesson keeps its own address: its name and page (lesson.js), not each page's settings.
const lesson = Object.hasOwn(address, 'lesson');
root.addEventListener('pathlab-lesson', (event) => {
  const { lesson: name, page, embed } = event.detail;
  const url = new URL(location.pathname, location.href);
  url.search = new URLSearchParams({ lesson: name, page: String(page), ...(embed ? { embed: '1' } : {}) }).toString();
  history.replaceState(null, '', url);
});
root.addEventListener('pathlab-change', (event) => {
  if (lesson) return;
  const config = { ...event.detail };
  if (!config.map) delete config.map;
  const url = new URL(location.pathname, location.href);
  url.search = toQuery(config);
  // A long address keeps the map in the fragment, so a reload is never refused for its size.
  history.replaceState(null, '', addressText(url));
});

try {
  window.pathlab = await mount(root, address);
} catch (e) {
  const p = document.createElement('p');
  p.className = 'pl-fatal';
  p.setAttribute('role', 'alert');
  p.textContent = `Pathlab could not start: ${e.message}`;
  root.replaceChildren(p);
  throw e;
}
