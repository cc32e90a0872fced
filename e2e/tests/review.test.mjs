// The game review of every game (issue 16, "Where it shows"): a short game of each — played to
// the end, or resigned or left after a few moves, which the server reviews all the same — shows
// the person's luck against skill on the results screen, and the review page draws the graph (a
// line per side), every decision graded, each side's account and the key moments, in English
// and Korean, on a phone (360 px) and a desktop (1280 px); the figures are the API's. Ur with a
// solved table (3 pieces, solved before the server starts) is reviewed exactly; everything else
// is estimated, so the pages show the progress and poll. Also: a record file's review on the
// replay page, and a server busy with another review.
//
// Screenshots go to e2e/artifacts/, or to REVIEW_SHOTS when set (REVIEW_SHOTS=/tmp/review-shots).

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ARTIFACTS, DESKTOP, PHONE, clickMove, gameState, madang, newPage, openSetup, startThreePieceUr, playToEnd, seed, suite } from '../lib.mjs';

const env = suite({
  prepare: async (dataDir) => {
    await madang(['ur', 'solve', '--rules', '{"pieces":3}', '--data-dir', dataDir, '--threads', '1']);
  },
});

const SHOTS = process.env.REVIEW_SHOTS || ARTIFACTS;
const WIDE = { width: DESKTOP.width, height: 900 };

/** A full-page screenshot into SHOTS. */
async function shot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

const GRADES = ['best', 'excellent', 'good', 'inaccuracy', 'mistake', 'blunder'];
const GRADE_NAMES = {
  en: ['Best', 'Excellent', 'Good', 'Inaccuracy', 'Mistake', 'Blunder'],
  ko: ['최선', '훌륭함', '좋음', '부정확', '실수', '대실수'],
};

/** Rounded as the page rounds a figure in words: half away from zero (`+ 0` turns −0 into 0, as the page's data attributes do: they are text). */
const rounded = (x) => Math.sign(x) * Math.round(Math.abs(x)) + 0;

/**
 * Calls the API from the page (its player, its origin); throws on an error answer.
 * @returns {Promise<{status: number, body: any}>}
 */
async function call(page, method, url, body) {
  return page.evaluate(
    async ({ method, url, body }) => {
      const r = await fetch(url, { method, headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
      return { status: r.status, body: await r.json() };
    },
    { method, url, body },
  );
}

/**
 * Waits until the page's own first requests are answered. A fresh browser's first requests are
 * each given a new guest id, and the last cookie set wins: a game created while the page was
 * still loading could belong to an id the browser no longer holds (`not_your_seat` on its
 * first action).
 */
async function settled(page) {
  await page.waitForLoadState('networkidle');
}

/**
 * Creates a game through the API and plays `actions` of the person's actions (their first move
 * each time, their rolls included), then ends it with `end` (`resign`, `leave`) if still on.
 */
async function apiGame(page, request, actions, end) {
  await settled(page);
  const created = await call(page, 'POST', '/api/games', request);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  let state = created.body;
  for (let i = 0; i < actions && state.status === 'ongoing' && state.moves?.length; i++) {
    const answer = await call(page, 'POST', `/api/games/${state.id}/actions`, { action: state.moves[0].action, version: state.version });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    state = (await call(page, 'GET', `/api/games/${state.id}`)).body;
  }
  if (end && state.status === 'ongoing') assert.equal((await call(page, 'POST', `/api/games/${state.id}/${end}`, {})).status, 200);
  return state.id;
}

/** The finished review of game `id` (the page has asked for it already: stored, so 200). */
async function reviewOf(page, id) {
  const answer = await call(page, 'GET', `/api/games/${id}/review`);
  assert.equal(answer.status, 200, `the review of ${id} is done: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The account adds up for every side: result = initial + luck − loss + gains (points). */
function checkAccount(review) {
  for (const s of review.summary) {
    const sum = s.initial + s.luck - s.loss + s.gains;
    assert.ok(Math.abs(s.result - sum) < 0.5, `${s.side}: result ${s.result} against ${s.initial} + ${s.luck} − ${s.loss} + ${s.gains} = ${sum}`);
  }
}

/**
 * What the sentence of a side must say: its luck and its moves' loss rounded, in words (`you`
 * for the person's own side, else the side's `name`).
 */
function expectedWords(lang, s, you, name) {
  const luck = rounded(s.luck);
  const loss = rounded(s.loss);
  const L = Math.abs(luck);
  if (lang === 'en') {
    const who = you ? 'you' : name;
    return [
      luck > 0 ? `Luck gave ${who} +${L} points` : luck < 0 ? `Luck cost ${who} ${L} points` : `Luck neither helped nor hurt ${who}`,
      loss > 0 ? `${you ? 'your' : 'their'} moves cost ${loss}.` : `${you ? 'your' : 'their'} moves cost nothing.`,
    ];
  }
  return [
    luck > 0 ? `운으로 ${L}%p를 얻었고` : luck < 0 ? `운으로 ${L}%p를 잃었고` : you ? '운은 승률을 바꾸지 않았고' : '운으로 승률이 바뀌지 않았고',
    you ? (loss > 0 ? `내 수로 ${loss}%p를 잃었습니다.` : '내 수로는 잃은 승률이 없습니다.') : loss > 0 ? `자기 수로 ${loss}%p를 잃었습니다.` : '자기 수로는 잃은 승률이 없습니다.',
    ...(you ? [] : [name]),
  ];
}

/**
 * Checks a sentence element against the review's summary of side `s`: the rounded figures on
 * it and in its words, and how exact they are.
 */
async function checkSentence(sentence, review, s, lang, you, name) {
  const sum = review.summary[s];
  assert.equal(await sentence.getAttribute('data-side'), review.sides[s]);
  assert.equal(Number(await sentence.getAttribute('data-luck')), rounded(sum.luck), 'luck');
  assert.equal(Number(await sentence.getAttribute('data-loss')), rounded(sum.loss), 'loss');
  assert.equal(Number(await sentence.getAttribute('data-gains')), rounded(sum.gains), 'gains');
  const words = await sentence.locator('.review-words').textContent();
  for (const part of expectedWords(lang, sum, you, name)) assert.ok(words.includes(part), `"${words}" says "${part}"`);
  const precision = await sentence.locator('.review-precision').textContent();
  if (review.exact) assert.equal(precision, lang === 'en' ? 'Exact (solved table).' : '정확한 값(풀이표).');
  else {
    // The moves' margin: their decisions' margins combined (none when they decided nothing).
    const margin = Math.round(Math.sqrt(review.moves.filter((m) => m.side === s).reduce((a, m) => a + m.margin ** 2, 0)));
    const luck = Math.round(sum.luck_margin);
    const en = margin > 0 ? `Estimates (95 % margins): luck ±${luck}, moves ±${margin} points.` : `Estimates (95 % margins): luck ±${luck} points.`;
    const ko = margin > 0 ? `추정치(95 % 오차): 운 ±${luck}%p, 수 ±${margin}%p.` : `추정치(95 % 오차): 운 ±${luck}%p.`;
    assert.equal(precision, lang === 'en' ? en : ko);
  }
}

/**
 * Checks the review page (or the replay page's review) against the review: the graph's lines,
 * each side's card, the decisions and key moments, the thresholds and the method.
 */
async function checkReview(page, review, lang, viewerSide) {
  const root = page.locator('#review');
  // One line per side, with a point at the start and after every action; the last point is the
  // last chance (y = 300 · (1 − chance) in the graph's box).
  const lines = root.locator('#review-graph polyline.review-line');
  assert.equal(await lines.count(), review.sides.length);
  const drawn = await lines.evaluateAll((els) => els.map((e) => ({ side: e.getAttribute('data-side'), points: e.getAttribute('points').split(' ') })));
  assert.deepEqual(drawn.map((l) => l.side), review.sides);
  const last = review.graph[review.graph.length - 1].chances;
  drawn.forEach((line, s) => {
    assert.equal(line.points.length, review.graph.length, `${line.side}: a point per step`);
    const y = Number(line.points[line.points.length - 1].split(',')[1]);
    assert.ok(Math.abs(y - 300 * (1 - last[s])) < 0.1, `${line.side} ends at ${y}, chance ${last[s]}`);
  });
  // Each side's card: accuracy, decisions by grade, the sentence.
  const decisions = review.moves.filter((m) => m.choices > 1);
  for (const [s, side] of review.sides.entries()) {
    const card = root.locator(`.review-side[data-side="${side}"]`);
    const sum = review.summary[s];
    if (sum.accuracy === null) assert.equal(await card.locator('.review-accuracy-value').count(), 0);
    else assert.equal(await card.locator('.review-accuracy-value').textContent(), `${sum.accuracy.toFixed(1)} %`);
    const counts = await card.locator('.review-grades li').evaluateAll((els) => els.map((e) => [e.getAttribute('data-grade'), Number(e.getAttribute('data-count'))]));
    assert.deepEqual(
      counts,
      GRADES.map((g) => [g, decisions.filter((m) => m.side === s && m.grade === g).length]),
    );
    assert.equal(counts.reduce((n, [, c]) => n + c, 0), sum.decisions, `${side}: the grades count its decisions`);
    const names = await card.locator('.review-grades li').evaluateAll((els) => els.map((e) => e.firstChild.textContent));
    assert.deepEqual(names, GRADE_NAMES[lang]);
    const name = await card.locator('h3').evaluate((h) => h.childNodes[1].textContent);
    await checkSentence(card.locator('.review-sentence'), review, s, lang, side === viewerSide && review.sides.length > 1, name);
    assert.equal(await card.evaluate((c) => c.classList.contains('mine')), side === viewerSide);
  }
  // Every decision with a choice, graded, in words (not notation), with the best move of each
  // that gave something away.
  const listed = await root.locator('#review-moves li').evaluateAll((els) =>
    els.map((e) => ({ grade: e.dataset.grade, index: Number(e.dataset.index), played: e.querySelector('.review-played').textContent, best: e.querySelector('.review-best')?.textContent ?? null, loss: e.querySelector('.review-loss')?.textContent ?? null })),
  );
  assert.deepEqual(listed.map((l) => [l.index, l.grade]), decisions.map((m) => [m.index, m.grade]));
  listed.forEach((l, i) => {
    const m = decisions[i];
    assert.notEqual(l.played, m.action, `step ${m.index + 1} in words`);
    // (A loss that rounds to 0.0 points at the list's tenth of a point is shown as none.)
    const gaveAway = Math.round(m.loss * 10) > 0;
    assert.equal(l.best !== null, gaveAway && m.best !== m.action, `step ${m.index + 1}: the best move shown when the move gave something away`);
    assert.equal(l.loss !== null, gaveAway, `step ${m.index + 1}: a loss shown only when it is at least 0.1`);
    if (l.loss !== null) assert.ok(!/[−-]0[.,]0\b/.test(l.loss), `step ${m.index + 1}: ${l.loss}`);
    if (l.best !== null) assert.notEqual(l.best, `${lang === 'en' ? 'best: ' : '최선: '}${m.best}`, `step ${m.index + 1}: the best move in words`);
  });
  // The key moments, in the review's order.
  const moments = await root.locator('#review-key li').evaluateAll((els) => els.map((e) => [e.dataset.kind, Number(e.dataset.index)]));
  assert.deepEqual(moments, review.key_moments.map((k) => [k.kind, k.index]));
  // The grades' thresholds and the method.
  const thresholds = await root.locator('#review-thresholds').textContent();
  assert.ok(thresholds.includes(lang === 'en' ? 'best below 0.01, excellent below 1, good below 2.5, inaccuracy below 5, mistake below 10, blunder from 10' : '0.01 미만 최선, 1 미만 훌륭함, 2.5 미만 좋음, 5 미만 부정확, 10 미만 실수, 10 이상 대실수'), thresholds);
  const method = await root.locator('#review-method').textContent();
  if (review.exact) assert.equal(method, lang === 'en' ? 'Method: exact — the solved table (perfect play by both sides from every position).' : '방법: 정확한 값 — 풀이표(모든 국면에서 양쪽이 완벽하게 둘 때의 승률).');
  else assert.ok(method.includes(review.playouts.toLocaleString('en-GB')), method);
  assert.equal(await root.locator('.review-server-method code').textContent(), review.method);
}

/** Nothing is wider than the window. */
async function fits(page, width) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= width, `the page is ${wide}px wide in ${width}px`);
}

/**
 * From the results screen of a finished game: the person's sentence; then the review page in
 * English (desktop, phone) and Korean (phone, desktop); then the results screen in Korean.
 * Screenshots `<name>-…`.
 */
async function reviewFlow(page, name) {
  const state = await gameState(page);
  const id = state.id;
  const viewerSide = state.seats.find((s) => s.name === state.my_seats[0]).side;
  await page.locator('#review-result .review-sentence').waitFor({ timeout: 180000 });
  const body = await reviewOf(page, id);
  assert.deepEqual([body.id, body.game, body.version], [id, state.game, state.version]);
  const review = body.review;
  checkAccount(review);
  const s = review.sides.indexOf(viewerSide);
  assert.ok(s >= 0, `${viewerSide} among ${review.sides}`);
  // The results screen tells the person's own side, as "you".
  assert.equal(await page.locator('#review-result .review-sentence').count(), 1);
  await checkSentence(page.locator('#review-result .review-sentence'), review, s, 'en', true, '');
  await page.setViewportSize(WIDE);
  await shot(page, `${name}-result-en-1280`);

  await page.locator('#review-link').click();
  await page.locator('#review').waitFor({ timeout: 60000 });
  assert.match(page.url(), new RegExp(`#/review/${id}$`));
  await checkReview(page, review, 'en', viewerSide);
  await fits(page, WIDE.width);
  await shot(page, `${name}-en-1280`);
  await page.setViewportSize(PHONE);
  await fits(page, PHONE.width);
  await shot(page, `${name}-en-360`);

  // Korean: the page is drawn again in the other language.
  await page.locator('#top .lang').click();
  await page.waitForFunction(() => document.documentElement.lang === 'ko' && document.getElementById('review-title')?.textContent === '복기');
  await checkReview(page, review, 'ko', viewerSide);
  await fits(page, PHONE.width);
  await shot(page, `${name}-ko-360`);
  await page.setViewportSize(WIDE);
  await fits(page, WIDE.width);
  await shot(page, `${name}-ko-1280`);

  // The results screen in Korean, on a phone: the review is stored, so the sentence is there at once.
  await page.setViewportSize(PHONE);
  await page.goto(`${env.server.url}?pace=0#/play/${id}`);
  await page.locator('#review-result .review-sentence').waitFor();
  await checkSentence(page.locator('#review-result .review-sentence'), review, s, 'ko', true, '');
  assert.equal(await page.locator('#review-link').textContent(), '이 판 복기하기');
  await fits(page, PHONE.width);
  await shot(page, `${name}-result-ko-360`);
  return review;
}

/** Clicks the person's first highlighted move (or throw) `n` times, or until the game ends. */
async function clickFirst(page, n) {
  for (let i = 0; i < n; i++) {
    await page.waitForFunction(() => document.getElementById('result')?.hidden === false || document.querySelector('#board .legal') !== null, null, { timeout: 30000 });
    if (await page.locator('#result').isVisible()) return;
    await clickMove(page, page.locator('#board .legal').first());
  }
}

/** Ends the game with the confirm button `which` (`resign`, `leave`). */
async function end(page, which) {
  await page.locator(`#${which}`).click();
  await page.locator(`#${which}`).click();
  await page.locator('#result').waitFor();
}

test('Seven Dice Poker: a whole game, then its review on the results screen and the review page', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  await openSetup(page, env.server.url, 'dice-poker', 3);
  await page.locator('#start').click();
  await page.locator('#board .dp-board').waitFor();
  await playToEnd(page, { maxClicks: 200 });
  const review = await reviewFlow(page, 'dice-poker');
  assert.equal(review.exact, false);
  assert.deepEqual(review.sides, ['white', 'black']);
  // A whole game: every side's result is a win or a loss, so no word of an unfinished game.
  assert.ok(review.summary.every((s) => s.result === 0 || s.result === 100));
  assert.equal(await page.locator('#review-unfinished').count(), 0);
  check();
  await context.close();
});

test('Ur without a table: resigned after a few moves, reviewed by estimate', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  await openSetup(page, env.server.url, 'ur', 5);
  await page.locator('#start').click();
  await page.locator('#board .ur-board').waitFor();
  await clickFirst(page, 8);
  await end(page, 'resign');
  const review = await reviewFlow(page, 'ur');
  assert.equal(review.exact, false);
  assert.deepEqual(review.sides, ['light', 'dark']);
  check();
  await context.close();
});

test('Ur resigned before anything was played: no luck, no margin, and the page says so', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  await openSetup(page, env.server.url, 'ur', 6);
  await page.locator('#start').click();
  await page.locator('#board .ur-board').waitFor();
  await end(page, 'resign');
  const state = await gameState(page);
  assert.equal(state.version, 1, 'the resignation is the only event');
  const sentence = page.locator('#review-result .review-sentence');
  await sentence.waitFor({ timeout: 60000 });
  assert.equal(await sentence.textContent(), 'Nothing was played, so there is no luck or skill to tell.');
  // The result is the initial chance itself: luck is exactly nothing, with no margin, while
  // the initial chance keeps its own (at least the model's 20 points).
  const { review } = await reviewOf(page, state.id);
  assert.deepEqual([review.finished, review.graph.length, review.moves.length, review.chance.length], [false, 1, 0, 0]);
  for (const s of review.summary) {
    assert.deepEqual([s.luck, s.luck_margin, s.loss, s.gains, s.result], [0, 0, 0, 0, s.initial], s.side);
    assert.ok(s.initial_margin >= 20, `${s.side}: ${s.initial_margin}`);
  }
  // On one screen (every side the person's): still one sentence, not one per side.
  await openSetup(page, env.server.url, 'yut', 6);
  await page.locator('input[name="mode"][value="same_screen"]').check();
  await page.locator('#start').click();
  await page.locator('#board .yut-board').waitFor();
  await end(page, 'resign');
  await sentence.first().waitFor({ timeout: 60000 });
  assert.equal(await sentence.count(), 1);
  assert.equal(await sentence.textContent(), 'Nothing was played, so there is no luck or skill to tell.');
  check();
  await context.close();
});

test('Ur with a solved table: a whole 3-piece game reviewed exactly, at once', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  await startThreePieceUr(page, env.server.url, 7);
  // The win-chance meter of the table is on the board.
  await page.locator('#win-chance').waitFor();
  // Play badly on purpose (always the last highlighted move) so that the review has grades.
  await playToEnd(page, { choose: (actions) => actions.length - 1 });
  const review = await reviewFlow(page, 'ur-exact');
  assert.equal(review.exact, true);
  assert.equal(review.playouts, 0);
  // Exact values: no margins, and the luck outcome by outcome is the account's.
  assert.ok(review.moves.every((m) => m.margin === 0));
  for (const s of review.summary) assert.ok(Math.abs(s.residual) < 0.01, `${s.side}: residual ${s.residual}`);
  assert.ok(review.moves.some((m) => m.grade !== 'best'), 'playing the last move gives something away');
  check();
  await context.close();
});

test('Yut Nori in teams: resigned after a few throws and moves, the sides named as teams', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  await page.goto(`${env.server.url}?pace=0#/history`);
  await settled(page);
  const created = await call(page, 'POST', '/api/games', {
    game: 'yut',
    rules: { mode: 'team-shared' },
    players: 4,
    seed: seed(5),
    seats: [{ kind: 'human' }, { kind: 'cpu', level: 'easy' }, { kind: 'cpu', level: 'easy' }, { kind: 'cpu', level: 'easy' }],
  });
  assert.equal(created.status, 201);
  await page.goto(`${env.server.url}?pace=0#/play/${created.body.id}`);
  await page.locator('#board .yut-board').waitFor();
  await clickFirst(page, 6);
  await end(page, 'resign');
  const review = await reviewFlow(page, 'yut');
  // Four players, two teams: the sides are the teams, named as the game names them.
  assert.deepEqual(review.sides, ['A', 'B']);
  await page.goto(`${env.server.url}?pace=0#/review/${created.body.id}`);
  await page.locator('#review').waitFor();
  assert.deepEqual(await page.locator('#review-graph .review-legend-name').allTextContents(), ['A편', 'B편']);
  // A resigned game did not end by its rules: its last chances are its result, and the page says so.
  assert.equal(await page.locator('#review-unfinished').count(), 1);
  check();
  await context.close();
});

test('Ludo: left after a few rolls, four sides reviewed', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  await openSetup(page, env.server.url, 'ludo', 2);
  await page.locator('#start').click();
  await page.locator('#board .legal').first().waitFor();
  await clickFirst(page, 4);
  await end(page, 'leave');
  const review = await reviewFlow(page, 'ludo');
  assert.deepEqual(review.sides, ['0', '1', '2', '3']);
  check();
  await context.close();
});

test('the replay page reviews a record file, and a step chosen in the review shows on the board', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: DESKTOP });
  await page.goto(`${env.server.url}?pace=0#/history`);
  const id = await apiGame(page, { game: 'dice-poker', seed: seed(11), seats: [{ kind: 'human' }, { kind: 'cpu', level: 'easy' }] }, 10, 'resign');
  const record = (await call(page, 'GET', `/api/games/${id}/record`)).body;
  await page.goto(`${env.server.url}?pace=0#/replay-file`);
  await page.locator('#record-file').setInputFiles({ name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record)) });
  await page.locator('#review-button').click();
  // An estimated review: the first answer is its progress, shown while the page asks again.
  await page.locator('#review-progress').waitFor();
  await page.locator('#review').waitFor({ timeout: 120000 });
  const answer = await call(page, 'POST', '/api/review', { record });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.id, null);
  const review = answer.body.review;
  checkAccount(review);
  // A record file has no "you": every side is named.
  await checkReview(page, review, 'en', null);
  await page.setViewportSize(WIDE);
  await shot(page, 'replay-review-en-1280');
  // A step of the review is shown on the board.
  const first = review.moves.find((m) => m.choices > 1);
  await page.locator(`#review-moves li[data-index="${first.index}"] .review-step`).click();
  await page.waitForFunction((n) => document.getElementById('step')?.value === String(n), first.index + 1);
  assert.ok((await page.locator('#step-caption').textContent()).startsWith(`Step ${first.index + 1} of ${record.actions.length}`));
  await page.setViewportSize(PHONE);
  await fits(page, PHONE.width);
  await page.locator('#top .lang').click();
  await page.locator('#record-file').setInputFiles({ name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record)) });
  await page.locator('#review-button').click();
  // Kept by the server: done at once.
  await page.locator('#review').waitFor();
  await checkReview(page, review, 'ko', null);
  await fits(page, PHONE.width);
  await shot(page, 'replay-review-ko-360');
  check();
  await context.close();
});

test('while another review runs, the page says the server is busy and tries again by itself', async () => {
  const { page, check, context } = await newPage(env.browser, { viewport: PHONE });
  await page.goto(`${env.server.url}?pace=0#/history`);
  // A longer review (Ludo left after 14 of the person's actions: some 75 actions, seconds of
  // playouts even on many cores) and a short one (Ur, resigned early).
  const cpu = { kind: 'cpu', level: 'easy' };
  const long = await apiGame(page, { game: 'ludo', seed: seed(2), seats: [{ kind: 'human' }, cpu, cpu, cpu] }, 14, 'leave');
  const short = await apiGame(page, { game: 'ur', seed: seed(9), seats: [{ kind: 'human' }, { kind: 'cpu', level: 'easy' }] }, 4, 'resign');
  const started = await call(page, 'GET', `/api/games/${long}/review`);
  assert.equal(started.status, 202, JSON.stringify(started.body));
  assert.deepEqual(started.body, { status: 'running', progress: 0 });
  const refused = await call(page, 'GET', `/api/games/${short}/review`);
  assert.equal(refused.status, 503);
  assert.equal(refused.body.error.code, 'busy');
  await page.goto(`${env.server.url}?pace=0#/review/${short}`);
  await page.locator('#review-busy').waitFor();
  assert.equal(await page.locator('#review-busy p').textContent(), 'The server is reviewing another game right now. Trying again in a few seconds…');
  assert.equal(await page.locator('#review-retry').textContent(), 'Try again now');
  await shot(page, 'review-busy-en-360');
  // Once the other review is done, the page's next try gets this one.
  await page.locator('#review').waitFor({ timeout: 120000 });
  assert.deepEqual((await reviewOf(page, short)).review.sides, ['light', 'dark']);
  check();
  await context.close();
});
