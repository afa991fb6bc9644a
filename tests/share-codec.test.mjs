// The share link's grid text (www/share.js) in plain node, no browser: random maps round-trip
// exactly (cells, width, height), runs longer than one byte holds work at every boundary, the
// base64url packing agrees with node's own base64url; and hostile or broken texts (not
// base64url, wrong lengths, absurd sizes, runs past the end, too few cells, values out of
// range, script text) are refused with a message saying what is wrong. The page's URL reading
// (config.js) names the parameter and falls back to no grid.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeGrid, decodeRuns, encodeGrid, encodeRuns, fromBase64Url, toBase64Url, MAX_SIDE,
} from '../www/share.js';
import { readConfig } from '../www/config.js';

/** A small seeded generator (mulberry32), so failures replay. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random map: walls with some density, terrain here and there, long runs sometimes. */
function randomMap(random) {
  const width = 1 + Math.floor(random() * 120);
  const height = 1 + Math.floor(random() * 90);
  const cells = new Uint8Array(width * height);
  const density = random();
  const values = [0, 1, 1, 1, 2, 3, 5, 9];
  let i = 0;
  while (i < cells.length) {
    const run = random() < 0.1 ? Math.floor(random() * 3000) : 1 + Math.floor(random() * 20);
    const value = random() < density ? 0 : values[Math.floor(random() * values.length)];
    cells.fill(value, i, Math.min(cells.length, i + run));
    i += run;
  }
  return { width, height, cells };
}

const known = {
  algo: ['astar', 'dijkstra', 'bfs'],
  heuristic: ['octile', 'manhattan'],
  diagonal: ['never', 'no-corner-cutting'],
  costs: ['real', 'integer'],
  hand: ['left', 'right'],
};

describe('grid text for share links', () => {
  test('random maps round-trip exactly', () => {
    const random = rng(20240601);
    for (let k = 0; k < 500; k++) {
      const map = randomMap(random);
      const text = encodeGrid(map);
      assert.match(text, /^\d+\.\d+\.[A-Za-z0-9_-]*$/, 'only URL-safe characters');
      const back = decodeGrid(text);
      assert.equal(back.width, map.width);
      assert.equal(back.height, map.height);
      assert.deepEqual(back.cells, map.cells, `map ${k} (${map.width}x${map.height})`);
    }
  });

  test('runs of every length near the one-byte limit and the varint boundaries decode', () => {
    for (const run of [1, 2, 14, 15, 16, 17, 127, 143, 144, 145, 16_399, 16_400, 16_401, 2048 * 2048]) {
      const cells = new Uint8Array(run).fill(3);
      const bytes = encodeRuns(cells);
      assert.deepEqual(decodeRuns(bytes, run), cells, `run ${run}`);
    }
    // One run of a whole open 2048 x 2048 map is a few bytes.
    const open = encodeGrid({ width: 2048, height: 2048, cells: new Uint8Array(2048 * 2048).fill(1) });
    assert.ok(open.length < 20, open);
    assert.equal(decodeGrid(open).cells.length, 2048 * 2048);
  });

  test('base64url packing agrees with node', () => {
    const random = rng(7);
    for (let n = 0; n < 64; n++) {
      const bytes = Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
      const ours = toBase64Url(bytes);
      assert.equal(ours, Buffer.from(bytes).toString('base64url'));
      assert.deepEqual(fromBase64Url(ours), bytes);
    }
  });

  test('hostile and broken texts are refused, each with a message saying why', () => {
    const good = encodeGrid({ width: 4, height: 3, cells: Uint8Array.from([1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1]) });
    const [, , data] = good.split('.');
    const cases = [
      ['<script>alert(1)</script>', /expected WIDTH\.HEIGHT\.CELLS/],
      ['4.3.<img src=x onerror=alert(1)>', /not base64url/],
      ['4.3.ab+/', /"\+" at character 3.*not base64url/],
      ['4.3.abc=', /not base64url/],
      ['100000.100000.AAAA', /100000x100000 is over the limit of 2048x2048/],
      ['2049.1.AAAA', /over the limit/],
      ['0.5.AAAA', /no cells/],
      ['-4.3.AAAA', /expected WIDTH/],
      ['4.3', /expected WIDTH/],
      ['4.3.x.y', /expected WIDTH/],
      ['1e3.3.AAAA', /expected WIDTH/],
      ['4.3.A', /length no base64url text has/],
      [`4.3.${data.slice(0, -1)}B`, /stray bits|describes|goes past|value/],
      ['5.3.' + data, /describes 12 cells, but 5x3 cells need 15/],
      ['3.3.' + data, /goes past the last of the 3x3 cells|goes on after/],
      ['4.3.', /describes 0 cells/],
      // One run of 16 + 1000 cells in a 4 x 3 grid.
      [`4.3.${toBase64Url(Uint8Array.from([0xf1, 0xe8, 0x07]))}`, /a run of 1016 cells from cell 0 goes past/],
      // A run length that never ends.
      [`4.3.${toBase64Url(Uint8Array.from([0xf1, 0xff, 0xff, 0xff, 0xff, 0xff]))}`, /longer than any grid/],
      [`4.3.${toBase64Url(Uint8Array.from([0xf1, 0xff]))}`, /ends inside a run length/],
      // Value 12 in the low bits.
      [`4.3.${toBase64Url(Uint8Array.from([0xbc]))}`, /value 12; values go from 0 \(wall\) to 9/],
      // All cells filled, then one more byte.
      [`4.3.${toBase64Url(Uint8Array.from([0xb1, 0x01]))}`, /goes on after all 4x3 cells are filled/],
      ['x'.repeat(7_000_000), /over the limit/],
    ];
    for (const [text, why] of cases) {
      assert.throws(() => decodeGrid(text), (e) => {
        assert.ok(e instanceof Error);
        assert.match(e.message, why, `${text.slice(0, 60)}: ${e.message}`);
        assert.ok(e.message.length < 300, 'the message stays short');
        return true;
      });
    }
    assert.throws(() => decodeGrid(undefined), /WIDTH\.HEIGHT\.CELLS/);
  });

  test('random garbage never decodes to a grid of the wrong size', () => {
    const random = rng(99);
    const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/<>"\' ';
    for (let k = 0; k < 3000; k++) {
      const w = 1 + Math.floor(random() * 8);
      const h = 1 + Math.floor(random() * 8);
      const len = Math.floor(random() * 16);
      let data = '';
      for (let i = 0; i < len; i++) data += chars[Math.floor(random() * (random() < 0.9 ? 64 : chars.length))];
      const text = `${w}.${h}.${data}`;
      let grid;
      try {
        grid = decodeGrid(text);
      } catch (e) {
        assert.ok(e instanceof Error && e.message.length > 0);
        continue;
      }
      assert.equal(grid.cells.length, w * h, text);
      assert.ok(grid.cells.every((v) => v <= 9), text);
      // Whatever decodes is a fair map and encodes back to a text that decodes the same.
      assert.deepEqual(decodeGrid(encodeGrid(grid)).cells, grid.cells);
    }
  });

  test('cell values a link cannot carry are refused when encoding', () => {
    assert.throws(() => encodeGrid({ width: 2, height: 1, cells: Uint8Array.from([1, 12]) }), /cell 1 holds 12/);
    assert.throws(() => encodeGrid({ width: 3, height: 1, cells: Uint8Array.from([1, 1]) }), /expected 3 cells/);
    assert.equal(MAX_SIDE, 2048);
  });

  test('the page config reads grid= and names the parameter when it is bad', () => {
    const map = { width: 5, height: 2, cells: Uint8Array.from([1, 0, 1, 0, 1, 1, 1, 3, 1, 5]) };
    const ok = readConfig({ grid: encodeGrid(map), algo: 'bfs' }, known);
    assert.deepEqual(ok.messages, []);
    assert.deepEqual(ok.config.grid, map);
    assert.deepEqual(ok.config.given.sort(), ['algo', 'grid']);

    const both = readConfig({ grid: encodeGrid(map), map: 'wall-gap' }, known);
    assert.equal(both.config.map, null);
    assert.match(both.messages.join(' '), /Parameter "map": "wall-gap" was ignored, because "grid" gives the map itself/);

    for (const hostile of ['<script>window.pwned=1</script>', '100000.100000.AAAA', '4.3.%%%', '3.3.AAAAAAAAAAAAAAAAAAAAAAAA']) {
      const bad = readConfig({ grid: hostile }, known);
      assert.equal(bad.config.grid, null, hostile);
      assert.equal(bad.messages.length, 1);
      assert.match(bad.messages[0], /^Parameter "grid": the map in the link cannot be read: .+ Showing the default map instead\.$/);
    }
  });
});
