// The crowd page's `order` key (the flow-field scenes' neighbour order), read in Node: the
// letters n, e, s, w each once, any case; anything else is named in a message and the scene
// keeps its own order; a share link writes it back under its own key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { queryObject } from '../www/values.js';
import { crowdQuery, readCrowdConfig } from '../www/crowd-config.js';

const SCENES = ['bunkers', 'flow-fig9'];

test('order takes a permutation of n, e, s, w and nothing else', () => {
  for (const [given, want] of [['nesw', 'nesw'], ['wsen', 'wsen'], ['WSEN', 'wsen'], ['snew', 'snew']]) {
    const { config, messages } = readCrowdConfig(queryObject(`?scene=flow-fig9&order=${given}`), SCENES);
    assert.deepEqual(messages, [], given);
    assert.equal(config.params.order, want, given);
  }
  for (const bad of ['nnsw', 'nes', 'neswn', 'nesx', 'n-e-s-w', '1234', 'nan']) {
    const { config, messages } = readCrowdConfig(queryObject(`?scene=flow-fig9&order=${encodeURIComponent(bad)}`), SCENES);
    assert.equal(config.params.order, undefined, bad);
    assert.equal(messages.length, 1, bad);
    assert.match(messages[0], /^Parameter "order": expected the letters n, e, s and w each once \(such as nesw or wsen\), got ".*"; using nesw\.$/, bad);
  }
});

test('a share link keeps order under its own key', () => {
  const { config } = readCrowdConfig(queryObject('?scene=flow-fig9&order=wsen&p.speed=0.5'), SCENES);
  const q = new URLSearchParams(crowdQuery(config, 'bunkers'));
  assert.equal(q.get('order'), 'wsen');
  assert.equal(q.get('p.order'), null);
  assert.equal(q.get('p.speed'), '0.5');
});
