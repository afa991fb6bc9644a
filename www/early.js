// What the first grid needs besides code, asked for the moment the page starts: index.html runs
// this module on its own (async, no imports), before the rest of the module graph has loaded,
// so that the preset list and then the map arrive while the code and the wasm module load and
// compile. It fetches maps/presets.json and the map the URL names (`map=`), or the first
// preset; pathlab.js's mount() takes both over (takeEarly) and uses the map only if it is the
// one it wants. Nothing here reports errors: a failed fetch is simply made again by mount(),
// which reports what goes wrong.

const MAPS = new URL('./maps/', import.meta.url);

let early = start();

function start() {
  const presets = fetch(new URL('presets.json', MAPS));
  presets.catch(() => {});
  const map = presets
    .then(async (response) => {
      const query = new URLSearchParams(location.search);
      if (!response.ok || query.has('grid')) return null;
      const index = await response.clone().json();
      const list = Array.isArray(index?.presets) ? index.presets : [];
      const name = query.get('map') ?? list[0]?.name;
      const preset = list.find((p) => p?.name === name && typeof p.file === 'string');
      if (!preset) return null;
      const got = await fetch(new URL(preset.file, MAPS));
      return got.ok ? { file: preset.file, text: await got.text() } : null;
    })
    .catch(() => null);
  return { presets, map };
}

/**
 * The fetches started when the page loaded, once (a later mount fetches afresh): `presets`, a
 * promise of the Response for maps/presets.json, and `map`, a promise of `{ file, text }` (a
 * preset's file under maps/ and its text) or null; or null when already taken.
 */
export function takeEarly() {
  const taken = early;
  early = null;
  return taken;
}
