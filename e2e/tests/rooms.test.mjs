// Online rooms in two browsers: one creates an Ur room, the other joins by the invite link;
// they get ready, play a few moves, one resigns, and both players' stats count the game.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESKTOP, PHONE, newPage, screenshot, statsRows, suite } from '../lib.mjs';
import messages from '../../crates/web/static/js/messages/app.js';

const env = suite();

/**
 * Asserts the room page shows the lobby as a spectator sees it: no ready, start or leave button,
 * no seat token kept, the chat log there and, instead of its input, why a spectator cannot chat.
 */
async function spectatorView(page, code) {
  for (const button of ['#ready', '#start-room', '#leave-room']) assert.equal(await page.locator(button).count(), 0, `${button} for a spectator`);
  assert.equal(await page.evaluate((c) => localStorage.getItem(`madang.room.${c}`), code), null);
  assert.equal(await page.locator('#chat-spectator').textContent(), messages.en['room.chat_sit']);
  assert.equal(await page.locator('#chat-spectator').isVisible(), true);
  assert.equal(await page.locator('.chat-form').isVisible(), false, 'no chat input for a spectator');
  assert.equal(await page.locator('#chat').count(), 1, 'the chat log stays');
}

/** The room snapshot as the page's server sees it. */
async function roomOf(page, code) {
  return page.evaluate(async (c) => (await (await fetch(`/api/rooms/${c}`)).json()).room, code);
}

test('an Ur room: create, join by link, ready, play, resign; both stats count it', async () => {
  const host = await newPage(env.browser, { viewport: DESKTOP });
  const guest = await newPage(env.browser, { viewport: PHONE });
  // The host sets a nickname and creates the room from the set-up page.
  await host.page.goto(`${env.server.url}?pace=0#/`);
  await host.page.locator('#nickname').fill('Mina');
  await host.page.getByRole('button', { name: 'Save' }).click();
  await host.page.getByText('Saved.').waitFor();
  await host.page.goto(`${env.server.url}?pace=0#/setup/ur/room`);
  // The button opens a lobby; the game starts there once everyone is ready.
  assert.equal(await host.page.locator('#start').textContent(), 'Open the room');
  await host.page.locator('#start').click();
  await host.page.locator('#lobby #invite').waitFor();
  const link = await host.page.locator('#invite').inputValue();
  const code = /#\/room\/([A-Z0-9]{6})$/.exec(link)[1];
  assert.match(code, /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{6}$/);
  let room = await roomOf(host.page, code);
  assert.equal(room.status, 'lobby');
  assert.deepEqual(room.seats.map((s) => [s.name, s.kind]), [['light', 'human'], ['dark', 'open']]);
  assert.equal(room.seats[0].nickname, 'Mina');
  // While a seat is open the start button is disabled and does not look like the red primary
  // button it becomes (app.css: --accent).
  const startStyle = () =>
    host.page.locator('#start-room').evaluate((el) => ({ disabled: el.disabled, background: getComputedStyle(el).backgroundColor, cursor: getComputedStyle(el).cursor }));
  const accent = await host.page.evaluate(() => {
    const probe = document.body.appendChild(document.createElement('span'));
    probe.style.color = 'var(--accent)';
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  });
  const waiting = await startStyle();
  assert.equal(waiting.disabled, true);
  assert.notEqual(waiting.background, accent, 'a disabled start button is not red');
  assert.equal(waiting.cursor, 'not-allowed');
  await screenshot(host.page, 'room-lobby-desktop');

  // The guest opens the link (with animations off): a spectator until seated, who reads the
  // chat and is told, where the input would be, that a seat lets them chat.
  await guest.page.goto(link.replace('/#/', '/?pace=0#/'));
  const sitDark = guest.page.locator('.lobby-seat[data-seat="dark"] button', { hasText: 'Sit here' });
  await sitDark.waitFor();
  await spectatorView(guest.page, code);
  // The guest takes the free seat, leaves it in the lobby: at once a spectator's page again
  // (the seat's token forgotten), and can sit down again.
  await sitDark.click();
  await guest.page.locator('#ready').waitFor();
  assert.equal(await guest.page.locator('#chat-spectator').isVisible(), false);
  await guest.page.locator('#leave-room').click();
  await sitDark.waitFor();
  await spectatorView(guest.page, code);
  assert.equal((await roomOf(guest.page, code)).seats[1].kind, 'open');
  await sitDark.click();
  await guest.page.locator('#ready').waitFor();
  await guest.page.locator('#ready').click();
  await guest.page.waitForFunction(() => document.querySelector('#ready')?.getAttribute('aria-pressed') === 'true');
  // A chat line of 200 characters without a space wraps on the phone: no sideways scrolling.
  const word = 'ㅋ'.repeat(100) + 'x'.repeat(100);
  await guest.page.locator('#chat-text').fill(word);
  await guest.page.locator('.chat-form button[type="submit"]').click();
  for (const p of [guest.page, host.page]) await p.locator('#chat li', { hasText: word }).waitFor();
  const chat = await guest.page.locator('#chat').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  assert.ok(chat.scroll <= chat.client, `chat is ${chat.scroll}px wide in ${chat.client}px`);
  assert.ok(await guest.page.evaluate(() => document.documentElement.scrollWidth) <= PHONE.width);
  await screenshot(guest.page, 'room-lobby-phone');
  // The host sees the guest ready and starts.
  await host.page.waitForFunction(() => !document.querySelector('#start-room')?.hasAttribute('disabled'));
  const enabled = await startStyle();
  assert.equal(enabled.background, accent, 'the start button is red once it can be pressed');
  // The lobby's heading says what it now waits for: the host's start.
  assert.equal(await host.page.locator('#lobby-title').textContent(), 'Everyone is ready: start the game');
  await guest.page.locator('#lobby-title', { hasText: 'Everyone is ready: waiting for the host to start' }).waitFor();
  await host.page.locator('#start-room').click();
  await host.page.waitForFunction(() => document.getElementById('view')?.dataset.status === 'playing');
  await guest.page.waitForFunction(() => document.getElementById('view')?.dataset.status === 'playing');

  // A few moves: whoever's turn it is clicks a highlighted move; the other sees no move.
  for (let i = 0; i < 6; i++) {
    room = await roomOf(host.page, code);
    assert.equal(room.status, 'playing');
    const mover = room.state.to_act === 'light' ? host : guest;
    const other = mover === host ? guest : host;
    await mover.page.locator('#board .legal').first().waitFor();
    assert.equal(await other.page.locator('#board .legal').count(), 0, 'only the seat to move has moves');
    const before = room.version;
    await mover.page.locator('#board .legal').first().click();
    for (const p of [host.page, guest.page]) {
      await p.waitForFunction((v) => Number(document.getElementById('view')?.dataset.version) > v, before);
    }
  }
  await screenshot(guest.page, 'room-play-phone');
  // Both boards show the same position as the server.
  room = await roomOf(host.page, code);
  for (const p of [host.page, guest.page]) {
    await p.waitForFunction((v) => Number(document.getElementById('view')?.dataset.version) >= v, room.version);
  }
  // The pages have applied each move's `changes` to the snapshot they started from; the guest's
  // page loaded again starts from the whole snapshot (docs/api.md, "Versions"): the same board,
  // tile by tile, with the same pieces in hand and borne off.
  const board = (p) => p.evaluate(() => [...document.querySelectorAll('#board .tile, #board .count')].map((e) => e.getAttribute('aria-label') ?? e.textContent));
  const held = await board(guest.page);
  assert.ok(held.length > 20, held.join(' | '));
  // The guest's page goes away. The host may hand the seat to the computer only once it has
  // been away for the grace period (30 s, docs/api.md "hand_to_cpu"): until then the host's
  // button is disabled and counts down; when the time has come (set in the past here) it may
  // be pressed. The guest comes back and the button goes.
  const guestUrl = guest.page.url();
  await guest.page.goto('about:blank');
  const hand = host.page.locator('button.hand-to-cpu');
  await hand.waitFor();
  assert.equal(await hand.isDisabled(), true);
  const wait = /^Let the computer play \(in (\d+) s\)$/.exec(await hand.textContent());
  assert.ok(wait && Number(wait[1]) > 20 && Number(wait[1]) <= 30, await hand.textContent());
  await hand.evaluate((b) => { b.dataset.readyAt = String(Date.now() - 1); });
  await host.page.waitForFunction(() => document.querySelector('button.hand-to-cpu')?.disabled === false);
  assert.equal(await hand.textContent(), messages.en['room.hand_to_cpu']);
  await guest.page.goto(guestUrl);
  await hand.waitFor({ state: 'detached' });
  await guest.page.reload();
  await guest.page.waitForFunction((v) => Number(document.getElementById('view')?.dataset.version) >= v, room.version);
  await guest.page.locator('#board .tile').first().waitFor();
  assert.deepEqual(await board(guest.page), held);
  // The page loaded again also shows the room's history (`hello` with `history`): the moves so
  // far and the guest's going away and coming back, entry for entry as the host's page logged
  // them one by one, and the chat from the lobby.
  room = await roomOf(host.page, code);
  for (const p of [host.page, guest.page]) {
    await p.waitForFunction((v) => Number(document.getElementById('view')?.dataset.version) >= v, room.version);
  }
  const logOf = (p) => p.locator('#log li').allTextContents();
  const hostLog = await logOf(host.page);
  assert.ok(hostLog.length >= 6, hostLog.join(' | '));
  assert.deepEqual(await logOf(guest.page), hostLog);
  await guest.page.locator('#chat li', { hasText: word }).waitFor();
  // A draw offer reaches the other player beside the turn line, scrolled into view on a phone
  // where the player was looking at the buttons below the board; declined, it goes.
  await guest.page.locator('#resign').scrollIntoViewIfNeeded();
  await host.page.locator('#draw-offer').click();
  const banner = guest.page.locator('#draw-banner');
  await banner.waitFor();
  assert.match(await banner.textContent(), /Light \(Mina\) offers a draw\./);
  const place = await banner.evaluate((el) => ({ top: el.getBoundingClientRect().top, height: window.innerHeight }));
  assert.ok(place.top >= 0 && place.top < place.height, `the offer is on screen: ${JSON.stringify(place)}`);
  assert.equal(await host.page.locator('#draw-banner').isVisible(), false, 'the one who offers is not asked');
  await guest.page.locator('#draw-decline').click();
  await banner.waitFor({ state: 'hidden' });
  assert.equal((await roomOf(host.page, code)).draw_offer ?? null, null);
  // The guest (dark) resigns: light wins.
  await guest.page.locator('#resign').click();
  await guest.page.locator('#resign').click();
  await host.page.locator('#result h2', { hasText: 'You won!' }).waitFor();
  await guest.page.locator('#result h2', { hasText: 'You lost' }).waitFor();
  // The result's own line names the seat with its player, as the log does.
  assert.match(await host.page.locator('#result .result-line').textContent(), /^Dark \(.+\) resigned$/);
  room = await roomOf(host.page, code);
  assert.equal(room.status, 'finished');
  assert.deepEqual(room.state.end, { reason: 'resign', by: 'dark' });
  // The room's game is reviewed like any other: each player's results screen tells their own
  // side's luck against skill and links to the review page.
  const gameId = room.games[room.games.length - 1];
  for (const [p, side] of [[host.page, 'light'], [guest.page, 'dark']]) {
    const sentence = p.locator('#review-result .review-sentence');
    await sentence.waitFor({ timeout: 60000 });
    assert.equal(await sentence.getAttribute('data-side'), side);
    assert.match(await sentence.locator('.review-words').textContent(), /^Luck (gave you \+\d+ points|cost you \d+ points|neither helped nor hurt you); your moves cost/);
    assert.equal(await p.locator('#review-link').getAttribute('href'), `#/review/${gameId}`);
  }
  await screenshot(host.page, 'room-result-desktop');

  // The guest leaves after the game: the room is back in its lobby, and the guest's page is a
  // spectator's at once (no ready or leave button, "Sit here" on the seat just left); the host's
  // shows the seat open.
  await guest.page.locator('#leave-room').click();
  await guest.page.waitForFunction(() => document.getElementById('view')?.dataset.status === 'lobby');
  await sitDark.waitFor();
  await spectatorView(guest.page, code);
  assert.equal(await guest.page.locator('#result').isVisible(), false);
  await host.page.locator('.lobby-seat[data-seat="dark"][data-kind="open"]').waitFor();
  assert.equal(await host.page.locator('#leave-room').count(), 1, 'the host keeps the seat');

  // Both players' stats count the room game.
  const hostRows = await statsRows(host.page, env.server.url);
  const guestRows = await statsRows(guest.page, env.server.url);
  const row = (rows) => rows.find((r) => r.game === 'Royal Game of Ur' && r.mode.startsWith('Online room'));
  assert.ok(row(hostRows), JSON.stringify(hostRows));
  assert.equal(row(hostRows).played, '1');
  assert.equal(row(hostRows).won, '1');
  assert.equal(row(guestRows).played, '1');
  assert.equal(row(guestRows).lost, '1');
  host.check();
  guest.check();
  await host.context.close();
  await guest.context.close();
});

test('a room names a team with its players, a seat with its player, a computer seat alone', async () => {
  // The room page names a side of several seats with its players' nicknames, as it names a
  // seat with its player's ("Dark (Mina) resigned"); checked on `RoomState.label` with a team
  // room's seats as the snapshot gives them (docs/api.md, "Rooms": `side` on every seat).
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  await page.goto(`${env.server.url}?pace=0#/`);
  const labels = await page.evaluate(async () => {
    const { RoomState } = await import('/js/room/state.js');
    const yut = (await import('/js/games/yut.js')).default;
    const seats = [
      { name: 'A1', side: 'A', kind: 'human', nickname: 'Mina' },
      { name: 'B1', side: 'B', kind: 'cpu', nickname: null },
      { name: 'A2', side: 'A', kind: 'human', nickname: 'Joon' },
      { name: 'B2', side: 'B', kind: 'human', nickname: 'Sora' },
    ];
    const state = new RoomState('ABCDEF', { seats });
    const words = Object.fromEntries(['A', 'B', 'A1', 'B1'].map((n) => [n, yut.seatName(n)]));
    return { words, A: state.label('A', yut.seatName), B: state.label('B', yut.seatName), A1: state.label('A1', yut.seatName), B1: state.label('B1', yut.seatName) };
  });
  const { words } = labels;
  assert.equal(labels.A, `${words.A} (Mina, Joon)`);
  assert.equal(labels.B, `${words.B} (Sora)`, 'a computer seat has no nickname to show');
  assert.equal(labels.A1, `${words.A1} (Mina)`);
  assert.equal(labels.B1, words.B1);
  check();
  await context.close();
});

test('a seat with a long nickname keeps its side name on one line on a phone', async () => {
  // A seat chip as the room page draws it (pages/room.js: swatch, side name, who) with the
  // longest nickname allowed (24 characters, docs/api.md "PUT /api/me") in Korean, on a phone:
  // the nickname wraps, the side's name stays whole on one line.
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE, locale: 'ko-KR' });
  await page.goto(`${env.server.url}?pace=0#/`);
  const sizes = await page.evaluate(() => {
    const list = document.body.appendChild(document.createElement('ul'));
    list.className = 'seat-list';
    list.innerHTML = '<li class="seat"><span class="seat-swatch"></span><span class="seat-name">B편</span><span class="seat-who">가나다라마바사아자차카타파하가나다라마바사아자차 · 연결 끊김</span></li>';
    const name = /** @type {HTMLElement} */ (list.querySelector('.seat-name'));
    const who = /** @type {HTMLElement} */ (list.querySelector('.seat-who'));
    const line = parseFloat(getComputedStyle(name).lineHeight) || parseFloat(getComputedStyle(name).fontSize) * 1.5;
    return { name: name.getBoundingClientRect().height, line, who: who.getBoundingClientRect().height, list: list.getBoundingClientRect().width, page: document.documentElement.clientWidth };
  });
  assert.ok(sizes.name <= sizes.line * 1.2, `the side name on one line: ${JSON.stringify(sizes)}`);
  assert.ok(sizes.who > sizes.line * 1.5, `the nickname wraps: ${JSON.stringify(sizes)}`);
  assert.ok(sizes.list <= sizes.page, `no sideways scrolling: ${JSON.stringify(sizes)}`);
  check();
  await context.close();
});

test('an unknown room code: the error page in Korean, from the catalogue', async () => {
  const { page, check, context, allow } = await newPage(env.browser, { viewport: PHONE, locale: 'ko-KR' });
  allow(/HTTP 404 for GET .*\/api\/rooms\/ZZZZZZ$/);
  allow(/^console error: /); // the page logs the server's own message
  await page.goto(`${env.server.url}#/room/ZZZZZZ`);
  await page.locator('#error-text').waitFor();
  assert.equal(await page.locator('section[role="alert"] h1').textContent(), messages.ko['error.title']);
  assert.equal(await page.locator('#error-text').textContent(), messages.ko['error.code.unknown_room']);
  await screenshot(page, 'room-unknown-phone-ko');
  check();
  await context.close();
});

test('joining by code: a code no room has is said beside the field; a known one opens the room', async () => {
  const { page, check, context, allow } = await newPage(env.browser, { viewport: PHONE });
  allow(/HTTP 404 for GET .*\/api\/rooms\/ZZZZZZ$/);
  allow(/^console error: Failed to load resource: .* 404/);
  await page.goto(`${env.server.url}?pace=0#/setup/ur/room`);
  await page.locator('#start').click();
  await page.waitForURL(/#\/room\/[A-Z0-9]{6}$/);
  const code = /#\/room\/([A-Z0-9]{6})$/.exec(page.url())[1];
  await page.goto(`${env.server.url}?pace=0#/rooms`);
  await page.locator('#room-code').fill('zzz-zzz');
  await page.locator('#join-code').click();
  await page.getByText(messages.en['error.code.unknown_room']).waitFor();
  assert.match(page.url(), /#\/rooms$/);
  assert.equal(await page.locator('#room-code').inputValue(), 'zzz-zzz');
  // Typing clears the message; the room's own code, typed as a person might, opens it.
  await page.locator('#room-code').fill(`${code.slice(0, 3).toLowerCase()} ${code.slice(3)}`);
  assert.equal(await page.locator('form .error').textContent(), '');
  await page.locator('#join-code').click();
  await page.waitForURL(new RegExp(`#/room/${code}$`));
  await page.locator('#lobby').waitFor();
  // The host moves to the open seat: the page follows (the seat it holds, and the one kept for
  // a later visit), so the seat left is offered to move back to.
  await page.locator('.lobby-seat[data-seat="dark"] button', { hasText: 'Move here' }).click();
  await page.locator('.lobby-seat.mine[data-seat="dark"]').waitFor();
  await page.locator('.lobby-seat[data-seat="light"] button', { hasText: 'Move here' }).waitFor();
  assert.equal(JSON.parse(await page.evaluate((c) => localStorage.getItem(`madang.room.${c}`), code)).seat, 'dark');
  check();
  await context.close();
});

test('leaving a room at once, before its connection opens, is quiet', async () => {
  // The page closes its socket when the player leaves; one still opening is closed as soon as
  // it opens (closing it earlier makes the browser warn: "closed before the connection is
  // established"). Fifteen rooms left at once make the race near certain.
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  const codes = [];
  for (let i = 0; i < 15; i++) {
    await page.goto(`${env.server.url}?pace=0#/setup/ur/room`);
    await page.locator('#start').click();
    await page.waitForURL(/#\/room\/[A-Z0-9]{6}$/);
    codes.push(/#\/room\/([A-Z0-9]{6})$/.exec(page.url())?.[1]);
  }
  await page.goto(`${env.server.url}?pace=0#/setup/ur/room`);
  await page.locator('#start').waitFor();
  assert.equal(new Set(codes).size, 15);
  // The rooms are there for the guest the host would invite.
  const room = await roomOf(page, codes[0]);
  assert.equal(room.code, codes[0]);
  check();
  await context.close();
});
