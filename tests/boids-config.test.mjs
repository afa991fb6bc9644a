// The boid page's URL configuration, checked in Node without a browser: valid values are
// taken, invalid ones replaced by defaults with one message each naming the parameter.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readBoidConfig, boidQuery, MAX_AGENTS } from '../www/boids-config.js';
import { parseWhole, queryObject } from '../www/values.js';

const SCENARIOS = ['flock', 'hawks-and-pigeons', 'path-following', 'leader-following', 'wall-following', 'obstacle-field'];
const read = (search) => readBoidConfig(queryObject(search), SCENARIOS);

describe('boid page configuration', () => {
  test('no query gives the defaults and no message', () => {
    const { config, messages } = read('');
    assert.deepEqual(config, { scenario: 'flock', agents: null, seed: 1, embed: false, plot: false });
    assert.deepEqual(messages, []);
  });

  test('valid values are taken as given', () => {
    const { config, messages } = read('?scenario=Hawks-And-Pigeons&agents=2500&seed=4294967295&embed=1&plot=1');
    assert.deepEqual(config, { scenario: 'hawks-and-pigeons', agents: 2500, seed: 4294967295, embed: true, plot: true });
    assert.deepEqual(messages, []);
    assert.equal(read('?agents=0').config.agents, 0);
  });

  test('bad values fall back with a message naming the parameter', () => {
    const { config, messages } = read('?scenario=starlings&agents=-4&seed=1.5&embed=maybe&zoom=3&plot=yes');
    assert.deepEqual(config, { scenario: 'flock', agents: null, seed: 1, embed: false, plot: false });
    assert.equal(messages.length, 6);
    for (const key of ['scenario', 'agents', 'seed', 'embed', 'zoom', 'plot']) {
      assert.ok(messages.some((m) => m.startsWith(`Parameter "${key}"`)), key);
    }
    assert.match(messages.find((m) => m.includes('"scenario"')), /starlings.*flock, hawks-and-pigeons/);
    for (const bad of ['NaN', 'Infinity', '1e3', '0x10', ' ', '12abc', '-0', '１２']) {
      const r = read(`?agents=${encodeURIComponent(bad)}`);
      assert.equal(r.config.agents, null, bad);
    }
  });

  test('a count over the limit is clamped to the limit with a message', () => {
    const { config, messages } = read('?agents=1000000');
    assert.equal(config.agents, MAX_AGENTS);
    assert.match(messages[0], /over the limit of 100000/);
    assert.equal(read('?agents=99999999999999999999').config.agents, null);
  });

  test('values are never longer than 40 characters in messages', () => {
    const long = 'x'.repeat(500);
    const { messages } = read(`?scenario=${long}`);
    assert.ok(messages[0].length < 250, messages[0]);
  });

  test('the query round-trips', () => {
    const config = { scenario: 'obstacle-field', agents: 300, seed: 9, embed: true, plot: true };
    assert.deepEqual(read(`?${boidQuery(config)}`).config, config);
    assert.equal(boidQuery({ scenario: 'flock', agents: null, seed: 1, embed: false, plot: false }), '');
    assert.equal(parseWhole('007', 10), 7);
    assert.equal(parseWhole('11', 10), null);
  });
});
