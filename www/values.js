// Reading values from a URL query or a configuration object, shared by every page's
// configuration: a query as a plain object, whole numbers, and quoting a value for a message.
// Nothing here touches the DOM.

/** The largest seed (seeds are 32-bit). */
export const MAX_SEED = 4_294_967_295;

/** A value shortened and quoted for a message (the caller shows it as text, never as HTML). */
export function quote(value) {
  let text = String(value);
  if (text.length > 40) text = `${text.slice(0, 40)}…`;
  return JSON.stringify(text);
}

/** A configuration value as text: strings trimmed, anything else through String. */
export function text(value) {
  return typeof value === 'string' ? value.trim() : String(value);
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
