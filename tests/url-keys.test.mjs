// URL keys named like members of JavaScript's Object prototype (`__proto__`, `constructor`,
// `toString`, `hasOwnProperty`, ...) are unknown keys like any other: each page's reader
// reports them, and they change nothing. Checked in Node, without a browser.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { queryObject } from '../www/values.js';
import { readConfig, DEFAULTS } from '../www/config.js';
import { readBoidConfig, BOID_DEFAULTS } from '../www/boids-config.js';
import { readCrowdConfig } from '../www/crowd-config.js';

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'];
const KNOWN = { algo: ['astar', 'dijkstra'], heuristic: ['octile'], diagonal: ['never'], costs: ['real'] };
const reported = (messages, key) => messages.some((m) => m.startsWith(`Parameter "${key}"`) && m.includes('ignored'));

describe('URL keys named like Object members', () => {
  test('queryObject keeps them as own keys, first value wins, and has no prototype to pollute', () => {
    const q = queryObject('?__proto__=x&constructor=y&toString=z&toString=w&algo=astar');
    assert.deepEqual(Object.keys(q).sort(), ['__proto__', 'algo', 'constructor', 'toString'].sort());
    assert.equal(q.toString, 'z');
    assert.equal(q.__proto__, 'x');
    assert.equal(({}).polluted, undefined);
    assert.equal(Object.getPrototypeOf(q), null);
  });

  test('the path-finding page reports each as unknown and keeps its defaults', () => {
    for (const name of NAMES) {
      const { config, messages } = readConfig(queryObject(`?${encodeURIComponent(name)}=1`), KNOWN);
      assert.ok(reported(messages, name), `${name}: ${messages.join(' | ')}`);
      assert.equal(config.algo, DEFAULTS.algo, name);
    }
  });

  test('the boid and crowd pages report each as unknown', () => {
    for (const name of NAMES) {
      const boids = readBoidConfig(queryObject(`?${encodeURIComponent(name)}=1`), ['flock']);
      assert.ok(reported(boids.messages, name), `boids, ${name}: ${boids.messages.join(' | ')}`);
      assert.deepEqual(boids.config, { ...BOID_DEFAULTS }, name);
      const crowd = readCrowdConfig(queryObject(`?${encodeURIComponent(name)}=1`), [{ name: 'circle', params: [] }]);
      assert.ok(reported(crowd.messages, name), `crowd, ${name}: ${crowd.messages.join(' | ')}`);
    }
  });
});
