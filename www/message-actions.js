// Messages replace each other: every action a person takes on a page clears the messages of
// the last one first (during a press, when it ends), so they never pile up and a valid action
// leaves none, while an action that is refused then says why, alone. Loaded after the first
// paint (page-app.js) or with the agent pages.

/**
 * Makes every action a person takes in `root` clear `area` (a dom.js MessageArea) first: a
 * changed control, a pressed button, a press on a canvas, a file dropped, or a page key (not
 * Tab, Escape or a modifier, which only move around). Runs in the capture phase, before the
 * page acts, and stops by itself once the area's box has left the page. Returns a function
 * that unhooks it.
 * @param {import('./dom.js').MessageArea} area
 * @param {HTMLElement} root
 */
export function clearOnActions(area, root) {
  const quiet = new Set(['Tab', 'Escape', 'Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'ContextMenu']);
  // While a mouse button, pen or finger is down, clearing waits for it to lift: the messages
  // sit above the page, and clearing them moves everything under the pointer, so the press
  // would end on another cell or button than it began (a change fired by the blur of a field
  // as a button is pressed, or a press on the grid). What the press itself says stays.
  let down = false;
  /** @type {number | null} */
  let pending = null;
  const onDown = () => {
    down = true;
  };
  const onUp = () => {
    down = false;
    if (pending !== null) area.clearBefore(pending);
    pending = null;
  };
  const onAction = (event) => {
    // A page that was taken down (its box gone) stops listening.
    if (!area.box.isConnected) {
      unhook();
      return;
    }
    const target = event.target instanceof Element ? event.target : null;
    if (!target || !root.contains(target)) return;
    if (event.type === 'click' && !target.closest('button')) return;
    if (event.type === 'pointerdown' && target.tagName !== 'CANVAS') return;
    if (event.type === 'keydown') {
      // Keys typed in a control act through its change or click.
      if (quiet.has(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
      if (['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(target.tagName)) return;
    }
    if (down) pending ??= area.count;
    else area.clear();
  };
  const types = ['change', 'click', 'pointerdown', 'keydown', 'drop'];
  const unhook = () => {
    for (const type of types) root.removeEventListener(type, onAction, { capture: true });
    window.removeEventListener('pointerdown', onDown, true);
    window.removeEventListener('pointerup', onUp, true);
    window.removeEventListener('pointercancel', onUp, true);
  };
  window.addEventListener('pointerdown', onDown, true);
  window.addEventListener('pointerup', onUp, true);
  window.addEventListener('pointercancel', onUp, true);
  for (const type of types) root.addEventListener(type, onAction, { capture: true });
  return unhook;
}
