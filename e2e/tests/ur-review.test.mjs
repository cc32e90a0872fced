// The Ur game review with a solved table: the 3-piece Finkel game is solved by `madang ur solve`
// into the server's data directory before it starts (a second; the full table is not needed).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESKTOP, gameState, madang, newPage, openSetup, playToEnd, screenshot, suite } from '../lib.mjs';

const env = suite({
  prepare: async (dataDir) => {
    await madang(['ur', 'solve', '--rules', '{"pieces":3}', '--data-dir', dataDir, '--threads', '1']);
  },
});

test('the board shows the winning chance, and the end screen reviews every move', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  await openSetup(page, env.server.url, 'ur', 7);
  await page.locator('details.options summary').click();
  await page.locator('#opt-pieces').fill('3');
  await page.locator('#start').click();
  await page.locator('#board .legal').first().waitFor();
  const id = /#\/play\/([0-9a-f]+)/.exec(page.url())[1];
  const state = await page.evaluate(async (gameId) => (await fetch(`/api/games/${gameId}`)).json(), id);
  assert.deepEqual(state.rules, { pieces: 3 });
  assert.equal(typeof state.win_chance, 'number');
  // The meter says light's chance in percent with one decimal, as the state gives it.
  const shown = await page.locator('#win-chance').getAttribute('aria-valuenow');
  assert.equal(shown, (state.win_chance * 100).toFixed(1));

  // Play badly on purpose (always the last highlighted move) so that the review has grades.
  await playToEnd(page, { choose: (actions) => actions.length - 1 });
  await page.locator('#review-graph').waitFor();
  const review = await page.evaluate(async (gameId) => (await fetch(`/api/games/${gameId}/review`)).json(), id);
  // One column per decision, and the graph's columns are as tall as light's chance after it.
  const heights = await page.locator('#review-graph .ur-graph-col').evaluateAll((els) => els.map((e) => e.style.height));
  assert.equal(heights.length, review.moves.length);
  heights.forEach((height, i) => {
    const want = Math.max(1, review.moves[i].after * 100);
    assert.ok(Math.abs(parseFloat(height) - want) < 1e-3, `column ${i}: ${height}, light's chance ${want} %`);
  });
  // The list shows every decision that had a choice, each with its grade.
  const listed = await page.locator('#review-moves li').evaluateAll((els) => els.map((e) => e.dataset.grade));
  assert.deepEqual(listed, review.moves.filter((m) => m.choices > 1).map((m) => m.grade));
  // The summary counts of the person's seat match the review's.
  for (const grade of ['best', 'good', 'inaccuracy', 'mistake', 'blunder']) {
    const cell = await page.locator(`.ur-review-summary td[data-seat="light"][data-col="${grade}"]`).textContent();
    assert.equal(cell, String(review.summary.light[grade]));
  }
  // On a phone (390 × 844) the summary fits its box: every column readable without scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  const fit = await page.locator('.ur-review .table-scroll').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  assert.ok(fit.scroll <= fit.client, `the review table is ${fit.scroll}px wide in ${fit.client}px`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390);
  await screenshot(page, 'ur-review-phone');
  await page.setViewportSize(DESKTOP);
  // Every non-best move gave something away.
  assert.ok(review.moves.every((m) => (m.grade === 'best') === (m.loss < review.thresholds.best)));
  await page.locator('.ur-review-details summary').click();
  await screenshot(page, 'ur-review');
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
