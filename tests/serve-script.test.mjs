// ./scripts/serve.sh (setup, the wasm build, the server) with CARGO_TARGET_DIR set, as many
// machines have it: the modules wasm-bindgen is handed must be the ones cargo wrote, under
// $CARGO_TARGET_DIR, and the build must say what it is doing while it runs. No real build: the
// scripts run in a scratch copy of the repository with stand-ins for cargo, rustup,
// wasm-bindgen, wasm-opt and node first on the PATH, each writing down how it was called.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './support/browser.mjs';

const MODULES = ['pathlab_wasm', 'pathlab_searches', 'pathlab_world', 'pathlab_crowd', 'pathlab_spaces'];
/** The crates cargo builds (pathlab_searches is pathlab-wasm with its default feature). */
const CRATES = ['pathlab-wasm', 'pathlab-world', 'pathlab-crowd', 'pathlab-spaces'];
const BINDGEN = '0.2.99';

/** A stand-in command: appends one line (its arguments, tab-separated) to LOG/NAME, then runs `body`. */
function stub(bin, log, name, body = '') {
  const file = join(bin, name);
  writeFileSync(file, `#!/bin/sh\nprintf '%s\\t' "$@" >> "${join(log, name)}"; echo >> "${join(log, name)}"\n${body}\nexit 0\n`);
  chmodSync(file, 0o755);
}

/** The calls a stand-in recorded, each as its list of arguments. */
function calls(log, name) {
  const file = join(log, name);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => line.replace(/\t$/, '').split('\t'));
}

/** Runs scripts/serve.sh in `repo` with the stand-ins first on the PATH and `env` added. */
function serveSh(work, env) {
  return spawnSync('bash', [join(work.repo, 'scripts', 'serve.sh')], {
    cwd: work.repo,
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: `${work.bin}:/usr/bin:/bin`, HOME: work.dir, PORT: '8123', ...env },
  });
}

describe('scripts/serve.sh with CARGO_TARGET_DIR set', () => {
  const work = {};
  before(() => {
    work.dir = mkdtempSync(join(tmpdir(), 'pathlab-serve-sh-'));
    work.repo = join(work.dir, 'repo');
    work.bin = join(work.dir, 'bin');
    work.log = join(work.dir, 'log');
    for (const d of [work.bin, work.log, join(work.repo, 'scripts'), join(work.repo, 'maps'), join(work.repo, 'lessons'), join(work.repo, 'www'), join(work.repo, 'node_modules', 'playwright-core'), join(work.repo, 'node_modules', '.bin')]) {
      mkdirSync(d, { recursive: true });
    }
    for (const s of ['serve.sh', 'setup.sh', 'build-wasm.sh']) copyFileSync(join(ROOT, 'scripts', s), join(work.repo, 'scripts', s));
    writeFileSync(join(work.repo, 'Cargo.lock'), `[[package]]\nname = "wasm-bindgen"\nversion = "${BINDGEN}"\n`);
    writeFileSync(join(work.repo, 'maps', 'presets.json'), '[]');
    // npm's packages are in place and newer than the lock file: setup.sh leaves them.
    writeFileSync(join(work.repo, 'package-lock.json'), '{}');
    utimesSync(join(work.repo, 'package-lock.json'), new Date(2000, 0, 1), new Date(2000, 0, 1));
    writeFileSync(join(work.repo, 'node_modules', '.package-lock.json'), '{}');
    stub(join(work.repo, 'node_modules', '.bin'), work.log, 'tsc');
    // rustup: the wasm target is installed.
    stub(work.bin, work.log, 'rustup', 'echo wasm32-unknown-unknown');
    // cargo: records the build and writes pathlab_wasm.wasm, which build-wasm.sh copies to
    // pathlab_searches.wasm between its two builds of pathlab-wasm.
    stub(work.bin, work.log, 'cargo', `echo "CARGO_TARGET_DIR=$CARGO_TARGET_DIR" >> "${join(work.log, 'cargo-env')}"
release="\${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release"; mkdir -p "$release"; echo wasm > "$release/pathlab_wasm.wasm"`);
    // wasm-bindgen: the version Cargo.lock pins; a build writes the module's _bg.wasm.
    stub(work.bin, work.log, 'wasm-bindgen', `
if [ "$1" = --version ]; then echo "wasm-bindgen ${BINDGEN}"; exit 0; fi
out=""; while [ $# -gt 0 ]; do [ "$1" = --out-dir ] && out="$2"; last="$1"; shift; done
mkdir -p "$out"; name=$(basename "$last" .wasm); echo wasm > "$out/\${name}_bg.wasm"`);
    // wasm-opt (the npm one, where build-wasm.sh looks first): binaryen 132; writes its -o file.
    stub(join(work.repo, 'node_modules', '.bin'), work.log, 'wasm-opt', `
if [ "$1" = --version ]; then echo "wasm-opt version 132 (version_132)"; exit 0; fi
while [ $# -gt 0 ]; do [ "$1" = -o ] && echo opt > "$2"; shift; done`);
    // node: the server is not started, only asked for.
    stub(work.bin, work.log, 'node');
    // Should setup.sh want Debian packages (a machine without Chromium), nothing is installed.
    stub(work.bin, work.log, 'apt-get');
    stub(work.bin, work.log, 'sudo');
  });
  after(() => rmSync(work.dir, { recursive: true, force: true }));

  test('hands wasm-bindgen the modules under $CARGO_TARGET_DIR, prints progress and starts the server', () => {
    const target = join(work.dir, 'elsewhere', 'cargo-target');
    const run = serveSh(work, { CARGO_TARGET_DIR: target });
    assert.equal(run.status, 0, `serve.sh failed:\n${run.stdout}\n${run.stderr}`);

    const builds = calls(work.log, 'cargo').filter((args) => args[0] === 'build');
    assert.equal(builds.length, 2, 'two cargo builds: every module, then pathlab-wasm without its default feature');
    for (const c of CRATES) assert.ok(builds[0].includes(c), `cargo builds ${c}`);
    assert.ok(builds[1].includes('pathlab-wasm') && builds[1].includes('--no-default-features'), 'the first module: pathlab-wasm without every search');
    assert.deepEqual(readFileSync(join(work.log, 'cargo-env'), 'utf8').trim().split('\n'), [`CARGO_TARGET_DIR=${target}`, `CARGO_TARGET_DIR=${target}`]);

    const bound = calls(work.log, 'wasm-bindgen').filter((args) => args[0] !== '--version').map((args) => args.at(-1));
    assert.deepEqual(bound, MODULES.map((m) => `${target}/wasm32-unknown-unknown/release/${m}.wasm`));

    // Progress: a line before the long compile, one per module before its bindings and
    // optimisation, and one at the end; none of them left to cargo's own output.
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('[build]'));
    assert.match(lines[0] ?? '', /compiling/, run.stderr);
    for (const m of MODULES) assert.ok(lines.some((l) => l.includes(m)), `a progress line names ${m}:\n${run.stderr}`);
    assert.match(lines.at(-1) ?? '', /ready/);
    assert.equal(calls(work.log, 'wasm-opt').filter((args) => args[0] !== '--version').length, MODULES.length, 'each module optimised');
    for (const m of MODULES) assert.ok(existsSync(join(work.repo, 'www', 'pkg', `${m}_bg.wasm`)), `www/pkg/${m}_bg.wasm`);
    assert.ok(existsSync(join(work.repo, 'www', 'maps', 'presets.json')), 'the preset maps copied to www/maps');

    assert.deepEqual(calls(work.log, 'node').at(-1), ['scripts/serve.mjs', '--port', '8123', '--root', 'www']);
  });

  test('without CARGO_TARGET_DIR the modules come from target/ in the repository', () => {
    rmSync(join(work.log, 'wasm-bindgen'), { force: true });
    const run = serveSh(work, {});
    assert.equal(run.status, 0, `serve.sh failed:\n${run.stdout}\n${run.stderr}`);
    const bound = calls(work.log, 'wasm-bindgen').filter((args) => args[0] !== '--version').map((args) => args.at(-1));
    assert.deepEqual(bound, MODULES.map((m) => `target/wasm32-unknown-unknown/release/${m}.wasm`));
  });
});
