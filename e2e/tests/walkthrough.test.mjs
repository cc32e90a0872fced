// What a new player hit (issue 22), each checked as that player meets it: a team's win is the
// player's win; every roll and throw of the person waits for their tap (Yut's ceremony and
// turns, an automatic setting); the computer's first moves are shown, not found done; the
// header names the computer while it plays; "play again" repeats the set-up and the set-up page
// keeps it; a Korean replay reads in words and explains a bad record; Ur's board fits a desktop
// screen lying across, and its exercises answer right and wrong.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESKTOP, PHONE, boxOf, clickMove, gameState, newPage, openSetup, playToEnd, ready, screenshot, seed, suite, throwIfAsked } from '../lib.mjs';
import app from '../../crates/web/static/js/messages/app.js';
import ludo from '../../crates/web/static/js/messages/ludo.js';
import yut from '../../crates/web/static/js/messages/yut.js';

const env = suite();

/** A message with its `{name}` placeholders filled. */
const fill = (text, params) => text.replace(/\{(\w+)\}/g, (_, k) => String(params[k]));

/**
 * The Yut set-up of a 2-against-2 team game (team-shared, one piece a side) with the person as
 * A1 and the computer (`hard`) in the three other seats.
 */
async function teamSetup(page, n, options = {}) {
  await openSetup(page, env.server.url, 'yut', n);
  // The individual or team choice comes first, above the seats, not in the collapsed options.
  assert.equal(await page.locator('#opt-mode').isVisible(), true, 'the mode is chosen first');
  assert.equal(await page.locator('details.options #opt-mode').count(), 0);
  await page.locator('#opt-mode').selectOption('team-shared');
  await page.locator('details.options summary').click();
  await page.locator('#opt-pieces').fill('1');
  await page.locator('select[name="seat-A2"]').selectOption('cpu');
  await page.locator('#level').selectOption('hard');
  if (options.start !== false) await page.locator('#start').click();
}

test('a team win is announced as the player’s win, in English and Korean', async () => {
  for (const [locale, won] of [
    ['en-GB', app.en['result.you_won']],
    ['ko-KR', app.ko['result.you_won']],
  ]) {
    const { page, check, context } = await newPage(env.browser, { viewport: PHONE, locale });
    // Seed 2 with these players and the first highlighted move each time: team A wins.
    await teamSetup(page, 2);
    await playToEnd(page);
    const end = await gameState(page);
    assert.deepEqual(end.my_seats, ['A1']);
    assert.equal(end.result.winner, 'A', 'this seed’s game is won by team A');
    assert.equal(end.seats.find((s) => s.name === 'A1').side, 'A');
    assert.equal(await page.locator('#result h2').textContent(), won);
    await screenshot(page, `walk-team-win-${locale}`);
    check();
    await context.close();
  }
});

test('Yut: the person throws in the ceremony and on every throw of their turn; automatic throws as a setting', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  await openSetup(page, env.server.url, 'yut', 4);
  await page.locator('#start').click();
  // The ceremony starts with A's (the person's) throw: nothing has been thrown yet.
  await page.locator('#board .roll-button').waitFor();
  let state = await gameState(page);
  assert.deepEqual([state.version, state.to_move, state.to_act, state.awaiting], [0, 'chance', 'A', 'throw']);
  assert.deepEqual(state.moves, [{ action: 'throw', seat: 'A', kind: 'throw' }]);
  assert.equal(await page.locator('#turn').textContent(), app.en['play.your_turn']);
  await throwIfAsked(page);
  const record = async () => page.evaluate(async (id) => (await fetch(`/api/games/${id}/record`)).json(), state.id);
  const first = await record();
  assert.match(first.actions[0], /^throw /, 'the tap threw A’s ceremony throw');
  assert.match(await page.locator('#log li').first().textContent(), /^Side A throws \w+ for the order/);
  // Through the ceremony (it ends with a slot pick) to A's own turns: each of A's throws waits
  // for the button, which the page shows as the only move.
  let turnThrows = 0;
  for (let i = 0; i < 300 && turnThrows < 3; i++) {
    await page.locator('#board .legal, #result:not([hidden])').first().waitFor();
    state = await gameState(page);
    if (state.status !== 'ongoing') break;
    const played = (await record()).actions;
    if (state.to_move === 'chance' && played.some((a) => a.startsWith('slot '))) {
      assert.equal(state.to_act, 'A');
      assert.deepEqual(await page.locator('#board .legal').evaluateAll((els) => els.map((e) => e.getAttribute('data-action'))), ['throw']);
      turnThrows++;
    }
    await clickMove(page, page.locator('#board .legal').first());
  }
  assert.ok(turnThrows >= 3, `the person threw during play: ${turnThrows}`);
  // The automatic setting: at A's next throw, ticking it throws for the person at once.
  for (let i = 0; i < 100 && (await page.locator('#board .roll-button').count()) === 0; i++) {
    await clickMove(page, page.locator('#board .legal').first());
  }
  assert.equal(await page.locator('#board .roll-button').count(), 1);
  const before = (await record()).actions.length;
  await page.locator('#auto-rolls').check();
  await page.waitForFunction(
    () => document.getElementById('result')?.hidden === false || (document.querySelector('#board .legal') !== null && document.querySelector('#board .roll-button') === null),
  );
  state = await gameState(page);
  assert.ok(state.status === 'finished' || state.to_move === 'A', `a decision of A's without a tap: ${state.to_move}`);
  assert.ok((await record()).actions.length > before, 'the throw was made automatically');
  check();
  await context.close();
});

test('when the computer goes first, its first moves are shown one by one, not found done', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  const steps = [];
  page.on('request', (r) => {
    const m = /\/steps\/(\d+)$/.exec(r.url());
    if (m) steps.push(Number(m[1]));
  });
  // Ur as dark: light (the computer) rolls and moves before the person's first roll.
  await page.goto(`${env.server.url}?pace=60&seed=${seed(6)}#/setup/ur`);
  await page.getByLabel('Dark').check();
  await page.locator('#start').click();
  await page.locator('#board .roll-button').waitFor();
  const state = await gameState(page);
  assert.equal(state.to_act, 'dark');
  assert.ok(state.version >= 1, 'light played first');
  // The page opened at the start (step 0) and drew every step of the computer's opening.
  assert.equal(steps[0], 0);
  for (let n = 1; n <= state.version; n++) assert.ok(steps.includes(n), `step ${n} shown: ${steps}`);
  assert.equal(await page.locator('#log li').count(), state.version);
  check();
  await context.close();
});

test('Yut: when the computer wins the turn-order ceremony, its first turn is shown one by one', async () => {
  // Seeds 000 and 001: the ceremony decides the order; a computer that goes first plays its
  // turn after the person's ceremony throw, and the page draws each of its throws and moves.
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  const steps = [];
  page.on('request', (r) => {
    const m = /\/steps\/(\d+)$/.exec(r.url());
    if (m) steps.push(Number(m[1]));
  });
  let found = null;
  for (let n = 0; n < 40 && !found; n++) {
    await page.goto(`${env.server.url}?pace=40&seed=${seed(500 + n)}#/setup/yut`);
    await page.locator('#start').click();
    await page.locator('#board .roll-button').waitFor();
    const id = (await gameState(page)).id;
    const actions = async () => (await page.evaluate(async (g) => (await fetch(`/api/games/${g}/record`)).json(), id)).actions;
    // The person throws in the ceremony (again after a tie) until they must decide or throw
    // in a turn.
    let tapped = 0;
    while ((await page.locator('#board .roll-button').count()) > 0 && !(await actions()).some((a) => a.startsWith('slot'))) {
      tapped = (await gameState(page)).version;
      steps.length = 0;
      await throwIfAsked(page);
    }
    const played = await actions();
    // The person has made no decision yet: an entry or a move is the computer's turn.
    if (played.some((a) => a.startsWith('enter') || a.startsWith('move'))) found = { id, tapped, played };
  }
  assert.ok(found, 'a seed where the computer goes first');
  const state = await gameState(page);
  assert.equal(state.to_act, 'A', 'then it is the person’s throw');
  // Every entry after the person's last ceremony throw was drawn as its own step.
  for (let v = found.tapped + 2; v <= state.version; v++) assert.ok(steps.includes(v), `step ${v} shown: ${steps}`);
  assert.equal(await page.locator('#log li').count(), state.version);
  check();
  await context.close();
});

test('Ludo: while the computers play, the header names them, never the person’s colour', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  await page.addInitScript(() => {
    /** @type {string[]} */
    const seen = [];
    // @ts-ignore
    window.__turns = seen;
    new MutationObserver(() => {
      const text = document.getElementById('turn')?.textContent;
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(`${env.server.url}?pace=40&seed=${seed(9)}#/setup/ludo`);
  await page.locator('#start').click();
  for (let i = 0; i < 12; i++) {
    await page.locator('#board .legal').first().waitFor();
    await clickMove(page, page.locator('#board .legal').first());
  }
  const turns = await page.evaluate(() => /** @type {any} */ (window).__turns);
  const thinking = (seat) => fill(app.en['play.thinking'], { seat: ludo.en[`ludo.seat.${seat}`] });
  assert.ok(!turns.includes(thinking(0)), `the person's colour is never "to play…": ${turns}`);
  for (const seat of [1, 2, 3]) assert.ok(turns.includes(thinking(seat)), `${thinking(seat)} in ${turns}`);
  assert.ok(turns.includes(app.en['play.your_turn']));
  check();
  await context.close();
});

test('play again starts the same team set-up; the set-up page keeps it', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  await teamSetup(page, 3);
  await playToEnd(page);
  const first = await gameState(page);
  await page.locator('#play-again').click();
  await page.waitForFunction((id) => !location.hash.endsWith(id) && /#\/play\//.test(location.hash), first.id);
  await page.locator('#board .yut-board').waitFor();
  const again = await gameState(page);
  assert.notEqual(again.id, first.id);
  assert.deepEqual(again.rules, { mode: 'team-shared', pieces: 1 });
  assert.equal(again.players, 4);
  assert.deepEqual(
    again.seats.map((s) => [s.name, s.kind, s.level]),
    [['A1', 'human', null], ['B1', 'cpu', 'hard'], ['A2', 'cpu', 'hard'], ['B2', 'cpu', 'hard']],
  );
  // The set-up page opens on the same choices.
  await page.goto(`${env.server.url}?pace=0#/setup/yut`);
  await page.locator('#start').waitFor();
  assert.equal(await page.locator('#opt-mode').inputValue(), 'team-shared');
  assert.equal(await page.locator('#players').inputValue(), '4');
  assert.equal(await page.locator('#opt-pieces').inputValue(), '1');
  assert.equal(await page.locator('select[name="seat-A2"]').inputValue(), 'cpu');
  assert.equal(await page.locator('#level').inputValue(), 'hard');
  check();
  await context.close();
});

test('a Korean replay reads in words, notation on request; a bad record is explained in Korean and replaces the replay', async () => {
  const { page, check, context, allow } = await newPage(env.browser, { viewport: PHONE, locale: 'ko-KR' });
  await page.goto(`${env.server.url}?pace=0#/replay-file`);
  // The spec's worked example (README.md, "Game records").
  const record = { game: 'ur', rules: { preset: 'finkel' }, players: 2, actions: ['roll 2', 'move 0', 'roll 3', 'move 0', 'roll 0', 'roll 4'] };
  await page.locator('#record-file').setInputFiles({ name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record)) });
  await page.locator('#step-caption').waitFor();
  const items = await page.locator('#log li .move-text').allTextContents();
  assert.deepEqual(items, ['백 2 굴림', '백 2번 칸(A3)에 말을 들임', '흑 3 굴림', '흑 3번 칸(C2)에 말을 들임', '백 0 굴림 · 백 0이 나와 넘김', '흑 4 굴림']);
  for (const text of items) assert.doesNotMatch(text, /\b(roll|move|throw|enter|place)\b/);
  assert.equal(await page.locator('#log code.notation').first().isVisible(), false);
  await page.locator('#show-notation').check();
  assert.equal(await page.locator('#log code.notation').first().isVisible(), true);
  assert.equal(await page.locator('#log code.notation').first().textContent(), 'roll 2');
  await screenshot(page, 'walk-replay-ko');
  // A record whose second action is illegal: with a 2 and every piece in hand, light can only
  // enter (move 0).
  allow(/422/);
  const bad = { ...record, actions: ['roll 2', 'move 5'] };
  await page.locator('#record-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
  await page.locator('#record-why').waitFor();
  assert.equal(await page.locator('#board').count(), 0, 'the earlier replay is gone');
  assert.equal(
    await page.locator('#record-why').textContent(),
    '기보의 2번째 수(“move 5”)는 둘 수 없는 수입니다. 그때는 백 차례로 말을 옮길 때였고, 둘 수 있는 수는 move 0입니다.',
  );
  // The server's words name the action by its index, and the page says they count from 0.
  assert.match(await page.locator('#record-why + p.hint').textContent(), /^서버의 설명\(영어, 기보의 수를 0부터 셉니다\): action 1 "move 5"/);
  await screenshot(page, 'walk-replay-bad-ko');
  check();
  await context.close();
});

test('Ur: the board lies across a desktop screen and fits 1280 × 800; the Korean sides are 백 and 흑', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP, locale: 'ko-KR' });
  await openSetup(page, env.server.url, 'ur', 8);
  await page.locator('#start').click();
  await page.locator('#board .ur-board').waitFor();
  const board = await boxOf(page, '.ur-board');
  assert.ok(board.y + board.height <= DESKTOP.height, `the board ends at ${board.y + board.height} px`);
  assert.ok(board.width > 2 * board.height, `lying across: ${board.width}×${board.height}`);
  // Light's path enters at A4 and dark's at C4 (geometry of ur.md); light's column runs along
  // the bottom and dark's along the top.
  const a4 = await boxOf(page, '[data-cell="A4"]');
  const c4 = await boxOf(page, '[data-cell="C4"]');
  assert.ok(a4.y > c4.y + c4.height, 'light (A) below dark (C)');
  assert.deepEqual(await page.locator('.seat-name').allTextContents(), ['백', '흑']);
  await screenshot(page, 'walk-ur-desktop-ko');
  // On a phone it stands upright.
  await page.setViewportSize(PHONE);
  const upright = await boxOf(page, '.ur-board');
  assert.ok(upright.height > 2 * upright.width, `upright on a phone: ${upright.width}×${upright.height}`);
  check();
  await context.close();
});

test('Ur’s three exercises answer right and wrong, with the seed’s criterion as feedback', async () => {
  for (const locale of ['en-GB', 'ko-KR']) {
    const { page, check, context } = await newPage(env.browser, { viewport: PHONE, locale });
    await page.goto(`${env.server.url}?pace=0#/rules/ur`);
    await page.locator('#ex-dice').waitFor();
    // 1. Classify the 16 throws: first all as 2 (wrong), then each by its marks (right).
    const throws = page.locator('#ex-dice select');
    assert.equal(await throws.count(), 16);
    for (let i = 0; i < 16; i++) await throws.nth(i).selectOption('2');
    await page.locator('#ex-dice-check').click();
    assert.match(await page.locator('#ex-dice-feedback').getAttribute('class'), /wrong/);
    for (let i = 0; i < 16; i++) {
      const marks = ((await throws.nth(i).getAttribute('aria-label')) ?? '').split('').filter((c) => c === '▲').length;
      await throws.nth(i).selectOption(String(marks));
    }
    await page.locator('#ex-dice-check').click();
    assert.match(await page.locator('#ex-dice-feedback').getAttribute('class'), /right/);
    assert.match(await page.locator('#ex-dice-feedback').textContent(), /1, 4, 6, 4, 1 \(.*16\)/);
    // 2. Dark on squares 6 and 7, light on the middle rosette (8) and on 10: dark captures on
    // 10 with a 4 (from 6) or a 3 (from 7); the rosette is safe. Wrong: a 2 onto the rosette.
    assert.match(await page.locator('#ex-rosette').textContent(), /8.*10.*6, 7/s);
    await page.locator('#ex2-rosette-2').check();
    await page.locator('#ex-rosette-check').click();
    assert.match(await page.locator('#ex-rosette-feedback').getAttribute('class'), /wrong/);
    await page.locator('#ex2-rosette-2').uncheck();
    await page.locator('#ex2-plain-3').check();
    await page.locator('#ex2-plain-4').check();
    await page.locator('#ex-rosette-check').click();
    assert.match(await page.locator('#ex-rosette-feedback').getAttribute('class'), /right/);
    // 3. Pieces on 14 and 12 of the 14-square path: exactly 1 and 3 bear them off; a 4 does not.
    await page.locator('#ex3-near-1').check();
    await page.locator('#ex3-far-3').check();
    await page.locator('#ex3-far-4').check();
    await page.locator('#ex-bear-off-check').click();
    assert.match(await page.locator('#ex-bear-off-feedback').getAttribute('class'), /wrong/);
    await page.locator('#ex3-far-4').uncheck();
    await page.locator('#ex-bear-off-check').click();
    assert.match(await page.locator('#ex-bear-off-feedback').getAttribute('class'), /right/);
    await screenshot(page, `walk-ur-exercises-${locale}`);
    check();
    await context.close();
  }
});

test('Yut: the stacking question names its pieces and shows them apart; “another piece” only when there is one', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE, locale: 'ko-KR' });
  await openSetup(page, env.server.url, 'yut', 5);
  await page.locator('details.options summary').click();
  await page.locator('#opt-stacking').selectOption('optional');
  await page.locator('#opt-order').selectOption('seated');
  await page.locator('#start').click();
  let asked = false;
  let single = false;
  for (let i = 0; i < 400 && !(asked && single); i++) {
    await ready(page);
    const state = await gameState(page);
    if (state.status !== 'ongoing') break;
    if (state.awaiting === 'stack') {
      // The question says which pieces: "말 N를 …의 말 M에 업을까요?" and draws them apart.
      const [moving, there] = state.stacking;
      const prompt = await page.locator('.yut-prompt').textContent();
      assert.ok(prompt.includes(`말 ${Number(moving) + 1}`) && prompt.includes(`말 ${Number(there.split('+')[0]) + 1}`), prompt);
      assert.ok(!prompt.includes('(') , prompt);
      assert.equal(await page.locator('#board .yut-piece.arriving').count(), 1, 'the arriving piece stands apart');
      await screenshot(page, 'walk-yut-stack-ko');
      asked = true;
    }
    const pick = page.locator('#board .yut-pick:not(.selected)');
    if ((await pick.count()) > 0) {
      await pick.first().click();
      const others = await page.locator('#board .yut-pick:not(.selected)').count();
      const prompt = await page.locator('.yut-prompt').textContent();
      assert.equal(prompt, others > 0 ? yut.ko['yut.ask.destination'] : yut.ko['yut.ask.destination_only']);
      if (others === 0) single = true;
    }
    await clickMove(page, page.locator('#board .legal').first());
  }
  assert.ok(asked, 'the stacking question came up');
  check();
  await context.close();
});
