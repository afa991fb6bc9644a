// Short pseudocode for every algorithm on the menu, and which of its lines a step executed.
//
// Each algorithm has a title and 8 to 16 lines; every line carries a tag (`pop`, `open`, ...)
// and `active(facts)` returns the tags of the lines the last step ran, from what the wasm
// layer says about it (`Lab.lastStep()`: expanded / found / no-path / none, with the
// neighbours opened or improved), the status and the overlay's line kinds. panels.js draws
// the lines and marks those. The text is plain: it is shown with textContent, never as HTML.

/**
 * What a step did, reduced to what the highlight needs:
 * { kind, status, fresh, improved, opened, steps, expandedStart, overlay: Set<string> }.
 * `fresh`: some neighbour was opened for the first time; `improved`: some open neighbour got
 * a lower g; `overlay`: the overlay's kinds as `line:sight`, `mark:stack` ...
 */
export function stepFacts(last, status, steps, start, overlay) {
  const opened = last?.opened ?? [];
  const kinds = new Set([
    ...(overlay?.lines ?? []).map((l) => `line:${l[4]}`),
    ...(overlay?.marks ?? []).map((m) => `mark:${m[2]}`),
  ]);
  return {
    kind: last?.kind ?? 'none',
    status,
    steps,
    opened: opened.length,
    fresh: opened.some((o) => o.old_g === null || o.old_g === undefined),
    improved: opened.some((o) => o.old_g !== null && o.old_g !== undefined),
    expandedStart: !!(last?.expanded && start && last.expanded[0] === start[0] && last.expanded[1] === start[1]),
    overlay: kinds,
  };
}

/** The lines of a best-first search expansion: pop, close, look at neighbours, open / improve. */
function bestFirst(facts) {
  if (facts.steps === 0) return ['init'];
  if (facts.kind === 'found' || facts.status === 'found') return ['pop', 'goal'];
  if (facts.kind === 'no-path' || facts.status === 'no-path') return ['loop', 'nopath'];
  if (facts.kind === 'expanded') {
    const tags = ['pop', 'close', 'each'];
    if (facts.opened) tags.push('cost');
    if (facts.fresh) tags.push('open');
    if (facts.improved) tags.push('improve');
    return tags;
  }
  return ['loop'];
}

/** Agents: a step is a move unless it ended the walk. */
function agentStep(facts, moveTags) {
  if (facts.steps === 0) return ['init'];
  if (facts.status === 'found' || facts.kind === 'found') return ['done'];
  if (facts.status === 'no-path' || facts.kind === 'no-path') return ['stuck'];
  return moveTags;
}

const ASTAR_LINES = (order) => [
  ['init', 'open ← {start};  g(start) ← 0;  closed ← {}'],
  ['loop', 'while open is not empty:'],
  ['pop', `  n ← the cell in open with ${order}`],
  ['goal', '  if n is the goal: return the path, following parents back'],
  ['close', '  move n from open to closed'],
  ['each', '  for each neighbour m of n, not a wall and not closed:'],
  ['cost', '    g′ ← g(n) + cost(n → m)          (terrain multiplies it)'],
  ['open', '    if m is not in open: add m with g(m) ← g′, parent(m) ← n'],
  ['improve', '    else if g′ < g(m): g(m) ← g′, parent(m) ← n   (a cheaper way)'],
  ['nopath', 'return "no path"   (open ran empty)'],
];

export const PSEUDOCODE = {
  astar: {
    title: 'A*',
    lines: ASTAR_LINES('the lowest f = g + w·h (tie: higher g, then first opened)'),
    active: bestFirst,
  },
  dijkstra: {
    title: 'Dijkstra',
    lines: ASTAR_LINES('the lowest g (tie: first opened)'),
    active: bestFirst,
  },
  greedy: {
    title: 'Greedy best-first',
    lines: ASTAR_LINES('the lowest h (tie: first opened); g is kept only for the path'),
    active: bestFirst,
  },
  bfs: {
    title: 'Breadth-first search',
    lines: [
      ['init', 'queue ← [start];  mark start as seen'],
      ['loop', 'while the queue is not empty:'],
      ['pop', '  n ← take the cell at the front of the queue'],
      ['goal', '  if n is the goal: return the path, following parents back'],
      ['close', '  mark n as expanded'],
      ['each', '  for each neighbour m of n that is not a wall:'],
      ['open', '    if m was never seen: mark it, parent(m) ← n, put m at the back'],
      ['nopath', 'return "no path"   (the queue ran empty)'],
    ],
    active: bestFirst,
  },
  dfs: {
    title: 'Depth-first search',
    lines: [
      ['init', 'stack ← [start]'],
      ['loop', 'while the stack is not empty:'],
      ['pop', '  n ← take the cell on top of the stack (skip it if already expanded)'],
      ['goal', '  if n is the goal: return the path, following parents back'],
      ['close', '  mark n as expanded'],
      ['each', '  for each neighbour m of n, not a wall and not expanded:'],
      ['open', '    parent(m) ← n;  push m on top, even if it already waits lower down'],
      ['nopath', 'return "no path"   (the stack ran empty)'],
    ],
    // A cell already on the stack is pushed again: the core reports that as an improvement.
    active: (facts) => bestFirst(facts).map((t) => (t === 'improve' ? 'open' : t)),
  },
  'bi-astar': {
    title: 'Bidirectional A*',
    lines: [
      ['init', 'forward open ← {start};  backward open ← {goal};  μ ← ∞ (best meeting)'],
      ['loop', 'loop:'],
      ['stop', '  if μ ≤ max(lowest f forward, lowest f backward): return the path through the meeting cell'],
      ['nopath', '  (μ is still ∞ when a side runs out of open cells: then return "no path")'],
      ['side', '  side ← the one with fewer open cells (on a tie, take turns)'],
      ['pop', '  n ← that side\'s open cell with the lowest f = g + h toward the other end'],
      ['close', '  close n on that side (if the other side closed it already, close it and stop here)'],
      ['each', '  for each neighbour m of n, not a wall and not closed on this side:'],
      ['open', '    if m is new to this side or g′ < g(m): g(m) ← g′, parent(m) ← n, put m in open'],
      ['meet', '    if the other side knows m too: μ ← min(μ, g(m) + g_other(m))'],
    ],
    active(facts) {
      if (facts.steps === 0) return ['init'];
      if (facts.kind === 'found' || facts.status === 'found') return ['stop'];
      if (facts.kind === 'no-path' || facts.status === 'no-path') return ['stop', 'nopath'];
      if (facts.kind === 'expanded') {
        const tags = ['stop', 'side', 'pop', 'close', 'each'];
        if (facts.opened) tags.push('open');
        if (facts.overlay.has('mark:meeting') && facts.opened) tags.push('meet');
        return tags;
      }
      return ['loop'];
    },
  },
  ida: {
    title: 'IDA* (iterative deepening A*)',
    lines: [
      ['init', 'threshold ← f(start) = w·h(start)'],
      ['loop', 'loop, one iteration per threshold:'],
      ['walk', '  walk depth-first from the start, never onto a cell already on the path:'],
      ['visit', '    visit m from n: g(m) ← g(n) + cost(n → m);  f ← g(m) + w·h(m)'],
      ['cut', '    if f > threshold: cut m off, remember the lowest such f, go back to n'],
      ['goal', '    else if m is the goal: return the path on the stack'],
      ['push', '    else: push m on the stack and try its moves in turn'],
      ['back', '    when the top of the stack has no move left: pop it'],
      ['nopath', '  if nothing was cut off: return "no path"'],
      ['raise', '  threshold ← the lowest f cut off;  start again from the start'],
    ],
    active(facts) {
      if (facts.steps === 0) return ['init'];
      if (facts.kind === 'found' || facts.status === 'found') return ['visit', 'goal'];
      if (facts.kind === 'no-path' || facts.status === 'no-path') return ['nopath'];
      if (facts.kind === 'expanded' && facts.expandedStart && facts.steps > 1) return ['raise', 'walk', 'visit', 'push'];
      if (facts.kind === 'expanded') return ['walk', 'visit', 'push'];
      if (facts.opened) return ['visit', 'cut'];
      return ['loop'];
    },
  },
  jps: {
    title: 'Jump point search (JPS)',
    lines: [
      ['init', 'open ← {start};  g(start) ← 0'],
      ['loop', 'while open is not empty:'],
      ['pop', '  n ← the jump point in open with the lowest f = g + w·h'],
      ['goal', '  if n is the goal: return the path (filling in the straight runs)'],
      ['close', '  move n from open to closed'],
      ['prune', '  keep the directions a path through n\'s parent still needs (natural and forced)'],
      ['scan', '  for each kept direction d: scan from n along d, cell by cell'],
      ['jump', '    a jump point j: the goal, a cell with a forced neighbour, or a diagonal cell whose straight scans find one'],
      ['open', '    if j is new or g(n) + dist(n, j) < g(j): g(j), parent(j) ← n;  put j in open'],
      ['nopath', 'return "no path"'],
    ],
    active(facts) {
      if (facts.steps === 0) return ['init'];
      if (facts.kind === 'found' || facts.status === 'found') return ['pop', 'goal'];
      if (facts.kind === 'no-path' || facts.status === 'no-path') return ['loop', 'nopath'];
      if (facts.kind === 'expanded') return facts.opened ? ['pop', 'close', 'prune', 'scan', 'jump', 'open'] : ['pop', 'close', 'prune', 'scan'];
      return ['loop'];
    },
  },
  'jps-plus': {
    title: 'JPS+ (precomputed jump distances)',
    lines: [
      ['table', 'ahead of time: for every cell and each of 8 directions, store the moves to the next jump point (or, negative, to the wall)'],
      ['init', 'open ← {start};  g(start) ← 0'],
      ['loop', 'while open is not empty:'],
      ['pop', '  n ← the jump point in open with the lowest f = g + w·h'],
      ['goal', '  if n is the goal: return the path (filling in the straight runs)'],
      ['close', '  move n from open to closed'],
      ['dirs', '  for each direction d the pruning rules keep:'],
      ['target', '    if the goal is nearer along d than the stored distance: stop level with the goal'],
      ['read', '    else read the stored distance: a jump point j, or a wall (nothing)'],
      ['open', '    if j is new or cheaper that way: g(j), parent(j) ← n;  put j in open'],
      ['nopath', 'return "no path"'],
    ],
    active(facts) {
      if (facts.steps === 0) return ['table', 'init'];
      if (facts.kind === 'found' || facts.status === 'found') return ['pop', 'goal'];
      if (facts.kind === 'no-path' || facts.status === 'no-path') return ['loop', 'nopath'];
      if (facts.kind === 'expanded') return facts.opened ? ['pop', 'close', 'dirs', 'read', 'open'] : ['pop', 'close', 'dirs', 'read'];
      return ['loop'];
    },
  },
  theta: {
    title: 'Theta* (any-angle)',
    lines: [
      ['init', 'open ← {start};  g(start) ← 0;  h: the straight-line distance'],
      ['loop', 'while open is not empty:'],
      ['pop', '  s ← the cell in open with the lowest f = g + w·h'],
      ['goal', '  if s is the goal: return the corners, following parents back'],
      ['close', '  move s from open to closed'],
      ['each', '  for each neighbour m of s, not a wall and not closed:'],
      ['sight', '    if parent(s) sees m: g′ ← g(parent(s)) + |parent(s) m|, via parent(s)   (path 2)'],
      ['nosight', '    else: g′ ← g(s) + |s m|, via s   (path 1, as A*)'],
      ['open', '    if m is new or g′ < g(m): g(m) ← g′, parent(m) ← via;  put m in open'],
      ['nopath', 'return "no path"'],
    ],
    active(facts) {
      const tags = bestFirst(facts).filter((t) => t !== 'cost' && t !== 'improve');
      if (facts.kind !== 'expanded') return tags;
      if (facts.overlay.has('line:sight')) tags.push('sight');
      if (facts.overlay.has('line:blocked')) tags.push('nosight');
      if (facts.opened && !tags.includes('open')) tags.push('open');
      return tags;
    },
  },
  'lazy-theta': {
    title: 'Lazy Theta* (any-angle)',
    lines: [
      ['init', 'open ← {start};  g(start) ← 0;  h: the straight-line distance'],
      ['loop', 'while open is not empty:'],
      ['pop', '  s ← the cell in open with the lowest f = g + w·h'],
      ['check', '  if parent(s) does not see s: parent(s) ← the best closed neighbour; put s back with its new g; take the next cell'],
      ['goal', '  if s is the goal: return the corners, following parents back'],
      ['close', '  move s from open to closed'],
      ['each', '  for each neighbour m of s, not a wall and not closed:'],
      ['assume', '    assume parent(s) sees m: g′ ← g(parent(s)) + |parent(s) m|'],
      ['open', '    if m is new or g′ < g(m): g(m) ← g′, parent(m) ← parent(s);  put m in open'],
      ['nopath', 'return "no path"'],
    ],
    active(facts) {
      const tags = bestFirst(facts).filter((t) => t !== 'cost' && t !== 'improve');
      if (facts.overlay.has('line:blocked')) tags.splice(1, 0, 'check');
      if (facts.kind === 'expanded' && facts.opened) {
        tags.push('assume');
        if (!tags.includes('open')) tags.push('open');
      }
      return tags;
    },
  },
  'astar-smoothed': {
    title: 'A* with smoothing (string pulling)',
    lines: [
      ['init', 'open ← {start};  g(start) ← 0'],
      ['loop', 'while open is not empty:'],
      ['pop', '  n ← the cell in open with the lowest f = g + w·h'],
      ['goal', '  if n is the goal: A*\'s path is known; go on to smoothing'],
      ['close', '  move n from open to closed'],
      ['each', '  for each neighbour m of n, not a wall and not closed:'],
      ['open', '    open or improve m with g(n) + cost(n → m), parent(m) ← n'],
      ['pull', 'for each cell c of the path, from the third one on:'],
      ['see', '  while the parent of parent(c) sees c: parent(c) ← that cell   (drop a waypoint)'],
      ['done', 'return the corners that are left'],
      ['nopath', 'return "no path"'],
    ],
    active(facts) {
      if (facts.steps === 0) return ['init'];
      if (facts.status === 'found') return ['done'];
      if (facts.kind === 'no-path' || facts.status === 'no-path') return ['loop', 'nopath'];
      if (facts.kind === 'expanded') return facts.opened ? ['pop', 'close', 'each', 'open'] : ['pop', 'close', 'each'];
      // A step that expands nothing: A* took the goal, or one cell was pulled.
      return ['pull', 'see'];
    },
  },
  lpa: {
    title: 'LPA* (lifelong planning A*)',
    lines: [
      ['init', 'g ← ∞ and rhs ← ∞ everywhere;  rhs(start) ← 0;  open ← {start}'],
      ['key', 'key(s) = [min(g, rhs) + h(s);  min(g, rhs)], compared first part first'],
      ['loop', 'while the lowest key in open < key(goal) or rhs(goal) ≠ g(goal):'],
      ['pop', '  u ← take the cell with the lowest key'],
      ['over', '  if g(u) > rhs(u): g(u) ← rhs(u)   (settle it, as A* closes a cell)'],
      ['under', '  else: g(u) ← ∞ and update u   (its cost went up: raise it)'],
      ['each', '  update every neighbour of u'],
      ['update', 'update(s): rhs(s) ← min over neighbours p of g(p) + cost(p, s);  s is in open exactly when g(s) ≠ rhs(s)'],
      ['edit', 'when walls change: update the cells next to each change, then loop again'],
      ['done', 'path: from the goal, step to the neighbour with the lowest g + cost'],
    ],
    active(facts) {
      if (facts.steps === 0) return ['init'];
      if (facts.kind === 'found' || facts.status === 'found') return ['loop', 'done'];
      if (facts.kind === 'no-path' || facts.status === 'no-path') return ['loop'];
      if (facts.kind === 'expanded') return facts.improved && !facts.fresh ? ['pop', 'under', 'each', 'update'] : ['pop', 'over', 'each', 'update'];
      return ['loop'];
    },
  },
  'dstar-lite': {
    title: 'D* Lite (an agent that repairs its plan)',
    lines: [
      ['init', 'plan from the goal back to the agent: rhs(goal) ← 0;  open ← {goal};  km ← 0'],
      ['plan', 'repair: expand cells as LPA* does until the agent\'s cell is settled'],
      ['loop', 'while the agent is not at the goal:'],
      ['move', '  step to the neighbour s with the lowest cost(agent, s) + g(s)'],
      ['sense', '  look: walls within the sensor radius that the plan did not know'],
      ['km', '  if there are any: km ← km + h(where the last repair began, agent)'],
      ['update', '    update the cells next to each change, and repair again'],
      ['done', 'the agent stands on the goal: the walk is the path'],
      ['stuck', 'if the agent\'s cell has g = ∞: "no path"'],
    ],
    active(facts) {
      if (facts.steps === 0) return ['init'];
      if (facts.status === 'found' || facts.kind === 'found') return ['done'];
      if (facts.status === 'no-path' || facts.kind === 'no-path') return ['stuck'];
      if (facts.kind === 'expanded') return ['plan'];
      return ['loop', 'move', 'sense'];
    },
  },
  lrta: {
    title: 'LRTA* (learning real-time A*)',
    lines: [
      ['init', 'h(s) ← the estimate, for every cell;  the agent stands on the start'],
      ['loop', 'while the agent is not on the goal:'],
      ['look', '  look ahead (depth d): for each neighbour s, f(s) ← cost(agent, s) + h(s)'],
      ['deep', '    (deeper than one move: f is the best over the cells within d moves)'],
      ['learn', '  h(agent) ← max(h(agent), the lowest f)   (this cell is at least that far)'],
      ['move', '  move to the neighbour with the lowest f (tie: the first in N, E, S, W order)'],
      ['done', 'on the goal: the walk is the path (not the cheapest one)'],
      ['stuck', 'no neighbour to move to: "no path"'],
    ],
    active: (facts) => agentStep(facts, ['loop', 'look', 'learn', 'move']),
  },
  rta: {
    title: 'RTA* (real-time A*)',
    lines: [
      ['init', 'h(s) ← the estimate, for every cell;  the agent stands on the start'],
      ['loop', 'while the agent is not on the goal:'],
      ['look', '  look ahead (depth d): for each neighbour s, f(s) ← cost(agent, s) + h(s)'],
      ['learn', '  h(agent) ← the second-lowest f (the lowest, if there is one neighbour)'],
      ['move', '  move to the neighbour with the lowest f'],
      ['why', '  (storing the second best makes coming back cost more: dead ends empty faster)'],
      ['done', 'on the goal: the walk is the path'],
      ['stuck', 'no neighbour to move to: "no path"'],
    ],
    active: (facts) => agentStep(facts, ['loop', 'look', 'learn', 'move']),
  },
  'crash-turn': {
    title: 'Crash and turn',
    lines: [
      ['init', 'the agent stands on the start, facing the goal'],
      ['loop', 'while the agent is not on the goal:'],
      ['head', '  if the next cell on the straight line to the goal is free: step onto it'],
      ['crash', '  else: crash — turn until the obstacle is on the chosen hand'],
      ['follow', '  follow the obstacle, hand on the wall, until the line to the goal is clear'],
      ['blind', '  (it remembers nothing: a C-shaped obstacle can trap it for ever)'],
      ['done', 'on the goal'],
      ['stuck', 'walking in circles or boxed in: give up'],
    ],
    active: (facts) => agentStep(facts, ['loop', facts.overlay.has('line:heading') ? 'head' : 'follow']),
  },
  hpa: {
    title: 'Hierarchical A* (clusters)',
    lines: [
      ['split', 'ahead of time: cut the map into square clusters'],
      ['entr', '  find the entrances: open stretches of the border between two clusters'],
      ['edges', '  inside each cluster, search between its entrances: abstract edges with costs'],
      ['init', 'link the start and goal to the entrances of their clusters'],
      ['loop', 'A* over the abstract graph (entrances as nodes):'],
      ['pop', '  take the node with the lowest f;  if it is the goal, the abstract path is found'],
      ['open', '  open or improve its neighbours along abstract edges'],
      ['refine', 'refine: turn each abstract edge into grid moves with A* inside its cluster'],
      ['done', 'return the refined path (near the cheapest: it bends through entrances)'],
      ['nopath', 'no abstract path: "no path"'],
    ],
    active(facts) {
      if (facts.steps === 0) return ['split', 'entr', 'edges', 'init'];
      if (facts.status === 'found') return ['done'];
      if (facts.status === 'no-path' || facts.kind === 'no-path') return ['nopath'];
      if (facts.kind === 'expanded') return facts.opened ? ['loop', 'pop', 'open'] : ['loop', 'pop'];
      return ['refine'];
    },
  },
};

/** The pseudocode of `algo`, or a generic best-first search for names it does not know. */
export function pseudocodeFor(algo) {
  return PSEUDOCODE[algo] ?? { title: algo, lines: ASTAR_LINES('the lowest key'), active: bestFirst };
}
