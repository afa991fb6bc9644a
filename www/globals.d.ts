// Types for the type check (jsconfig.json, `tsc --noEmit -p jsconfig.json`): what the pages
// add to the browser's globals. The pages never load this file.

/** The page events the modules dispatch on their root element, with their `detail`. */
interface HTMLElementEventMap {
  /** index.html: the settings changed (main.js writes them into the URL). */
  'pathlab-change': CustomEvent<import('./config.js').PageConfig>;
  /** index.html: a lesson shows another page (lesson.js; main.js writes it into the URL). */
  'pathlab-lesson': CustomEvent<{ lesson: string, page: number, embed: boolean }>;
  /** index.html: the map, start, goal or links were edited. */
  'pathlab-edit': CustomEvent<{ what: string }>;
  /** boids.html: the settings changed. */
  'boids-change': CustomEvent<import('./boids-config.js').BoidConfig>;
  /** crowd.html: the settings changed. */
  'crowd-change': CustomEvent<object>;
  /** requests.html: the settings changed. */
  'requests-change': CustomEvent<import('./requests.js').RequestConfig>;
}

/** The hooks each page leaves on `window` for tests and embedding pages. */
interface Window {
  /** index.html (main.js). */
  pathlab: Awaited<ReturnType<typeof import('./pathlab.js').mount>>;
  /** boids.html (boids-main.js). */
  boidlab: Awaited<ReturnType<typeof import('./boids.js').mountBoids>>;
  /** crowd.html (crowd-main.js). */
  crowdlab: Awaited<ReturnType<typeof import('./crowd.js').mountCrowd>>;
}
