// Yut Nori in the browser: a whole game against the computer (two pieces a side, so it is quick),
// the result screen and stats; the default board at phone and desktop size with its 29
// stations, touch targets and the select-then-destination move; a team game's seats; Korean.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESKTOP, LANDSCAPE, LANDSCAPE_SMALL, PHONE, gameState, newPage, openSetup, playToEnd, ready, screenshot, statsRows, suite } from '../lib.mjs';

const env = suite();

/**
 * Opens the rule options of the set-up page and sets some.
 * @param {import('playwright-core').Page} page
 * @param {Record<string, string>} options
 */
async function setOptions(page, options) {
  await page.locator('details.options summary').click();
  for (const [key, value] of Object.entries(options)) {
    const el = page.locator(`#opt-${key}`);
    if ((await el.evaluate((e) => e.tagName)) === 'SELECT') await el.selectOption(value);
    else await el.fill(value);
  }
}

/** Asserts every highlighted move on the board is at least 44 × 44 px. */
async function assertTouchTargets(page) {
  for (const box of await page.locator('#board .legal, #board .yut-pick, #board button.yut-chip').evaluateAll((els) =>
    els.map((e) => ({ action: e.getAttribute('data-action') ?? e.className, ...e.getBoundingClientRect().toJSON() })),
  )) {
    assert.ok(box.width >= 44 && box.height >= 44, `touch target ${box.action}: ${box.width}×${box.height}`);
  }
}

test('a whole game against the computer with two pieces a side, then the result and stats', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  await openSetup(page, env.server.url, 'yut', 11);
  // The default choice is marked after its name, which has brackets of its own (not "… (2-4
  // players) (default)").
  assert.deepEqual(await page.locator('#opt-mode option').allTextContents(), [
    'Individual (2-4 players) — default',
    'Teams of two, shared pieces',
    'Teams of two, separate pieces',
  ]);
  // Seat A is the person, seat B the computer.
  assert.equal(await page.locator('select[name="seat-A"]').inputValue(), 'human');
  assert.equal(await page.locator('select[name="seat-B"]').inputValue(), 'cpu');
  await setOptions(page, { pieces: '2' });
  await page.locator('#start').click();
  await page.locator('#board .yut-board').waitFor();
  const start = await gameState(page);
  assert.equal(start.game, 'yut');
  assert.deepEqual(start.rules, { pieces: 2 });
  assert.deepEqual(start.my_seats, ['A']);
  assert.equal(await page.locator('#board .yut-spot').count(), 29);
  await screenshot(page, 'yut-phone-start');

  const clicks = await playToEnd(page);
  assert.ok(clicks >= 3, `a game of Yut takes a few decisions, took ${clicks}`);
  const end = await gameState(page);
  assert.equal(end.status, 'finished');
  const won = end.result.winner === 'A';
  assert.equal(await page.locator('#result h2').textContent(), won ? 'You won!' : 'You lost');
  assert.equal(await page.locator('#result .result-line').textContent(), `Side ${end.result.winner} wins`);
  // The winner brought both pieces home (99); the figures table shows them.
  assert.deepEqual(end.pieces[end.result.winner], [99, 99]);
  const cell = (side, col) => page.locator(`#yut-figures td[data-side="${side}"][data-col="${col}"]`);
  assert.equal(await page.locator('#yut-figures tbody tr').count(), 5);
  assert.equal(await cell(end.result.winner, 'finished').textContent(), '2');
  assert.equal(await cell(end.result.winner, 'steps_left').textContent(), '0');
  for (const side of ['A', 'B']) {
    for (const col of ['finished', 'steps_left', 'captures', 'extra_throws', 'stacks']) {
      assert.equal(await cell(side, col).textContent(), String(end.result.stats[side][col]), `${side} ${col}`);
    }
  }
  await screenshot(page, 'yut-phone-result');

  const rows = await statsRows(page, env.server.url);
  const row = rows.find((r) => r.game === 'Yut Nori');
  assert.ok(row, `a stats row for Yut: ${JSON.stringify(rows)}`);
  assert.equal(row.played, '1');
  assert.equal(row.won, won ? '1' : '0');
  assert.equal(row.lost, won ? '0' : '1');
  check();
  await context.close();
});

test('the default board at phone and desktop size: stations, trays, touch targets, choosing a destination', async () => {
  for (const [viewport, name] of [
    [PHONE, 'yut-phone'],
    [DESKTOP, 'yut-desktop'],
    // Held sideways, the board is as tall as the screen and its targets keep 44 px.
    [LANDSCAPE, 'yut-landscape'],
    [LANDSCAPE_SMALL, 'yut-landscape-small'],
  ]) {
    const { page, check, context } = await newPage(env.browser, { viewport });
    await openSetup(page, env.server.url, 'yut', 1);
    await page.locator('#start').click();
    // The turn-order ceremony: side A (the person) throws first, by the throw button.
    await page.locator('#board .roll-button').waitFor();
    const opening = await gameState(page);
    assert.deepEqual([opening.version, opening.to_move, opening.to_act, opening.awaiting], [0, 'chance', 'A', 'throw']);
    assert.equal(await page.locator('#board .roll-button').getAttribute('aria-label'), 'Throw the sticks');
    await screenshot(page, `${name}-throw`);
    await ready(page);
    const state = await gameState(page);
    assert.deepEqual(state.rules, {});
    assert.equal(await page.locator('#board .yut-spot').count(), 29);
    assert.equal(await page.locator('#board .yut-spot.yut-big').count(), 5);
    assert.equal(await page.locator('#board .yut-tray').count(), 2);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= viewport.width, `page is ${width}px wide at ${viewport.width}px`);
    // Seed 1 opens with the turn-order ceremony: the person picks a slot with a labelled button.
    assert.equal(state.awaiting, 'slot');
    assert.deepEqual(await page.locator('#board .legal').evaluateAll((els) => els.map((e) => e.getAttribute('data-action'))), ['slot 1', 'slot 2']);
    assert.equal(await page.locator('#board .yut-ceremony li').count(), 2);
    await assertTouchTargets(page);
    await screenshot(page, `${name}-ceremony`);
    // Play on (clicking the first highlighted move) until a piece can spend two different throws:
    // tapping it lights its destinations, each a legal move.
    let picked = false;
    for (let i = 0; i < 120 && !picked; i++) {
      await page.locator('#board .legal').first().waitFor();
      await assertTouchTargets(page);
      const pick = page.locator('#board .yut-pick:not(.selected)');
      if (await pick.count()) {
        if (viewport === DESKTOP) {
          // By keyboard: Enter on the piece selects it and keeps the focus there.
          await pick.first().focus();
          await page.keyboard.press('Enter');
          assert.ok(await page.evaluate(() => document.activeElement?.classList.contains('selected')), 'focus stays on the selected piece');
        } else {
          await pick.first().click();
        }
        assert.equal(await page.locator('#board .yut-pick.selected').count(), 1);
        const actions = await page.locator('#board .legal').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
        assert.ok(actions.length >= 2, `destinations lit: ${actions}`);
        await assertTouchTargets(page);
        await screenshot(page, name);
        picked = true;
        break;
      }
      const before = await page.evaluate(() => document.querySelectorAll('#log li').length);
      await page.locator('#board .legal').first().click();
      await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before);
    }
    assert.ok(picked, 'a piece with two possible throws came up');
    // A destination plays its move.
    const before = await page.evaluate(() => document.querySelectorAll('#log li').length);
    const dest = page.locator('#board .yut-dest.legal, #board .yut-choice.finish.legal').first();
    const action = await dest.getAttribute('data-action');
    if (viewport === DESKTOP) {
      await dest.focus();
      await page.keyboard.press('Enter');
    } else {
      await dest.click();
    }
    await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before);
    const after = await page.evaluate(async (id) => (await fetch(`/api/games/${id}/record`)).json(), state.id);
    assert.ok(after.actions.includes(action), `${action} was played`);
    check();
    await context.close();
  }
});

test('a team game: seats A1, B1, A2, B2 and team trays; Korean terms on the board', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE, locale: 'ko-KR' });
  await openSetup(page, env.server.url, 'yut', 7);
  assert.equal(await page.locator('#opt-mode option[value="individual"]').textContent(), '개인전 (2-4명) — 기본');
  await setOptions(page, { mode: 'team-shared', pieces: '1' });
  await page.locator('#players').selectOption('4');
  assert.deepEqual(
    await page.locator('.seats select').evaluateAll((els) => els.map((e) => e.getAttribute('name'))),
    ['seat-A1', 'seat-B1', 'seat-A2', 'seat-B2'],
  );
  await page.locator('#start').click();
  await page.locator('#board .yut-board').waitFor();
  const state = await gameState(page);
  assert.deepEqual(
    state.seats.map((s) => s.name),
    ['A1', 'B1', 'A2', 'B2'],
  );
  assert.equal(await page.locator('#board .yut-tray').count(), 2);
  assert.deepEqual(await page.locator('#board .yut-tray-name').allTextContents(), ['A편', 'B편']);
  assert.equal(await page.locator('.seat-A1 .seat-name').textContent(), 'A편 1번');
  await screenshot(page, 'yut-phone-teams-ko');
  await playToEnd(page);
  const end = await gameState(page);
  assert.equal(end.status, 'finished');
  assert.ok(['A', 'B'].includes(end.result.winner));
  assert.equal(await page.locator('#result .result-line').textContent(), `${end.result.winner}편 승리`);
  assert.equal(await page.locator('#result h2').textContent(), end.result.winner === 'A' ? '이겼습니다!' : '졌습니다');
  // No English words from the board in the Korean page.
  const boardText = await page.locator('#result').textContent();
  assert.doesNotMatch(boardText, /\b(Side|Home|Throws)\b/);
  check();
  await context.close();
});

test('a nak: the stick that left the mat does not cover the throw\'s name', async () => {
  // The last throw as the panel draws it (games/yut.js: the sticks, then the name) for a nak,
  // in Korean on a phone: no stick's box (turned as drawn) reaches the name's.
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE, locale: 'ko-KR' });
  await page.goto(`${env.server.url}?pace=0#/`);
  const boxes = await page.evaluate(() => {
    const last = document.body.appendChild(document.createElement('div'));
    last.className = 'yut-last';
    const stick = '<span class="yut-stick round"><span class="x"></span><span class="x"></span><span class="x"></span></span>';
    last.innerHTML = `<div class="yut-sticks nak">${stick.repeat(4)}</div><span class="yut-last-name">낙</span>`;
    const rect = (/** @type {Element} */ e) => e.getBoundingClientRect().toJSON();
    return { sticks: [...last.querySelectorAll('.yut-stick')].map(rect), name: rect(/** @type {Element} */ (last.querySelector('.yut-last-name'))) };
  });
  for (const s of boxes.sticks) {
    const apart = s.right <= boxes.name.left || s.left >= boxes.name.right || s.bottom <= boxes.name.top || s.top >= boxes.name.bottom;
    assert.ok(apart, `a stick over the name: ${JSON.stringify(s)} / ${JSON.stringify(boxes.name)}`);
  }
  check();
  await context.close();
});

test('the rules page explains the throws and every option, in both languages', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  await page.goto(`${env.server.url}?lang=en#/rules/yut`);
  await page.locator('#yut-throw-table').waitFor();
  assert.equal(await page.locator('#yut-throw-table tbody tr').count(), 6);
  const en = await page.locator('article.rules').textContent();
  assert.doesNotMatch(en, /[\uac00-\ud7a3]/, 'no Korean on the English page');
  for (const word of ['chammeogi', 'back-do', 'nak', 'Shortcuts', 'Stacking', 'Finishing']) assert.ok(en.includes(word), word);
  await page.goto(`${env.server.url}?lang=ko#/rules/yut`);
  await page.locator('#yut-throw-table').waitFor();
  const ko = await page.locator('article.rules').textContent();
  for (const word of ['참먹이', '빽도', '낙', '업기', '지름길', '윷 패']) assert.ok(ko.includes(word), word);
  await screenshot(page, 'yut-rules-phone-ko');
  check();
  await context.close();
});
