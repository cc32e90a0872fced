// The replay viewer: steps through a game move by move — a game of the server (`#/replay/ID`,
// from `GET /api/games/{id}/steps/{n}`) or a record file loaded from disk (`#/replay-file`,
// from `POST /api/replay`). The move list reads in the page's language (each action's log line,
// from the `entries` of `POST /api/replay`); the record's notation is a toggle. The review button
// reviews the game (`GET /api/games/{id}/review`, or `POST /api/review` for a file) below the
// board, its steps shown on the board when chosen.

import { GAMES } from '../app.js';
import { ApiError, api } from '../api.js';
import { fitNumbers, h, replace, toast } from '../dom.js';
import { errorText, t } from '../i18n.js';
import { resultText } from './play.js';
import { actionWords, drawReview, loadReview, viewerSides } from '../review.js';

/** Where the notation toggle is kept. */
const NOTATION_KEY = 'madang.notation';

/** The record file loaded last on `#/replay-file` (kept in memory only). @type {any} */
let loaded = null;

/**
 * @param {HTMLElement} view
 * @param {string} [id] a game id; none for a loaded file
 */
export async function replayPage(view, id) {
  view.className = 'replay';
  /** @type {(() => void)[]} what to stop when the page is left (a review being asked for) */
  const stops = [];
  const cleanup = () => stops.splice(0).forEach((stop) => stop());
  if (id) {
    const [record, geometry, state] = await Promise.all([
      api('GET', `/api/games/${id}/record`),
      api('GET', `/api/games/${id}/board`),
      api('GET', `/api/games/${id}`),
    ]);
    const { entries, seed_check: seedCheck } = await api('POST', '/api/replay', { record });
    viewer(view, record, geometry, entries, (n) => api('GET', `/api/games/${id}/steps/${n}`), {
      request: () => api('GET', `/api/games/${id}/review`),
      viewer: viewerSides(state),
      stops,
      seedCheck,
    });
    return cleanup;
  }
  const input = h('input', { type: 'file', id: 'record-file', accept: '.json,application/json' });
  const error = h('div', { class: 'error', id: 'record-error', role: 'alert' });
  const holder = h('div');
  /** Shows `record` (replayed by the server), or why it is refused. @param {any} record */
  const show = async (record) => {
    try {
      const last = await api('POST', '/api/replay', { record });
      viewer(holder, record, last.board, last.entries, (n) => api('POST', '/api/replay', { record, step: n }), {
        request: () => api('POST', '/api/review', { record }),
        viewer: new Set(),
        stops,
        seedCheck: last.seed_check,
      });
    } catch (e) {
      replace(error, refusal(e, record));
    }
  };
  input.addEventListener('change', async () => {
    // A new file replaces whatever was shown before, the replay or an earlier refusal.
    cleanup();
    replace(error);
    replace(holder);
    const file = input.files?.[0];
    if (!file) return;
    try {
      loaded = JSON.parse(await file.text());
    } catch {
      loaded = null;
      error.textContent = t('replay.not_json');
      return;
    }
    await show(loaded);
  });
  // The file loaded last stays shown when the page is drawn again (a change of language).
  if (loaded) void show(loaded);
  view.append(
    h(
      'section',
      { class: 'panel' },
      h('h1', { text: t('replay.load_title') }),
      h('label', { for: 'record-file', text: t('replay.load_label') }),
      input,
      error,
    ),
    holder,
  );
  return cleanup;
}

/**
 * Why a record file cannot be replayed, in the page's language: for an illegal action, which
 * one and what the game awaited at that point (from the refusal's `detail`), with the server's
 * own words below as a technical note.
 * @param {unknown} e
 * @param {any} record
 */
function refusal(e, record) {
  if (!(e instanceof ApiError) || (e.code !== 'bad_record' && e.code !== 'illegal_action')) return [h('p', { text: errorText(e) })];
  const detail = e.detail;
  // An illegal action's own line counts actions from 1 ("Action 2"); the server's words name
  // its index ("action 1"), and say so.
  const says = e.code === 'illegal_action' && detail ? t('replay.server_counts') : t('replay.server_says');
  const technical = h('p', { class: 'hint' }, says, ' ', h('code', { class: 'detail', text: e.message }));
  if (e.code !== 'illegal_action' || !detail) return [h('p', { text: t('replay.bad_record') }), technical];
  const module = GAMES[record?.game];
  /** @type {string[]} */
  const legal = (detail.legal ?? []).map((/** @type {any} */ a) => (typeof a === 'string' ? a : a.action));
  const lines = [t('replay.illegal', { n: detail.index + 1, action: detail.action })];
  if (detail.status === 'finished') lines.push(t('replay.illegal_over'));
  else if (detail.to_move === 'chance') lines.push(t('replay.illegal_chance', { awaiting: t(`replay.awaiting.${detail.awaiting}`), list: legal.join(', ') }));
  else lines.push(t('replay.illegal_turn', { seat: module ? module.seatName(detail.to_move) : detail.to_move, awaiting: t(`replay.awaiting.${detail.awaiting}`), list: legal.join(', ') }));
  return [h('p', { id: 'record-why', text: lines.join(' ') }), technical];
}

/**
 * What the server found checking a record's rolls against its revealed seed (as `madang
 * verify` does): every roll the seed's, or the first that is not, or a seed that is not the one
 * committed to. Nothing for a record without a seed.
 * @param {any} check `seed_check` of `POST /api/replay`
 */
function seedCheckLine(check) {
  if (!check) return null;
  if (check.ok) return h('p', { class: 'hint seed-ok', id: 'seed-check', text: t('replay.seed_ok', { n: check.checked }) });
  const text =
    check.problem === 'roll'
      ? t('replay.seed_roll', { n: check.index + 1, action: check.action, expected: check.expected })
      : check.problem === 'commitment'
        ? t('replay.seed_commitment')
        : t('replay.seed_bad');
  return h('p', { class: 'error seed-bad', id: 'seed-check', role: 'alert', text });
}

/**
 * @param {HTMLElement} view
 * @param {any} record
 * @param {any} geometry
 * @param {import('../app.js').ActionEntry[]} entries every action of the record as a log entry
 * @param {(n: number) => Promise<any>} fetchStep
 * @param {{request: () => Promise<any>, viewer: Set<string>, stops: (() => void)[], seedCheck?: any}} reviewing how
 *   to ask for the game's review, the sides the person plays, where to leave its stop, and the
 *   server's check of the record's rolls against its seed (`seed_check` of `POST /api/replay`)
 */
function viewer(view, record, geometry, entries, fetchStep, reviewing) {
  const module = GAMES[record.game];
  if (!module) throw new Error(t('replay.unknown_game', { game: String(record.game) }));
  const steps = entries.length;
  const board = h('div', { class: 'board-wrap', id: 'board', role: 'group', 'aria-label': t('play.board') });
  const caption = h('p', { class: 'turn', id: 'step-caption', 'aria-live': 'polite' });
  const slider = h('input', { type: 'range', id: 'step', min: 0, max: steps, value: steps, 'aria-label': t('replay.step') });
  const log = h('ol', { class: ['log', localStorage.getItem(NOTATION_KEY) === 'on' && 'show-notation'], id: 'log' });
  const notation = h('input', {
    type: 'checkbox',
    id: 'show-notation',
    checked: localStorage.getItem(NOTATION_KEY) === 'on',
    on: {
      change: (/** @type {Event} */ e) => {
        const on = /** @type {HTMLInputElement} */ (e.target).checked;
        localStorage.setItem(NOTATION_KEY, on ? 'on' : 'off');
        log.classList.toggle('show-notation', on);
      },
    },
  });
  let current = -1;
  let token = 0;

  /** @param {number} n */
  async function go(n) {
    n = Math.max(0, Math.min(steps, n));
    const mine = ++token;
    const v = await fetchStep(n);
    if (mine !== token) return;
    current = n;
    slider.value = String(n);
    const seats = v.seats ?? record.seats?.map((/** @type {any} */ s) => s.name) ?? Object.keys(v.pieces ?? {});
    module.render(board, {
      view: v,
      geometry,
      rules: record.rules ?? {},
      moves: [],
      onMove: () => {},
      seats,
      last: null,
      pace: 0,
    });
    const lines = n > 0 ? module.describe(entries[n - 1]) : t('replay.start');
    caption.textContent = `${t('replay.step_of', { n, steps })} — ${lines}`;
    // The result, unless the last step's own words already say it ("… · Dark wins").
    const result = v.status === 'finished' ? resultText(module, { ...v, end: n === steps ? record.end : null }) : '';
    if (result && !lines.includes(result)) caption.textContent += ` — ${result}`;
    for (const li of log.querySelectorAll('li')) li.classList.toggle('current', Number(/** @type {HTMLElement} */ (li).dataset.step) === n);
  }

  entries.forEach((entry, i) => {
    log.append(
      h(
        'li',
        { dataset: { step: i + 1 }, class: entry.by },
        h(
          'button',
          { type: 'button', class: 'link', on: { click: () => void go(i + 1) } },
          h('span', { class: 'move-text', text: module.describe(entry) }),
          h('code', { class: 'notation', text: entry.action }),
        ),
      ),
    );
  });
  fitNumbers(log);
  slider.addEventListener('input', () => void go(Number(slider.value)));

  const button = (/** @type {string} */ idName, /** @type {string} */ label, /** @type {() => number} */ target) =>
    h('button', { type: 'button', id: idName, text: label, on: { click: () => void go(target()).catch((e) => toast(errorText(e), 'error')) } });

  // The review, asked for on request, below the board; a step chosen in it is shown on the board.
  const reviewBox = h('section', { class: 'review-box', id: 'review-box', hidden: true, 'aria-live': 'polite' });
  /** @param {number} n */
  const showStep = (n) => {
    go(n).catch((e) => toast(errorText(e), 'error'));
    if (board.getBoundingClientRect().top < 0) board.scrollIntoView({ block: 'start' });
  };
  const reviewButton = h('button', {
    type: 'button',
    id: 'review-button',
    text: t('review.button'),
    on: {
      click: () => {
        reviewButton.hidden = true;
        reviewBox.hidden = false;
        reviewing.stops.push(
          loadReview(reviewBox, reviewing.request, async (answer) => {
            const words = await actionWords(record, answer, module, entries);
            replace(reviewBox, drawReview(answer.review, { module, game: record.game, viewer: reviewing.viewer, words, onStep: showStep }));
          }),
        );
      },
    },
  });

  view.append(
    h(
      'div',
      { class: 'play-head' },
      h('h1', { text: `${t('replay.title')}: ${t(`game.${record.game}.name`)}` }),
      caption,
    ),
    h(
      'div',
      { class: 'play-body' },
      board,
      h(
        'aside',
        { class: 'side' },
        h(
          'div',
          { class: 'replay-controls' },
          button('first', t('replay.first'), () => 0),
          button('prev', t('replay.prev'), () => current - 1),
          button('next', t('replay.next'), () => current + 1),
          button('last', t('replay.last'), () => steps),
        ),
        slider,
        record.seed ? h('p', { class: 'hint' }, `${t('play.seed')}: `, h('code', { class: 'hash', text: record.seed })) : null,
        seedCheckLine(reviewing.seedCheck),
        reviewButton,
        h('h2', { class: 'log-title', text: t('play.log') }),
        h('label', { class: 'choice notation-toggle' }, notation, t('replay.show_notation')),
        log,
      ),
    ),
    reviewBox,
  );
  view.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === 'ArrowRight') void go(current + 1);
    if (e.key === 'ArrowLeft') void go(current - 1);
  });
  void go(steps);
}
