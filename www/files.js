// Files in and out. In: a course data file or a MovingAI .map, from the file picker (App) or
// dropped on the grid; both go through App.openFile, which keeps the current map and says why
// when a file is malformed or too large. Out: the grid as a PNG picture, the map as a course
// file or a MovingAI .map, and the whole run as JSON or CSV. The run is built by replaying a
// second Lab with the same map and settings from step 0 to the end (at most MAX_EXPORT_STEPS
// steps), so exporting never disturbs the search on show.

import { statusName } from './pkg/pathlab_wasm.js';
import { download, el } from './dom.js';
import { readCells } from './editor.js';
import { cloneWithLinks } from './every-search.js';

/**
 * The part of the page this module uses (page-context.js: each member is documented there).
 * @typedef {Pick<import('./page-context.js').PageContext, 'canvas' | 'lab' | 'mapName' | 'mapTitle' | 'memory' | 'narrate' | 'openFile' | 'root' | 'say' | 'ui'>} FilesContext
 */

/** The most steps a run export holds. */
export const MAX_EXPORT_STEPS = 200_000;

/** Steps replayed between two pauses that let the page repaint. */
const CHUNK = 5_000;

/** The settings that make a run, as `Lab.settings()` names them. */
export const RUN_SETTINGS = [
  'algo', 'heuristic', 'diagonal', 'costs', 'weight', 'lookahead', 'sensor', 'cluster', 'hand', 'fog', 'seed',
  'reopen', 'threshold', 'order', 'list', 'ga', 'hb', 'gcount',
];

/**
 * A file name from the map's name or title: letters, digits, dots and dashes only.
 * @param {FilesContext} app
 */
function baseName(app) {
  const raw = app.mapName ?? app.mapTitle ?? 'map';
  const name = String(raw).replace(/\.(map|txt)$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return `pathlab-${name.slice(0, 60) || 'map'}`;
}

/**
 * A second Lab with the map and settings of `app.lab`, at step 0. The caller frees it.
 * @param {FilesContext} app
 */
export function twinLab(app) {
  return cloneWithLinks(app.lab, app.lab.settings().algo);
}

/**
 * Replays the run of `app.lab` on a twin, one row per step: `{ step, expanded: [x, y] | null,
 * g, h, f, open, opened: [{ at, old_g, g }], status, cost }`. Pauses every few thousand steps
 * so the page stays responsive. Resolves to the run with its settings and outcome.
 * @param {FilesContext} app
 */
export async function replayRun(app, limit = MAX_EXPORT_STEPS) {
  // Read now: the page's Lab may move to the module with every search while this pauses.
  const { width, height } = app.lab;
  const s = app.lab.settings();
  const twin = twinLab(app);
  const rows = [];
  try {
    let status = statusName(twin.status);
    while (status !== 'found' && status !== 'no-path' && rows.length < limit) {
      status = statusName(twin.step());
      const last = twin.lastStep();
      let g = null;
      let h = null;
      let f = null;
      if (last.expanded) {
        const info = twin.cellInfo(last.expanded[0], last.expanded[1]);
        g = info.g ?? null;
        h = info.h ?? null;
        f = info.f ?? null;
      }
      rows.push({
        step: twin.steps,
        expanded: last.expanded ?? null,
        g,
        h,
        f,
        open: twin.openCount,
        opened: last.opened.map((o) => ({ at: o.at, old_g: o.old_g ?? null, g: o.g })),
        status,
        cost: twin.cost ?? null,
      });
      if (rows.length % CHUNK === 0) await new Promise((ok) => setTimeout(ok, 0));
    }
    return {
      settings: Object.fromEntries(RUN_SETTINGS.map((k) => [k, s[k]])),
      map: { width, height, title: app.mapTitle ?? '' },
      start: s.start,
      goal: s.goal,
      steps: twin.steps,
      status,
      cost: twin.cost ?? null,
      expanded: twin.expanded,
      truncated: status !== 'found' && status !== 'no-path',
      rows,
    };
  } finally {
    twin.free();
  }
}

/** The run as JSON text. */
export function runJson(run) {
  return JSON.stringify({ pathlab: 'run', version: 1, ...run }, null, 1);
}

/**
 * The run as CSV: lines starting with `#` describe the settings, map and outcome; then a header
 * and one row per step (the neighbours opened are in the JSON export only).
 */
export function runCsv(run) {
  const num = (v) => (v === null || v === undefined ? '' : String(v));
  const settings = Object.entries(run.settings).map(([k, v]) => `${k}=${v}`).join(' ');
  const lines = [
    `# Pathlab run: ${settings}`,
    `# map ${run.map.width}x${run.map.height}; start ${run.start.join(',')}; goal ${run.goal.join(',')}`,
    `# outcome: ${run.status}; cost ${num(run.cost) || 'none'}; steps ${run.steps}; expanded ${run.expanded}${run.truncated ? `; cut off after ${run.rows.length} steps` : ''}`,
    'step,x,y,g,h,f,open,status,cost',
  ];
  for (const r of run.rows) {
    const [x, y] = r.expanded ?? [null, null];
    lines.push([r.step, num(x), num(y), num(r.g), num(r.h), num(r.f), r.open, r.status, num(r.cost)].join(','));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Wires drag-and-drop of map files and the export buttons. Returns `{ destroy() }`.
 * @param {FilesContext} app
 */
export function attachFiles(app) {
  const ui = app.ui;
  const wrap = ui.wrap;
  const button = (testid, text, title) => el('button', { type: 'button', testid, class: 'pl-btn pl-small', text, title });
  const png = button('export-png', 'Picture (PNG)', 'The grid as it is shown now, as a PNG image');
  const course = button('export-course', 'Course file', 'The map as a course data file (0, 1, A, B)');
  const movingAi = button('export-movingai', 'MovingAI .map', 'The map as a MovingAI .map file');
  const json = button('export-json', 'Run as JSON', 'Every step of the run: expanded cell, g, h, f, open list, neighbours');
  const csv = button('export-csv', 'Run as CSV', 'Every step of the run, one row each, for a spreadsheet');
  const runButtons = [json, csv];

  const section = el(
    'section',
    { class: 'pl-section pl-files' },
    el('h2', { text: 'Files' }),
    el('p', { class: 'pl-hint', text: 'Open a map with “Open file…” above, or drop a .map or .txt file on the grid.' }),
    el('div', { class: 'pl-row', role: 'group', 'aria-label': 'Export the view and the map' }, png, course, movingAi),
    el('div', { class: 'pl-row', role: 'group', 'aria-label': 'Export the run' }, json, csv),
  );
  ui.editSection.after(section);

  /** Warns that terrain costs have no symbol in the map formats. */
  function terrainNote(format) {
    const hasTerrain = readCells(app).some((v) => v > 1);
    if (hasTerrain) app.say(`The ${format} has no symbol for mud or water: those cells were written as open ground.`);
  }

  png.addEventListener('click', () => {
    app.canvas.toBlob((blob) => {
      if (!blob) {
        app.say('The picture could not be made (the browser gave no PNG).');
        return;
      }
      download(blob, `${baseName(app)}.png`);
    }, 'image/png');
  });
  course.addEventListener('click', () => {
    let text;
    try {
      text = app.lab.toCourse();
    } catch (e) {
      app.say(`The course file was not written: ${e.message ?? e}.`);
      return;
    }
    terrainNote('course file');
    download(new Blob([text], { type: 'text/plain' }), `${baseName(app)}.txt`);
  });
  movingAi.addEventListener('click', () => {
    terrainNote('MovingAI format');
    download(new Blob([app.lab.toMovingAi()], { type: 'text/plain' }), `${baseName(app)}.map`);
  });

  async function exportRun(kind) {
    for (const b of runButtons) b.disabled = true;
    app.narrate('Replaying the run from step 0 for the export…');
    try {
      const run = await replayRun(app);
      if (run.truncated) {
        app.say(`The run goes on past ${MAX_EXPORT_STEPS.toLocaleString('en')} steps; the export holds the first ${MAX_EXPORT_STEPS.toLocaleString('en')} (the last row reads "${run.status}").`);
      }
      const text = kind === 'json' ? runJson(run) : runCsv(run);
      const type = kind === 'json' ? 'application/json' : 'text/csv';
      download(new Blob([text], { type }), `${baseName(app)}-${run.settings.algo}.${kind}`);
      app.narrate(`Exported ${run.rows.length} steps (${run.status}${run.cost === null ? '' : `, cost ${run.cost}`}) as ${kind.toUpperCase()}.`);
    } catch (e) {
      app.say(`The run could not be exported: ${e.message}`);
    } finally {
      for (const b of runButtons) b.disabled = false;
    }
  }
  json.addEventListener('click', () => exportRun('json'));
  csv.addEventListener('click', () => exportRun('csv'));

  // Drag and drop onto the grid.
  let depth = 0;
  const hasFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');
  function onEnter(event) {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth += 1;
    wrap.classList.add('pl-drop-target');
  }
  function onOver(event) {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }
  function onLeave() {
    depth = Math.max(0, depth - 1);
    if (depth === 0) wrap.classList.remove('pl-drop-target');
  }
  function onDrop(event) {
    // Text dropped in a field of the panel is the field's business.
    if (!hasFiles(event) && !wrap.contains(event.target)) return;
    event.preventDefault();
    depth = 0;
    wrap.classList.remove('pl-drop-target');
    const files = [...(event.dataTransfer?.files ?? [])];
    if (!files.length) {
      app.say('Only files can be dropped on the grid: a course file (.txt) or a MovingAI map (.map).');
      return;
    }
    if (files.length > 1) app.say(`${files.length} files were dropped; opening the first, ${JSON.stringify(files[0].name)}.`);
    app.openFile(files[0]);
  }
  // The whole of Pathlab takes the drop, so a file that misses the grid opens too instead of
  // the browser leaving the page for it; the grid shows where to drop.
  const zone = app.root;
  zone.addEventListener('dragenter', onEnter);
  zone.addEventListener('dragover', onOver);
  zone.addEventListener('dragleave', onLeave);
  zone.addEventListener('drop', onDrop);

  return {
    destroy() {
      zone.removeEventListener('dragenter', onEnter);
      zone.removeEventListener('dragover', onOver);
      zone.removeEventListener('dragleave', onLeave);
      zone.removeEventListener('drop', onDrop);
    },
  };
}
