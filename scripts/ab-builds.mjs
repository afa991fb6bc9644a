// What the A/B scripts share (astar-ab.mjs, boids-ab.mjs, boids-page-ab.mjs): their command
// line (directories of builds, `--name value` options) and the builds' copies under www/pkg/ab/,
// made for the run so the pages' server can reach them, and removed afterwards.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ROOT } from '../tests/support/browser.mjs';

const COPIES = join(ROOT, 'www', 'pkg', 'ab');

/** The command line's arguments; `option(name, fallback)` takes `--name value` out of them. */
export function commandLine() {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    if (i < 0) return fallback;
    const [, value] = args.splice(i, 2);
    return value;
  };
  return { args, option };
}

/**
 * The builds named by `dirs` (read once the options are taken out): each a directory holding
 * `file`, or `current` for www itself. Prints `usage` and exits when there are fewer than `least`
 * or one lacks the file. Copies each directory under www/pkg/ab/; returns `{ name, path }`
 * each, `path` being the URL of its `file` from www/ (`current`: `here`).
 */
export function copyBuilds(dirs, file, here, least, usage) {
  if (dirs.length < least || dirs.some((d) => d !== 'current' && !existsSync(join(d, file)))) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  removeCopies();
  return dirs.map((d, k) => {
    if (d === 'current') return { name: 'current', path: here };
    cpSync(d, join(COPIES, String(k)), { recursive: true });
    return { name: basename(d), path: `./pkg/ab/${k}/${file}` };
  });
}

/** Removes the builds' copies. */
export function removeCopies() {
  rmSync(COPIES, { recursive: true, force: true });
}
