// The designer's lab page (issue 17, item 5): on a phone (360 px), a guest opens the lab from the
// home page, chooses a game, bots, a seed and a number of games, runs them on the server and
// watches the progress bar go up to the end; the report shows in its frame with the API's
// figures, and downloads; a longer run is cancelled from the page. In Korean, the page's texts
// are the catalogue's.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { PHONE, newPage, screenshot, suite } from '../lib.mjs';
import messages from '../../crates/web/static/js/messages/app.js';

const env = suite();

/** The progress bar's value and maximum, or null before it shows. */
async function bar(page) {
  return page.evaluate(() => {
    const el = /** @type {HTMLProgressElement | null} */ (document.getElementById('lab-progress'));
    return el ? { value: el.value, max: el.max, status: document.getElementById('lab-status')?.dataset.status } : null;
  });
}

/** Fills the lab form: Ur, `bots` for light and dark, `games` games, seed `seed`. */
async function fill(page, bots, games, seed) {
  await page.locator('#lab-game').selectOption('ur');
  await page.locator('select[name="bot-light"]').waitFor();
  await page.locator('select[name="bot-light"]').selectOption(bots[0]);
  await page.locator('select[name="bot-dark"]').selectOption(bots[1]);
  await page.locator('#lab-games').fill(String(games));
  await page.locator('#lab-seed').fill(String(seed));
}

test('a lab run on a phone: progress to the end, the report, its downloads, and a cancelled run', async () => {
  const { page, check, allow } = await newPage(env.browser, { viewport: PHONE });
  await page.goto(`${env.server.url}?pace=0#/`);
  await page.locator('#home-lab').click();
  await page.locator('#lab-form').waitFor();
  assert.match(await page.locator('#lab-limits').innerText(), /10,000 games per rule set.*30 s/);
  // A level named in English as in the report is not named twice ("Normal", not "Normal (normal)").
  await page.locator('#lab-game').selectOption('ur');
  const levels = await page.locator('select[name="bot-light"] option').allTextContents();
  assert.ok(levels.includes('Normal') && !levels.some((l) => /^(\w+) \(\1\)$/i.test(l)), levels.join(' | '));
  // The check boxes keep their size, and their labels are 44 px touch targets.
  for (const box of ['#lab-rotate', '#lab-compare']) {
    const size = await page.locator(box).boundingBox();
    assert.ok(size && size.width >= 22 && size.height >= 22, `${box}: ${JSON.stringify(size)}`);
    const label = await page.locator(`label:has(${box})`).boundingBox();
    assert.ok(label && label.height >= 44, `${box}'s label: ${JSON.stringify(label)}`);
  }

  // A seed a JavaScript number cannot hold exactly, or not a whole number, is refused beside
  // the field before any request (it would be sent rounded); the largest exact one is taken.
  const posts = [];
  page.on('request', (r) => r.method() === 'POST' && r.url().endsWith('/api/lab/runs') && posts.push(r.url()));
  const badSeed = messages.en['lab.bad_seed'].replace('{max}', '9007199254740991');
  assert.equal(badSeed, 'The seed must be a whole number from 0 to 9007199254740991, or empty.');
  for (const seed of ['18446744073709551615', '9007199254740992', '1.5', '-1', '12abc']) {
    await page.locator('#lab-seed').fill(seed);
    await page.locator('#lab-start').click();
    assert.equal(await page.locator('#lab-seed-error').textContent(), badSeed, seed);
    assert.equal(await page.locator('#lab-seed').getAttribute('aria-invalid'), 'true', seed);
  }
  assert.equal(await page.locator('#lab-seed-error').isVisible(), true);
  assert.deepEqual(posts, [], 'no run was asked for');
  assert.equal(await page.locator('#lab-progress').count(), 0);
  await page.locator('#lab-seed').fill('9007199254740991');
  assert.equal(await page.locator('#lab-seed-error').textContent(), '');
  assert.equal(await page.locator('#lab-seed').getAttribute('aria-invalid'), null);

  // A small run: the bar is sampled while the page polls, and must climb to its end.
  await fill(page, ['greedy', 'random'], 400, 5);
  await page.locator('#lab-start').click();
  /** @type {{value: number, max: number, status: string}[]} */
  const seen = [];
  for (let i = 0; i < 600; i++) {
    const now = await bar(page);
    if (now) seen.push(now);
    if (now?.status === 'done') break;
    await page.waitForTimeout(50);
  }
  const last = seen.at(-1);
  assert.equal(last?.status, 'done', JSON.stringify(seen.slice(-3)));
  assert.deepEqual([last.value, last.max], [400, 400]);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].value >= seen[i - 1].value, `the bar never goes back: ${JSON.stringify(seen)}`);
  assert.ok(seen.every((s) => s.max === 400), JSON.stringify(seen));
  assert.match(await page.locator('#lab-status').innerText(), /^Done: 400 games in [\d.]+ s \(seed 5\)\.$/);

  // The report is the API's, and the frame shows its page.
  const run = await page.evaluate(async () => (await (await fetch('/api/lab')).json()).runs[0]);
  const report = await page.evaluate(async (url) => (await fetch(url)).json(), run.reports[0].json);
  assert.equal(report.games, 400);
  assert.equal(report.by_seat.reduce((n, r) => n + r.wins, 0), 400, 'every Ur game has one winner');
  assert.deepEqual(report.bots, ['greedy', 'random']);
  const frame = page.frameLocator('iframe.lab-frame');
  await frame.locator('svg').first().waitFor();
  const text = await frame.locator('body').innerText();
  assert.match(text, /400/);
  assert.match(text, /greedy/);
  assert.equal(await page.locator('iframe.lab-frame').getAttribute('sandbox'), '');

  // Downloads: the HTML page and the JSON data, named after the run.
  const [html] = await Promise.all([page.waitForEvent('download'), page.locator('.lab-download-html').click()]);
  assert.equal(html.suggestedFilename(), `madang-lab-ur-${run.id}-0.html`);
  const page1 = readFileSync(await html.path(), 'utf8');
  assert.ok(page1.includes('<svg') && !page1.includes('<script'), 'a self-contained page without script');
  const [json] = await Promise.all([page.waitForEvent('download'), page.locator('.lab-download-json').click()]);
  assert.equal(json.suggestedFilename(), `madang-lab-ur-${run.id}-0.json`);
  assert.equal(JSON.parse(readFileSync(await json.path(), 'utf8')).games, 400);

  // The page fits a phone.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling at 360 px');
  await screenshot(page, 'lab-phone-done');

  // A longer run, cancelled once it is under way: the bar stops where it was.
  await fill(page, ['normal', 'normal'], 10000, 6);
  await page.locator('#lab-start').click();
  await page.waitForFunction(() => {
    const el = /** @type {HTMLProgressElement | null} */ (document.getElementById('lab-progress'));
    return el !== null && el.max === 10000 && el.value > 0 && document.getElementById('lab-cancel') !== null;
  });
  await screenshot(page, 'lab-phone-running');
  await page.locator('#lab-cancel').click();
  await page.locator('#lab-status[data-status="cancelled"]').waitFor();
  const stopped = await bar(page);
  assert.ok(stopped && stopped.value > 0 && stopped.value < 10000, JSON.stringify(stopped));
  assert.match(await page.locator('#lab-status').innerText(), /^Cancelled after [\d,]+ of 10,000 games\.$/);
  const after = await page.evaluate(async () => (await (await fetch('/api/lab')).json()).runs[0]);
  assert.equal(after.status, 'cancelled');

  // A run made over the API with a seed above 2^53 - 1 (2^64 - 1): as a JSON number the page
  // would read it rounded (18446744073709552000); it shows the server's `seed_text`, exact.
  const big = await page.evaluate(async () => {
    const body = '{"game": "ur", "bots": ["random", "random"], "games": 10, "seed": 18446744073709551615}';
    const run = await (await fetch('/api/lab/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json();
    for (let i = 0; i < 200 && run.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      Object.assign(run, await (await fetch(`/api/lab/runs/${run.id}`)).json());
    }
    return run;
  });
  assert.equal(big.status, 'done');
  await page.reload();
  await page.locator('#lab-status[data-status="done"]').waitFor();
  const status = await page.locator('#lab-status').innerText();
  assert.equal(big.seed_text, '18446744073709551615');
  assert.match(status, /^Done: 10 games in [\d.]+ s \(seed 18446744073709551615\)\.$/);
  // The report's page, written by the server, gives it too.
  await page.frameLocator('iframe.lab-frame').locator('body', { hasText: '18446744073709551615' }).waitFor();

  // A rule the server refuses (Yut's nak is a fraction "a/b"): the page says the general
  // sentence and the server's words, which name the option; the last run's report, not this
  // request's, goes. The run is asked for once whatever the presses while its answer is awaited.
  await page.locator('#lab-game').selectOption('yut');
  await page.locator('#lab-compare').check();
  await page.locator('#lab-b-nak').fill('abc');
  posts.length = 0;
  allow(/422/);
  await page.locator('#lab-start').dblclick();
  await page.locator('#lab-form-error', { hasText: '`nak`' }).waitFor();
  const refused = await page.locator('#lab-form-error').textContent();
  assert.ok(refused.startsWith(`${messages.en['error.code.bad_rules']} ${messages.en['replay.server_says']} `), refused);
  assert.equal(await page.locator('#lab-status').count(), 0, 'the last report went');
  assert.equal(posts.length, 1, 'one request for a double press');
  assert.equal(await page.locator('#lab-start').isDisabled(), false, 'the button is back');
  check();
});

test('the lab page in Korean', async () => {
  const { page, check } = await newPage(env.browser, { viewport: PHONE, locale: 'ko-KR' });
  await page.goto(`${env.server.url}?pace=0&lang=ko#/lab`);
  await page.locator('#lab-form').waitFor();
  assert.equal(await page.locator('h1').innerText(), '설계 실험실');
  assert.equal(await page.locator('#lab-start').innerText(), '돌리기');
  assert.match(await page.locator('#lab-limits').innerText(), /규칙마다 최대 10,000판/);
  // A refused seed is explained in Korean beside the field.
  await page.locator('#lab-seed').fill('18446744073709551615');
  assert.equal(await page.locator('#lab-seed-error').textContent(), '시드는 0부터 9007199254740991까지의 정수이거나 비워 두어야 합니다.');

  // Two rule sets (the second left at the defaults, so the same game): the comparison comes
  // first, in its own frame, then each rule set's report.
  await fill(page, ['greedy', 'random'], 200, 8);
  await page.locator('#lab-compare').check();
  await page.locator('#lab-start').click();
  await page.locator('#lab-status[data-status="done"]').waitFor();
  const articles = await page.locator('article.lab-report').evaluateAll((all) => all.map((a) => a.getAttribute('data-report')));
  assert.deepEqual(articles, ['compare', '0', '1']);
  const frame = page.frameLocator('article[data-report="compare"] iframe.lab-frame');
  await frame.locator('h1').waitFor();
  assert.match(await frame.locator('h1').innerText(), /규칙 비교/);
  // The same games under equal rules: no difference, p = 1.
  assert.match(await frame.locator('body').innerText(), /차이 \+0\.00%p .* p = 1\.0000/);
  const run = await page.evaluate(async () => (await (await fetch('/api/lab')).json()).runs[0]);
  const comparison = await page.evaluate(async (url) => (await fetch(url)).json(), run.comparison.json);
  assert.equal(comparison.reports.length, 2);
  assert.equal(comparison.differences[0].first_mover.p_value, 1);
  check();
});
