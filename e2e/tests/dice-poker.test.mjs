// Seven Dice Poker in the browser: a whole game against the computer with default rules, the
// token rule on a phone (the token switch, then a token-only turn), and two people on one screen
// in Korean on a type B board with a custom layout.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESKTOP, LANDSCAPE, LANDSCAPE_SMALL, PHONE, boxOf, gameState, newPage, openSetup, playToEnd, ready, screenshot, statsRows, suite } from '../lib.mjs';

const env = suite();

/** The English hand names the engine uses, as the page shows them in English and Korean. */
const HANDS = {
  'two pair': ['two pair', '투페어'],
  'three of a kind': ['three of a kind', '트리플'],
  straight: ['straight', '스트레이트'],
  'full house': ['full house', '풀하우스'],
  'four of a kind': ['four of a kind', '포카드'],
  'five of a kind': ['five of a kind', '파이브카드'],
};

/**
 * Checks the end screen's hands against the state: each seat's hand name and its five dice in
 * comparison order, in the given language (0 English, 1 Korean).
 */
async function checkHands(page, state, lang) {
  for (const seat of ['white', 'black']) {
    const hand = state.result.hands[seat];
    const item = page.locator(`#dp-hands [data-seat="${seat}"]`);
    assert.equal(await item.locator('.dp-hand-name').textContent(), HANDS[hand.hand][lang]);
    const pips = await item.locator('.dp-hand-dice .die').evaluateAll((dice) => dice.map((d) => d.querySelectorAll('.pip').length));
    assert.deepEqual(pips, hand.dice, `${seat}'s dice in comparison order`);
    assert.ok(await item.locator(`.die-${seat}`).count() === 5, `${seat}'s dice drawn in ${seat}`);
  }
}

/**
 * Korean `word` with the particle of `pair` (`['이', '가']`, `['을', '를']`) that fits its last
 * sound: the first after a final consonant. Digits are read as Sino-Korean numbers (일, 이, 삼, 사,
 * 오, 육).
 */
function withParticle(word, [closed, open]) {
  const last = String(word).slice(-1);
  const syllable = '0일이삼사오육'[Number(last)] ?? last;
  const code = syllable.charCodeAt(0) - 0xac00;
  return `${word}${code >= 0 && code < 11172 && code % 28 !== 0 ? closed : open}`;
}

/**
 * Checks the end screen's line on what decided the game against the hands, compared here as
 * docs/dice-poker.md ranks them: the kinds (`HANDS` is weakest first), then the five dice in
 * comparison order, the first that differ deciding; in English (`lang` 0) or Korean (1). A draw
 * has no such line.
 */
async function checkDecided(page, state, lang) {
  const { white, black } = state.result.hands;
  const rank = (hand) => Object.keys(HANDS).indexOf(hand.hand);
  const at = white.dice.findIndex((d, i) => d !== black.dice[i]);
  const order = rank(white) - rank(black) || (at < 0 ? 0 : white.dice[at] - black.dice[at]);
  const line = page.locator('#dp-decided');
  if (order === 0) {
    assert.equal(state.result.draw, true, 'equal hands draw');
    assert.equal(await line.count(), 0);
    return;
  }
  const [won, lost] = order > 0 ? [white, black] : [black, white];
  assert.equal(state.result.winner, order > 0 ? 'white' : 'black');
  const [hand, over] = [HANDS[won.hand][lang], HANDS[lost.hand][lang]];
  const [high, low] = [won.dice[at], lost.dice[at]];
  const expected =
    won.hand === lost.hand
      ? [
          `Decided by the dice: both hands are ${hand}, and ${high} beats ${low}.`,
          `주사위로 갈렸습니다: 둘 다 ${hand}, ${withParticle(high, ['이', '가'])} ${withParticle(low, ['을', '를'])} 이깁니다.`,
        ]
      : [
          `Decided by the hands: ${hand} beats ${over}.`,
          `패로 갈렸습니다: ${withParticle(hand, ['이', '가'])} ${withParticle(over, ['을', '를'])} 이깁니다.`,
        ];
  assert.equal(await line.textContent(), expected[lang]);
}

/**
 * Plays by clicking the first highlighted cell each time (as `playToEnd`), noting what the board
 * showed on the way: token-only turns and the token switch.
 */
async function playNoting(page) {
  const seen = { tokenOnly: 0, toggle: 0, clicks: 0 };
  const onTurn = async () => {
    if (await page.locator('#board .dp-token-only').count()) {
      seen.tokenOnly++;
      const actions = await page.locator('#board .legal').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
      assert.ok(actions.every((a) => a.startsWith('token ')), `a token-only turn offers only tokens: ${actions}`);
      assert.equal(await page.locator('#dp-token-toggle').count(), 0);
    }
    if (await page.locator('#dp-token-toggle').count()) seen.toggle++;
  };
  seen.clicks = await playToEnd(page, { maxClicks: 200, onTurn });
  return seen;
}

test('a whole game against the computer with default rules, then the stats', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  await openSetup(page, env.server.url, 'dice-poker', 1);
  await page.locator('#start').click();
  await page.locator('#board .dp-board').waitFor();
  // White rolls its own roll-off die: the page waits for the tap on the throw button.
  const first = await gameState(page);
  assert.deepEqual([first.version, first.to_move, first.to_act, first.awaiting], [0, 'chance', 'white', 'roll']);
  assert.equal(await page.locator('#dp-roll .roll-button').getAttribute('aria-label'), 'Roll the die');
  await ready(page);
  const start = await gameState(page);
  assert.equal(start.game, 'dice-poker');
  assert.deepEqual(start.my_seats, ['white']);
  assert.equal(start.awaiting, 'place');
  // 16 cells on the 4 × 4 grid; every empty cell takes the rolled die, nothing else is a move.
  assert.equal(await page.locator('#board .dp-cell').count(), 16);
  const actions = await page.locator('#board .legal').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
  assert.deepEqual(actions.sort(), start.legal.slice().sort());
  assert.ok(actions.every((a) => a.startsWith('place ')));
  assert.equal(await page.locator('#dp-token-toggle').count(), 0, 'no token switch without the token rule');
  // The die just rolled is shown beside the board, in white.
  const roll = Number(/^roll (\d)$/.exec(start.last_chance)[1]);
  assert.equal(await page.locator('#dp-roll .die-white .pip').count(), roll);
  // The roll-off (seed 1 ties once) is shown and logged in words.
  await page.locator('#dp-rolloff').waitFor();
  assert.match(await page.locator('#log').textContent(), /Roll-off tied at \d: both roll again/);
  await screenshot(page, 'dice-poker-desktop');

  const clicks = await playToEnd(page);
  assert.ok(clicks >= 7, `white places seven dice, took ${clicks} clicks`);
  const end = await gameState(page);
  assert.equal(end.status, 'finished');
  assert.equal(end.pieces.filter((c) => c !== null).length, 14);
  const outcome = end.result.draw ? 'drawn' : end.result.winner === 'white' ? 'won' : 'lost';
  const headline = { won: 'You won!', lost: 'You lost', drawn: 'A draw' }[outcome];
  assert.equal(await page.locator('#result h2').textContent(), headline);
  await checkHands(page, end, 0);
  await checkDecided(page, end, 0);
  // Hands of one kind: the end screen's line from the engine's `win_on_dice` event (the worked
  // example of crates/dice-poker/tests/rules.rs: straight 6 4 3 2 1 against 5 4 3 2 1).
  const tieBreak = await page.evaluate(async () => {
    const module = (await import('/js/games/dice-poker.js')).default;
    const hands = { white: { hand: 'straight', dice: [6, 4, 3, 2, 1] }, black: { hand: 'straight', dice: [5, 4, 3, 2, 1] } };
    const events = [{ kind: 'win_on_dice', seat: 'white', hand: 'straight', high: 6, low: 5, text: '' }];
    const nodes = module.resultDetails({ result: { winner: 'white', hands }, events }, null);
    return nodes.map((n) => n.id === 'dp-decided' && n.textContent).find(Boolean);
  });
  assert.equal(tieBreak, 'Decided by the dice: both hands are straight, and 6 beats 5.');
  // The board fades the dice outside each best hand: 2 × 2 of the 14.
  assert.equal(await page.locator('#board .dp-cell.out-hand').count(), 4);
  await screenshot(page, 'dice-poker-desktop-result');

  const rows = await statsRows(page, env.server.url);
  const row = rows.find((r) => r.game === 'Seven Dice Poker');
  assert.ok(row, `a stats row for Seven Dice Poker: ${JSON.stringify(rows)}`);
  assert.equal(row.mode, 'Against the computer · Normal');
  assert.equal(row.played, '1');
  assert.equal(row.won, outcome === 'won' ? '1' : '0');
  assert.equal(row.lost, outcome === 'lost' ? '1' : '0');
  assert.equal(row.drawn, outcome === 'drawn' ? '1' : '0');
  // The replay's last step says the result once: its own words already say who won.
  await page.goto(`${env.server.url}?pace=0#/replay/${end.id}`);
  await page.waitForFunction(() => /^Step (\d+) of \1 /.test(document.getElementById('step-caption')?.textContent ?? ''));
  const caption = await page.locator('#step-caption').textContent();
  if (!end.result.draw) {
    const said = `${end.result.winner === 'white' ? 'White' : 'Black'} wins`;
    assert.equal(caption.split(said).length - 1, 1, caption);
  }
  check();
  await context.close();
});

test('the token rule on a phone: the token switch, touch targets, keyboard', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  await openSetup(page, env.server.url, 'dice-poker', 3);
  await page.locator('details.options summary').click();
  await page.locator('#opt-tokens').selectOption('true');
  await page.locator('#start').click();
  await ready(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `page is ${width}px wide at ${PHONE.width}px`);
  for (const box of await page.locator('#board .legal, #dp-token-toggle').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()))) {
    assert.ok(box.width >= 44 && box.height >= 44, `touch target ${box.width}×${box.height}`);
  }
  await screenshot(page, 'dice-poker-phone');

  // The switch turns the empty cells into token placements and back.
  const toggle = page.locator('#dp-token-toggle');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  await toggle.click();
  assert.equal(await page.locator('#dp-token-toggle').getAttribute('aria-pressed'), 'true');
  const tokenActions = await page.locator('#board .legal').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
  assert.ok(tokenActions.length > 0 && tokenActions.every((a) => a.startsWith('token ')), `token moves: ${tokenActions}`);
  await screenshot(page, 'dice-poker-phone-token');
  await page.locator('#dp-token-toggle').click();
  assert.ok((await page.locator('#board .legal').first().getAttribute('data-action')).startsWith('place '));
  await page.locator('#dp-token-toggle').click();

  // Keyboard: focus a highlighted cell and press Enter to place the token there.
  const target = page.locator('#board .legal').nth(2);
  const action = await target.getAttribute('data-action');
  const cell = Number(action.split(' ')[1]);
  const before = await page.evaluate(() => document.querySelectorAll('#log li').length);
  await target.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before);
  const after = await gameState(page);
  assert.deepEqual(after.pieces[cell], { white: 'token' });
  assert.match(await page.locator('#log').textContent(), new RegExp(`White places the token on cell ${cell} and keeps the die`));
  assert.equal(await page.locator('#dp-token-toggle').count(), 0, 'the token is placed: no switch any more');
  assert.match(await page.locator('.dp-player-white .dp-player-text').textContent(), /^Dice to place: 7$/);

  await playToEnd(page);
  const end = await gameState(page);
  assert.equal(end.pieces.filter((c) => c !== null).length, 16, 'with tokens all 16 cells fill');
  await checkHands(page, end, 0);
  await screenshot(page, 'dice-poker-phone-result');
  check();
  await context.close();
});

test('a phone held sideways: the die just rolled and the whole board on one screen', async () => {
  for (const [viewport, name] of [
    [LANDSCAPE, 'dice-poker-landscape'],
    [LANDSCAPE_SMALL, 'dice-poker-landscape-small'],
  ]) {
    const { page, check, context } = await newPage(env.browser, { viewport });
    await openSetup(page, env.server.url, 'dice-poker', 2);
    await page.locator('#start').click();
    await page.locator('#board .dp-board').waitFor();
    await ready(page);
    // The roll-off's dice and the die just rolled, beside the board (the first placement shows
    // both), and the board: on screen together once scrolled to.
    const now = await boxOf(page, '.dp-now');
    const board = await boxOf(page, '.dp-board');
    assert.ok(now.x >= board.x + board.width, `${name}: the die (x ${now.x}) beside the board (right edge ${board.x + board.width})`);
    const span = Math.max(board.y + board.height, now.y + now.height) - Math.min(board.y, now.y);
    assert.ok(span <= viewport.height, `${name}: die and board span ${span}px of ${viewport.height}`);
    const cells = await page.locator('#board .dp-cell').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
    assert.equal(cells.length, 16);
    assert.ok(cells.every((c) => c.width >= 44 && c.height >= 44), `${name}: cells of ${Math.min(...cells.map((c) => c.width))}px`);
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= viewport.width);
    await screenshot(page, name);
    check();
    await context.close();
  }
});

test('two people on one screen in Korean, type B on a custom layout, token-only turns', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE, locale: 'ko-KR' });
  await openSetup(page, env.server.url, 'dice-poker', 1);
  await page.locator('input[name="mode"][value="same_screen"]').check();
  await page.locator('details.options summary').click();
  await page.locator('#opt-board').selectOption('b');
  await page.locator('#opt-tokens').selectOption('true');
  await page.locator('#opt-layout').fill('.##.\n####\n####\n####\n.##.');
  await page.locator('#start').click();
  await page.locator('#board .dp-board').waitFor();
  const start = await gameState(page);
  assert.equal(start.mode, 'same_screen');
  assert.deepEqual(start.rules, { board: 'b', tokens: true, layout: ['.##.', '####', '####', '####', '.##.'] });
  // Cell 0 is in the second column of the first row; cell 15 in the third column of the last.
  const place = (/** @type {number} */ n) => page.locator(`[data-cell="${n}"]`).evaluate((e) => `${e.style.gridRow},${e.style.gridColumn}`);
  assert.equal(await place(0), '1,2');
  assert.equal(await place(15), '5,3');
  assert.equal(await page.locator('.dp-kind').textContent(), '타입 B: 놓으면 상하좌우 칸의 주사위가 바뀜');
  await screenshot(page, 'dice-poker-phone-ko');

  const seen = await playNoting(page);
  assert.equal(seen.tokenOnly, 2, 'each side ends with a token-only turn when it never used its token');
  assert.ok(seen.toggle > 0);
  const end = await gameState(page);
  await checkHands(page, end, 1);
  await checkDecided(page, end, 1);
  // Korean throughout: no English hand names or event lines in the log.
  const log = await page.locator('#log').textContent();
  assert.doesNotMatch(log, /places|rolls|hand|wins|draw/);
  assert.match(log, /토큰만 남아 굴리지 않음/);
  await screenshot(page, 'dice-poker-phone-ko-result');
  check();
  await context.close();
});

test('the rules page in both languages', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  await page.goto(`${env.server.url}?pace=0#/rules/dice-poker`);
  await page.locator('#dp-hands-table').waitFor();
  assert.equal(await page.locator('#dp-hands-table tbody tr').count(), 6);
  assert.equal(await page.locator('.dp-diagram').count(), 2);
  await screenshot(page, 'dice-poker-rules');
  await page.locator('header .lang').click();
  await page.locator('#dp-hands-table').waitFor();
  assert.match(await page.locator('#dp-hands-table').textContent(), /풀하우스/);
  check();
  await context.close();
});
