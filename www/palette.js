// The colours of the grid pages, on their own so that a page without the path-finding module
// (the crowd page) can use them without loading it; paint.js re-exports them.

/** Colours: the Okabe-Ito palette, which stays distinct for the common colour-vision types. */
export const PALETTE = {
  ground: '#fbfaf6',
  wall: '#2f3542',
  mud: '#b99a6b',
  water: '#5f86a8',
  open: '#9bd2f3',
  closed: '#f3bd62',
  current: '#d55e00',
  path: '#f0e442',
  pathLine: '#0072b2',
  start: '#009e73',
  goal: '#cc79a7',
  gridLine: 'rgba(47, 53, 66, 0.18)',
  text: '#1f2430',
  hover: '#1f2430',
  openBack: '#e6c6db',
  closedBack: '#c58fb4',
};

/**
 * The high-contrast colours (the page's `contrast` option, for washed-out projectors and low
 * vision): black walls on white, and search states dark enough to stand out from the ground
 * by at least 3:1 while black numbers stay readable on them. The hues keep the Okabe-Ito
 * order (open blue, closed orange, current reddish purple), so the states stay apart for the
 * common colour-vision types; tests/page-a11y.test.mjs checks both.
 */
export const HIGH_CONTRAST = {
  ground: '#ffffff',
  wall: '#000000',
  mud: '#b58a4c',
  water: '#1f4e79',
  open: '#3391d6',
  closed: '#cf7c00',
  current: '#c0266c',
  path: '#f0e442',
  pathLine: '#000000',
  start: '#007d5b',
  goal: '#a8327d',
  gridLine: 'rgba(0, 0, 0, 0.5)',
  text: '#000000',
  hover: '#000000',
  openBack: '#a9d3f2',
  closedBack: '#7a4a00',
};
