#!/usr/bin/env node
// Pathlab's A* and JPS against Warthog (ShortestPathLab's C++ library, the reference
// implementation of JPS), on the same MovingAI problems, interleaved, with ratios.
//
//   node bench/warthog.mjs CORE_SRC [JPS_SRC] [--rounds 5] [--problems 500] [--maps dao/den520d,...]
//
// CORE_SRC is a source folder of warthog-core (its A*), JPS_SRC one of warthog-jps (jps, jps+,
// jps2, jps2+); the user fetches them. This script builds them with cmake into
// target/warthog/ (FetchContent disconnected: it never downloads anything), builds Pathlab's
// release CLI, and then, for one map per family of the MovingAI folder (PATHLAB_MOVINGAI, as the
// tests find it) or the maps named, runs `problems` problems spread evenly over the map's .scen
// file in every program, `rounds` times, alternating which program goes first.
//
// Both programs time each search alone (not the map load or the process start): Pathlab's
// `pathlab scen` prints micros per problem, Warthog nanos per problem. The table gives, per map,
// the total search time and expansions of each, ns per expansion, and the time ratio
// Pathlab / Warthog as the median (min to max) over the rounds, and as the ratio of the sums of
// each problem's fastest run over the rounds ("least", steadier under load). For JPS, each side's
// best variant on the map (the one with the least such sum) is compared (Pathlab's jps, jps-plus
// and jps-plus-pruned; Warthog's jps, jps2, jps+ and jps2+), and also jps against jps; the
// expansions of jps-plus-pruned are compared with jps2+'s, which prunes the same nodes. Costs are
// checked against the .scen optima on both sides (Pathlab's --check, Warthog's --checkopt). Never
// part of the test command.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TARGET = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(ROOT, 'target');

function usage(problem) {
  console.error(`bench/warthog.mjs: ${problem}
usage: node bench/warthog.mjs CORE_SRC [JPS_SRC] [--rounds N] [--problems N] [--maps family/name,...]`);
  process.exit(2);
}

const args = process.argv.slice(2);
const flags = { rounds: 5, problems: 500, maps: null };
const sources = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--rounds' || a === '--problems') {
    const n = Number(args[++i]);
    if (!Number.isInteger(n) || n < 1) usage(`${a} takes a whole number above 0`);
    flags[a.slice(2)] = n;
  } else if (a === '--maps') {
    flags.maps = (args[++i] ?? '').split(',').filter(Boolean);
  } else if (a.startsWith('--')) {
    usage(`unknown option ${a}`);
  } else {
    sources.push(resolve(a));
  }
}
if (sources.length < 1 || sources.length > 2) usage('give the warthog-core source folder, and optionally warthog-jps');
const [coreSrc, jpsSrc] = sources;
for (const src of sources) {
  if (!existsSync(join(src, 'CMakeLists.txt'))) usage(`${src} has no CMakeLists.txt: is it a Warthog source folder?`);
}

const MOVINGAI = process.env.PATHLAB_MOVINGAI ?? join(ROOT, '..', 'shared', 'maps', 'movingai');
if (!existsSync(MOVINGAI)) usage(`the MovingAI folder ${MOVINGAI} is missing (set PATHLAB_MOVINGAI)`);

/** One map per family (the first by name), or the maps named. */
function chooseMaps() {
  if (flags.maps) {
    return flags.maps.map((m) => {
      const map = join(MOVINGAI, m.endsWith('.map') ? m : `${m}.map`);
      if (!existsSync(map) || !existsSync(`${map}.scen`)) usage(`${map} or its .scen is missing`);
      return map;
    });
  }
  const maps = [];
  for (const family of readdirSync(MOVINGAI).sort()) {
    const dir = join(MOVINGAI, family);
    let names;
    try {
      names = readdirSync(dir).filter((f) => f.endsWith('.map') && existsSync(join(dir, `${f}.scen`))).sort();
    } catch {
      continue;
    }
    if (names.length) maps.push(join(dir, names[0]));
  }
  return maps;
}

const MAPS = chooseMaps();

/** Runs a command, echoing it; throws with its output when it fails. */
function run(cmd, argv, options = {}) {
  const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 28, ...options });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${argv.join(' ')} failed (${r.status}):\n${(r.stderr || '').slice(-2000)}`);
  }
  return r.stdout;
}

function cmakeBuild(src, build, extra = []) {
  console.error(`[warthog] building ${src} in ${build}`);
  run('cmake', ['-S', src, '-B', build, '-DCMAKE_BUILD_TYPE=Release', '-DFETCHCONTENT_FULLY_DISCONNECTED=ON', ...extra]);
  run('cmake', ['--build', build, '-j', '2']);
}

const built = join(TARGET, 'warthog');
mkdirSync(built, { recursive: true });
cmakeBuild(coreSrc, join(built, 'core'));
const warthog = join(built, 'core', 'warthog');
let warthogJps = null;
if (jpsSrc) {
  cmakeBuild(jpsSrc, join(built, 'jps'), [`-DFETCHCONTENT_SOURCE_DIR_WARTHOG-CORE=${coreSrc}`]);
  warthogJps = join(built, 'jps', 'warthog-jps');
}
console.error('[warthog] building pathlab (release)');
execFileSync('cargo', ['build', '--release', '-p', 'pathlab-cli'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
const pathlab = join(TARGET, 'release', 'pathlab');

/** A .scen file with `count` problems spread evenly over `scen`'s, written under target/warthog. */
function sample(scen, count) {
  const lines = readFileSync(scen, 'utf8').split('\n');
  const problems = lines.slice(1).filter((l) => l.trim() !== '');
  const picked = [];
  const n = Math.min(count, problems.length);
  for (let i = 0; i < n; i++) picked.push(problems[Math.floor((i * problems.length) / n)]);
  const out = join(built, `${scen.split('/').slice(-2).join('-')}.sample.scen`);
  writeFileSync(out, `${lines[0]}\n${picked.join('\n')}\n`);
  return out;
}

/** Pathlab: total search ns and expansions over the problems. */
function ours(algo, map, scen) {
  const out = run(pathlab, ['scen', map, scen, '--algo', algo, '--check']);
  let ns = 0;
  let expanded = 0;
  const each = [];
  for (const line of out.split('\n')) {
    if (!line) continue;
    const p = JSON.parse(line);
    ns += p.micros * 1000;
    expanded += p.expanded;
    each.push(p.micros * 1000);
  }
  return { ns, expanded, each };
}

/** Warthog: the same totals, from its tab-separated output. */
function theirs(program, alg, map, scen) {
  const out = run(program, ['--alg', alg, '--scen', scen, '--map', map, '--checkopt']);
  const rows = out.split('\n').filter((l) => /^\d+\t/.test(l));
  let ns = 0;
  let expanded = 0;
  const each = [];
  for (const row of rows) {
    const cells = row.split('\t');
    expanded += Number(cells[2]);
    ns += Number(cells[7]);
    each.push(Number(cells[7]));
  }
  return { ns, expanded, each };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs) => `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})`;
const geomean = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
/** The runs' time with each problem's fastest run over the rounds: a spike of load on this
 * shared machine then costs one problem one round, not a whole round. */
const leastSum = (runs) => runs[0].each.reduce((sum, _, i) => sum + Math.min(...runs.map((r) => r.each[i])), 0);

const OUR_JPS = ['jps', 'jps-plus', 'jps-plus-pruned'];
const THEIR_JPS = ['jps', 'jps2', 'jps+', 'jps2+'];
const rows = [];
for (const map of MAPS) {
  const scen = sample(`${map}.scen`, flags.problems);
  const name = map.slice(MOVINGAI.length + 1, -4);
  const runs = { astar: [], wastar: [], jps: {}, wjps: {} };
  for (const a of OUR_JPS) runs.jps[a] = [];
  for (const a of THEIR_JPS) runs.wjps[a] = [];
  for (let round = 0; round < flags.rounds; round++) {
    const pair = [() => runs.astar.push(ours('astar', map, scen)), () => runs.wastar.push(theirs(warthog, 'astar', map, scen))];
    if (warthogJps) {
      pair[0] = ((f) => () => { f(); for (const a of OUR_JPS) runs.jps[a].push(ours(a, map, scen)); })(pair[0]);
      pair[1] = ((f) => () => { f(); for (const a of THEIR_JPS) runs.wjps[a].push(theirs(warthogJps, a, map, scen)); })(pair[1]);
    }
    if (round % 2) pair.reverse();
    for (const f of pair) f();
  }
  const row = {
    map: name,
    astar: {
      ours_ns_per_expansion: median(runs.astar.map((r) => r.ns / r.expanded)),
      warthog_ns_per_expansion: median(runs.wastar.map((r) => r.ns / r.expanded)),
      expansions_ratio: runs.astar[0].expanded / runs.wastar[0].expanded,
      time_ratios: runs.astar.map((r, i) => r.ns / runs.wastar[i].ns),
      least_time_ratio: leastSum(runs.astar) / leastSum(runs.wastar),
    },
  };
  if (warthogJps) {
    const best = (table) => {
      const least = Object.entries(table).map(([alg, rs]) => [alg, leastSum(rs)]);
      return least.sort((a, b) => a[1] - b[1])[0][0];
    };
    const ourBest = best(runs.jps);
    const theirBest = best(runs.wjps);
    row.jps = {
      ours_best: ourBest,
      warthog_best: theirBest,
      best_time_ratios: runs.jps[ourBest].map((r, i) => r.ns / runs.wjps[theirBest][i].ns),
      best_least_time_ratio: leastSum(runs.jps[ourBest]) / leastSum(runs.wjps[theirBest]),
      jps_time_ratios: runs.jps.jps.map((r, i) => r.ns / runs.wjps.jps[i].ns),
      jps_expansions_ratio: runs.jps.jps[0].expanded / runs.wjps.jps[0].expanded,
      pruned_expansions_ratio: runs.jps['jps-plus-pruned'][0].expanded / runs.wjps['jps2+'][0].expanded,
    };
  }
  rows.push(row);
  const j = row.jps
    ? `  JPS best ${row.jps.ours_best}/${row.jps.warthog_best} ${spread(row.jps.best_time_ratios)}, least ${row.jps.best_least_time_ratio.toFixed(2)}, jps/jps ${spread(row.jps.jps_time_ratios)}, expansions jps-plus-pruned/jps2+ ${row.jps.pruned_expansions_ratio.toFixed(3)}`
    : '';
  console.log(
    `${name.padEnd(28)} A* ${row.astar.ours_ns_per_expansion.toFixed(0)} vs ${row.astar.warthog_ns_per_expansion.toFixed(0)} ns/exp, time ratio ${spread(row.astar.time_ratios)}, least ${row.astar.least_time_ratio.toFixed(2)}, expansions ${row.astar.expansions_ratio.toFixed(3)}${j}`,
  );
}
const summary = {
  problems: flags.problems,
  rounds: flags.rounds,
  astar_time_ratio_geomean: geomean(rows.map((r) => median(r.astar.time_ratios))),
  jps_best_time_ratio_geomean: warthogJps ? geomean(rows.map((r) => median(r.jps.best_time_ratios))) : null,
  astar_least_time_ratio_geomean: geomean(rows.map((r) => r.astar.least_time_ratio)),
  jps_best_least_time_ratio_geomean: warthogJps ? geomean(rows.map((r) => r.jps.best_least_time_ratio)) : null,
};
console.log(`\nA* time ratio Pathlab/Warthog, geomean of the maps' medians: ${summary.astar_time_ratio_geomean.toFixed(2)}, of each problem's least: ${summary.astar_least_time_ratio_geomean.toFixed(2)} (target <= 0.6)`);
if (warthogJps) console.log(`JPS best/best time ratio, geomean of the medians: ${summary.jps_best_time_ratio_geomean.toFixed(2)}, of each problem's least: ${summary.jps_best_least_time_ratio_geomean.toFixed(2)} (target <= 1.0, no family above 1.3)`);
mkdirSync(join(ROOT, 'tests', 'artifacts'), { recursive: true });
writeFileSync(join(ROOT, 'tests', 'artifacts', 'warthog.json'), `${JSON.stringify({ summary, rows }, null, 2)}\n`);
