// The share link's codec (www/share.js) under fuzzing: random texts, texts from its own
// alphabet and mutated valid links for the grid (`grid=`) and the graph (`graph=`). Each
// either decodes to a value that is whole and encodes back to itself, or throws an Error of
// the codec's own (never a TypeError or RangeError from deep inside) whose message is a short
// sentence. Every kept case in fuzz/regressions/share_codec/ is replayed (grid-*.txt through
// decodeGrid, graph-*.txt through decodeGraph). About five seconds (PATHLAB_FUZZ_SCALE=20: twenty times as long).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeGraph, decodeGrid, encodeGraph, encodeGrid, MAX_CELL, MAX_SIDE } from '../../www/share.js';
import { badMessage, budget, generator, HOSTILE, keptCases, mutate, ROOT, SEED, shown } from './support.mjs';

/**
 * `decode(text)` as `{ value }`, `{ refused: message }` when it throws an Error of the codec's
 * own with a good message, or `{ problem }` when it throws anything else.
 */
function decoded(decode, text) {
  try {
    return { value: decode(text) };
  } catch (e) {
    if (!(e instanceof Error) || e.constructor !== Error) return { problem: `threw ${e?.constructor?.name}: ${e?.message ?? e}` };
    const bad = badMessage(e.message);
    return bad ? { problem: `its error is ${bad}` } : { refused: e.message };
  }
}

/** What is wrong with decodeGrid's answer to `text`, or null. */
function gridProblem(text) {
  const { value: grid, problem } = decoded(decodeGrid, text);
  if (!grid) return problem ?? null;
  const { width, height, cells } = grid;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
    return `accepted a ${width}x${height} grid`;
  }
  if (!(cells instanceof Uint8Array) || cells.length !== width * height) return `accepted ${cells?.length} cells for ${width}x${height}`;
  if (cells.some((v) => v > MAX_CELL)) return 'accepted a cell value over the limit';
  const again = decodeGrid(encodeGrid(grid));
  if (again.width !== width || again.height !== height || !again.cells.every((v, i) => v === cells[i])) {
    return 'the grid encoded again decodes to another grid';
  }
  return null;
}

/** What is wrong with decodeGraph's answer to `text`, or null. */
function graphProblem(text) {
  const { value: json, problem } = decoded(decodeGraph, text);
  if (json === undefined) return problem ?? null;
  if (typeof json !== 'string') return `returned a ${typeof json}, not the graph file's text`;
  const value = JSON.parse(json);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'returned JSON that is not an object';
  // Compared as JSON writes them: a coordinate of -0 is written 0, the same place
  // (graph-minus-zero.txt).
  assert.equal(JSON.stringify(JSON.parse(decodeGraph(encodeGraph(json)))), JSON.stringify(value));
  return null;
}

/** A random map, as the editor could make it: runs of walls, ground and terrain. */
function randomGrid(g) {
  const width = 1 + g.int(g.random() < 0.05 ? MAX_SIDE : 64);
  const height = 1 + g.int(g.random() < 0.05 ? 300 : 64);
  const cells = new Uint8Array(width * height);
  for (let i = 0; i < cells.length;) {
    const run = 1 + g.int(g.random() < 0.1 ? 5000 : 12);
    cells.fill(g.int(MAX_CELL + 1), i, i + run);
    i += run;
  }
  return encodeGrid({ width, height, cells });
}

const GRAPHS = readdirSync(join(ROOT, 'maps', 'graphs')).filter((f) => f.endsWith('.json'))
  .map((f) => encodeGraph(readFileSync(join(ROOT, 'maps', 'graphs', f), 'utf8')));

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';

/** A text of `n` characters from `alphabet`. */
function randomText(g, n, alphabet) {
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[g.int(alphabet.length)];
  return out;
}

/** An input for the codec: from the alphabet, with a size prefix, a mutated valid text, or any characters. */
function input(g, valid) {
  switch (g.int(5)) {
    case 0: return randomText(g, g.int(200), ALPHABET);
    case 1: return `${g.pick(['1', '3', '64', '2048', '2049', '0', '999999999', '07'])}.${g.pick(['1', '2', '9', '2048', '0'])}.${randomText(g, g.int(100), ALPHABET)}`;
    case 2: return randomText(g, g.int(80), `${ALPHABET}${HOSTILE.join('')}\u0100\uffff`);
    default: {
      let text = valid();
      for (let k = 1 + g.int(3); k > 0; k--) text = mutate(text, g);
      return text;
    }
  }
}

describe(`share codec fuzzing (seed ${SEED})`, () => {
  test('random, alphabet and mutated grid texts decode whole or give a short Error', () => {
    const g = generator(SEED);
    for (let i = 0, more = budget(3, 2000); more(i); i++) {
      const text = input(g, () => randomGrid(g));
      const problem = gridProblem(text);
      assert.equal(problem, null, `decodeGrid: ${problem}\n${shown(text)}\nKeep it: save the input as fuzz/regressions/share_codec/grid-NAME.txt`);
    }
  });

  test('random, alphabet and mutated graph texts decode to an object or give a short Error', () => {
    const g = generator(SEED ^ 0x5bd1e995);
    for (let i = 0, more = budget(2, 2000); more(i); i++) {
      const text = input(g, () => g.pick(GRAPHS));
      const problem = graphProblem(text);
      assert.equal(problem, null, `decodeGraph: ${problem}\n${shown(text)}\nKeep it: save the input as fuzz/regressions/share_codec/graph-NAME.txt`);
    }
  });

  test('values of other types are refused with an Error, not a crash', () => {
    for (const value of [undefined, null, 42, {}, [], ['1.1.A'], new String('1.1.A'), Symbol('x')]) {
      assert.throws(() => decodeGrid(value), (e) => e.constructor === Error && badMessage(e.message) === null);
      assert.throws(() => decodeGraph(value), (e) => e.constructor === Error && badMessage(e.message) === null);
    }
  });

  test('every kept case gives its expected answer and keeps every rule', () => {
    const kept = keptCases('share_codec');
    assert.ok(kept.length >= 8, `only ${kept.length} kept cases`);
    for (const { file, text, expect } of kept) {
      const grid = file.startsWith('grid-');
      assert.ok(grid || file.startsWith('graph-'), `${file}: name it grid-*.txt or graph-*.txt`);
      const problem = grid ? gridProblem(text) : graphProblem(text);
      assert.equal(problem, null, `${file}: ${problem}`);
      const error = decoded(grid ? decodeGrid : decodeGraph, text).refused ?? null;
      if (expect?.ok) assert.equal(error, null, file);
      if (expect?.error) assert.ok(error?.includes(expect.error), `${file}: ${error} lacks ${expect.error}`);
    }
  });
});
