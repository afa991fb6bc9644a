// The lesson reader (www/lesson-file.js) under fuzzing: the shipped lessons (JSON and Markdown)
// mutated, and JSON of random shapes, go through readLesson. It may only return a lesson of
// plain pages or throw an Error whose message is a short sentence naming the lesson file; it
// never throws anything else. Every kept case in fuzz/regressions/lesson/ (NAME.json or
// NAME.md, with an optional NAME.EXT.expect sidecar) is replayed. About two seconds.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLesson } from '../../www/lesson-file.js';
import { badMessage, budget, generator, HOSTILE, keptCases, mutate, ROOT, SEED, shown } from './support.mjs';

/** The names the core would give (a few of each); the reader only looks them up. */
const KNOWN = {
  algo: ['astar', 'dijkstra', 'jps', 'jps-plus', 'theta', 'lrta', 'crash-turn', 'template'],
  heuristic: ['octile', 'manhattan', 'euclidean', 'chebyshev', 'zero'],
  diagonal: ['never', 'no-corner-cutting', 'at-most-one-blocked', 'always'],
  costs: ['real', 'integer'],
  hand: ['left', 'right'],
};

/** What is wrong with reading `text` as a lesson in `format`, or null. */
function problem(text, format) {
  let lesson;
  try {
    lesson = readLesson(text, { name: 'fuzzed', format, known: KNOWN });
  } catch (e) {
    if (!(e instanceof Error) || e.constructor !== Error) return `threw ${e?.constructor?.name}: ${e?.message}`;
    const bad = badMessage(e.message);
    if (bad) return `a message is ${bad}`;
    if (!e.message.startsWith(`Lesson "lessons/fuzzed.${format}"`)) return `a message names no lesson: ${e.message.slice(0, 120)}`;
    return null;
  }
  if (!Array.isArray(lesson.pages) || lesson.pages.length === 0) return 'a lesson without pages';
  for (const page of lesson.pages) {
    if (typeof page.text !== 'string' || typeof page.config !== 'object' || !Array.isArray(page.folded)) return 'a page of the wrong shape';
  }
  return null;
}

const shipped = readdirSync(join(ROOT, 'lessons')).map((f) => ({ format: f.endsWith('.md') ? 'md' : 'json', text: readFileSync(join(ROOT, 'lessons', f), 'utf8') }));

describe('lesson files under fuzzing', () => {
  test('mutated lessons are read or refused with a sentence naming the file', () => {
    const g = generator(SEED ^ 0x1e550f);
    for (let i = 0, more = budget(1, 300); more(i); i++) {
      const { format, text } = g.pick(shipped);
      let input = text;
      for (let n = 1 + g.int(3); n > 0; n--) input = mutate(input, g);
      const found = problem(input, format);
      assert.equal(found, null, `${found}\n${shown(input)}\nKeep it: save it as fuzz/regressions/lesson/NAME.${format}`);
    }
  });

  test('JSON of any shape is read or refused with a sentence', () => {
    const g = generator(SEED ^ 0x7a11);
    const odd = [null, 0, -1, 1e309, '', 'x'.repeat(30_000), [], [1], {}, true, ...HOSTILE];
    const any = (depth) => (depth > 2 || g.random() < 0.4 ? g.pick(odd) : g.random() < 0.5 ? [any(depth + 1)] : { [g.pick(['pages', 'text', 'config', 'folded', 'map', 'algo', 'step', '__proto__', 'title'])]: any(depth + 1) });
    for (let i = 0, more = budget(1, 300); more(i); i++) {
      const input = JSON.stringify({ title: 'x', pages: [any(0), { text: 'y', config: { [g.pick(['map', 'algo', 'step', 'quiz', 'x'])]: any(1) } }] });
      const found = problem(input, 'json');
      assert.equal(found, null, `${found}\n${shown(input)}`);
    }
  });

  test('every kept case gives its expected answer', () => {
    for (const { file, text, expect } of keptCases('lesson')) {
      const format = file.endsWith('.md') ? 'md' : 'json';
      assert.equal(problem(text, format), null, file);
      let error = null;
      try {
        readLesson(text, { name: 'fuzzed', format, known: KNOWN });
      } catch (e) {
        error = e.message;
      }
      if (expect?.ok) assert.equal(error, null, file);
      if (expect?.error) assert.ok(error?.includes(expect.error), `${file}: ${error} lacks ${expect.error}`);
    }
  });
});
