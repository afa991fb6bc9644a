// What the JavaScript fuzz campaigns share: a seeded generator, string mutations, the
// campaign's size, the kept cases in fuzz/regressions/<name>/, and the rules every message
// must keep. Plain node, no browser.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The campaign's seed: PATHLAB_FUZZ_SEED when set (to replay a failure), else a new one each
 * run, so that every run of the test command tries new inputs. Failures print it.
 */
export const SEED = Number(process.env.PATHLAB_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 32)) >>> 0;

/**
 * A campaign's bound: `more(i)` is true while fewer than `floor` cases ran or `seconds` (times
 * PATHLAB_FUZZ_SCALE when it is set) have not passed. Bounded by time, so that the test command
 * takes about as long on any machine.
 */
export function budget(seconds, floor) {
  const scale = Number(process.env.PATHLAB_FUZZ_SCALE ?? 1);
  const end = performance.now() + seconds * 1000 * (Number.isFinite(scale) && scale > 0 ? scale : 1);
  return (i) => i < floor || performance.now() < end;
}

/** A seeded generator of floats in [0, 1) (xorshift128+ folded to 32 bits, SplitMix32 seeding). */
export function generator(seed) {
  let z = seed >>> 0;
  const next32 = () => {
    z = (z + 0x9e3779b9) >>> 0;
    let t = z ^ (z >>> 16);
    t = Math.imul(t, 0x21f0aaad);
    t ^= t >>> 15;
    t = Math.imul(t, 0x735a2d97);
    return (t ^ (t >>> 15)) >>> 0;
  };
  const state = [next32(), next32(), next32(), next32()];
  const random = () => {
    let s1 = state[0] ^ (state[0] << 11);
    const s4 = state[3];
    state[0] = state[1];
    state[1] = state[2];
    state[2] = s4;
    s1 ^= s1 >>> 8;
    state[3] = (s1 ^ s4 ^ (s4 >>> 19)) >>> 0;
    return state[3] / 4294967296;
  };
  const int = (n) => Math.floor(random() * n);
  return { random, int, pick: (list) => list[int(list.length)] };
}

/** Short texts that break readers of URLs and link texts. */
export const HOSTILE = [
  '', ' ', '%', '%00', '%0A', '%ZZ', '%E2%80%AE', '+', '&', '=', '#', '?', '.', '..', ',', '_', '-',
  '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', 'javascript:alert(1)',
  'NaN', 'Infinity', '-1', '1e308', '1e309', '0x10', '4294967296', '9007199254740993', '00000000000000000000001',
  '__proto__', 'constructor', 'toString', 'é', '∞', '\u0000', '\n', '\u202e', '\ud800',
];

/** A string with one random edit made (truncation, a character flipped, hostile text in, a piece doubled or made long). */
export function mutate(text, g) {
  const at = g.int(text.length + 1);
  switch (g.int(8)) {
    case 0: return text.slice(0, at);
    case 1: return text.slice(0, at) + String.fromCharCode(g.int(g.random() < 0.8 ? 128 : 0x10000)) + text.slice(at + 1);
    case 2: return text.slice(0, at) + g.pick(HOSTILE) + text.slice(at);
    case 3: return text.slice(0, at) + text.slice(at + 1 + g.int(16));
    case 4: return text.slice(0, at) + text.slice(at, at + 1 + g.int(64)).repeat(2 + g.int(4)) + text.slice(at);
    case 5: return text.slice(0, at) + 'A'.repeat(1000 + g.int(50_000)) + text.slice(at);
    case 6: return text.replace(/\d+/g, (d) => (g.random() < 0.3 ? g.pick(['0', '99999999999', '2049', '-1', 'NaN']) : d));
    default: return text + text;
  }
}

/**
 * The kept cases of `name` (fuzz/regressions/<name>/): `{ file, text, expect }` for each file
 * but README.md and the `.expect` sidecars; `expect` is null, `{ ok: true }` or
 * `{ error: TEXT }` from the sidecar `<file>.expect` (`ok`, or `error: TEXT`).
 */
export function keptCases(name) {
  const dir = join(ROOT, 'fuzz', 'regressions', name);
  return readdirSync(dir)
    .filter((f) => !f.endsWith('.expect') && f !== 'README.md')
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8').replace(/\n$/, '');
      const sidecar = join(dir, `${file}.expect`);
      let expect = null;
      if (existsSync(sidecar)) {
        const t = readFileSync(sidecar, 'utf8').replace(/\r?\n$/, '');
        if (t === 'ok') expect = { ok: true };
        else if (t.startsWith('error: ')) expect = { error: t.slice('error: '.length) };
        else throw new Error(`${sidecar}: expected "ok" or "error: TEXT", found ${JSON.stringify(t)}`);
      }
      return { file, text, expect };
    });
}

/** The longest message a reader may give, in characters: it quotes at most a short piece of its input. */
export const MAX_MESSAGE = 1000;

/**
 * Characters a message must not hold as they are: controls, and the invisible ones (format
 * and bidirectional marks, line separators, the byte order mark) that would hide a quoted
 * character or reorder the sentence.
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/;

/** What is wrong with `message` as one shown to a user (a sentence, not too long, nothing invisible in it), or null. */
export function badMessage(message) {
  if (typeof message !== 'string' || message.trim() === '') return `not a sentence: ${String(message)}`;
  if (message.length > MAX_MESSAGE) return `${message.length} characters long (at most ${MAX_MESSAGE}): ${message.slice(0, 120)}…`;
  const hidden = INVISIBLE.exec(message);
  if (hidden) return `the invisible character U+${hidden[0].charCodeAt(0).toString(16).padStart(4, '0')} in ${JSON.stringify(message.slice(0, 200))}`;
  return null;
}

/** An input shown in a failure: its length and its start, escaped, with the seed to replay it. */
export function shown(input) {
  const text = String(input);
  return `input (${text.length} characters, PATHLAB_FUZZ_SEED=${SEED}): ${JSON.stringify(text.slice(0, 400))}${text.length > 400 ? '…' : ''}`;
}
