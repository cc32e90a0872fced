// Ur with a solved table: the 3-piece Finkel game is solved by `madang ur solve` into the server's
// data directory before it starts (a second; the full table is not needed). The board shows
// light's winning chance, and the perfect computer is offered exactly for the solved rules. The
// game review of every game, exact with this table, is tests/review.test.mjs.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESKTOP, clickMove, gameState, madang, newPage, openSetup, startThreePieceUr, ready, screenshot, suite } from '../lib.mjs';

const env = suite({
  prepare: async (dataDir) => {
    await madang(['ur', 'solve', '--rules', '{"pieces":3}', '--data-dir', dataDir, '--threads', '1']);
  },
});

test('the board shows light’s winning chance from the table, move after move', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  await startThreePieceUr(page, env.server.url, 7);
  /** The meter says light's chance in percent with one decimal, as the state gives it. */
  const meterMatches = async () => {
    const state = await gameState(page);
    await page.waitForFunction((v) => document.getElementById('view')?.dataset.version === String(v), state.version);
    assert.equal(typeof state.win_chance, 'number');
    const shown = await page.locator('#win-chance').getAttribute('aria-valuenow');
    assert.equal(shown, (state.win_chance * 100).toFixed(1));
    return state;
  };
  const state = await meterMatches();
  assert.deepEqual(state.rules, { pieces: 3 });
  // Still true after a few moves.
  for (let i = 0; i < 3; i++) {
    await ready(page);
    if (await page.locator('#result').isVisible()) break;
    await clickMove(page, page.locator('#board .legal').first());
    if (!(await page.locator('#result').isVisible())) await meterMatches();
  }
  await screenshot(page, 'ur-win-chance');
  check();
  await context.close();
});

test('the set-up offers the perfect computer exactly for the rules the server has a table for', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  await openSetup(page, env.server.url, 'ur', 8);
  const solved = await page.evaluate(async () => (await (await fetch('/api/catalogue')).json()).games.find((g) => g.game === 'ur').solved);
  assert.deepEqual(solved, [{ preset: 'finkel', pieces: 3 }]);
  const levels = () => page.locator('#level option').evaluateAll((els) => els.map((e) => e.getAttribute('value')));
  // The default rules (7 pieces) have no table here.
  assert.deepEqual(await levels(), ['easy', 'normal', 'hard']);
  await page.locator('details.options summary').click();
  await page.locator('#opt-pieces').fill('3');
  assert.deepEqual(await levels(), ['easy', 'normal', 'hard', 'perfect']);
  // Other rules with 3 pieces are not the table's.
  await page.locator('#opt-capture_extra_roll').selectOption('true');
  assert.deepEqual(await levels(), ['easy', 'normal', 'hard']);
  await page.locator('#opt-capture_extra_roll').selectOption('');
  await page.locator('#level').selectOption('perfect');
  await page.locator('#start').click();
  await page.locator('#board .legal').first().waitFor();
  const state = await gameState(page);
  assert.deepEqual(state.rules, { pieces: 3 });
  assert.deepEqual(state.seats.map((s) => s.level), [null, 'perfect']);
  check();
  await context.close();
});

test("a room's lobby offers the perfect computer for an open seat exactly when the rules are solved", async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  /** The levels the host may give the open seat `dark`, in a new room with these pieces. */
  const lobbyLevels = async (pieces) => {
    await page.goto(`${env.server.url}?pace=0#/setup/ur/room`);
    if (pieces !== 7) {
      await page.locator('details.options summary').click();
      await page.locator('#opt-pieces').fill(String(pieces));
    }
    await page.locator('#start').click();
    const select = page.locator('select[data-cpu-seat="dark"]');
    await select.waitFor();
    return select.locator('option').evaluateAll((els) => els.map((e) => e.getAttribute('value')));
  };
  // '' is "open seat"; the table here solves the 3-piece game only (see `suite` above).
  assert.deepEqual(await lobbyLevels(7), ['', 'easy', 'normal', 'hard']);
  assert.deepEqual(await lobbyLevels(3), ['', 'easy', 'normal', 'hard', 'perfect']);
  await page.locator('select[data-cpu-seat="dark"]').selectOption('perfect');
  const code = /#\/room\/([A-Z0-9]{6})$/.exec(page.url())[1];
  await page.waitForFunction(
    async (c) => (await (await fetch(`/api/rooms/${c}`)).json()).room.seats[1].level === 'perfect',
    code,
  );
  check();
  await context.close();
});
