// Predict the next step (`quiz=expand|path`, or the Quiz button): the student clicks the cell
// they think the search expands next, or the next cell of the found path from the start; the
// page says right or wrong and explains with the open list (the key, then the registry's tie
// rule). The answer is always what the search then does (it takes the step), never a guess of
// this module's. The score lasts while the page is open (it outlives a change of map).
//
// Loaded only when a quiz starts (pathlab.js startQuiz), so the first paint does not carry it.

import { el } from './dom.js';
import { algorithmRow } from './page-app.js';
import { QUIZ_MODES } from './config.js';

/** The questions on the grid; the navmesh view asks for the funnel's next corner (`apex`). */
const GRID_QUIZ = QUIZ_MODES.filter((m) => m !== 'apex');

/** The score of this visit: right answers and answers, across maps and lesson pages. */
const score = { right: 0, asked: 0 };

/** What each mode asks. */
export const PROMPTS = {
  expand: 'Click the cell you think the search expands next.',
  path: "The search has run to the end. Click the path's next cell, starting from S.",
  apex: 'The corridor is found. Click where the string-pulled path bends next: the funnel’s next apex (or the goal, if nothing is in the way).',
};

/** A cost as the page prints it: whole numbers as they are, others to two decimals. */
function num(v) {
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

function at(x, y) {
  return `(${x}, ${y})`;
}

/** An open-list entry in words: its cell and its key worked out. */
function entryWords(e, key) {
  if (key === 'f' && Math.abs(e.g + e.h - e.key) < 1e-9) return `${at(e.x, e.y)} with f = ${num(e.g)} + ${num(e.h)} = ${num(e.key)}`;
  if (key === 'f') return `${at(e.x, e.y)} with g = ${num(e.g)}, h = ${num(e.h)}, f = ${num(e.key)}`;
  if (key === 'g' || key === 'h') return `${at(e.x, e.y)} with ${key} = ${num(e[key])}`;
  return `${at(e.x, e.y)} (place ${num(e.key)})`;
}

/**
 * The quiz's panel, placed above the read-outs of `stage`: a menu of the `questions`
 * ([value, words]), the score, End quiz, the prompt and the feedback. Returns its elements and
 * `judge(right, words)`, which counts an answer and says it, and `showScore()`.
 * @param {HTMLElement} stage
 * @param {Array<[string, string]>} questions
 */
export function quizPanel(stage, questions) {
  const ui = {};
  ui.mode = el('select', { testid: 'quiz-mode', 'aria-label': 'Quiz question' });
  for (const [value, text] of questions) ui.mode.append(el('option', { value, text }));
  ui.prompt = el('p', { class: 'pl-quiz-prompt', testid: 'quiz-prompt' });
  ui.feedback = el('p', { class: 'pl-quiz-feedback', testid: 'quiz-feedback', 'aria-live': 'polite' });
  ui.score = el('span', { class: 'pl-quiz-score', testid: 'quiz-score' });
  ui.close = el('button', { type: 'button', class: 'pl-btn pl-small', testid: 'quiz-close', text: 'End quiz' });
  const panel = el(
    'section',
    { class: 'pl-section pl-quiz', testid: 'quiz', 'aria-label': 'Quiz' },
    el('h2', { text: 'Quiz: predict the next step' }),
    el('div', { class: 'pl-quiz-row' }, ui.mode, ui.score, ui.close),
    ui.prompt,
    ui.feedback,
  );
  stage.querySelector(':scope > .pl-readouts')?.before(panel);
  const showScore = () => {
    ui.score.textContent = `Score: ${score.right} of ${score.asked}`;
  };
  const judge = (right, words) => {
    score.asked += 1;
    if (right) score.right += 1;
    ui.feedback.textContent = `${right ? 'Right' : 'Not quite'}: ${words}`;
    ui.feedback.className = `pl-quiz-feedback ${right ? 'pl-quiz-right' : 'pl-quiz-wrong'}`;
    ui.feedback.dataset.result = right ? 'right' : 'wrong';
    showScore();
  };
  return { ui, panel, judge, showScore };
}

/**
 * Attaches the quiz to the grid page `app` (pathlab.js's App): a panel above the read-outs
 * and a press on the grid that answers instead of editing while a mode is on.
 * @param {any} app
 */
export function attachQuiz(app) {
  const { ui, panel, judge, showScore } = quizPanel(app.ui.wrap.parentElement, [['expand', 'Next cell expanded'], ['path', "Path's next cell"]]);

  const quiz = {
    /** @type {string | null} */
    mode: null,
    /** Where the path quiz stands: the index on the path of the last cell answered. */
    along: 0,
    setMode(mode) {
      quiz.mode = GRID_QUIZ.includes(mode) ? mode : null;
      panel.hidden = quiz.mode === null;
      if (quiz.mode) ui.mode.value = quiz.mode;
      quiz.along = 0;
      if (quiz.mode === 'path' && !app.finished()) app.act(() => app.lab.run(), 'run');
      ui.prompt.textContent = quiz.mode ? PROMPTS[quiz.mode] : '';
      ui.feedback.textContent = '';
      ui.feedback.className = 'pl-quiz-feedback';
      showScore();
      app.changed();
    },
  };

  function answerExpand(cell) {
    const lab = app.lab;
    if (app.finished()) {
      ui.feedback.textContent = 'The search has finished: press Reset (or choose a map) to start again.';
      return;
    }
    const settings = lab.settings();
    /** @type {{ key: string, rule: string, entries: any[] }} */
    const open = lab.openList(100000);
    const rule = open.rule ?? algorithmRow(settings.algo)?.order_rule ?? `by ${open.key}`;
    app.step();
    const taken = lab.lastStep().expanded;
    if (!taken) {
      ui.feedback.textContent = 'That step expanded no cell (the search ended): press Reset to start again.';
      return;
    }
    const [tx, ty] = taken;
    const key = open.key;
    const best = open.entries.find((e) => e.x === tx && e.y === ty);
    const chosen = open.entries.find((e) => e.x === cell.x && e.y === cell.y);
    const why = best ? `${entryWords(best, key)}` : at(tx, ty);
    const order = `The open list is taken in this order: ${rule}.`;
    if (cell.x === tx && cell.y === ty) {
      judge(true, `the search expanded ${why}. ${order}`);
      return;
    }
    const yours = chosen
      ? `${entryWords(chosen, key)} is on the open list, but not first`
      : `${at(cell.x, cell.y)} is not on the open list (a wall, closed already, or not reached yet)`;
    const tie = chosen && best && chosen.key === best.key ? ` Both have the same ${key}: the tie rule decided.` : '';
    judge(false, `${yours}. The search expanded ${why}.${tie} ${order}`);
  }

  function answerPath(cell) {
    const lab = app.lab;
    const n = lab.pathLength;
    if (n < 2) {
      ui.feedback.textContent = 'There is no path on this map to follow.';
      return;
    }
    const w = lab.width;
    const path = new Uint32Array(app.memory.buffer, lab.pathPtr(), n).slice();
    if (quiz.along >= n - 1) quiz.along = 0;
    const from = path[quiz.along];
    const next = path[quiz.along + 1];
    const [fx, fy, nx, ny] = [from % w, Math.floor(from / w), next % w, Math.floor(next / w)];
    const g = new Float64Array(app.memory.buffer, lab.gPtr(), w * lab.height);
    const step = `from ${at(fx, fy)} (g = ${num(g[from])}) the path goes to ${at(nx, ny)} (g = ${num(g[next])}): the goal's parents, followed back, pass through it`;
    if (cell.x === nx && cell.y === ny) {
      quiz.along += 1;
      const end = quiz.along === n - 1 ? ' That is the goal: the whole path is done.' : '';
      judge(true, `${step}.${end}`);
      if (end) quiz.along = 0;
    } else {
      judge(false, `${step}, not ${at(cell.x, cell.y)}.`);
    }
    ui.prompt.textContent = `${PROMPTS.path} Now at ${at(path[quiz.along] % w, Math.floor(path[quiz.along] / w))}.`;
  }

  // While a quiz is on, a press on the grid answers (before the editor sees it).
  const onPress = (/** @type {PointerEvent} */ event) => {
    if (!quiz.mode || event.button > 0) return;
    event.stopImmediatePropagation();
    event.preventDefault();
    const cell = app.painter.cellAt(event);
    if (cell.x < 0 || cell.y < 0 || cell.x >= app.lab.width || cell.y >= app.lab.height) return;
    if (quiz.mode === 'expand') answerExpand(cell);
    else answerPath(cell);
  };
  app.canvas.addEventListener('pointerdown', onPress, { capture: true });
  ui.mode.addEventListener('change', () => quiz.setMode(ui.mode.value));
  ui.close.addEventListener('click', () => quiz.setMode(null));
  return quiz;
}

