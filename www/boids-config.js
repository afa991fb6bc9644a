// Reading and checking the boid page's configuration: the URL query of boids.html
// (`scenario`, `agents`, `seed`, `embed`, `plot`), or the same keys as an object given to mount().
// Nothing here touches the DOM: readBoidConfig returns the settings and the messages to show,
// and the caller shows them as text.

import { MAX_SEED, keyName, parseWhole, quote, text } from './values.js';

/** Every key the boid page understands. */
export const BOID_KEYS = ['scenario', 'agents', 'seed', 'embed', 'plot'];

/** The most agents a world holds (the core's MAX_AGENTS; the page checks before asking). */
export const MAX_AGENTS = 100_000;

/**
 * The boid page's settings.
 * @typedef {{ scenario: string, agents: number | null, seed: number, embed: boolean, plot: boolean }} BoidConfig
 */

/**
 * Defaults; `agents: null` means the scenario's own default count.
 * @type {Readonly<BoidConfig>}
 */
export const BOID_DEFAULTS = Object.freeze({
  scenario: 'flock',
  agents: null,
  seed: 1,
  embed: false,
  plot: false,
});

/**
 * Checks a raw configuration against the scenario names the core knows. Returns
 * `{ config, messages }`: every invalid value is replaced by its default and explained in one
 * message that starts with the parameter's name.
 */
export function readBoidConfig(raw, scenarios) {
  /** @type {BoidConfig} */
  const config = { ...BOID_DEFAULTS };
  const messages = [];
  const say = (key, detail) => messages.push(`Parameter "${key}": ${detail}`);
  const given = raw && typeof raw === 'object' ? raw : {};
  const has = (key) => given[key] !== undefined && given[key] !== null && text(given[key]) !== '';

  for (const key of Object.keys(given)) {
    if (!BOID_KEYS.includes(key)) {
      say(keyName(key), `is not a setting of the boid page, so it was ignored (known: ${BOID_KEYS.join(', ')}).`);
    }
  }

  if (has('scenario')) {
    const name = text(given.scenario).toLowerCase();
    if (scenarios.includes(name)) config.scenario = name;
    else say('scenario', `unknown scenario ${quote(name)}; expected one of ${scenarios.join(', ')}. Showing ${BOID_DEFAULTS.scenario}.`);
  }

  if (has('agents')) {
    const raw = text(given.agents);
    const n = parseWhole(raw, Number.MAX_SAFE_INTEGER);
    if (n === null) {
      say('agents', `expected a whole number of agents from 0 to ${MAX_AGENTS}, got ${quote(raw)}; using the scenario's default.`);
    } else if (n > MAX_AGENTS) {
      say('agents', `${n} is over the limit of ${MAX_AGENTS} agents; using ${MAX_AGENTS}.`);
      config.agents = MAX_AGENTS;
    } else {
      config.agents = n;
    }
  }

  readSeedAndEmbed(given, config, say, BOID_DEFAULTS.seed);
  return { config, messages };
}

/**
 * Reads `seed`, `embed` and `plot` (the plot panel open), the keys every agent page shares, from
 * `given` into `config`; a bad value keeps the default (`defaultSeed`, embed and plot off) and
 * is explained through `say(key, text)`.
 */
export function readSeedAndEmbed(given, config, say, defaultSeed) {
  const has = (key) => given[key] !== undefined && given[key] !== null && text(given[key]) !== '';
  if (has('seed')) {
    const raw = text(given.seed);
    const seed = parseWhole(raw, MAX_SEED);
    if (seed === null) say('seed', `expected a whole number from 0 to ${MAX_SEED}, got ${quote(raw)}; using ${defaultSeed}.`);
    else config.seed = seed;
  }
  for (const key of ['embed', 'plot']) {
    if (!has(key)) continue;
    const t = text(given[key]).toLowerCase();
    if (t === '1' || t === 'true' || given[key] === true) config[key] = true;
    else if (t === '0' || t === 'false' || given[key] === false) config[key] = false;
    else say(key, `expected 0 or 1, got ${quote(given[key])}; using 0.`);
  }
}

/** The query string for a configuration, leaving out default values. */
export function boidQuery(config) {
  const params = new URLSearchParams();
  if (config.scenario && config.scenario !== BOID_DEFAULTS.scenario) params.set('scenario', config.scenario);
  if (config.agents !== null && config.agents !== undefined) params.set('agents', String(config.agents));
  if (config.seed !== BOID_DEFAULTS.seed) params.set('seed', String(config.seed));
  if (config.embed) params.set('embed', '1');
  if (config.plot) params.set('plot', '1');
  return params.toString();
}
