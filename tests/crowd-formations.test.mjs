// Formations in real Chromium: the rigid block beside the squad held by fields
// (`scene=formation-tree`) and several squads at once (`scene=squads`) run from their URLs with
// their shape set by `p.ranks` and `p.files`; after the formations have passed their trees the
// metrics table equals an independent replay of the scene in Node through the wasm module (same
// seed, shape and steps), the block's shape error reads 0 and the squad has re-formed; bad
// ranks, files and member counts get their specific messages and fall back. Screenshots go to
// tests/artifacts/crowd-formations-*.png at 1366x768 and 1920x1080.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, openCrowd, screenshot, text, withBrowser } from './support/browser.mjs';
import { pause, replay, shownMetrics } from './support/crowd.mjs';

/** Pauses, runs the scene on to step `target` through the module, and shows it. */
async function runTo(page, target) {
  await pause(page);
  await page.evaluate((target) => {
    const s = window.crowdlab.scene;
    while (s.steps < target) s.step(Math.min(240, target - s.steps));
    window.crowdlab.app.showMetrics();
    window.crowdlab.app.touch();
  }, target);
  await nextFrame(page);
  await nextFrame(page);
}

describe('formations on the crowd page', () => {
  const env = withBrowser();

  test('formation-tree: the block keeps its shape, the squad re-forms, and the table equals a replay', async () => {
    for (const [size, query] of [
      [{ width: 1366, height: 768 }, 'scene=formation-tree&seed=4'],
      [{ width: 1920, height: 1080 }, 'scene=formation-tree&seed=4&p.ranks=10&p.files=10'],
    ]) {
      const page = await openCrowd(env, query, size);
      assert.equal(await text(page, 'message'), '', 'a good URL gives no message');
      const params = await page.evaluate(() => Object.fromEntries(window.crowdlab.scene.params().map((p) => [p.name, p.value])));
      const members = params.ranks * params.files;
      assert.equal(Number(await text(page, 'agents')), 2 * members);
      // Mid-way past the trees, for the picture; then on until both have passed them.
      await runTo(page, 560);
      await screenshot(page, `crowd-formations-tree-${size.width}`);
      await runTo(page, 1400);
      const shown = await shownMetrics(page);
      assert.deepEqual(shown, replay('formation-tree', undefined, 4, params, 1400), 'the table equals a replay in Node');
      assert.equal(shown.rigid_members, String(members));
      assert.equal(shown.field_members, String(members));
      assert.equal(shown.rigid_shape_error, '0', 'the block never left its shape');
      assert.ok(Number(shown.reforms) >= 1, `the squad broke and re-formed (${shown.reforms})`);
      assert.ok(Number(shown.reform_longest) > 0);
      assert.match(await text(page, 'step-ms'), /^\d+(\.\d+)?$/);
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  });

  test('squads: a crowd of squads of either kind runs from its URL and equals a replay', async () => {
    for (const method of ['rigid', 'field']) {
      const page = await openCrowd(env, `scene=squads&agents=96&seed=2&p.method=${method}`, { width: 1920, height: 1080 });
      assert.equal(await text(page, 'message'), '');
      assert.equal(Number(await text(page, 'agents')), 96);
      await runTo(page, 700);
      const shown = await shownMetrics(page);
      const params = await page.evaluate(() => Object.fromEntries(window.crowdlab.scene.params().map((p) => [p.name, p.value])));
      assert.deepEqual(shown, replay('squads', 96, 2, params, 700));
      assert.equal(shown.squads, '8');
      assert.equal(method === 'rigid' ? shown.rigid_members : shown.field_members, '96');
      await screenshot(page, `crowd-formations-squads-${method}`);
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  });

  test('bad ranks, files, member counts and names get their messages and fall back', async () => {
    const page = await openCrowd(env, 'scene=formation-tree&p.ranks=500&p.files=NaN&p.spacing=-1&p.tree=1&p.method=rigid');
    const message = await text(page, 'message');
    assert.match(message, /Parameter "p.ranks": ranks 500 is not a whole number from 1 to 10; using 10/);
    assert.match(message, /Parameter "p.files": expected a number or a choice's name, got "NaN"/);
    assert.match(message, /Parameter "p.spacing": spacing -1 is outside \[0.8, 2\]; using 0.8/);
    assert.match(message, /Parameter "p.tree": the formation-tree scene has no parameter "tree"/);
    assert.match(message, /Parameter "p.method": the formation-tree scene has no parameter "method"/);
    const params = await page.evaluate(() => Object.fromEntries(window.crowdlab.scene.params().map((p) => [p.name, p.value])));
    assert.equal(params.ranks, 10);
    assert.equal(params.files, 10, 'files keeps its default');
    assert.equal(Number(await text(page, 'agents')), 200);
    await page.close();

    const other = await openCrowd(env, 'scene=formations&agents=5000');
    assert.match(await text(other, 'message'), /Parameter "scene": unknown scene "formations"/);
    await other.close();
    const many = await openCrowd(env, 'scene=squads&agents=5000&p.method=phalanx&p.squads=2.5');
    const said = await text(many, 'message');
    assert.match(said, /Parameter "p.method": "phalanx" is not one of rigid, field/);
    assert.match(said, /squads 2.5 is not a whole number from 1 to 8; using 3/);
    assert.match(said, /takes \d+ agents when asked for 5000/);
    assert.equal(Number(await text(many, 'agents')), 36, 'three squads of 3 x 4');
    const s0 = Number(await text(many, 'steps'));
    await many.waitForFunction((s0) => Number(document.querySelector('[data-testid="steps"]').textContent) > s0, s0);
    assert.deepEqual([...many.errors, ...other.errors], []);
    await many.close();
  });
});
