// A small static file server for the page: sends .wasm as application/wasm and .mjs/.js as
// JavaScript. Usage: node scripts/serve.mjs [--port 8080] [--root www]
import { createServer } from 'node:http';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'text/plain; charset=utf-8',
  '.scen': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** True when `path` is `root` or below it, comparing whole path segments (so a sibling
 * folder whose name starts with the root's name is outside it). */
function inside(root, path) {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Starts serving `root` on `port` (0 picks a free one); resolves to the server. Serves only
 * files whose real path (links followed) is inside the root's real path. */
export async function serve(root, port = 8080, host = '127.0.0.1') {
  const base = await realpath(resolve(root));
  const refuse = () => Object.assign(new Error('outside root'), { code: 'ENOENT' });
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost');
      let path = normalize(join(base, decodeURIComponent(url.pathname)));
      if (!inside(base, path)) throw refuse();
      if ((await stat(path)).isDirectory()) path = join(path, 'index.html');
      // A link inside the root may point anywhere: serve what it leads to only when that is
      // inside the root too.
      path = await realpath(path);
      if (!inside(base, path)) throw refuse();
      const body = await readFile(path);
      res.writeHead(200, {
        'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  return new Promise((ok) => server.listen(port, host, () => ok(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const port = Number(arg('--port', process.env.PORT ?? 8080));
  const server = await serve(arg('--root', 'www'), port);
  console.log(`Pathlab is at http://localhost:${server.address().port}/`);
}
