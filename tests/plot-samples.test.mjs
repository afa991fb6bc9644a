// The plot's bounded memory (www/plot.js Samples), in Node: a plot holds at most its maximum of
// samples; when full it keeps every second one and from then on samples every second step, so a
// long run keeps its whole time range evenly spaced. Checked against the steps worked out by
// hand for a maximum of 4, and for the pages' 2,000 over 100,000 steps. Also the axis ticks.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Samples, ticks, MAX_POINTS } from '../www/plot.js';

describe('plot samples', () => {
  test('a full plot keeps every second sample and doubles its stride (maximum 4, by hand)', () => {
    const s = new Samples(1, 4);
    for (let step = 0; step <= 12; step++) s.add(step, step / 10, [step * 2]);
    // 0..3 fill it; 4 halves to 0,2 and is kept (stride 2): 0,2,4; 6 fills: 0,2,4,6; 8 halves
    // to 0,4 (stride 4) and is kept: 0,4,8; 12: 0,4,8,12. Odd steps and 10 fall inside strides.
    assert.deepEqual(s.steps, [0, 4, 8, 12]);
    assert.deepEqual(s.values[0], [0, 8, 16, 24]);
    assert.deepEqual(s.times, [0, 0.4, 0.8, 1.2]);
    assert.equal(s.stride, 4);
  });

  test('100,000 steps keep at most 2,000 samples spanning the whole run', () => {
    const s = new Samples(2);
    for (let step = 0; step < 100_000; step++) s.add(step, step / 60, [step, -step]);
    assert.ok(s.length <= MAX_POINTS && s.length > MAX_POINTS / 2, `${s.length} samples`);
    assert.equal(s.steps[0], 0);
    assert.ok(s.steps[s.length - 1] >= 100_000 - s.stride, 'the last sample is near the end');
    const gaps = new Set(s.steps.slice(1).map((st, k) => st - s.steps[k]));
    assert.deepEqual([...gaps], [s.stride], 'evenly spaced');
  });

  test('a step already sampled, or earlier, is not sampled again; unmeasured values are NaN', () => {
    const s = new Samples(1);
    assert.equal(s.add(3, 0.3, [null]), true);
    assert.equal(s.add(3, 0.3, [1]), false);
    assert.equal(s.add(2, 0.2, [1]), false);
    assert.ok(Number.isNaN(s.values[0][0]));
  });

  test('ticks are round numbers of 1, 2 or 5 times a power of ten inside the range', () => {
    assert.deepEqual(ticks(0, 10, 4), [0, 5, 10]);
    assert.deepEqual(ticks(0.13, 0.58, 4), [0.2, 0.4]);
    assert.deepEqual(ticks(-3, 3, 3), [-2, 0, 2]);
  });
});
