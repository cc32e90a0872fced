// Yut Nori's skins and results screen (issue 18, items 1 and 2), at 360 px: a game against the
// computer in chosen colours, piece shapes and board, played to the end; the results screen's
// five figures equal `madang replay`'s `result.stats` for the downloaded record; "play again"
// keeps the seats, rules and looks. Then, in Korean, a room in two browsers: each side chooses
// its look (a clash is refused by the server), the host the board, both see the choices, the
// game is played to the end, and the next round goes back to the same room's lobby, where both
// ready again before the host starts.

import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { PHONE, gameState, madang, newPage, openSetup, playToEnd, screenshot, suite } from '../lib.mjs';
import app from '../../crates/web/static/js/messages/app.js';
import yut from '../../crates/web/static/js/messages/yut.js';

const env = suite();

/** The catalogue's CSS colour of a Yut colour id, as the browser computes it (`rgb(…)`). */
async function rgbOf(page, id) {
  return page.evaluate(async (colour) => {
    const catalogue = await (await fetch('/api/catalogue')).json();
    const css = catalogue.games.find((g) => g.game === 'yut').skins.colours.find((c) => c.id === colour).colour;
    const probe = document.body.appendChild(document.createElement('span'));
    probe.style.color = css;
    const rgb = getComputedStyle(probe).color;
    probe.remove();
    return rgb;
  }, id);
}

/** The colour a side's first piece on the board is filled with, and its piece set's class. */
async function pieceLook(page, side) {
  return page.locator(`#board .yut-piece.side-${side}`).first().evaluate((el) => ({
    fill: getComputedStyle(el).getPropertyValue('--side').trim(),
    colour: getComputedStyle(el, '::before').backgroundColor,
    set: [...el.classList].find((c) => c.startsWith('pieces-')),
  }));
}

/**
 * The `result.stats` that `madang replay` prints for a game's record (downloaded as the page's
 * player would): computed from the record alone, by the command line.
 */
async function replayStats(page, id) {
  const record = await page.evaluate(async (gameId) => (await fetch(`/api/games/${gameId}/record`)).text(), id);
  const dir = mkdtempSync(path.join(tmpdir(), 'madang-yut-record-'));
  try {
    const file = path.join(dir, 'record.json');
    writeFileSync(file, record);
    const out = JSON.parse(await madang(['replay', file]));
    assert.equal(out.status, 'finished');
    return out.result.stats;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Asserts the results table shows `stats`: five figures for every side. */
async function assertFigures(page, stats) {
  const sides = Object.keys(stats).sort();
  assert.equal(await page.locator('#yut-figures tbody tr').count(), 5);
  for (const side of sides) {
    for (const col of ['finished', 'steps_left', 'captures', 'extra_throws', 'stacks']) {
      const cell = page.locator(`#yut-figures td[data-side="${side}"][data-col="${col}"]`);
      assert.equal(await cell.textContent(), String(stats[side][col]), `${side} ${col}`);
    }
  }
}

test('a game against the computer in chosen skins, its results equal to the replay, and play again', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  await openSetup(page, env.server.url, 'yut', 21);
  // The defaults: side A red round tokens, side B blue horses, the wooden board.
  const select = (part, side) => page.locator(`#skins select[name="skin-${part}-${side}"]`);
  assert.equal(await select('colour', 'A').inputValue(), 'red');
  assert.equal(await select('pieces', 'B').inputValue(), 'horse');
  assert.equal(await page.locator('#skin-board').inputValue(), 'wood');
  // A takes purple and B's horses: B gets A's round tokens, so no two sides are alike.
  await select('colour', 'A').selectOption('purple');
  await select('pieces', 'A').selectOption('horse');
  assert.equal(await select('pieces', 'B').inputValue(), 'disc');
  assert.equal(await select('colour', 'B').inputValue(), 'blue');
  await page.locator('#skin-board').selectOption('mat');
  await page.locator('details.options summary').click();
  await page.locator('#opt-pieces').fill('2');
  await screenshot(page, 'yut-skins-setup-phone');
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width, 'the set-up fits 360 px');
  await page.locator('#start').click();
  await page.locator('#board .yut-board').waitFor();

  const purple = await rgbOf(page, 'purple');
  const blue = await rgbOf(page, 'blue');
  const lookOnBoard = async () => {
    assert.ok(await page.locator('#board .yut-board.board-mat').count(), 'the straw mat board');
    const a = await page.locator('#board .yut-tray.side-A .yut-piece').first().evaluate((el) => ({
      colour: getComputedStyle(el, '::before').backgroundColor,
      set: [...el.classList].find((c) => c.startsWith('pieces-')),
    }));
    const b = await page.locator('#board .yut-tray.side-B .yut-piece').first().evaluate((el) => ({
      colour: getComputedStyle(el, '::before').backgroundColor,
      set: [...el.classList].find((c) => c.startsWith('pieces-')),
    }));
    assert.deepEqual(a, { colour: purple, set: 'pieces-horse' });
    assert.deepEqual(b, { colour: blue, set: 'pieces-disc' });
  };
  await lookOnBoard();
  const first = await gameState(page);
  // A skin changes nothing in the rules or the record.
  assert.deepEqual(first.rules, { pieces: 2 });

  await playToEnd(page, {
    onTurn: async () => {
      // Once pieces stand on the board, they keep their sides' shapes there too.
      if (await page.locator('#board .yut-field .yut-piece.side-A').count()) {
        assert.equal((await pieceLook(page, 'A')).set, 'pieces-horse');
      }
    },
  });
  const end = await gameState(page);
  assert.equal(end.status, 'finished');
  // The five figures are those `madang replay` computes from the record, the winner is named,
  // and the game's length is given.
  const stats = await replayStats(page, end.id);
  assert.deepEqual(Object.keys(stats).sort(), ['A', 'B']);
  assert.equal(stats[end.result.winner].finished, 2);
  assert.equal(stats[end.result.winner].steps_left, 0);
  await assertFigures(page, stats);
  assert.equal(await page.locator('#result .result-line').textContent(), `Side ${end.result.winner} wins`);
  const record = await page.evaluate(async (id) => (await fetch(`/api/games/${id}/record`)).json(), end.id);
  const length = await page.locator('#result .figures').textContent();
  assert.ok(length.startsWith(`${record.actions.filter((a) => !a.startsWith('throw')).length} moves (${record.actions.length} actions`), length);
  // The results screen's swatches are in the sides' colours.
  const swatch = await page.locator('#yut-figures th[data-side="A"] .yut-swatch').evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.equal(swatch, purple);
  await screenshot(page, 'yut-skins-result-phone');
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width, 'the results fit 360 px');

  // Play again: a new game with the same seats, rules and looks.
  await page.locator('#play-again').click();
  await page.waitForFunction((id) => /#\/play\/[0-9a-f]+/.test(location.hash) && !location.hash.includes(id), end.id);
  await page.locator('#board .yut-board').waitFor();
  const again = await gameState(page);
  assert.notEqual(again.id, end.id);
  assert.deepEqual(again.rules, { pieces: 2 });
  assert.deepEqual(
    again.seats.map((s) => [s.name, s.kind, s.level ?? null]),
    [['A', 'human', null], ['B', 'cpu', 'normal']],
  );
  await lookOnBoard();
  // The set-up page offers the same looks next time.
  await openSetup(page, env.server.url, 'yut', 22);
  assert.equal(await select('colour', 'A').inputValue(), 'purple');
  assert.equal(await select('pieces', 'A').inputValue(), 'horse');
  assert.equal(await page.locator('#skin-board').inputValue(), 'mat');
  check();
  await context.close();
});

/** The room snapshot as the page's server sees it. */
async function roomOf(page, code) {
  return page.evaluate(async (c) => (await (await fetch(`/api/rooms/${c}`)).json()).room, code);
}

/** Plays the room's game to its end: whoever must act clicks their first highlighted move. */
async function playRoomToEnd(code, bySeat) {
  for (let i = 0; i < 2000; i++) {
    const room = await roomOf(bySeat.A.page, code);
    if (room.status === 'finished') return room;
    const mover = bySeat[room.state.to_act];
    const legal = mover.page.locator('#board .legal');
    try {
      await legal.first().waitFor({ timeout: 5000 });
    } catch {
      continue; // The page is still drawing the last change: ask the server again.
    }
    await legal.first().click();
    await mover.page.waitForFunction(
      (v) => Number(document.getElementById('view')?.dataset.version ?? -1) > v || document.getElementById('view')?.dataset.status === 'finished',
      room.version,
      { timeout: 30000 },
    );
  }
  throw new Error('the room game did not end');
}

test('a Korean room: looks chosen per side, a clash refused, a game to the end, then the next round', async () => {
  const host = await newPage(env.browser, { viewport: PHONE, locale: 'ko-KR' });
  const guest = await newPage(env.browser, { viewport: PHONE, locale: 'ko-KR' });
  await host.page.goto(`${env.server.url}?pace=0#/setup/yut/room`);
  await host.page.locator('#start').waitFor();
  // A room's looks are chosen in its lobby, not on the set-up page.
  assert.equal(await host.page.locator('#skins fieldset').count(), 0);
  await host.page.locator('details.options summary').click();
  await host.page.locator('#opt-pieces').fill('1');
  await host.page.locator('#start').click();
  await host.page.locator('#lobby #invite').waitFor();
  const link = await host.page.locator('#invite').inputValue();
  const code = /#\/room\/([A-Z0-9]{6})$/.exec(link)[1];
  let room = await roomOf(host.page, code);
  assert.deepEqual(room.skins, { sides: { A: { colour: 'red', pieces: 'disc' }, B: { colour: 'blue', pieces: 'horse' } }, board: 'wood' });

  await guest.page.goto(link.replace('/#/', '/?pace=0#/'));
  await guest.page.locator('.lobby-seat[data-seat="B"] button').click();
  await guest.page.locator('#ready').waitFor();
  // The guest (side B) asks for A's red: the server refuses it, in Korean, and nothing changes.
  const mine = (p, part) => p.locator(`#skins select[name="skin-${part}-B"]`);
  await mine(guest.page, 'colour').selectOption('red');
  await guest.page.locator('.toast.error', { hasText: app.ko['error.code.skin_taken'] }).waitFor();
  room = await roomOf(guest.page, code);
  assert.deepEqual(room.skins.sides.B, { colour: 'blue', pieces: 'horse' });
  // Green plum blossoms for B; the host takes the hanji board.
  await mine(guest.page, 'colour').selectOption('green');
  await guest.page.waitForFunction(async (c) => (await (await fetch(`/api/rooms/${c}`)).json()).room.skins.sides.B.colour === 'green', code);
  await guest.page.waitForFunction(() => document.querySelector('#skins select[name="skin-colour-B"]')?.value === 'green');
  await mine(guest.page, 'pieces').selectOption('flower');
  assert.equal(await guest.page.locator('#skin-board').count(), 0, 'only the host chooses the board');
  await host.page.locator('#skin-board').selectOption('hanji');
  // Everyone sees the choices.
  const bLook = `${yut.ko['skin.yut.colour.green']}, ${yut.ko['skin.yut.pieces.flower']}`;
  await host.page.locator('#skins .skin-row[data-side="B"] .skin-look', { hasText: bLook }).waitFor();
  await guest.page.locator('#skins .skin-board-text', { hasText: yut.ko['skin.yut.board.hanji'] }).waitFor();
  await guest.page.locator('#skins .skin-row[data-side="B"] .yut-piece.pieces-flower').waitFor();
  room = await roomOf(host.page, code);
  assert.deepEqual(room.skins, { sides: { A: { colour: 'red', pieces: 'disc' }, B: { colour: 'green', pieces: 'flower' } }, board: 'hanji' });
  await screenshot(guest.page, 'yut-skins-room-lobby-phone-ko');
  assert.ok((await guest.page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width, 'the lobby fits 360 px');

  const start = async () => {
    await guest.page.locator('#ready').click();
    await guest.page.waitForFunction(() => document.querySelector('#ready')?.getAttribute('aria-pressed') === 'true');
    await host.page.waitForFunction(() => !document.querySelector('#start-room')?.hasAttribute('disabled'));
    await host.page.locator('#start-room').click();
    for (const p of [host.page, guest.page]) await p.waitForFunction(() => document.getElementById('view')?.dataset.status === 'playing');
  };
  await start();
  const green = await rgbOf(host.page, 'green');
  for (const p of [host.page, guest.page]) {
    await p.locator('#board .yut-board.board-hanji').waitFor();
    const b = await p.locator('#board .yut-tray.side-B .yut-piece').first().evaluate((el) => ({
      colour: getComputedStyle(el, '::before').backgroundColor,
      set: [...el.classList].find((c) => c.startsWith('pieces-')),
    }));
    assert.deepEqual(b, { colour: green, set: 'pieces-flower' });
  }
  await screenshot(host.page, 'yut-skins-room-play-phone-ko');

  room = await playRoomToEnd(code, { A: host, B: guest });
  const gameId = room.games[0];
  for (const p of [host.page, guest.page]) await p.locator('#result #yut-figures').waitFor();
  const stats = await replayStats(host.page, gameId);
  for (const p of [host.page, guest.page]) await assertFigures(p, stats);
  const winner = room.state.result.winner;
  await host.page.locator('#result h2', { hasText: winner === 'A' ? app.ko['result.you_won'] : app.ko['result.you_lost'] }).waitFor();
  await screenshot(guest.page, 'yut-skins-room-result-phone-ko');

  // The next round: the same room, seats and looks, back in the lobby; the guest readies again.
  await guest.page.locator('#next-round').click();
  for (const p of [host.page, guest.page]) await p.waitForFunction(() => document.getElementById('view')?.dataset.status === 'lobby');
  room = await roomOf(host.page, code);
  assert.equal(room.code, code);
  assert.deepEqual(room.seats.map((s) => [s.name, s.kind, s.ready ?? null]), [['A', 'human', false], ['B', 'human', false]]);
  assert.equal(room.skins.sides.B.pieces, 'flower');
  assert.equal(room.skins.board, 'hanji');
  assert.equal(await host.page.locator('#start-room').isDisabled(), true, 'the host waits for the guest to ready again');
  await start();
  room = await roomOf(host.page, code);
  assert.equal(room.status, 'playing');
  assert.equal(room.games.length, 2);
  host.check();
  guest.check();
  await host.context.close();
  await guest.context.close();
});
