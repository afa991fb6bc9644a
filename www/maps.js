// Finding and fetching maps: the preset index in maps/presets.json, and map files given by a
// relative path. Parsing happens in the core (Lab.loadCourse / Lab.loadMovingAi); this module
// only fetches text and says which format it is.

import { isRelativeMapPath } from './config.js';
import { quote } from './values.js';

/** Where the presets live: next to this module, so an embedding page may sit anywhere. */
const MAPS = new URL('./maps/', import.meta.url);

/**
 * The preset index from maps/presets.json: `presets` (grid maps) and `graphs` (space=graph);
 * `fetched`: a fetch of it already under way (early.js), else it is fetched now.
 */
export async function loadIndex(fetched = null) {
  const response = await (fetched ?? fetch(new URL('presets.json', MAPS)));
  if (!response.ok) throw new Error(`the preset list maps/presets.json could not be loaded (HTTP ${response.status})`);
  const index = await response.json();
  const list = (key) => (Array.isArray(index?.[key]) ? index[key] : []).filter((p) => typeof p?.name === 'string' && typeof p?.file === 'string');
  return { presets: list('presets'), graphs: list('graphs') };
}

/** The grid presets of the index (loadIndex). */
export async function loadPresets(fetched = null) {
  return (await loadIndex(fetched)).presets;
}

/**
 * The preset entry a configuration's `map` names in the index (a graph preset with
 * space=graph, else a grid preset), or null. Its `settings` are URL keys the preset brings.
 */
export function presetEntry(index, raw) {
  const name = raw?.map;
  if (typeof name !== 'string' || !index) return null;
  const graph = String(raw.space ?? index.graphs.find((p) => p.name === name)?.settings?.space ?? '') === 'graph';
  return (graph ? index.graphs : index.presets).find((p) => p.name === name) ?? null;
}

/** "movingai" when the text starts with a MovingAI header, else "course". */
export function detectFormat(text, fileName = '') {
  if (/\.map$/i.test(fileName)) return 'movingai';
  const first = text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  return /^\s*(type|height|width)\b/i.test(first) ? 'movingai' : 'course';
}

/** The text at `url`; an Error naming `label` when it cannot be fetched. */
export async function fetchText(url, label) {
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new Error(`${quote(label)} could not be fetched (${e.message})`);
  }
  if (!response.ok) throw new Error(`${quote(label)} could not be loaded (HTTP ${response.status})`);
  return response.text();
}

/**
 * Resolves a `map` setting to `{ text, format, preset, label }`: a preset by name, or a file
 * by a path relative to the page. Throws an Error whose message names the problem. `early`:
 * `{ file, text }` of a preset file fetched already (early.js), used if it is this preset's.
 */
export async function fetchMap(name, presets, early = null) {
  const preset = presets.find((p) => p.name === name);
  if (preset) {
    const text = early?.file === preset.file ? early.text : await fetchText(new URL(preset.file, MAPS), `maps/${preset.file}`);
    return { text, format: preset.format === 'movingai' ? 'movingai' : 'course', preset, label: preset.name };
  }
  if (!isRelativeMapPath(name)) {
    const known = presets.map((p) => p.name).join(', ');
    throw new Error(`${quote(name)} is not a preset (${known}) nor a relative path to a .map or .txt file`);
  }
  const text = await fetchText(new URL(name, document.baseURI), name);
  return { text, format: detectFormat(text, name), preset: null, label: name };
}
