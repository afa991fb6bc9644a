// The pages' URL readers under fuzzing: random queries (known keys, keys named like Object's
// members, unknown keys, hostile values, broken percent escapes) and mutated valid addresses
// go through the query reading (values.js) and each page's configuration reader (config.js,
// boids-config.js, crowd-config.js, requests.js) and the value readers of the link keys
// (links.js). None may throw; each gives plain values within their rules and messages that
// are short sentences naming a parameter; Object's prototype is never touched. And no page
// module writes markup at all, so nothing read here can become markup. Every kept case in
// fuzz/regressions/url_config/ is replayed (page-*, boids-*, crowd-*, requests-*: the page
// whose reader reads it). About seven seconds (PATHLAB_FUZZ_SCALE=20: twenty times as long).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addressObject, parseWhole, queryObject } from '../../www/values.js';
import { DEFAULTS, KEYS, parsePoint, readConfig, SPEEDS } from '../../www/config.js';
import { BOID_KEYS, readBoidConfig } from '../../www/boids-config.js';
import { parseParamValue, readCrowdConfig } from '../../www/crowd-config.js';
import { readRequestConfig, REQUEST_KEYS } from '../../www/requests.js';
import { MAX_LINK_COST, parseSlopeCost, parseTeleports } from '../../www/links.js';
import { encodeGrid } from '../../www/share.js';
import { badMessage, budget, generator, HOSTILE, keptCases, mutate, ROOT, SEED, shown } from './support.mjs';

/** The names the core would give (a few of each); the readers only look them up. */
const KNOWN = {
  algo: ['astar', 'dijkstra', 'bfs', 'dfs', 'greedy', 'jps', 'theta', 'lpa', 'dstar-lite', 'lrta', 'rta', 'hpa'],
  heuristic: ['octile', 'manhattan', 'euclidean', 'chebyshev', 'zero'],
  diagonal: ['never', 'no-corner-cut', 'always'],
  costs: ['real', 'uniform'],
  hand: ['left', 'right'],
};
const SCENARIOS = ['flock', 'seek'];
const SCENES = ['circle', 'corridor'];

const OBJECT_MEMBERS = Object.getOwnPropertyNames(Object.prototype);

/** Every value in `value` is plain data (no functions, symbols or objects with a prototype of their own). */
function plainData(value, path = 'config') {
  if (value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)) {
    return typeof value === 'number' && !Number.isFinite(value) ? `${path} is ${value}` : null;
  }
  if (value instanceof Uint8Array) return null;
  if (typeof value !== 'object') return `${path} is a ${typeof value}`;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return `${path} has the prototype ${proto?.constructor?.name}`;
  for (const [k, v] of Object.entries(value)) {
    const bad = plainData(v, `${path}.${k}`);
    if (bad) return bad;
  }
  return null;
}

/** What is wrong with a reader's `{ config, messages }`, or null. */
function resultProblem({ config, messages }, keys) {
  if (!Array.isArray(messages)) return 'messages is not a list';
  for (const m of messages) {
    const bad = badMessage(m);
    if (bad) return `a message is ${bad}`;
    if (!/^Parameter "[^"]*(\\"[^"]*)*":/.test(m)) return `a message names no parameter: ${JSON.stringify(m.slice(0, 120))}`;
  }
  const bad = plainData(config);
  if (bad) return bad;
  if (config.given && !config.given.every((k) => keys.includes(k))) return `given lists a key it does not know: ${config.given}`;
  return null;
}

/** The rules of the path-finding page's configuration beyond the common ones. */
function pageConfigProblem(config) {
  if (config.map !== null && !/^[A-Za-z0-9._\-/]{1,200}$/.test(config.map)) return `map ${JSON.stringify(config.map)}`;
  for (const key of ['algo', 'heuristic', 'diagonal', 'costs', 'hand']) {
    const v = config[key];
    if (v !== DEFAULTS[key] && !(key === 'heuristic' && v === 'hex') && !KNOWN[key].includes(v)) return `${key} ${JSON.stringify(v)}`;
  }
  if (!(config.weight >= 1 && config.weight <= 100)) return `weight ${config.weight}`;
  if (!Number.isInteger(config.step) || config.step < 0 || config.step > 100_000_000) return `step ${config.step}`;
  if (!(config.speed >= 1 && config.speed <= SPEEDS.length)) return `speed ${config.speed}`;
  for (const key of ['start', 'goal']) {
    const v = config[key];
    const cell = Array.isArray(v) && v.length === 2 && v.every((n) => Number.isInteger(n) && n >= 0 && n < 1e6);
    const id = typeof v === 'string' && config.space === 'graph' && v.length <= 64;
    if (v !== null && !cell && !id) return `${key} ${JSON.stringify(v)}`;
  }
  if (config.grid && !(config.grid.cells instanceof Uint8Array && config.grid.cells.length === config.grid.width * config.grid.height)) {
    return 'a grid whose cells do not fill it';
  }
  return null;
}

/** Reads `address` (query, then an optional #fragment) with every page's reader; the first problem, or null. */
function addressProblem(address) {
  const hash = address.indexOf('#');
  const search = hash < 0 ? address : address.slice(0, hash);
  const fragment = hash < 0 ? '' : address.slice(hash);
  try {
    const raw = addressObject(search, fragment);
    if (Object.getPrototypeOf(raw) !== null) return 'the query object has a prototype';
    const page = readConfig(raw, KNOWN);
    const problem = resultProblem(page, KEYS) ?? pageConfigProblem(page.config)
      ?? resultProblem(readBoidConfig(queryObject(search), SCENARIOS), BOID_KEYS)
      ?? resultProblem(readCrowdConfig(queryObject(search), SCENES), [])
      ?? resultProblem(readRequestConfig(queryObject(search)), REQUEST_KEYS);
    if (problem) return problem;
    for (const key of ['teleports', 'uphill', 'downhill']) {
      const value = raw[key];
      if (value === undefined) continue;
      if (key === 'teleports') {
        try {
          const list = parseTeleports(value);
          if (!list.every((t) => t.length === 6 && t.every(Number.isFinite) && t[4] <= MAX_LINK_COST)) return `teleports ${JSON.stringify(list)}`;
        } catch (e) {
          if (e.constructor !== Error) return `parseTeleports threw ${e.constructor.name}: ${e.message}`;
          const bad = badMessage(e.message);
          if (bad) return `parseTeleports's error is ${bad}`;
        }
      } else {
        const cost = parseSlopeCost(value);
        if (cost !== null && !(cost >= 0 && cost <= MAX_LINK_COST)) return `${key} read as ${cost}`;
      }
    }
    for (const value of Object.values(raw)) {
      const p = parseParamValue(value);
      if (p !== null && !(Number.isFinite(p) || /^[a-z][a-z0-9_-]{0,39}$/.test(p))) return `parseParamValue gave ${p}`;
      const point = parsePoint(value);
      if (point !== null && !point.every((n) => Number.isInteger(n) && n >= 0)) return `parsePoint gave ${point}`;
      const whole = parseWhole(value, 1000);
      if (whole !== null && !(Number.isInteger(whole) && whole >= 0 && whole <= 1000)) return `parseWhole gave ${whole}`;
    }
  } catch (e) {
    return `threw ${e?.constructor?.name}: ${e?.message ?? e}`;
  }
  const polluted = Object.getOwnPropertyNames(Object.prototype).filter((k) => !OBJECT_MEMBERS.includes(k));
  if (polluted.length || ({}).polluted !== undefined) return `Object.prototype gained ${polluted}`;
  return null;
}

const VALUES = [
  'astar', 'octile', 'never', 'real', 'left', 'grid', 'hex', 'graph', 'pointy', '1', '0', 'true', '3,4', '0,0', '2.5',
  '16', '100000000', '100000001', 'arena', 'maze-small', 'maps/x.map', '../../etc/passwd', '//evil.example/x.map',
  'astar,dijkstra', 'astar,astar', 'circle', 'p.radius', '1.2.3.4.5.1', '1.2.3.4.5.1_2.2.3.3.1.0', '1e308,1e308',
  ...HOSTILE,
];

/** `text` percent-encoded, or as it is where it cannot be (a lone surrogate). */
function encoded(text) {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A random address: keys known and unknown, values valid and hostile, maybe a fragment. */
function randomAddress(g) {
  const keys = [...KEYS, ...BOID_KEYS, 'scene', 'p.speed', 'p.', 'budget', 'aging', ...OBJECT_MEMBERS, 'x'.repeat(300), '%00', ''];
  const pairs = [];
  for (let n = g.int(8); n > 0; n--) {
    const key = g.pick(keys);
    let value = g.pick(VALUES);
    if (key === 'grid' && g.random() < 0.5) {
      const w = 1 + g.int(30);
      const h = 1 + g.int(30);
      value = encodeGrid({ width: w, height: h, cells: new Uint8Array(w * h).map(() => g.int(10)) });
    }
    if (g.random() < 0.3) value = mutate(value, g);
    pairs.push(`${g.random() < 0.8 ? encoded(key) : key}=${g.random() < 0.7 ? encoded(value) : value}`);
  }
  const query = `?${pairs.join(g.random() < 0.9 ? '&' : ';')}`;
  return g.random() < 0.2 ? `${query}#${pairs.slice(0, 2).join('&')}` : query;
}

/** Valid addresses to mutate: the README's and the tests' examples. */
const VALID = [
  '?map=maze-small&algo=astar&heuristic=octile&diagonal=never&step=10&speed=5',
  '?algo=lrta&lookahead=4&start=1,1&goal=10,12&embed=1&lock=1',
  '?space=graph&map=slides-5&start=B&goal=E&algo=dijkstra',
  '?compare=astar,dijkstra,jps&contrast=1&weight=1.5',
  '?teleports=1.1.8.8.2.1_3.3.4.4.0.0&teleport-h=teleports',
  '?heights=AAAA&uphill=2&downhill=0.5',
  '?scenario=flock&agents=300&seed=7&embed=0',
  '?scene=circle&agents=100&p.radius=1.5&seed=2',
  '?map=arena&agents=40&budget=150&aging=1&seed=1&embed=0',
  `?algo=astar#grid=${encodeGrid({ width: 4, height: 2, cells: Uint8Array.from([1, 1, 0, 1, 1, 9, 2, 1]) })}`,
];

describe(`URL configuration fuzzing (seed ${SEED})`, () => {
  test('random addresses never throw and give plain values and short messages', () => {
    const g = generator(SEED);
    for (let i = 0, more = budget(3, 500); more(i); i++) {
      const address = randomAddress(g);
      const problem = addressProblem(address);
      assert.equal(problem, null, `${problem}\n${shown(address)}\nKeep it: save it as fuzz/regressions/url_config/page-NAME.txt`);
    }
  });

  test('mutated valid addresses never throw and give plain values and short messages', () => {
    const g = generator(SEED ^ 0x2545f491);
    for (let i = 0, more = budget(3, 500); more(i); i++) {
      let address = g.pick(VALID);
      for (let k = 1 + g.int(4); k > 0; k--) address = mutate(address, g);
      const problem = addressProblem(address);
      assert.equal(problem, null, `${problem}\n${shown(address)}\nKeep it: save it as fuzz/regressions/url_config/page-NAME.txt`);
    }
  });

  test('configuration objects of any shape (mount()) never throw', () => {
    const g = generator(SEED ^ 0x68e31da4);
    const odd = [null, undefined, 0, -0, NaN, Infinity, 1e308, '', 'x'.repeat(10_000), [], [1, 2], [[1]], {}, { toString: 'x' }, true, Object.create(null)];
    for (let i = 0, more = budget(1, 500); more(i); i++) {
      const raw = Object.create(null);
      for (let n = g.int(6); n > 0; n--) raw[g.pick([...KEYS, ...OBJECT_MEMBERS, 'scene', 'p.x'])] = g.random() < 0.5 ? g.pick(odd) : g.pick(VALUES);
      let problem;
      try {
        problem = resultProblem(readConfig(raw, KNOWN), KEYS) ?? resultProblem(readBoidConfig(raw, SCENARIOS), BOID_KEYS)
          ?? resultProblem(readCrowdConfig(raw, SCENES), []) ?? resultProblem(readRequestConfig(raw), REQUEST_KEYS);
      } catch (e) {
        problem = `threw ${e?.constructor?.name}: ${e?.message}`;
      }
      assert.equal(problem, null, `${problem}\n${shown(JSON.stringify(raw))}`);
    }
  });

  test('no page module writes markup: every message and value is shown as text', () => {
    const sinks = /\.(innerHTML|outerHTML)\s*[+]?=|insertAdjacentHTML|document\.write|\.srcdoc\s*=|createContextualFragment|DOMParser/;
    const found = readdirSync(join(ROOT, 'www')).filter((f) => f.endsWith('.js'))
      .flatMap((f) => readFileSync(join(ROOT, 'www', f), 'utf8').split('\n').map((line, i) => [f, i + 1, line]))
      .filter(([, , line]) => sinks.test(line));
    assert.deepEqual(found.map(([f, n, line]) => `${f}:${n}: ${line.trim()}`), []);
  });

  test('every kept case gives its expected answer and keeps every rule', () => {
    const kept = keptCases('url_config');
    assert.ok(kept.length >= 8, `only ${kept.length} kept cases`);
    for (const { file, text, expect } of kept) {
      const problem = addressProblem(text);
      assert.equal(problem, null, `${file}: ${problem}`);
      const hash = text.indexOf('#');
      const search = hash < 0 ? text : text.slice(0, hash);
      const raw = addressObject(search, hash < 0 ? '' : text.slice(hash));
      const reader = {
        page: () => readConfig(raw, KNOWN),
        boids: () => readBoidConfig(raw, SCENARIOS),
        crowd: () => readCrowdConfig(raw, SCENES),
        requests: () => readRequestConfig(raw),
      }[file.split('-')[0]];
      assert.ok(reader, `${file}: name it page-*, boids-*, crowd-* or requests-*`);
      const { messages } = reader();
      if (expect?.ok) assert.deepEqual(messages, [], file);
      if (expect?.error) assert.ok(messages.some((m) => m.includes(expect.error)), `${file}: ${JSON.stringify(messages)} lack ${expect.error}`);
    }
  });
});
