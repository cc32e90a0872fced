// Ludo in the browser: a whole game against three computers played only by clicking highlighted
// pieces, the result screen and stats; the phone layout (tap areas, keyboard); leaving (played,
// neither won nor lost); Korean; animated play.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESKTOP, LANDSCAPE, LANDSCAPE_SMALL, PHONE, boxOf, gameState, newPage, openSetup, playToEnd, ready, screenshot, seed, statsRows, suite, throwIfAsked } from '../lib.mjs';
import messages from '../../crates/web/static/js/messages/ludo.js';

const env = suite();

/** A message with its `{name}` placeholders filled. */
const fill = (text, params) => text.replace(/\{(\w+)\}/g, (_, k) => String(params[k]));

/** The lowest action among the highlighted ones (a piece and its landing square share one). */
const lowest = (actions) => actions.indexOf([...actions].sort()[0]);

test('a whole game against three hard computers, won by clicking highlighted pieces; result and stats', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  await openSetup(page, env.server.url, 'ludo', 3);
  // Fixed seating, one mode: no seat or mode choice, only the level.
  assert.equal(await page.locator('input[name="mode"]').count(), 0);
  assert.equal(await page.locator('select[name^="seat-"]').count(), 0);
  assert.match(await page.locator('.setup').textContent(), /You play Red at the bottom/);
  await page.locator('#level').selectOption('hard');
  await page.locator('#start').click();
  await page.locator('#board .ludo-board').waitFor();
  const start = await gameState(page);
  assert.equal(start.game, 'ludo');
  assert.deepEqual(start.my_seats, ['0']);
  assert.deepEqual(
    start.seats.map((s) => [s.kind, s.level]),
    [['human', null], ['cpu', 'hard'], ['cpu', 'hard'], ['cpu', 'hard']],
  );
  // The board: 52 track squares (8 safe: 4 starts, 4 stars), 4 home columns of 5, 16 pieces.
  assert.equal(await page.locator('.ludo-sq[data-track]').count(), 52);
  assert.equal(await page.locator('.ludo-sq.safe').count(), 8);
  assert.equal(await page.locator('.ludo-sq.star').count(), 4);
  assert.equal(await page.locator('.ludo-sq.home').count(), 20);
  assert.equal(await page.locator('.ludo-piece').count(), 16);
  // The person rolls by tapping the die (spec ludo.md, "Interaction"): the server waits for the
  // tap, so nothing is rolled yet, the die is the only button on the board, and no roll is in
  // the log.
  assert.equal(start.version, 0);
  assert.deepEqual([start.to_move, start.to_act, start.last_chance], ['chance', '0', null]);
  assert.deepEqual(start.moves, [{ action: 'roll', seat: '0', kind: 'roll' }]);
  assert.deepEqual(await page.locator('#board .legal').evaluateAll((els) => els.map((e) => e.getAttribute('data-action'))), ['roll']);
  assert.equal(await page.locator('#board button').count(), 1);
  assert.equal(await page.locator('#board .roll-button').getAttribute('aria-label'), messages.en['ludo.tap_to_roll']);
  assert.equal(await page.locator('#log li').count(), 0);
  // Tapping rolls: the drawn roll is logged and shown. While no piece can move (all four are in
  // base until a 6), the pass notice says so after the tap and the die comes back for the next
  // turn; the first roll that can move lights exactly the state's moves.
  let state = start;
  let passes = 0;
  for (let turn = 0; state.to_move === 'chance'; turn++) {
    assert.ok(turn < 40, 'a 6 comes within 40 turns');
    const before = state.version;
    await throwIfAsked(page);
    state = await gameState(page);
    // The roll is the entry after the tap: "Red rolls N", then what it did.
    const line = (await page.locator(`#log li[value="${before + 1}"]`).textContent()) ?? '';
    const rolled = Number(new RegExp(`^${fill(messages.en['ludo.ev.roll'], { seat: messages.en['ludo.seat.0'], roll: '(\\d)' })}`).exec(line)?.[1]);
    assert.ok(rolled >= 1 && rolled <= 6, `Red's roll is logged: ${line}`);
    if (state.to_move === '0') {
      assert.equal(await page.locator('#roll-notice').isVisible(), false, 'a roll that can move needs no notice');
      break;
    }
    // The roll passed: the notice names it, in the words of the log.
    const notice = (await page.locator('#roll-notice').textContent()) ?? '';
    assert.ok(await page.locator('#roll-notice').isVisible(), 'the pass notice shows after the tap');
    assert.ok(notice.includes(fill(messages.en['ludo.ev.no_move'], { seat: messages.en['ludo.seat.0'], roll: rolled })), notice);
    passes++;
    // The computers played on: it is Red's roll again (or the game went on to Red's next roll).
    assert.equal(state.to_act, '0');
  }
  // This seed's first rolls are no 6: the page waited for each tap and showed the pass notice.
  assert.ok(passes >= 1, `a roll that passed: ${passes}`);
  const roll = Number(/^roll (\d)$/.exec(state.last_chance)[1]);
  assert.equal(roll, 6, 'only a 6 brings a piece out of base');
  const legalActions = await page.locator('#board .legal').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
  assert.deepEqual([...new Set(legalActions)].sort(), state.moves.map((m) => m.action).sort());
  assert.equal(await page.locator('#board button').count(), legalActions.length);
  // The die shows the roll the person is to move.
  assert.equal(await page.locator('.ludo-die .die').getAttribute('aria-label'), `die showing ${roll}`);
  await screenshot(page, 'ludo-desktop');

  const clicks = await playToEnd(page, { choose: lowest });
  assert.ok(clicks > 20, `a game of Ludo takes more than 20 moves, took ${clicks}`);
  const end = await gameState(page);
  assert.equal(end.status, 'finished');
  const winner = end.result.winner;
  assert.deepEqual(end.pieces[winner], [56, 56, 56, 56], 'the winner has all four pieces in the goal');
  // This seed and these choices win for the person (seat 0, Red).
  assert.equal(winner, '0');
  assert.equal(await page.locator('#result h2').textContent(), 'You won!');
  assert.equal(await page.locator('#result .result-line').textContent(), 'Red wins');
  // The figures: the winner's row first with 4/4 home, and the game's length.
  assert.match(await page.locator('.ludo-result tbody tr').first().textContent(), /^Red \(winner\)4\/4/);
  assert.equal(
    await page.locator('.ludo-length').textContent(),
    `${end.result.stats.rolls.toLocaleString('en-GB')} rolls in ${end.result.stats.turns.toLocaleString('en-GB')} turns`,
  );
  assert.equal(await page.locator('#seed').textContent(), end.seed);
  // No resignation in Ludo, and nothing left to click on the board.
  assert.equal(await page.locator('#resign').count(), 0);
  assert.equal(await page.locator('#board .legal').count(), 0);
  await screenshot(page, 'ludo-desktop-result');

  const rows = await statsRows(page, env.server.url);
  const row = rows.find((r) => r.game === 'Ludo');
  assert.ok(row, `a stats row for Ludo: ${JSON.stringify(rows)}`);
  assert.equal(row.mode, 'Against the computer · Hard');
  assert.deepEqual([row.played, row.won, row.lost, row.no_result], ['1', '1', '0', '0']);
  check();
  await context.close();
});

test('the phone layout: the board fits, tap areas of 44 px, keyboard play; leaving counts as played only', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  await openSetup(page, env.server.url, 'ludo', 12);
  await screenshot(page, 'ludo-setup-phone');
  await page.locator('#start').click();
  await ready(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `page is ${width}px wide at ${PHONE.width}px`);
  const board = await boxOf(page, '.ludo-board');
  assert.ok(board.width >= 320 && Math.abs(board.width - board.height) < 1, `board ${board.width}×${board.height}`);
  await screenshot(page, 'ludo-phone');

  // Play a few moves, then check the tap areas: every highlighted piece's area is at least
  // 44 px square, and larger than a square of the board.
  for (let i = 0; i < 6; i++) {
    await page.evaluate(() => {
      window.__lastLine = document.querySelector('#log')?.lastElementChild ?? null;
    });
    await page.locator('#board .legal').first().click();
    await page.waitForFunction(() => document.querySelector('#log')?.lastElementChild !== window.__lastLine);
    await ready(page);
  }
  const cell = board.width / 15;
  for (const box of await page.locator('#board .legal.hit-piece').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()))) {
    assert.ok(box.width >= 44 && box.height >= 44 && box.width > cell, `tap area ${box.width}×${box.height}, square ${cell}`);
  }
  await screenshot(page, 'ludo-phone-later');

  // Keyboard: Tab reaches a highlighted piece and Enter plays it.
  await page.evaluate(() => {
    window.__lastLine = document.querySelector('#log')?.lastElementChild ?? null;
  });
  await page.locator('#board .legal.hit-piece').first().focus();
  assert.equal(await page.locator('.ludo-piece.hot').count() + (await page.locator('.ludo-dest.hot').count()) >= 1, true);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#log')?.lastElementChild !== window.__lastLine);

  // Leaving ends the game unfinished: played, neither won nor lost.
  await ready(page);
  await page.locator('#leave').click();
  await page.locator('#leave').click();
  await page.locator('#result').waitFor();
  assert.equal(await page.locator('#result h2').textContent(), 'The game was left unfinished');
  const end = await gameState(page);
  assert.deepEqual(end.end, { reason: 'abandoned', by: '0' });
  const rows = await statsRows(page, env.server.url);
  const row = rows.find((r) => r.game === 'Ludo');
  assert.deepEqual([row.played, row.won, row.lost, row.no_result], ['1', '0', '0', '1']);
  check();
  await context.close();
});

test('a phone held sideways: the die beside the board, both on one screen, tap areas of 44 px', async () => {
  for (const [viewport, name] of [
    [LANDSCAPE, 'ludo-landscape'],
    [LANDSCAPE_SMALL, 'ludo-landscape-small'],
  ]) {
    const { page, check, context } = await newPage(env.browser, { viewport });
    await openSetup(page, env.server.url, 'ludo', 14);
    await page.locator('#start').click();
    await page.locator('#board .roll-button').waitFor();
    const board = await boxOf(page, '.ludo-board');
    const roll = await boxOf(page, '#board .roll-button');
    assert.ok(Math.abs(board.width - board.height) < 1 && board.width >= 300, `${name}: board ${board.width}×${board.height}`);
    assert.ok(roll.x >= board.x + board.width, `${name}: the die (x ${roll.x}) beside the board (right edge ${board.x + board.width})`);
    assert.ok(roll.width >= 44 && roll.height >= 44, `${name}: die button ${roll.width}×${roll.height}`);
    // Scrolled to the board, the board and the die are on screen together.
    const top = Math.min(board.y, roll.y);
    const bottom = Math.max(board.y + board.height, roll.y + roll.height);
    assert.ok(bottom - top <= viewport.height, `${name}: board and die span ${bottom - top}px of ${viewport.height}`);
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= viewport.width);
    await screenshot(page, name);
    // Rolled until a piece can move: every highlighted piece's and square's tap area is 44 px.
    await ready(page);
    const areas = await page.locator('#board .legal').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
    assert.ok(areas.length > 0, `${name}: a move to make`);
    for (const box of areas) assert.ok(box.width >= 44 && box.height >= 44, `${name}: tap area ${box.width}×${box.height}`);
    check();
    await context.close();
  }
});

test('in Korean: the board, the move log and the rules', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE, locale: 'ko-KR' });
  await page.goto(`${env.server.url}?pace=0&seed=${seed(7)}#/setup/ludo`);
  await page.locator('#start').click();
  await ready(page);
  for (let i = 0; i < 4; i++) {
    await page.evaluate(() => {
      window.__lastLine = document.querySelector('#log')?.lastElementChild ?? null;
    });
    await page.locator('#board .legal').first().click();
    await page.waitForFunction(() => document.querySelector('#log')?.lastElementChild !== window.__lastLine);
    await ready(page);
  }
  const log = await page.locator('#log').textContent();
  assert.match(log, /빨강: 주사위 \d/);
  assert.doesNotMatch(log, /seat \d|rolls|moves/, 'every engine event is translated');
  assert.match(await page.locator('.ludo-roll-text').textContent(), /^빨강: 주사위 \d$/);
  await screenshot(page, 'ludo-phone-ko');
  await page.goto(`${env.server.url}#/rules/ludo`);
  await page.locator('article.rules h2').first().waitFor();
  assert.match(await page.locator('article.rules').textContent(), /별 칸/);
  await screenshot(page, 'ludo-rules-phone-ko');
  check();
  await context.close();
});

test('with animations on, rolls and moves are drawn step by step without errors', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  const steps = [];
  page.on('request', (r) => {
    if (/\/steps\/\d+$/.test(r.url())) steps.push(r.url());
  });
  await page.goto(`${env.server.url}?pace=30&seed=${seed(3)}#/setup/ludo`);
  await page.locator('#start').click();
  // Nothing is rolled, animated or logged before the person's tap.
  await page.locator('#board .roll-button').waitFor();
  assert.equal((await gameState(page)).version, 0);
  assert.equal(steps.length, 0);
  await ready(page);
  for (let i = 0; i < 3; i++) {
    await page.evaluate(() => {
      window.__lastLine = document.querySelector('#log')?.lastElementChild ?? null;
    });
    await page.locator('#board .legal').first().click();
    await page.waitForFunction(() => document.querySelector('#log')?.lastElementChild !== window.__lastLine);
    await ready(page);
  }
  assert.ok(steps.length >= 6, `${steps.length} steps drawn`);
  check();
  await context.close();
});

test("a long game's move numbers stay inside the move log on a phone", async () => {
  // Ludo's logs reach well over a thousand entries. The log as the play page keeps it (its
  // items numbered by version, pages/play.js) with the real CSS and dom.js's `fitNumbers`: the
  // marker "1403. " must fit in the list's start padding, inside its border.
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  await page.goto(`${env.server.url}?pace=0#/`);
  const sizes = await page.evaluate(async () => {
    const { fitNumbers } = await import('/js/dom.js');
    const log = document.body.appendChild(document.createElement('ol'));
    log.className = 'log';
    for (const value of [1402, 1403]) {
      const li = log.appendChild(document.createElement('li'));
      li.value = value;
      li.textContent = 'Green moves piece 2: 54 → 56 (goal) · Green has all four pieces home and wins';
    }
    fitNumbers(log);
    const probe = document.body.appendChild(document.createElement('span'));
    probe.style.font = getComputedStyle(log).font;
    probe.style.whiteSpace = 'pre';
    probe.textContent = '1403. ';
    const marker = probe.getBoundingClientRect().width;
    const item = /** @type {HTMLElement} */ (log.lastElementChild);
    const room = item.getBoundingClientRect().left - log.getBoundingClientRect().left - log.clientLeft;
    return { marker, room };
  });
  assert.ok(sizes.room >= sizes.marker, `the number fits: ${JSON.stringify(sizes)}`);
  check();
  await context.close();
});
