// The crowd page's entry point: reads the URL query, mounts the crowd page on #app, and keeps
// the query in step with the settings (history.replaceState), so a reload or a copied link
// shows the same scene, agent count, seed and parameters.
import { mountCrowd } from './crowd.js';
import { crowdQuery } from './crowd-config.js';
import { mountFromUrl } from './sim-page.js';

/** The first scene, which the query leaves out (known once the page has mounted). */
let defaultScene = null;
window.crowdlab = await mountFromUrl('crowd-change', mountCrowd, (settings) => crowdQuery(settings, defaultScene), 'The crowd page');
defaultScene = window.crowdlab.app.names[0];
