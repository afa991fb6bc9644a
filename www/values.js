// Reading values from a URL query or a configuration object, shared by every page's
// configuration: a query as a plain object, whole numbers, and quoting a value for a message.
// Nothing here touches the DOM.

/** The largest seed (seeds are 32-bit). */
export const MAX_SEED = 4_294_967_295;

/**
 * Characters a message shows as `\uXXXX` escapes: invisible ones that JSON.stringify leaves as
 * they are (DEL and the C1 controls, format and bidirectional marks, line and paragraph
 * separators, the byte order mark), so that a quoted value never looks empty or reorders the
 * sentence around it.
 */
const INVISIBLE = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/g;

/**
 * `text` made safe to put in a message: at most `max` characters (then `…`), with JSON's
 * escapes (controls, quotes, backslashes) and invisible characters escaped too.
 */
export function escaped(text, max = 40) {
  const short = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(short).slice(1, -1).replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A value shortened and quoted for a message (the caller shows it as text, never as HTML):
 * at most 40 characters, escaped as escaped() does. `quote('a\u202eb')` is `"a\u202eb"` with
 * the escape written out: the override is shown, not obeyed.
 */
export function quote(value) {
  return `"${escaped(asString(value))}"`;
}

/**
 * String(value), or for an object that cannot be made a string (no prototype, a `toString`
 * that is not a function) its tag, `[object Object]`: reading a configuration never throws.
 */
export function asString(value) {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/**
 * A key of the URL as a message names it, `Parameter "KEY"`: shortened and escaped as quote()
 * does, without the quotes, so a key of any length or with control characters gives a short
 * message on one line.
 */
export function keyName(key) {
  return escaped(asString(key));
}

/** A configuration value as text: strings trimmed, anything else through String. */
export function text(value) {
  return typeof value === 'string' ? value.trim() : asString(value);
}

/**
 * A whole number from 0 to `max`, given as a number or in decimal digits (at most 12), or null.
 *
 * ```js
 * parseWhole(' 42 ', 100); // 42
 * parseWhole('1e3', 5000); // null: digits only
 * parseWhole(101, 100);    // null: over max
 * ```
 */
export function parseWhole(value, max) {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value <= max ? value : null;
  const t = text(value);
  if (!/^\d{1,12}$/.test(t)) return null;
  const n = Number(t);
  return n <= max ? n : null;
}

/**
 * The keys that carry a whole map (`grid`, `graph`): in an address longer than
 * LONG_ADDRESS they travel in the fragment (`#grid=...`), which browsers never send to the
 * server, so no server refuses the request for its size (many refuse a request line over 8 KB
 * or headers over 16 KB).
 */
export const MAP_KEYS = ['grid', 'graph'];

/** The longest address sent to a server whole: past it, the map goes in the fragment. */
export const LONG_ADDRESS = 8000;

/**
 * `url` (a URL object whose query holds the settings) as text, with the map keys moved from
 * the query into the fragment when the whole would be longer than LONG_ADDRESS.
 */
export function addressText(url) {
  const text = url.toString().replaceAll('%2C', ',');
  if (text.length <= LONG_ADDRESS) return text;
  const moved = new URLSearchParams();
  for (const key of MAP_KEYS) {
    const value = url.searchParams.get(key);
    if (value === null) continue;
    moved.set(key, value);
    url.searchParams.delete(key);
  }
  if (![...moved.keys()].length) return text;
  url.hash = moved.toString();
  return url.toString().replaceAll('%2C', ',');
}

/**
 * The page's configuration from its address: the query's keys, and the fragment's
 * (`#grid=...`, see addressText) for any key the query does not give.
 */
export function addressObject(search, hash) {
  const out = queryObject(search);
  const extra = queryObject(hash.startsWith('#') ? hash.slice(1) : hash);
  for (const key of Object.keys(extra)) if (!Object.hasOwn(out, key)) out[key] = extra[key];
  return out;
}

/** The URL query as a plain object of strings (the first value of a repeated key wins). */
export function queryObject(search) {
  // No prototype: a key named like one of Object's members (`constructor`, `toString`,
  // `__proto__`, ...) is an own key like any other, so the pages report it as unknown.
  const out = Object.create(null);
  for (const [key, value] of new URLSearchParams(search)) {
    if (!Object.hasOwn(out, key)) out[key] = value;
  }
  return out;
}
