// Reading and checking the page configuration: the URL query of index.html, or the object
// given to mount(). Both use the same keys (see design.md, "Page URL / embed configuration").
// Nothing here touches the DOM: readConfig returns the settings to use and the messages to
// show, and the caller shows them as text.

import { decodeGrid, decodeGraph } from './share.js';
import { MAX_SEED, keyName, parseWhole, quote, text } from './values.js';

/** Every key the page understands, in the order they are checked. */
export const KEYS = [
  'space', 'layout', 'map', 'grid', 'graph', 'algo', 'heuristic', 'diagonal', 'costs', 'weight',
  'lookahead', 'sensor', 'cluster', 'hand', 'fog', 'seed',
  'start', 'goal', 'step', 'autoplay', 'speed', 'embed', 'compare', 'lock', 'contrast', 'present',
  'teleports', 'teleport-h', 'heights', 'uphill', 'downhill', 'costs-on', 'quiz',
  'list', 'ga', 'hb', 'gcount', 'reopen', 'threshold', 'order', 'hcheck',
];

/** The keys of the search's switches (switches.js applies them): the skeleton's plug-ins, re-opening, IDA*'s threshold rule, the neighbour order and the heuristic check. */
export const SWITCHES = KEYS.slice(KEYS.indexOf('list'));

/** The keys whose values are names the core lists (wasm `names(key)`), read the same way by the page and by lessons. */
export const NAMED_KEYS = ['algo', 'heuristic', 'diagonal', 'costs', 'hand', 'list', 'gcount', 'threshold', 'costs-on'];

/**
 * The names the core accepts for each of NAMED_KEYS, as readConfig takes them.
 * @param {(key: string) => string[]} names the wasm module's `names`
 * @returns {Record<string, string[]>}
 */
export const knownNames = (names) => Object.fromEntries(NAMED_KEYS.map((key) => [key, names(key)]));

/**
 * The quiz modes (`quiz=`): on the grid (quiz.js) predict the next expansion or the path's
 * next cell; on the navmesh (quiz-funnel.js) the funnel's next corner.
 */
export const QUIZ_MODES = ['expand', 'path', 'apex'];

/**
 * The spaces the page shows (`space=`): the square grid, hex tiles, a weighted graph, and a grid
 * map seen as a navigation mesh or as its corner graph.
 */
export const SPACES = ['grid', 'hex', 'graph', 'navmesh', 'corners'];
/** How hexes are laid out (`layout=`, with `space=hex`). */
export const LAYOUTS = ['pointy', 'flat'];

/** The most algorithms compare mode shows side by side (compare.js). */
export const MAX_COMPARE = 4;

/** The whole-number settings of particular algorithms: their ranges and what they mean. */
export const COUNTS = {
  lookahead: { min: 1, max: 16, what: 'look-ahead depth of LRTA* and RTA*, in moves' },
  sensor: { min: 0, max: 64, what: 'sensor radius of the D* Lite agent and the explorer, in cells (0: it sees everything at once)' },
  cluster: { min: 4, max: 128, what: 'cluster side of hierarchical A*, in cells' },
};

/** Steps per second for each position of the speed control (1-based). */
export const SPEEDS = [1, 2, 4, 8, 15, 30, 60, 120, 300, 600, 1500, 6000];

/** The largest A* weight the core accepts. */
export const MAX_WEIGHT = 100;

/**
 * A page configuration, as readConfig returns it (`given`: the keys the URL gave a value for).
 * @typedef {object} PageConfig
 * @property {string} space
 * @property {string | null} layout
 * @property {string | null} map
 * @property {{ width: number, height: number, cells: Uint8Array } | null} grid
 * @property {object | null} graph
 * @property {string} algo
 * @property {string | null} heuristic
 * @property {string | null} diagonal
 * @property {string | null} costs
 * @property {number} weight
 * @property {number} lookahead
 * @property {number} sensor
 * @property {number} cluster
 * @property {string} hand
 * @property {boolean} fog
 * @property {number} seed
 * @property {[number, number] | string | null} start
 * @property {[number, number] | string | null} goal
 * @property {number} step
 * @property {boolean} autoplay
 * @property {number} speed
 * @property {boolean} embed
 * @property {object | null} compare
 * @property {boolean} lock
 * @property {boolean} contrast
 * @property {boolean} present
 * @property {string | string[] | null} teleports
 * @property {string | string[] | null} teleport-h
 * @property {string | string[] | null} heights
 * @property {string | string[] | null} uphill
 * @property {string | string[] | null} downhill
 * @property {string | null} costs-on
 * @property {string | null} quiz
 * @property {string | null} list
 * @property {number | null} ga
 * @property {number | null} hb
 * @property {string | null} gcount
 * @property {boolean} reopen
 * @property {string | null} threshold
 * @property {string | null} order
 * @property {boolean} hcheck
 * @property {string[]} [given]
 */

/**
 * Defaults; `null` means "from the map preset, else the core's default".
 * @type {Readonly<PageConfig>}
 */
export const DEFAULTS = Object.freeze({
  space: 'grid',
  layout: null,
  map: null,
  grid: null,
  graph: null,
  algo: 'astar',
  heuristic: null,
  diagonal: null,
  costs: null,
  weight: 1,
  lookahead: 1,
  sensor: 3,
  cluster: 10,
  hand: 'left',
  fog: false,
  seed: 1,
  start: null,
  goal: null,
  step: 0,
  autoplay: false,
  speed: 5,
  embed: false,
  compare: null,
  lock: false,
  contrast: false,
  present: false,
  teleports: null,
  'teleport-h': null,
  heights: null,
  uphill: null,
  downhill: null,
  'costs-on': null,
  quiz: null,
  list: null,
  ga: null,
  hb: null,
  gcount: null,
  reopen: false,
  threshold: null,
  order: null,
  hcheck: false,
});

const MAX_STEP = 100_000_000;

/** Reads an `x,y` pair (a string "3,4" or an array [3, 4]) of whole numbers >= 0. */
export function parsePoint(value) {
  const parts = Array.isArray(value) ? value.map(String) : text(value).split(',');
  if (parts.length !== 2) return null;
  const nums = parts.map((p) => p.trim());
  if (!nums.every((p) => /^\d{1,6}$/.test(p))) return null;
  return [Number(nums[0]), Number(nums[1])];
}

function parseFlag(value) {
  if (value === true || value === false) return value;
  const t = text(value).toLowerCase();
  if (t === '1' || t === 'true') return true;
  if (t === '0' || t === 'false') return false;
  return undefined;
}

/** True when `value` can name a map file relative to the page: no scheme, no host, no root. */
export function isRelativeMapPath(value) {
  return /^[A-Za-z0-9._\-/]+\.(map|txt)$/.test(value) && !value.startsWith('/') && !value.includes('//');
}

/**
 * Checks a raw configuration. `known` holds the names the core accepts for `algo`,
 * `heuristic`, `diagonal` and `costs`. Returns `{ config, messages }`: every invalid value is
 * replaced by its default and explained in one message that starts with the parameter name.
 * `config.given` lists the keys the raw configuration gave a value for (valid or not).
 * `grid` (a share link's map, see share.js) becomes `{ width, height, cells }`.
 */
export function readConfig(raw, known) {
  /** @type {PageConfig} */
  const config = { ...DEFAULTS };
  const messages = [];
  const say = (key, detail) => messages.push(`Parameter "${key}": ${detail}`);
  const given = raw && typeof raw === 'object' ? raw : {};

  for (const key of Object.keys(given)) {
    if (!KEYS.includes(key)) {
      say(keyName(key), `is not a setting Pathlab knows, so it was ignored (known: ${KEYS.join(', ')}).`);
    }
  }
  const has = (key) => given[key] !== undefined && given[key] !== null && text(given[key]) !== '';

  // The space first: it decides what `start`, `goal` and `heuristic` mean.
  if (has('space')) {
    const space = text(given.space).toLowerCase();
    if (SPACES.includes(space)) config.space = space;
    else say('space', `unknown space ${quote(space)}; expected one of ${SPACES.join(', ')}. Showing the square grid.`);
  } else if (has('graph')) {
    config.space = 'graph';
  }
  if (has('layout')) {
    const layout = text(given.layout).toLowerCase();
    if (!LAYOUTS.includes(layout)) say('layout', `unknown hex layout ${quote(layout)}; expected pointy or flat. Using pointy.`);
    else if (config.space !== 'hex') say('layout', `${quote(layout)} was ignored: it lays out hexes, and goes with space=hex.`);
    else config.layout = layout;
  }

  if (has('map')) {
    const map = text(given.map);
    if (/^[A-Za-z0-9._\-/]{1,200}$/.test(map) && !map.startsWith('/') && !map.includes('//')) {
      config.map = map;
    } else {
      say('map', `${quote(map)} is neither a preset name nor a relative path to a .map or .txt file; showing the default map.`);
    }
  }

  if (has('grid')) {
    try {
      config.grid = decodeGrid(text(given.grid));
    } catch (e) {
      const instead = config.map === null ? 'the default map' : 'the map named by "map"';
      say('grid', `the map in the link cannot be read: ${e.message}. Showing ${instead} instead.`);
    }
    if (config.grid && config.map !== null) {
      say('map', `${quote(config.map)} was ignored, because "grid" gives the map itself.`);
      config.map = null;
    }
  }

  if (has('graph')) {
    if (config.space !== 'graph') {
      say('graph', `was ignored: a graph goes with space=graph, not space=${config.space}.`);
    } else {
      try {
        config.graph = decodeGraph(text(given.graph));
      } catch (e) {
        const instead = config.map === null ? 'the first graph preset' : 'the graph named by "map"';
        say('graph', `the graph in the link cannot be read: ${e.message}. Showing ${instead} instead.`);
      }
      if (config.graph && config.map !== null) {
        say('map', `${quote(config.map)} was ignored, because "graph" gives the graph itself.`);
        config.map = null;
      }
    }
  }
  if (config.grid && config.space === 'graph') {
    say('grid', 'was ignored: a graph has no grid cells (give the graph with "graph" or "map").');
    config.grid = null;
  }

  if (has('algo')) {
    const algo = text(given.algo).toLowerCase();
    if (known.algo.includes(algo)) {
      config.algo = algo;
    } else {
      say('algo', `unknown algorithm ${quote(algo)}; expected one of ${known.algo.join(', ')}. Showing A* (astar).`);
    }
  }

  for (const [key, what] of [['heuristic', 'heuristic'], ['diagonal', 'diagonal rule'], ['costs', 'cost model'], ['hand', 'hand']]) {
    if (!has(key)) continue;
    const value = text(given[key]).toLowerCase();
    if (key === 'heuristic' && config.space === 'hex' && (value === 'hex' || known.heuristic.includes(value))) {
      // Hexes have one estimate, the hex distance, or none.
      config.heuristic = value === 'zero' ? 'zero' : 'hex';
    } else if (known[key].includes(value)) {
      config[key] = value;
    } else {
      say(key, `unknown ${what} ${quote(value)}; expected one of ${known[key].join(', ')}. Using the default.`);
    }
  }

  if (has('weight')) {
    const raw = text(given.weight);
    const weight = /^[0-9]*\.?[0-9]+$/.test(raw) ? Number(raw) : NaN;
    if (Number.isFinite(weight) && weight >= 1 && weight <= MAX_WEIGHT) {
      config.weight = weight;
    } else {
      say('weight', `must be a number from 1 to ${MAX_WEIGHT}, got ${quote(raw)}; using 1.`);
    }
  }

  for (const [key, { min, max, what }] of Object.entries(COUNTS)) {
    if (!has(key)) continue;
    const raw = text(given[key]);
    const value = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
    if (value >= min && value <= max) {
      config[key] = value;
    } else {
      say(key, `the ${what}: expected a whole number from ${min} to ${max}, got ${quote(raw)}; using ${DEFAULTS[key]}.`);
    }
  }

  if (has('seed')) {
    const raw = text(given.seed);
    const value = parseWhole(raw, MAX_SEED);
    if (value !== null) config.seed = value;
    else say('seed', `the seed of crash and turn's random side rule (and of Generate): expected a whole number from 0 to ${MAX_SEED}, got ${quote(raw)}; using 1.`);
  }

  for (const key of ['start', 'goal']) {
    if (!has(key)) continue;
    if (config.space === 'graph') {
      // On a graph the ends are node ids; whether the graph has them is checked once it is loaded.
      const id = text(Array.isArray(given[key]) ? given[key].join(',') : given[key]);
      if (id.length <= 64 && !/[\u0000-\u001f]/.test(id)) config[key] = id;
      else say(key, `expected a node id (at most 64 characters), got ${quote(id)}; using the graph's ${key}.`);
      continue;
    }
    const point = parsePoint(given[key]);
    if (point) {
      config[key] = point;
    } else {
      say(key, `expected two whole numbers x,y (column, row from the top-left), got ${quote(given[key])}; using the map's ${key}.`);
    }
  }

  if (has('step')) {
    const raw = text(given.step);
    if (/^\d{1,9}$/.test(raw) && Number(raw) <= MAX_STEP) {
      config.step = Number(raw);
    } else {
      say('step', `expected a whole number of steps from 0 to ${MAX_STEP}, got ${quote(raw)}; starting at step 0.`);
    }
  }

  // The search's switches (switches.js): the skeleton's plug-ins, IDA*'s rule, the order.
  for (const [key, what] of [['list', 'open-list kind'], ['gcount', 'count for g'], ['threshold', 'threshold rule of IDA*']]) {
    if (!has(key)) continue;
    const value = text(given[key]).toLowerCase();
    if (known[key]?.includes(value)) config[key] = value;
    else say(key, `unknown ${what} ${quote(value)}; expected one of ${(known[key] ?? []).join(', ')}. Using the default.`);
  }
  for (const key of ['ga', 'hb']) {
    if (!has(key)) continue;
    const raw = text(given[key]);
    const value = /^[0-9]*\.?[0-9]+$/.test(raw) ? Number(raw) : NaN;
    if (value >= 0 && value <= MAX_WEIGHT) config[key] = value;
    else say(key, `the factor of ${key === 'ga' ? 'g' : 'h'} in f = a·g + b·h: expected a number from 0 to ${MAX_WEIGHT}, got ${quote(raw)}; using 1.`);
  }
  if (has('order')) {
    const order = text(given.order).toLowerCase();
    if (/^[nesw]{4}$/.test(order) && new Set(order).size === 4) config.order = order;
    else say('order', `expected the letters n, e, s and w once each, in the order neighbours are tried (e.g. nesw or wsen), got ${quote(order)}; using nesw.`);
  }

  for (const key of ['autoplay', 'embed', 'present', 'reopen', 'hcheck', 'fog']) {
    if (!has(key)) continue;
    const flag = parseFlag(given[key]);
    if (flag === undefined) {
      say(key, `expected 0 or 1, got ${quote(given[key])}; using 0.`);
    } else {
      config[key] = flag;
    }
  }

  // An embedded example may be locked (embed.js): stepping only, no editing. A wrong value
  // leaves it unlocked, and says so, so a lecturer sees the typo rather than a silent default.
  if (has('lock')) {
    const flag = parseFlag(given.lock);
    if (flag === undefined) {
      say('lock', `expected 1 (editing locked: the map, start, goal and algorithm cannot be changed) or 0, got ${quote(given.lock)}; editing stays unlocked.`);
    } else {
      config.lock = flag;
    }
  }

  if (has('contrast')) {
    const flag = parseFlag(given.contrast);
    if (flag === undefined) {
      say('contrast', `expected 1 (high-contrast colours) or 0, got ${quote(given.contrast)}; using the usual colours.`);
    } else {
      config.contrast = flag;
    }
  }

  if (has('speed')) {
    const raw = text(given.speed);
    const speed = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
    if (speed >= 1 && speed <= SPEEDS.length) {
      config.speed = speed;
    } else {
      say('speed', `expected a whole number from 1 to ${SPEEDS.length}, got ${quote(raw)}; using ${DEFAULTS.speed}.`);
    }
  }

  if (has('compare')) {
    const problem = readCompare(given.compare, known.algo);
    if (typeof problem === 'string') say('compare', `${problem}; showing one search instead.`);
    else config.compare = problem;
  }

  // Where a graph's move costs live (space-view.js): on its links or on its nodes.
  if (has('costs-on')) {
    const value = text(given['costs-on']).toLowerCase();
    const places = known['costs-on'] ?? [];
    if (!places.includes(value)) say('costs-on', `expected ${places.join(' or ')} (a move costs its edge's cost, or the weight of the node it enters), got ${quote(value)}; using links.`);
    else if (config.space !== 'graph') say('costs-on', `${quote(value)} was ignored: it says where a graph's costs live, and goes with space=graph.`);
    else config['costs-on'] = value;
  }

  if (has('quiz')) {
    const mode = text(given.quiz).toLowerCase();
    const navmesh = config.space === 'navmesh';
    if (!QUIZ_MODES.includes(mode)) {
      say('quiz', `expected ${QUIZ_MODES.join(', ')} (predict the next cell expanded, the path's next cell, or on space=navmesh the funnel's next corner), got ${quote(given.quiz)}; no quiz.`);
    } else if ((mode === 'apex') !== navmesh) {
      const fits = navmesh ? 'apex (the funnel\'s next corner)' : 'expand or path';
      say('quiz', `${quote(mode)} does not go with space=${config.space}, which asks ${fits}; no quiz.`);
    } else if (config.space === 'grid' || navmesh) config.quiz = mode;
    else say('quiz', `there is no quiz on space=${config.space} (it asks on the grid and on the navmesh); no quiz.`);
  }

  // Teleports and slopes need the loaded map to be checked: links.js checks them then.
  for (const key of ['teleports', 'teleport-h', 'heights', 'uphill', 'downhill']) {
    if (has(key)) config[key] = Array.isArray(given[key]) ? given[key] : text(given[key]);
  }

  config.given = KEYS.filter(has);
  return { config, messages };
}

/**
 * Reads compare mode's list of algorithms (`astar,dijkstra,jps`, or an array of names): the
 * names, or a sentence saying what is wrong with the list (every unknown name quoted).
 */
function readCompare(value, algos) {
  const names = text(Array.isArray(value) ? value.join(',') : value).split(',').map((n) => n.trim().toLowerCase());
  const problems = [];
  if (names.some((n) => n === '')) problems.push('an empty name (two commas in a row, or one at an end)');
  const unknown = names.filter((n) => n !== '' && !algos.includes(n));
  if (unknown.length === 1) problems.push(`an unknown algorithm ${quote(unknown[0])}`);
  else if (unknown.length > 1) {
    const more = unknown.length > 8 ? ` and ${unknown.length - 8} more` : '';
    problems.push(`unknown algorithms ${unknown.slice(0, 8).map(quote).join(', ')}${more}`);
  }
  const twice = [...new Set(names.filter((n, i) => n !== '' && names.indexOf(n) !== i))];
  if (twice.length) problems.push(`${twice.slice(0, 8).map(quote).join(', ')} more than once`);
  if (names.length > MAX_COMPARE) problems.push(`${names.length} names, but at most ${MAX_COMPARE} fit side by side`);
  else if (names.length < 2) problems.push('only one name, and a comparison needs two or more');
  if (!problems.length) return names;
  return `expected 2 to ${MAX_COMPARE} different algorithms separated by commas (from ${algos.join(', ')}), got ${problems.join('; ')}`;
}

/** The query string for a configuration, leaving out values equal to the defaults. */
export function toQuery(config) {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = config[key];
    if (value === null || value === undefined || value === DEFAULTS[key]) continue;
    if (key === 'step') continue;
    if (Array.isArray(value)) params.set(key, value.join(','));
    else if (typeof value === 'boolean') params.set(key, value ? '1' : '0');
    else params.set(key, String(value));
  }
  return params.toString().replaceAll('%2C', ',');
}
