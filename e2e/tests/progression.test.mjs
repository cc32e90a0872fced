// Progression (issue 18, items 3 and 4; docs/progression.md), at 360 px: an Ur game against the
// computer played to the end shows, between the figures and the buttons, the experience it gave
// (its parts add up to it, by the documented formula), the level bar and the achievements it
// earned for the first time; the profile page then shows them earned, with the level and coins,
// in English and in Korean. Ludo's results screen shows none of it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PHONE, ROOT, gameState, newPage, openSetup, playToEnd, screenshot, startThreePieceUr, suite } from '../lib.mjs';
import app from '../../crates/web/static/js/messages/app.js';

const env = suite();

/** The achievements as their data file declares them (crates/games/src/achievements.json). */
const ACHIEVEMENTS = JSON.parse(readFileSync(path.join(ROOT, 'crates', 'games', 'src', 'achievements.json'), 'utf8'));

/** Whether the page's body is no wider than the phone (nothing scrolls sideways). */
async function fitsPhone(page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

test('an Ur game gives experience and an achievement, shown on the results screen and the profile, in English and Korean at 360 px', async () => {
  const { page, check } = await newPage(env.browser, { viewport: PHONE });
  await startThreePieceUr(page, env.server.url, 7);
  await playToEnd(page);
  const state = await gameState(page);
  const won = state.result.winner === 'light';
  const progress = page.locator('#result-progress');
  await progress.waitFor();
  // The results screen: the progression between the figures and the buttons.
  const order = await page.locator('#result').evaluate((box) => {
    const children = [...box.children];
    return { progress: children.findIndex((c) => c.id === 'result-progress'), buttons: children.findIndex((c) => c.classList.contains('actions')) };
  });
  assert.ok(order.progress >= 0 && order.progress < order.buttons, JSON.stringify(order));
  const gained = Number(/\+(\d+) XP/.exec(await page.locator('#xp-gained').textContent())?.[1]);
  // The formula: 20 for the finish, 30 for a win, the opponent's strength on a win (normal 10,
  // easy 0), 3 a capture of one's own up to 5; each part is listed.
  const parts = (await page.locator('.xp-parts').textContent()).split(' · ').map((p) => Number(/\+(\d+)$/.exec(p)?.[1]));
  assert.equal(parts.reduce((a, b) => a + b, 0), gained);
  assert.ok(gained >= 20 + (won ? 30 : 0), `${gained}`);
  assert.match(await page.locator('.xp-parts').textContent(), new RegExp(`^${app.en['progress.part.finish']} \\+20`));
  assert.ok(await page.locator('#result-progress .level-bar').isVisible());
  assert.match(await page.locator('#result-progress .level-number').textContent(), /^Level \d+$/);
  const fresh = await page.locator('#new-achievements li').evaluateAll((els) => els.map((el) => el.getAttribute('data-id')));
  assert.ok(fresh.length > 0, 'this seed earns at least one achievement');
  assert.ok(fresh.every((id) => ACHIEVEMENTS.some((a) => a.id === id && a.game === 'ur')), fresh.join());
  const first = ACHIEVEMENTS.find((a) => a.id === fresh[0]);
  assert.equal(await page.locator(`#new-achievements li[data-id="${first.id}"] .achievement-name`).textContent(), first.name.en);
  assert.ok(await fitsPhone(page));
  await screenshot(page, 'progression-result-phone');

  // The profile: the same experience, the achievement earned, the skins owned.
  await page.locator('#to-profile').click();
  await page.locator('#profile').waitFor();
  assert.equal(await page.locator('#profile-xp').textContent(), app.en['profile.xp'].replace('{xp}', String(gained)));
  assert.equal(await page.locator('#profile-coins').textContent(), app.en['profile.coins'].replace('{coins}', String(Math.floor(gained / 10))));
  const card = page.locator(`.achievement[data-id="${first.id}"]`);
  assert.equal(await card.getAttribute('data-earned'), 'true');
  assert.equal(await card.locator('.achievement-name').textContent(), first.name.en);
  assert.equal(await page.locator('.achievement[data-earned="true"]').count(), fresh.length);
  assert.ok((await page.locator('.achievement').count()) >= 20);
  assert.ok(await page.locator('#skins-owned .skins-owned').first().isVisible());
  assert.ok(await fitsPhone(page));
  await screenshot(page, 'progression-profile-phone');

  // In Korean.
  await page.getByRole('button', { name: app.en['nav.language'] }).click();
  await page.locator('#profile h1', { hasText: app.ko['profile.title'] }).waitFor();
  assert.equal(await card.locator('.achievement-name').textContent(), first.name.ko);
  assert.equal(await page.locator('#profile-xp').textContent(), app.ko['profile.xp'].replace('{xp}', String(gained)));
  assert.ok(await fitsPhone(page));
  await screenshot(page, 'progression-profile-phone-ko');
  // The results screen again, in Korean: the same game's experience.
  await page.goto(`${env.server.url}?pace=0#/play/${state.id}`);
  await page.locator('#result-progress h3', { hasText: app.ko['progress.title'] }).waitFor();
  assert.equal(await page.locator('#xp-gained').textContent(), app.ko['progress.xp_gained'].replace('{xp}', String(gained)));
  await screenshot(page, 'progression-result-phone-ko');
  check();

  // Someone else (a new browser, so another player) opens the same finished game: it gave
  // them nothing because they did not play it, and the page says nothing about experience.
  const viewer = await newPage(env.browser, { viewport: PHONE });
  await viewer.page.goto(`${env.server.url}?pace=0#/play/${state.id}`);
  await viewer.page.locator('#result').waitFor();
  const answer = await viewer.page.evaluate(async (id) => (await fetch(`/api/games/${id}/progress`)).json(), state.id);
  assert.equal(answer.played, false);
  await viewer.page.waitForTimeout(500);
  assert.ok(!(await viewer.page.locator('#result-progress').isVisible()));
  assert.equal(await viewer.page.locator('#result .xp-parts, #result .level-bar').count(), 0);
  viewer.check();
});

test("Ludo's results screen shows no experience, level or achievement", async () => {
  const { page, check } = await newPage(env.browser, { viewport: PHONE });
  await openSetup(page, env.server.url, 'ludo', 3);
  await page.locator('#start').click();
  await page.locator('#board .ludo-board').waitFor();
  await page.locator('#leave').click();
  await page.locator('#leave').click();
  await page.locator('#result').waitFor();
  const state = await gameState(page);
  assert.equal(state.status, 'finished');
  // Give the page the time it would take to draw a progression, then look.
  await page.waitForTimeout(500);
  assert.equal(await page.locator('#result .level-bar, #result .xp-gained, #result .achievements').count(), 0);
  assert.ok(!(await page.locator('#result-progress').isVisible()));
  const answer = await page.evaluate(async (id) => (await fetch(`/api/games/${id}/progress`)).json(), state.id);
  assert.deepEqual(answer, { progression: false });
  await screenshot(page, 'progression-ludo-result-phone');
  check();
});
