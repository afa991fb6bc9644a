// The compact text form of a grid, used by share links (the `grid=` URL key) and by the map
// saved in the browser: `WIDTH.HEIGHT.CELLS`, where CELLS is the row-major cell values
// run-length encoded and packed as base64url (A-Z a-z 0-9 - _, no padding), so the text needs
// no escaping in a URL.
//
// Runs: one byte per run, the cell value (0 to 9) in the low four bits and the run length in
// the high four: 0 to 14 mean 1 to 15 cells; 15 means a longer run, whose length minus 16
// follows as a little-endian base-128 number (7 bits a byte, high bit set on all but the last).
//
// Decoding is strict, because a link may come from anyone: every problem (not base64url, a
// length no base64url text has, sizes over 2048 x 2048, a value out of range, a run past the
// last cell, too few cells, bytes left over) throws an Error whose message says what is wrong.
// Nothing here touches the DOM, so node can test it.

import { escaped, quote } from './values.js';

/** The largest width or height (the core's grid limit). */
export const MAX_SIDE = 2048;
/** The largest cell value a link carries: 0 wall, 1 ground, 2 to 9 terrain costs. */
export const MAX_CELL = 9;
/** The longest `grid=` text accepted, in characters (a 2048 x 2048 checkerboard fits). */
export const MAX_TEXT = 6_000_000;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

/** Bytes as base64url text without padding. */
export function toBase64Url(bytes) {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63];
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63];
  }
  return out;
}

/** Base64url text (no padding) as bytes; throws on anything else, including unused bits set. */
export function fromBase64Url(text) {
  if (text.length % 4 === 1) {
    throw new Error(`the cell data is ${text.length} characters long, a length no base64url text has (cut short?)`);
  }
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let k = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const v = code < 128 ? INDEX[code] : -1;
    if (v < 0) {
      throw new Error(`the cell data has ${quote(text[i])} at character ${i + 1}, which is not base64url (A-Z a-z 0-9 - _)`);
    }
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[k++] = (acc >> bits) & 0xff;
    }
  }
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) {
    throw new Error('the cell data does not end cleanly (its last character has stray bits)');
  }
  return bytes;
}

/** Run-length encodes cell values (each 0 to MAX_CELL) as bytes. */
export function encodeRuns(cells) {
  const out = [];
  let i = 0;
  while (i < cells.length) {
    const value = cells[i];
    if (!Number.isInteger(value) || value < 0 || value > MAX_CELL) {
      throw new Error(`cell ${i} holds ${value}; a link carries cell values from 0 to ${MAX_CELL}`);
    }
    let j = i + 1;
    while (j < cells.length && cells[j] === value) j++;
    const run = j - i;
    if (run <= 15) {
      out.push(((run - 1) << 4) | value);
    } else {
      out.push(0xf0 | value);
      let rest = run - 16;
      while (rest >= 0x80) {
        out.push((rest & 0x7f) | 0x80);
        rest = Math.floor(rest / 128);
      }
      out.push(rest);
    }
    i = j;
  }
  return Uint8Array.from(out);
}

/** Decodes runs into exactly `count` cells; throws when the runs do not fill them exactly. */
export function decodeRuns(bytes, count, size = `${count} cells`) {
  const cells = new Uint8Array(count);
  let filled = 0;
  let i = 0;
  while (i < bytes.length) {
    if (filled === count) {
      throw new Error(`the cell data goes on after all ${size} are filled`);
    }
    const b = bytes[i++];
    const value = b & 0x0f;
    if (value > MAX_CELL) {
      throw new Error(`cell ${filled} has the value ${value}; values go from 0 (wall) to ${MAX_CELL}`);
    }
    let run = (b >> 4) + 1;
    if (run === 16) {
      let extra = 0;
      let scale = 1;
      for (let n = 0; ; n++) {
        if (n === 4) throw new Error(`a run length at byte ${i} is longer than any grid`);
        if (i >= bytes.length) throw new Error('the cell data ends inside a run length');
        const c = bytes[i++];
        extra += (c & 0x7f) * scale;
        scale *= 128;
        if (!(c & 0x80)) break;
      }
      run = 16 + extra;
    }
    if (run > count - filled) {
      throw new Error(`a run of ${run} cells from cell ${filled} goes past the last of the ${size}`);
    }
    cells.fill(value, filled, filled + run);
    filled += run;
  }
  if (filled !== count) {
    throw new Error(`the cell data describes ${filled} cells, but ${size} need ${count}`);
  }
  return cells;
}

/** The text form of a grid: `WIDTH.HEIGHT.CELLS`. */
export function encodeGrid({ width, height, cells }) {
  if (cells.length !== width * height) throw new Error(`expected ${width * height} cells, got ${cells.length}`);
  return `${width}.${height}.${toBase64Url(encodeRuns(cells))}`;
}

/**
 * Reads the text form of a grid; returns `{ width, height, cells }` (cells a Uint8Array) or
 * throws an Error naming the problem. The text is never echoed in full: quoted parts are short.
 */
export function decodeGrid(text) {
  if (typeof text !== 'string') throw new Error('expected text of the form WIDTH.HEIGHT.CELLS');
  if (text.length > MAX_TEXT) {
    throw new Error(`the text is ${text.length} characters long, over the limit of ${MAX_TEXT}`);
  }
  const match = /^(\d{1,9})\.(\d{1,9})\.([^.]*)$/.exec(text);
  if (!match) {
    throw new Error(`expected WIDTH.HEIGHT.CELLS (two whole numbers and base64url cell data), got ${quote(text)}`);
  }
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (width < 1 || height < 1) throw new Error(`a grid of ${width}x${height} has no cells`);
  if (width > MAX_SIDE || height > MAX_SIDE) {
    throw new Error(`a grid of ${width}x${height} is over the limit of ${MAX_SIDE}x${MAX_SIDE}`);
  }
  const cells = decodeRuns(fromBase64Url(match[3]), width * height, `${width}x${height} cells`);
  return { width, height, cells };
}

/** The longest `graph=` text accepted, in characters. */
export const MAX_GRAPH_TEXT = 400_000;

/**
 * The text form of a graph for a link (`graph=`): its graph file (JSON) made compact, as UTF-8
 * packed in base64url. `json` is the text of a graph file.
 */
export function encodeGraph(json) {
  const compact = JSON.stringify(JSON.parse(json));
  return toBase64Url(new TextEncoder().encode(compact));
}

/**
 * Reads the text form of a graph: returns the graph file's JSON text, or throws an Error naming
 * the problem (not base64url, not UTF-8, not JSON). Whether the JSON is a graph the core
 * checks when the page loads it.
 */
export function decodeGraph(text) {
  if (typeof text !== 'string') throw new Error('expected base64url text');
  if (text.length > MAX_GRAPH_TEXT) {
    throw new Error(`the text is ${text.length} characters long, over the limit of ${MAX_GRAPH_TEXT}`);
  }
  let bytes;
  try {
    bytes = fromBase64Url(text);
  } catch (e) {
    throw new Error(e.message.replace('the cell data', 'the graph data'));
  }
  let json;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error('the graph data is not UTF-8 text (cut short or mistyped?)');
  }
  if (!json.trimStart().startsWith('{')) throw new Error('the graph data is not a graph file (JSON starting with "{")');
  try {
    JSON.parse(json);
  } catch (e) {
    throw new Error(`the graph data is not valid JSON (${escaped(e.message, 200)})`);
  }
  return json;
}
