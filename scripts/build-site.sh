#!/usr/bin/env bash
# Builds Pathlab's pages into a self-contained static folder (default dist/) that any static
# web server can serve, from any path: a course's web space, GitHub Pages, a university
# server. Every address inside the pages is relative, so the folder can be renamed or put
# under any directory.
#
#   ./scripts/build-site.sh [DIR]             set up, build the wasm modules, copy the site
#   ./scripts/build-site.sh --prebuilt [DIR]  copy what www/ holds now (after build-wasm.sh)
#
# DIR is emptied first, but only when it is empty or was made by this script (it holds the
# marker file .pathlab-site), so a wrong argument never wipes someone's folder.
set -euo pipefail
cd "$(dirname "$0")/.."

prebuilt=0
if [ "${1:-}" = "--prebuilt" ]; then
  prebuilt=1
  shift
fi
out="${1:-dist}"
marker=.pathlab-site

if [ -e "$out" ] && [ ! -d "$out" ]; then
  echo "[site] $out exists and is not a folder; choose another place" >&2
  exit 2
fi
if [ -d "$out" ] && [ -n "$(ls -A "$out")" ] && [ ! -e "$out/$marker" ]; then
  echo "[site] $out is not empty and was not made by build-site.sh; choose an empty or new folder" >&2
  exit 2
fi

if [ "$prebuilt" = 0 ]; then
  ./scripts/setup.sh
  ./scripts/build-wasm.sh
fi
for needed in www/pkg/pathlab_wasm.js www/maps/presets.json www/lessons; do
  if [ ! -e "$needed" ]; then
    echo "[site] $needed is missing: run ./scripts/build-wasm.sh first (or leave out --prebuilt)" >&2
    exit 2
  fi
done

echo "[site] copying the pages into $out" >&2
rm -rf "$out"
mkdir -p "$out"
# The pages, their styles and scripts; the type declarations are for the type check only.
find www -maxdepth 1 -type f ! -name '*.d.ts' -exec cp {} "$out/" \;
mkdir -p "$out/pkg"
cp www/pkg/*.js www/pkg/*_bg.wasm "$out/pkg/"
cp -r www/maps "$out/maps"
cp -r www/lessons "$out/lessons"
cat >"$out/$marker" <<EOF
Made by Pathlab's scripts/build-site.sh; the script may empty and refill this folder.
EOF
files=$(find "$out" -type f | wc -l)
size=$(du -sk "$out" | cut -f1)
echo "[site] $out is ready: $files files, ${size} KB. Copy the folder to any static web server;" >&2
echo "[site] try it here with: node scripts/serve.mjs --root $out" >&2
