// The pages around the games: home, language switch, nickname, record files, bad input.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESKTOP, PHONE, newPage, screenshot, statsRows, suite } from '../lib.mjs';

const env = suite();

test('Korean by default for a Korean browser, English one click away, and the choice is kept', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE, locale: 'ko-KR' });
  await page.goto(`${env.server.url}#/`);
  await page.locator('.game-list').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ko');
  // The page shell's skip link speaks the page's language too.
  assert.equal(await page.locator('a.skip').textContent(), '본문으로 건너뛰기');
  const names = await page.locator('.game-card h2').allTextContents();
  assert.deepEqual(names, ['윷놀이', '우르 왕실 놀이', '루도', '일곱 주사위 포커']);
  await screenshot(page, 'home-phone-ko');
  await page.getByRole('button', { name: '언어: 영어로 바꾸기' }).click();
  assert.deepEqual(await page.locator('.game-card h2').allTextContents(), ['Yut Nori', 'Royal Game of Ur', 'Ludo', 'Seven Dice Poker']);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.equal(await page.locator('a.skip').textContent(), 'Skip to content');
  await page.reload();
  await page.locator('.game-list').waitFor();
  assert.equal(await page.locator('.game-card h2').first().textContent(), 'Yut Nori');
  check();
  await context.close();
});

test('a quota refusal says which quota and how long to wait', async () => {
  // The refusal's `detail` as the server sends it (crates/server/src/limits.rs and its test);
  // 95 s is said in minutes, rounded up.
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  await page.goto(`${env.server.url}?pace=0#/`);
  const said = await page.evaluate(async () => {
    const { errorText } = await import('/js/i18n.js');
    const refusal = (detail) => ({ status: 429, code: 'quota', message: 'quota: …', detail });
    return [
      errorText(refusal({ quota: 'games', per: 'player', limit: 120, retry_after_s: 95 })),
      errorText(refusal({ quota: 'players', per: 'address', limit: 30, retry_after_s: 4 })),
      errorText(refusal(null)),
    ];
  });
  assert.deepEqual(said, [
    'You have started 120 games this hour, the most allowed. Try again in 2 min.',
    'Too many new players from this network: at most 30 an hour. Try again in 4 s.',
    'You have made too many of these for now; wait a while and try again.',
  ]);
  check();
  await context.close();
});

test('an English browser gets English; the nickname can be changed', async () => {
  const { page, check, context, allow } = await newPage(env.browser, { viewport: DESKTOP, locale: 'en-US' });
  await page.goto(`${env.server.url}#/`);
  await page.locator('#nickname').waitFor();
  assert.match(await page.locator('#nickname').inputValue(), /^Guest /);
  await page.locator('#nickname').fill('Mina');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved.').waitFor();
  const me = await page.evaluate(async () => (await fetch('/api/me')).json());
  assert.equal(me.nickname, 'Mina');
  await screenshot(page, 'home-desktop');
  // A refused name: "Saved." goes, the error says why beside the button, the name typed stays
  // to be corrected, and the saved name is still Mina.
  allow(/422/);
  await page.locator('#nickname').fill('<b>x</b>');
  await page.getByRole('button', { name: 'Save' }).click();
  const status = page.locator('.nickname .status');
  await status.and(page.locator('.error')).waitFor();
  assert.doesNotMatch(await status.textContent(), /Saved/);
  assert.equal(await page.locator('#nickname').inputValue(), '<b>x</b>');
  assert.equal((await page.evaluate(async () => (await fetch('/api/me')).json())).nickname, 'Mina');
  // Typing again clears what was said about the old name.
  await page.locator('#nickname').fill('Mina Kim');
  assert.equal(await status.textContent(), '');
  check();
  await context.close();
});

test('every rules page in both languages; Ur has the 1-4-6-4-1 table', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  for (const lang of ['en', 'ko']) {
    for (const game of ['yut', 'ur', 'ludo', 'dice-poker']) {
      await page.goto(`${env.server.url}?lang=${lang}#/rules/${game}`);
      await page.locator('article.rules h2').first().waitFor();
      const text = await page.locator('article.rules').textContent();
      assert.ok(text.length > 600, `${lang} rules of ${game} are ${text.length} characters`);
    }
  }
  await page.goto(`${env.server.url}?lang=en#/rules/ur`);
  await page.locator('#ur-dice-table').waitFor();
  const ways = await page.locator('#ur-dice-table tbody tr td:nth-child(2)').allTextContents();
  assert.deepEqual(ways, ['1', '4', '6', '4', '1']);
  const combos = await page.locator('#ur-dice-table .combo').count();
  assert.equal(combos, 16);
  check();
  await context.close();
});

test('a record file that reveals its seed says whether its rolls are the seed’s', async () => {
  // The seed 000102…1f's first Finkel rolls are 3, 3 (crates/games/tests/seeds.rs, computed
  // outside madang): light rolls 3 and enters, dark rolls 3. A record giving dark a 2 instead
  // still replays (a 2 is legal) but is not what its seed gives.
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  await page.goto(`${env.server.url}?pace=0#/replay-file`);
  const seed = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
  const load = async (actions) => {
    const record = { game: 'ur', seed, actions };
    await page.locator('#record-file').setInputFiles({ name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record)) });
  };
  await load(['roll 3', 'move 0', 'roll 3']);
  await page.locator('#seed-check.seed-ok').waitFor();
  assert.equal(await page.locator('#seed-check').textContent(), 'Every chance outcome of this record (2) is the one this seed gives.');
  await load(['roll 3', 'move 0', 'roll 2']);
  await page.locator('#seed-check.seed-bad').waitFor();
  assert.equal(
    await page.locator('#seed-check').textContent(),
    'Action 3 of the record, “roll 2”, is not what this seed gives (it gives “roll 3”): the record and its seed do not match.',
  );
  await page.locator('button.lang').click();
  await page.locator('#seed-check', { hasText: '기보의 3번째 수(“roll 2”)는 이 시드가 주는 결과(“roll 3”)가 아닙니다.' }).waitFor();
  check();
  await context.close();
});

test('a record file replays in the browser; a bad one gets a clear error', async () => {
  const { page, check, context, allow } = await newPage(env.browser, { viewport: DESKTOP });
  await page.goto(`${env.server.url}?pace=0#/replay-file`);
  // The worked example of the spec (README.md, "Game records").
  const record = { game: 'ur', rules: { preset: 'finkel' }, players: 2, actions: ['roll 2', 'move 0', 'roll 3', 'move 0', 'roll 0', 'roll 4'] };
  await page.locator('#record-file').setInputFiles({ name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record)) });
  await page.locator('#step-caption').waitFor();
  await page.waitForFunction(() => document.getElementById('step-caption')?.textContent?.startsWith('Step 6 of 6'));
  // Light entered on square 2 (A3), dark on square 3 (C2).
  assert.equal(await page.locator('[data-cell="A3"] .piece-light').count(), 1);
  assert.equal(await page.locator('[data-cell="C2"] .piece-dark').count(), 1);
  // Each step of the move list is a 44 px touch target.
  for (const step of await page.locator('.log button.link').all()) {
    const box = await step.boundingBox();
    assert.ok(box && box.height >= 44, `a step of the move list: ${JSON.stringify(box)}`);
  }
  await page.locator('#prev').click();
  await page.waitForFunction(() => document.getElementById('step-caption')?.textContent?.startsWith('Step 5 of 6'));
  // A change of language keeps the loaded file (drawn again in Korean, at its last step).
  await page.locator('button.lang').click();
  await page.waitForFunction(() => document.getElementById('step-caption')?.textContent?.startsWith('6수 중 6수째'));
  assert.equal(await page.locator('[data-cell="A3"] .piece-light').count(), 1);
  await page.locator('button.lang').click();
  await page.locator('#step-caption', { hasText: 'Step 6 of 6' }).waitFor();

  await page.goto(`${env.server.url}?pace=0#/replay-file`);
  allow(/422/);
  const bad = { ...record, actions: ['roll 2', 'move 5'] };
  await page.locator('#record-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
  await page.locator('#record-why').waitFor();
  // Which action, and what the game awaited instead (with a 2 and every piece in hand light can
  // only enter), with the server's words as a technical note.
  assert.equal(
    await page.locator('#record-why').textContent(),
    'Action 2 of the record, “move 5”, cannot be played. At that point it was Light’s turn (a move), and the legal actions were: move 0.',
  );
  assert.match(await page.locator('.error .detail').textContent(), /action 1 "move 5"/);
  assert.match(await page.locator('#record-why + p.hint').textContent(), /^The server’s words \(it counts a record’s actions from 0\): action 1/);
  await page.locator('#record-file').setInputFiles({ name: 'x.json', mimeType: 'application/json', buffer: Buffer.from('{not json') });
  await page.locator('.error', { hasText: 'not JSON' }).waitFor();
  check();
  await context.close();
});

test('the stats page counts a draw as half a win and says so', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  // Rows as `GET /api/stats` gives them (docs/api.md, "History and stats").
  const row = (game, won, lost, drawn, noResult) => ({
    game, mode: 'computer', cpu: 'normal', played: won + lost + drawn + noResult, won, lost, drawn, no_result: noResult, ongoing: 0, time_played_ms: 60000,
  });
  const stats = [row('ur', 1, 0, 1, 0), row('yut', 1, 1, 2, 3), row('ludo', 0, 0, 0, 2)];
  await page.route('**/api/stats', (route) => route.fulfill({ json: { stats } }));
  const rows = await statsRows(page, env.server.url);
  // (won + drawn / 2) / (won + lost + drawn); no result left out; nothing to count: a dash.
  assert.deepEqual(rows.map((r) => [r.game, r.drawn, r.win_rate]), [['Royal Game of Ur', '1', '75 %'], ['Yut Nori', '2', '50 %'], ['Ludo', '0', '–']]);
  assert.match(await page.locator('#stats-note').textContent(), /counts a draw as half a win/);
  await screenshot(page, 'stats-phone');
  check();
  await context.close();
});

test('a message over the size limit closes the game socket with 1009 and the limit, which the browser sees', async () => {
  // docs/api.md: a frame or message over the hard limit closes with 1009 and a reason naming it.
  // The server stops reading the oversized message, so its bytes stay unread; the browser must
  // still get the close frame before the connection goes (it saw 1006 and no reason before).
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  await page.goto(`${env.server.url}?pace=0#/`);
  const closed = await page.evaluate(async () => {
    const body = JSON.stringify({ game: 'ur', seats: [{ kind: 'human' }, { kind: 'cpu', level: 'easy' }] });
    const created = await (await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })).json();
    const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/api/games/${created.id}/ws`);
    return await new Promise((resolve) => {
      ws.onopen = () => {
        ws.send(JSON.stringify({ type: 'hello' }));
        ws.send('x'.repeat(70000));
      };
      ws.onclose = (e) => resolve({ code: e.code, reason: e.reason });
    });
  });
  assert.deepEqual(closed, { code: 1009, reason: 'a message or frame over 65536 bytes closes the connection' });
  check();
  await context.close();
});
