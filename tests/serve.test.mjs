// The static server (scripts/serve.mjs) serves its root and nothing else: not a sibling folder
// whose name starts with the root's name, and not what a link inside the root points to
// outside it. No browser: plain HTTP requests with the path written byte for byte.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../scripts/serve.mjs';

/** GET `path` exactly as written (no URL normalisation); resolves to { status, body }. */
function get(port, path) {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => ok({ status: res.statusCode, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('the static server', () => {
  let dir;
  let server;
  let port;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pathlab-serve-'));
    mkdirSync(join(dir, 'www', 'sub'), { recursive: true });
    mkdirSync(join(dir, 'www-private'));
    writeFileSync(join(dir, 'www', 'index.html'), 'home');
    writeFileSync(join(dir, 'www', 'sub', 'page.txt'), 'inside');
    writeFileSync(join(dir, 'www-private', 'secret.txt'), 'secret');
    writeFileSync(join(dir, 'outside.txt'), 'outside');
    symlinkSync(join(dir, 'www-private'), join(dir, 'www', 'private-link'));
    symlinkSync(join(dir, 'outside.txt'), join(dir, 'www', 'file-link.txt'));
    symlinkSync(join(dir, 'www', 'sub', 'page.txt'), join(dir, 'www', 'inner-link.txt'));
    server = await serve(join(dir, 'www'), 0);
    port = server.address().port;
  });
  after(() => {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('serves the files of its root', async () => {
    assert.deepEqual(await get(port, '/'), { status: 200, body: 'home' });
    assert.deepEqual(await get(port, '/sub/page.txt'), { status: 200, body: 'inside' });
    assert.deepEqual(await get(port, '/inner-link.txt'), { status: 200, body: 'inside' }, 'a link that stays inside is followed');
  });

  test('refuses a sibling folder whose name starts with the root name', async () => {
    for (const path of ['/..%2fwww-private%2fsecret.txt', '/../www-private/secret.txt', '/%2e%2e/www-private/secret.txt']) {
      const { status, body } = await get(port, path);
      assert.equal(status, 404, path);
      assert.ok(!body.includes('secret'), path);
    }
  });

  test('refuses what a link inside the root points to outside it', async () => {
    for (const path of ['/private-link/secret.txt', '/file-link.txt']) {
      const { status, body } = await get(port, path);
      assert.equal(status, 404, path);
      assert.ok(!body.includes('secret') && !body.includes('outside'), path);
    }
  });
});
