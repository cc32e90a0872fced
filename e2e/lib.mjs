// Shared pieces of the browser end-to-end tests: the real `madang serve` binary on loopback with
// a fresh data directory, headless Chromium through playwright-core, console-error capture,
// screenshots under e2e/artifacts/, and playing a game by clicking highlighted moves.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '..');
export const ARTIFACTS = path.join(here, 'artifacts');

/** A fixed seed (64 hex digits) for reproducible games: `seed(1)`. */
export function seed(n) {
  return n.toString(16).padStart(64, '0');
}

/**
 * The `madang` binary: `MADANG_BIN`, else `debug/madang` in cargo's target directory
 * (`CARGO_TARGET_DIR`, relative to the repository when not absolute; default `target/`), which
 * scripts/test builds first.
 */
export const BIN =
  process.env.MADANG_BIN ?? path.join(path.resolve(ROOT, process.env.CARGO_TARGET_DIR || 'target'), 'debug', 'madang');

/**
 * Runs the `madang` binary to completion (for set-up steps such as `madang ur solve`).
 * @param {string[]} args
 */
export async function madang(args) {
  const child = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`madang ${args.join(' ')} exited with ${code}: ${out}`);
  return out;
}

/**
 * Starts `madang serve --allow-fixed-seed` on a free loopback port with a new data directory;
 * `options.prepare(dataDir)` runs first (to put a solved table there, say).
 * @param {{prepare?: (dataDir: string) => Promise<void>}} [options]
 * @returns {Promise<{url: string, dataDir: string, stop: () => Promise<void>}>}
 */
export async function startServer(options = {}) {
  const bin = BIN;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'madang-e2e-'));
  if (options.prepare) await options.prepare(dataDir);
  const child = spawn(bin, ['serve', '--bind', '127.0.0.1:0', '--data-dir', dataDir, '--allow-fixed-seed'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RUST_LOG: 'warn' },
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`madang serve did not start: ${stderr}`)), 30000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/[\d.]+:\d+\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    child.on('exit', (code) => reject(new Error(`madang serve exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    dataDir,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Launches Debian's Chromium headless (never a downloaded browser). */
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const PHONE = { width: 360, height: 740 };
export const DESKTOP = { width: 1280, height: 800 };
/** Phones held sideways: a large one and a small one. */
export const LANDSCAPE = { width: 844, height: 390 };
export const LANDSCAPE_SMALL = { width: 740, height: 360 };

/**
 * Whether a failed request is a review's `503 busy` (docs/api.md, "Review"): while another game's
 * review runs the server says so, and the page tells the person and asks again a few seconds
 * later. Every results screen asks for its game's review, so a test that ends two games in a row
 * may meet it; it is the protocol, not an error (tests/review.test.mjs shows the message).
 * @param {string} url
 * @param {boolean} is503
 */
function reviewBusy(url, is503) {
  return is503 && /\/api\/(?:games\/[0-9a-f]+\/)?review$/.test(new URL(url, 'http://x/').pathname);
}

/**
 * A new page in its own context (its own cookie, so its own player), failing the test on any
 * console error or uncaught exception: `errors` collects them and `check()` throws.
 * @param {import('playwright-core').Browser} browser
 * @param {{viewport?: {width: number, height: number}, locale?: string}} [options]
 */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    locale: options.locale ?? 'en-GB',
    hasTouch: (options.viewport ?? DESKTOP).width < 500,
  });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => {
    if (reviewBusy(msg.location().url, msg.text().includes('status of 503'))) return;
    if (msg.type() === 'error' || msg.type() === 'warning') errors.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    if (reviewBusy(r.url(), r.status() === 503)) return;
    if (r.status() >= 400) errors.push(`HTTP ${r.status()} for ${r.request().method()} ${r.url()}`);
  });
  /** @type {RegExp[]} */
  const allowed = [];
  return {
    page,
    context,
    errors,
    /** Expects errors matching `re` from now on (a test of a refused request). */
    allow(re) {
      allowed.push(re);
    },
    check() {
      const unexpected = errors.filter((e) => !allowed.some((re) => re.test(e)));
      if (unexpected.length) throw new Error(`browser reported:\n${unexpected.join('\n')}`);
    },
  };
}

/**
 * Saves a full-page screenshot as e2e/artifacts/NAME.png.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * Opens the set-up page of `game` with a fixed seed and animations off (`?pace=0`).
 * @param {import('playwright-core').Page} page
 * @param {string} url
 * @param {string} game
 * @param {number} n the seed number
 */
export async function openSetup(page, url, game, n) {
  await page.goto(`${url}?pace=0&seed=${seed(n)}#/setup/${game}`);
  await page.locator('#start').waitFor();
}

/**
 * Starts an Ur game with 3 pieces from the set-up page (seed `n`; a server with that rule
 * set's table gives the board its winning chance) and waits for the first legal move.
 */
export async function startThreePieceUr(page, url, n) {
  await openSetup(page, url, 'ur', n);
  await page.locator('details.options summary').click();
  await page.locator('#opt-pieces').fill('3');
  await page.locator('#start').click();
  await page.locator('#board .legal').first().waitFor();
}

/** The version the page shows (`#view`'s `data-version`). */
async function shownVersion(page) {
  return page.evaluate(() => Number(document.getElementById('view')?.dataset.version ?? -1));
}

/**
 * Clicks `locator` (a highlighted move) and waits for the answer: the page settles on a newer
 * version of the game (every action adds one), or the game ends.
 * @param {import('playwright-core').Page} page
 * @param {import('playwright-core').Locator} locator
 */
export async function clickMove(page, locator) {
  const before = await shownVersion(page);
  await locator.click();
  await page.waitForFunction(
    (v) => Number(document.getElementById('view')?.dataset.version ?? -1) > v || document.getElementById('result')?.hidden === false,
    before,
    { timeout: 30000 },
  );
}

/** Waits until the person can act (a highlighted move, the throw button among them) or the game is over. */
async function actionable(page) {
  await page.waitForFunction(
    () => document.getElementById('result')?.hidden === false || document.querySelector('#board .legal') !== null,
    null,
    { timeout: 30000 },
  );
}

/**
 * Plays until the result screen shows, only by clicking highlighted moves (`.legal`, the throw
 * button included) as a person would: the first one, or the one `choose` picks from the list of
 * their actions.
 * @param {import('playwright-core').Page} page
 * `onTurn`, when given, runs at each of the person's turns before the click (to look at the board).
 * @param {{maxClicks?: number, choose?: (actions: string[]) => number, onTurn?: () => Promise<void>}} [options]
 * @returns {Promise<number>} the number of clicks
 */
export async function playToEnd(page, options = {}) {
  const max = options.maxClicks ?? 4000;
  for (let clicks = 0; clicks < max; clicks++) {
    const legal = page.locator('#board .legal');
    await actionable(page);
    if (await page.locator('#result').isVisible()) return clicks;
    if (options.onTurn) await options.onTurn();
    const actions = await legal.evaluateAll((els) => els.map((el) => el.getAttribute('data-action') ?? ''));
    const index = options.choose ? options.choose(actions) : 0;
    await clickMove(page, legal.nth(index));
  }
  throw new Error(`no result after ${max} clicks`);
}

/**
 * Taps the throw button when the board shows it (the person's own roll or throw); returns
 * whether it did.
 * @param {import('playwright-core').Page} page
 */
export async function throwIfAsked(page) {
  const button = page.locator('#board .roll-button');
  if ((await button.count()) === 0) return false;
  await clickMove(page, button);
  return true;
}

/**
 * Waits until the person can decide (a highlighted move, after throwing as often as the board
 * asks for it) or the game is over.
 * @param {import('playwright-core').Page} page
 */
export async function ready(page) {
  for (let i = 0; i < 500; i++) {
    await actionable(page);
    if (!(await throwIfAsked(page))) return;
  }
  throw new Error('the board asked for a throw 500 times');
}

/**
 * The bounding box of the element `selector` matches, once it is on the page: a board that is
 * being re-rendered (after a reveal, a move) has none for a moment, so this asks again.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
export async function boxOf(page, selector) {
  for (let i = 0; i < 100; i++) {
    const box = await page.locator(selector).boundingBox();
    if (box) return box;
    await page.waitForTimeout(50);
  }
  throw new Error(`${selector} has no box on the page after 5 s`);
}

/**
 * The signed-in player's stats rows, read from the stats page's table.
 * @param {import('playwright-core').Page} page
 * @param {string} url
 */
export async function statsRows(page, url) {
  await page.goto(`${url}?pace=0#/stats`);
  await page.locator('#stats').waitFor();
  return page.locator('#stats tbody tr').evaluateAll((rows) =>
    rows.map((r) => Object.fromEntries([...r.querySelectorAll('[data-col]')].map((c) => [c.getAttribute('data-col'), c.textContent?.trim()]))),
  );
}

/**
 * One server and one browser for a test file: started before its tests, stopped after them.
 * `env.server` and `env.browser` are set once `before` has run.
 * @param {{prepare?: (dataDir: string) => Promise<void>}} [options] as for `startServer`
 */
export function suite(options) {
  /** @type {{server: any, browser: any}} */
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer(options);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/**
 * The state of the game the page shows (`#/play/ID`), as the page's own player sees it.
 * @param {import('playwright-core').Page} page
 */
export async function gameState(page) {
  const id = /#\/play\/([0-9a-f]+)/.exec(page.url())[1];
  return page.evaluate(async (gameId) => (await fetch(`/api/games/${gameId}`)).json(), id);
}
