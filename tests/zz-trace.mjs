import { start } from './support/browser.mjs';
const env = await start();
const url = process.env.U ?? 'index.html?map=maze-small&algo=astar';
// warm once
let p = await env.browser.newPage({ viewport: { width: 1400, height: 1000 } });
await p.goto(env.base + url); await p.waitForTimeout(1000); await p.close();
p = await env.browser.newPage({ viewport: { width: 1400, height: 1000 } });
await p.goto(env.base + url); await p.waitForTimeout(2500);
await env.browser.startTracing(p, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'cc', 'viz'] });
await p.waitForTimeout(2000);
const buf = await env.browser.stopTracing();
const ev = JSON.parse(buf.toString()).traceEvents;
// main thread of renderer: find thread with most 'ParseHTML'/'Layout'
const byTid = {};
for (const e of ev) if (e.ph === 'X' && e.dur) { const k = `${e.pid}:${e.tid}`; (byTid[k] ??= []).push(e); }
const names = {};
for (const e of ev) if (e.ph === 'M' && e.name === 'thread_name') names[`${e.pid}:${e.tid}`] = e.args.name;
for (const [k, list] of Object.entries(byTid)) {
  // self time approx: sum of top-level durations per name (exclude nested by only counting events not contained in another event of same thread)
  list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const top = []; let end = -1;
  for (const e of list) { if (e.ts >= end) { top.push(e); end = e.ts + e.dur; } }
  const total = top.reduce((s, e) => s + e.dur, 0) / 1000;
  if (total < 30) continue;
  const agg = {};
  for (const e of list) agg[e.name] = (agg[e.name] ?? 0) + e.dur / 1000;
  const topNames = Object.entries(agg).sort((a, b) => b[1] - a[1]).slice(0, 14).map(([n, d]) => `${n}:${d.toFixed(0)}`).join(' ');
  console.log(`${names[k] ?? k} busy ${total.toFixed(0)} ms | ${topNames}`);
}
await env.close();
