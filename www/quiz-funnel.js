// The funnel quiz on the navmesh view (`space=navmesh&quiz=apex`, or its Quiz button): once
// A* has found the corridor, the student clicks where the string-pulled path bends next. The
// answer is the core's (NavLab.nextCorner); a right click steps the funnel on to that corner, a
// wrong one is explained from the funnel's apex and the ends of its two sides. The panel and
// the score are quiz.js's, shared with the grid's questions. Loaded only when the quiz starts.

import { NavPhase } from './pkg/pathlab_spaces.js';
import { PROMPTS, quizPanel } from './quiz.js';

/** How near the next corner a click must be to count, in cells. */
export const CORNER_REACH = 0.5;

/** A point in cells as the navmesh view writes it: (x, y) to at most 3 decimals. */
function point(p) {
  const r = (v) => String(Math.round(v * 1000) / 1000);
  return `(${r(p[0])}, ${r(p[1])})`;
}

/**
 * Attaches the funnel quiz (`quiz=apex`) to the navmesh view `app` (navmesh-view.js's NavApp):
 * once A* has found the corridor, the student clicks where the string-pulled path bends next
 * (the funnel's next apex, or the goal). Right: the funnel steps on to that corner. Wrong: the
 * page explains from the funnel's state, its apex and the ends of its left and right sides.
 * The answer is the core's (`NavLab.nextCorner`), never a guess of this module's.
 * @param {any} app
 */
export function attachCornerQuiz(app) {
  const { ui, panel, judge, showScore } = quizPanel(app.ui.wrap.parentElement, [['apex', 'Funnel’s next corner']]);
  /** Steps until the corridor is found; false when there is none to pull a string through. */
  const toFunnel = () => {
    const lab = app.lab;
    while (lab.phase !== NavPhase.Funnel && lab.phase !== NavPhase.Done && lab.phase !== NavPhase.Unavailable) lab.step();
    app.narrateStep();
    app.touch();
    return lab.phase === NavPhase.Funnel;
  };
  const quiz = {
    /** @type {string | null} */
    mode: null,
    setMode(mode) {
      quiz.mode = mode === 'apex' ? mode : null;
      panel.hidden = quiz.mode === null;
      ui.feedback.textContent = '';
      ui.feedback.className = 'pl-quiz-feedback';
      ui.prompt.textContent = '';
      if (quiz.mode) {
        ui.mode.value = quiz.mode;
        ui.prompt.textContent = toFunnel() ? PROMPTS.apex : 'This map has no corridor for the funnel (no path, or the path is done): press Reset or move an end.';
      }
      showScore();
      app.changed();
    },
  };

  function answer(x, y) {
    const lab = app.lab;
    if (lab.phase !== NavPhase.Funnel && !toFunnel()) {
      ui.feedback.textContent = 'The path is complete: press Reset to start again.';
      return;
    }
    const next = lab.nextCorner();
    if (next.length < 2) return;
    const f = lab.funnelState();
    const goal = f.portals > 0 && next[0] === lab.goal[0] / 2 && next[1] === lab.goal[1] / 2;
    const far = Math.hypot(x - next[0], y - next[1]);
    const closed = (a) => a[0] === f.apex[0] && a[1] === f.apex[1];
    const state = closed(f.left) && closed(f.right)
      ? `The funnel's apex is at ${point(f.apex)}; its left and right sides have not opened yet (they open as the funnel takes the portals one by one).`
      : `The funnel's apex is at ${point(f.apex)}; its left side runs to ${point(f.left)}, its right side to ${point(f.right)}.`;
    const same = (a) => a[0] === next[0] && a[1] === next[1];
    let why;
    if (goal) why = `Nothing crosses the sides before the goal, so the string runs straight from the apex to the goal ${point(next)}.`;
    else if (same(f.left)) why = `A later portal's right end crosses over the left side, so the left side's end ${point(next)} becomes the next corner.`;
    else if (same(f.right)) why = `A later portal's left end crosses over the right side, so the right side's end ${point(next)} becomes the next corner.`;
    else why = `The sides tighten further along the corridor, and one crosses the other at ${point(next)}: that is the next corner.`;
    if (far <= CORNER_REACH) {
      const had = lab.path().length;
      while (lab.phase === NavPhase.Funnel && lab.path().length === had) lab.step();
      app.narrateStep();
      app.touch();
      judge(true, `${state} ${why}`);
      if (lab.phase !== NavPhase.Funnel) ui.prompt.textContent = 'The path is complete. Press Reset to try again.';
    } else {
      judge(false, `${point([x, y])} is ${far.toFixed(2)} cells from the next corner. ${state} ${why}`);
    }
  }

  // While the quiz is on, a press on the map answers (before the wall painter sees it).
  const onPress = (/** @type {PointerEvent} */ event) => {
    if (!quiz.mode || event.button > 0) return;
    event.stopImmediatePropagation();
    event.preventDefault();
    const [x, y] = app.painter.toCells(event);
    answer(x, y);
  };
  app.canvas.addEventListener('pointerdown', onPress, { capture: true });
  ui.close.addEventListener('click', () => quiz.setMode(null));
  return quiz;
}
