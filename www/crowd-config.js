// Reading and checking the crowd page's configuration: the URL query of crowd.html (`scene`,
// `agents`, `seed`, `embed`, `plot`, `order`, and any scene parameter as `p.NAME=value`), or the same keys as
// an object given to mountCrowd(). Nothing here touches the DOM: readCrowdConfig returns the
// settings and the messages to show, and the caller shows them as text. Parameter names and
// ranges belong to the scene, so `p.` values are only checked to be numbers (or choice names)
// here; the page checks them against the scene's parameters once it is built.
import { readSeedAndEmbed } from './boids-config.js';
import { keyName, parseWhole, quote, text } from './values.js';

/** Every plain key the crowd page understands (scene parameters come as `p.NAME`). */
export const CROWD_KEYS = ['scene', 'agents', 'seed', 'embed', 'plot', 'order'];

/**
 * The neighbour order of the flow-field scenes: the order in which the straight neighbours
 * n, e, s, w are tried on ties, as four letters (the grid page reads the same key). It is the
 * scenes' `order` parameter, kept under its own key.
 */
export const ORDER_KEY = 'order';

/** The prefix of a scene parameter's key. */
export const PARAM_PREFIX = 'p.';

/** The most agents the page asks a scene for (the wasm layer's crowdMaxAgents()). */
export const MAX_CROWD_AGENTS = 100_000;

/** Defaults; `agents: null` means the scene's own default count. */
export const CROWD_DEFAULTS = Object.freeze({
  scene: null,
  agents: null,
  seed: 1,
  embed: false,
  plot: false,
});

/** A parameter value: a finite number, or a choice's name (letters, digits, - and _). */
export function parseParamValue(value) {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const t = text(value);
  // Not numbers, and not choices either.
  if (/^[-+]?(nan|inf|infinity)$/i.test(t)) return null;
  if (/^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) {
    const n = Number(t);
    return Number.isFinite(n) ? n : null;
  }
  if (/^[a-z][a-z0-9_-]{0,39}$/i.test(t)) return t.toLowerCase();
  return null;
}

/**
 * Checks a raw configuration against the scene names the core knows (`scenes`, in order; the
 * first is the default). Returns `{ config, messages }`: every invalid value is replaced by its
 * default and explained in one message that starts with the parameter's name.
 */
export function readCrowdConfig(raw, scenes) {
  const config = { ...CROWD_DEFAULTS, scene: scenes[0] ?? null, params: {} };
  const messages = [];
  const say = (key, detail) => messages.push(`Parameter "${key}": ${detail}`);
  const given = raw && typeof raw === 'object' ? raw : {};
  const has = (key) => given[key] !== undefined && given[key] !== null && text(given[key]) !== '';

  for (const key of Object.keys(given)) {
    if (key.startsWith(PARAM_PREFIX)) {
      const name = key.slice(PARAM_PREFIX.length);
      if (!/^[a-z][a-z0-9_.-]{0,39}$/i.test(name)) {
        say(keyName(key), 'is not a parameter name (letters, digits, ".", "-" and "_"), so it was ignored.');
        continue;
      }
      const value = parseParamValue(given[key]);
      if (value === null) say(key, `expected a number or a choice's name, got ${quote(given[key])}; the scene's value stays.`);
      else config.params[name] = value;
    } else if (!CROWD_KEYS.includes(key)) {
      say(keyName(key), `is not a setting of the crowd page, so it was ignored (known: ${CROWD_KEYS.join(', ')}, p.NAME).`);
    }
  }

  if (has('scene')) {
    const name = text(given.scene).toLowerCase();
    if (scenes.includes(name)) config.scene = name;
    else say('scene', `unknown scene ${quote(name)}; expected one of ${scenes.join(', ')}. Showing ${config.scene}.`);
  }

  if (has('agents')) {
    const t = text(given.agents);
    const n = parseWhole(t, Number.MAX_SAFE_INTEGER);
    if (n === null) {
      say('agents', `expected a whole number of agents from 0 to ${MAX_CROWD_AGENTS}, got ${quote(t)}; using the scene's default.`);
    } else if (n > MAX_CROWD_AGENTS) {
      say('agents', `${n} is over the limit of ${MAX_CROWD_AGENTS} agents; using the scene's default.`);
    } else {
      config.agents = n;
    }
  }

  if (has(ORDER_KEY)) {
    const t = text(given[ORDER_KEY]).toLowerCase();
    if (/^[nesw]{4}$/.test(t) && new Set(t).size === 4) config.params[ORDER_KEY] = t;
    else say(ORDER_KEY, `expected the letters n, e, s and w each once (such as nesw or wsen), got ${quote(t)}; using nesw.`);
  }

  readSeedAndEmbed(given, config, say, CROWD_DEFAULTS.seed);
  return { config, messages };
}

/**
 * The query string for a configuration, leaving out defaults. `params` holds the parameters
 * changed from the scene's own values (choices by name).
 */
export function crowdQuery(config, defaultScene) {
  const q = new URLSearchParams();
  if (config.scene && config.scene !== defaultScene) q.set('scene', config.scene);
  if (config.agents !== null && config.agents !== undefined) q.set('agents', String(config.agents));
  if (config.seed !== CROWD_DEFAULTS.seed) q.set('seed', String(config.seed));
  if (config.embed) q.set('embed', '1');
  if (config.plot) q.set('plot', '1');
  for (const [name, value] of Object.entries(config.params ?? {})) {
    q.set(name === ORDER_KEY ? ORDER_KEY : `${PARAM_PREFIX}${name}`, String(value));
  }
  return q.toString();
}
