// The page's words about each algorithm, in one place: for every algorithm on the menu its
// pseudocode and which lines a step executed, and its longer notes. The facts (names, labels,
// which settings it takes, whether it is optimal or any-angle, how its open list is ordered)
// are the core's registry (`algorithms()` from the wasm module, search/registry.rs); adding an
// algorithm adds its row there and its entry here.
//
// Each entry has a title and 8 to 16 lines; every line carries a tag (`pop`, `open`, ...)
// and `active(facts)` returns the tags of the lines the last step ran, from what the wasm
// layer says about it (`Lab.lastStep()`: expanded / found / no-path / none, with the
// neighbours opened or improved), the status and the overlay's line kinds. panels.js draws
// the lines and marks those. Optional words, each a plain sentence or phrase:
// - `note`: what its overlay shows, after the note under the settings (settingsNote);
// - `caveat`: why it may miss the cheapest path, as that note says it;
// - `notOptimal`: the same as a warning beside the result (warnings.js);
// - `anyAngle`: how its path leaves the grid moves, for the any-angle warning;
// - `agentNote`: what "expanded" counts for its walking agent, in compare mode;
// - `counts`: for an algorithm whose "expanded" and "open" read-outs count something else, their
//   labels and what they count (`{ expanded: [label, title], open: [label, title] }`);
// - `head(info, g, num)`: why the expanded cell came first, for the step narration.
// The text is plain: it is shown with textContent, never as HTML.

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

/** The first lines of JPS+ and pruned JPS+: the table built ahead, then A*'s loop over jump points. */
const JPS_PLUS_START = [
  ['table', 'ahead of time: for every cell and each of 8 directions, store the moves to the next jump point (or, negative, to the wall)'],
  ['init', 'open ← {start};  g(start) ← 0'],
  ['loop', 'while open is not empty:'],
  ['pop', '  n ← the jump point in open with the lowest f = g + w·h'],
];

/** JPS+'s (and pruned JPS+'s) highlight: the table at step 0; an expansion lights `expanding`, and 'open' when it opened a node. */
function jpsPlusStep(expanding) {
  return (facts) => {
    if (facts.steps === 0) return ['table', 'init'];
    if (facts.kind === 'found' || facts.status === 'found') return ['pop', 'goal'];
    if (facts.kind === 'no-path' || facts.status === 'no-path') return ['loop', 'nopath'];
    if (facts.kind === 'expanded') return facts.opened ? [...expanding, 'open'] : expanding;
    return ['loop'];
  };
}

/** Agents: a step is a move unless it ended the walk. */
function agentStep(facts, moveTags) {
  if (facts.steps === 0) return ['init'];
  if (facts.status === 'found' || facts.kind === 'found') return ['done'];
  if (facts.status === 'no-path' || facts.kind === 'no-path') return ['stuck'];
  return moveTags;
}

/** What LRTA*'s and RTA*'s read-outs count: the look-aheads' cells, not an open list. */
const LOOKAHEAD_COUNTS = {
  expanded: ['Examined', "The cells whose moves the agent's look-aheads examined, over every move (one a move with look-ahead 1): it keeps no open list"],
  open: ['Last look', 'The cells the last look-ahead examined, besides the one the agent stands on'],
};
const LOOKAHEAD_NOTE = 'A walking agent: expanded counts the cells its look-aheads examined; moves are the cells it walked.';

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

/** The narration of an expansion ordered by f: "f = 34 = g 20 + h 14". */
function fHead(info, g, num, w) {
  return `: f = ${num(info.f)} = g ${num(g)} + ${w === 1 ? '' : `${num(w)} × `}h ${num(info.h)}`;
}

export const PSEUDOCODE = {
  astar: {
    title: 'A*',
    head: fHead,
    lines: ASTAR_LINES('the lowest f = g + w·h (tie: higher g, then first opened)'),
    active: bestFirst,
  },
  dijkstra: {
    title: 'Dijkstra',
    head: (_info, g, num) => `: g = ${num(g)}, the lowest on the open list`,
    lines: ASTAR_LINES('the lowest g (tie: first opened)'),
    active: bestFirst,
  },
  greedy: {
    title: 'Greedy best-first',
    caveat: 'Heads straight for the goal: fast, but the path may be far from the cheapest.',
    notOptimal: 'Greedy best-first orders the open list by h alone and ignores the cost so far, so it takes the first path that heads the right way, often not the cheapest.',
    head: (info, g, num) => `: h = ${num(info.h)}, the lowest on the open list (g ${num(g)})`,
    lines: ASTAR_LINES('the lowest h (tie: first opened); g is kept only for the path'),
    active: bestFirst,
  },
  template: {
    title: 'Build your own search (the skeleton)',
    caveat: 'Finds the cheapest path only as A* or Dijkstra: a priority list on costs with b ≤ a.',
    notOptimal: 'These plug-ins do not promise the cheapest path: only a priority list ordered by f = a·g + b·h on costs, with b ≤ a (A*, Dijkstra), does.',
    head: (info, g, num) => `: first on the open list (g ${num(g)}, h ${num(info.h)})`,
    lines: [
      ['init', 'open ← [start] (a queue, a stack or a priority list);  g(start) ← 0'],
      ['loop', 'while open is not empty:'],
      ['pop', '  n ← the next cell: front, top, or lowest f = a·g + b·h (tie: higher a·g, first opened)'],
      ['goal', '  if n is the goal: return the path, following parents back'],
      ['close', '  move n from open to closed'],
      ['each', '  for each neighbour m of n (closed too, if re-opening is on):'],
      ['cost', '    g′ ← g(n) + 1 if g counts edges, else g(n) + cost(n → m)'],
      ['open', '    if m is new (stack: or not closed): g(m) ← g′, parent(m) ← n, put m in open'],
      ['improve', '    else if g′ < g(m) (priority list, or re-opening): the same, a cheaper way'],
      ['nopath', 'return "no path"   (open ran empty)'],
    ],
    active: bestFirst,
  },
  bfs: {
    title: 'Breadth-first search',
    caveat: 'Fewest moves, not cheapest: diagonals and terrain cost more than one step.',
    head: (_info, g, num) => `: the front of the queue (g ${num(g)})`,
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
    caveat: 'Finds some path, usually a long one.',
    notOptimal: 'Depth-first search follows one branch as deep as it goes and stops at the first path it meets; that path is rarely the cheapest.',
    head: (_info, g, num) => `: the top of the stack (g ${num(g)})`,
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
    note: 'Two frontiers, from the start and from the goal; the star marks the best meeting so far.',
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
    note: 'Depth-first below an f threshold that rises each round; the dots are the recursion stack.',
    head: (info, g, num) => `: g ${num(g)}, f = ${num(info.f)} within the threshold, pushed on the stack`,
    counts: {
      expanded: ['Visits', 'IDA* keeps no open list: the visits that pushed a cell onto its stack, over every round'],
      open: ['Stack depth', 'The cells on the stack: the path being tried from the start'],
    },
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
    note: 'Each step pops a jump point and scans from it; dashed lines found nothing, solid ones ended on a jump point.',
    head: fHead,
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
    note: 'Jump distances are computed ahead for every cell and direction (shown when cells are large).',
    head: fHead,
    lines: [
      ...JPS_PLUS_START,
      ['goal', '  if n is the goal: return the path (filling in the straight runs)'],
      ['close', '  move n from open to closed'],
      ['dirs', '  for each direction d the pruning rules keep:'],
      ['target', '    if the goal is nearer along d than the stored distance: stop level with the goal'],
      ['read', '    else read the stored distance: a jump point j, or a wall (nothing)'],
      ['open', '    if j is new or cheaper that way: g(j), parent(j) ← n;  put j in open'],
      ['nopath', 'return "no path"'],
    ],
    active: jpsPlusStep(['pop', 'close', 'dirs', 'read']),
  },
  'jps-plus-pruned': {
    title: 'JPS+ with its diagonals pruned',
    note: 'As JPS+, but a diagonal scan is not stopped at its jump points: each one it passes is looked at on the spot, and what its straight scans find goes on the open list instead of it (about half the expansions). A jump point found that way keeps the expanded node as parent: its route goes diagonally first, then straight.',
    head: fHead,
    lines: [
      ...JPS_PLUS_START,
      ['goal', '  if n is the goal: return the path (filling in the diagonal and straight runs)'],
      ['close', '  move n from open to closed'],
      ['dirs', '  for each direction d the pruning rules keep, the goal\'s direction first:'],
      ['straight', '    straight d: the stored distance (or the goal, if nearer) gives a jump point j'],
      ['diagonal', '    diagonal d: walk its jump points c; at each, read the two straight directions of d from c'],
      ['seen', '    if the goal\'s direction reached the goal: it is n\'s only successor; stop looking'],
      ['open', '  for each j found: if j is new or cheaper that way: g(j), parent(j) ← n;  put j in open'],
      ['nopath', 'return "no path"'],
    ],
    active: jpsPlusStep(['pop', 'close', 'dirs', 'straight', 'diagonal']),
  },
  theta: {
    title: 'Theta* (any-angle)',
    note: 'Green lines: line-of-sight tests that passed; orange: blocked; pink: a node took its grandparent as parent.',
    anyAngle: 'Theta* joins cells by straight lines of sight instead of grid moves',
    head: fHead,
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
    note: 'Sight is assumed when a node is opened and checked only when it is expanded.',
    anyAngle: 'Lazy Theta* joins cells by straight lines of sight instead of grid moves',
    head: fHead,
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
    note: 'After A* finds a path, waypoints that can see past their neighbour are dropped (dashed: before).',
    anyAngle: "A* + smoothing straightens A*'s grid path afterwards, dropping corners that can see past each other",
    head: fHead,
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
    note: 'Paint walls after it has found the path: it repairs only the cells whose cost changed (ringed: g and rhs differ), and counts the repair against a fresh A*.',
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
    note: 'Plans from the goal back to the agent; the agent walks, sees walls within its sensor box and repairs its plan. Paint walls in its way while it walks.',
    agentNote: "A walking agent: expanded counts its planner's expansions; moves are the cells it walked.",
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
    note: 'The agent looks ahead, moves one cell and raises the estimate of the cell it left; the heat map is the learned h. Dead ends fill up until it walks out.',
    caveat: 'Complete on finite maps and keeps h admissible, but the walk is not the cheapest path.',
    counts: LOOKAHEAD_COUNTS,
    notOptimal: 'LRTA* is an agent that picks one move at a time from a small look-ahead; the walk, with its detours and returns, is not the cheapest path.',
    agentNote: LOOKAHEAD_NOTE,
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
    note: 'Like LRTA*, but it stores the second-best estimate, so it leaves dead ends sooner; the learned h may overestimate.',
    caveat: 'Reaches the goal on finite maps; the walk is not the cheapest path.',
    counts: LOOKAHEAD_COUNTS,
    notOptimal: 'RTA* is an agent that picks one move at a time from a small look-ahead; the walk, with its detours and returns, is not the cheapest path.',
    agentNote: LOOKAHEAD_NOTE,
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
    note: 'Heads straight for the goal; at an obstacle it follows the wall with one hand until the way is clear. It sees nothing ahead, so a C-shaped obstacle traps it.',
    caveat: 'Not a planner: no guarantee of reaching the goal at all.',
    notOptimal: 'Crash and turn does not plan: it heads for the goal and follows walls by hand, so the walk can be far from the cheapest, and it may never arrive.',
    agentNote: 'A walking agent that plans nothing: expanded counts its moves.',
    counts: {
      expanded: ['Moves', 'The cells the agent has walked: it plans nothing, so it expands nothing'],
      open: ['Open (none)', 'Crash and turn keeps no open list: always 0'],
    },
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
  explorer: {
    title: 'Human-like explorer (compass and memory)',
    note: 'Heads for the goal, takes the untried way that points most nearly at it, and walks back to the last junction (green diamonds) from a dead end. Blue crosses are the walls it has seen; the box is what it sees.',
    caveat: 'Finds the goal whenever it can be reached, but walks into dead ends on the way: not the cheapest path.',
    notOptimal: 'The explorer sees only near it and tries ways in compass order; its walk includes every dead end it backed out of, so it is not the cheapest path.',
    agentNote: 'A walking agent that plans nothing: expanded counts its moves, forward and back.',
    counts: {
      expanded: ['Moves', 'The moves the explorer has made, forward and back: it plans nothing, so it expands nothing'],
      open: ['Open (none)', 'The explorer keeps no open list: always 0'],
    },
    lines: [
      ['init', 'stand on the start; look around and remember what is seen'],
      ['loop', 'while not on the goal:'],
      ['pick', '  untried ways: moves to seen free cells not yet stood on'],
      ['head', '  if there are any: take the one pointing most nearly at the goal'],
      ['remember', '    (ties: N, E, S, W, NE, SE, SW, NW); add the cell to the way back'],
      ['back', '  else, a dead end: step back one cell along the way back'],
      ['junction', '    and again next step, until a junction still has an untried way'],
      ['look', '  after each move: note every cell within the sensor radius, free or wall'],
      ['done', 'on the goal: the walk, dead ends and all, is the path'],
      ['stuck', 'back on the start with nothing untried: "no path"'],
    ],
    active: (facts) =>
      agentStep(facts, facts.fresh ? ['loop', 'pick', 'head', 'remember', 'look'] : ['loop', 'pick', 'back', 'junction', 'look']),
  },
  hpa: {
    title: 'Hierarchical A* (clusters)',
    note: 'Boxes are clusters, diamonds their entrances; it searches the graph of entrances, then refines each abstract edge inside its cluster.',
    caveat: 'Near-optimal: the path bends through cluster entrances; the overlay compares it with flat A*.',
    notOptimal: 'Hierarchical A* plans between cluster entrances and then refines each leg, so the path bends through the entrances and can cost a little more than the cheapest.',
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

/** The read-outs' usual labels: what a best-first search counts. */
const COUNTS = {
  expanded: ['Expanded', 'Cells taken off the open list and expanded'],
  open: ['Open', 'Cells on the open list'],
};

/**
 * The labels and titles of the "expanded" and "open" read-outs for `algo`:
 * `{ expanded: [label, title], open: [label, title] }` (IDA* counts visits and its stack; the
 * walking agents their moves and look-aheads).
 */
export function countLabels(algo) {
  return { ...COUNTS, ...PSEUDOCODE[algo]?.counts };
}

/** The pseudocode of `algo`, or a generic best-first search for names it does not know. */
export function pseudocodeFor(algo) {
  return PSEUDOCODE[algo] ?? { title: algo, lines: ASTAR_LINES('the lowest key'), active: bestFirst };
}

/**
 * Why the expanded cell came first, as the step narration continues "Step 3: expanded (2,1)"
 * (": f = 34 = g 20 + h 14"); empty for the algorithms that say nothing more. `info` is the
 * cell's read-out (h and f), `g` its cost, `w` the weight, `num` how numbers are written.
 */
export function expandedHead(algo, info, g, w, num) {
  return PSEUDOCODE[algo]?.head?.(info, g, num, w) ?? '';
}

/**
 * The note under the settings for `s` (a Lab's settings: algo, optimal, admissible,
 * heuristic, weight, any_angle): whether it finds a cheapest path and, if not, why; then what
 * the algorithm's overlay shows.
 */
export function settingsNote(s) {
  const words = PSEUDOCODE[s.algo];
  let note;
  if (s.optimal) note = 'Finds a cheapest path.';
  else if (s.algo === 'astar' && !s.admissible) {
    note = `The ${s.heuristic} estimate can be too high with these moves and costs, so A* may miss the cheapest path.`;
  } else if (s.algo === 'astar') note = `Weight ${s.weight} trades path cost for fewer expansions: the path may cost up to ${s.weight}× the cheapest.`;
  else if (words?.caveat) note = words.caveat;
  else if (s.any_angle) note = 'Any-angle: the path may leave the grid moves, so it can be shorter than the cheapest grid path.';
  else note = '';
  if (words?.note) note = `${note} ${words.note}`.trim();
  return note;
}
