// Game review of the Royal Game of Ur with a solved table (issue 8): light's winning chance on
// the board, and at the end a graph of it move by move with every decision graded by the
// winning chance it gave away (`GET /api/games/{id}/review`, thresholds in docs/ur.md).

import { api } from '../api.js';
import { h, replace } from '../dom.js';
import { errorText, num, t } from '../i18n.js';
import { numberOf } from '../notation.js';

/**
 * Light's winning chance as a bar, or null when the server has no table for these rules.
 * @param {any} view a state with `win_chance` (0-1)
 */
export function winChanceMeter(view) {
  if (typeof view.win_chance !== 'number') return null;
  const pct = view.win_chance * 100;
  const text = t('ur.win_chance', { pct: num(pct, 1) });
  return h(
    'div',
    { class: 'ur-chance', id: 'win-chance', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': pct.toFixed(1), 'aria-label': text },
    h('div', { class: 'ur-chance-bar', 'aria-hidden': 'true' }, h('span', { class: 'ur-chance-light', style: { width: `${pct}%` } })),
    h('span', { class: 'ur-chance-text', text }),
  );
}

/**
 * A move in words for the review list.
 * @param {string} action `move K`
 */
function moveWords(action) {
  const from = numberOf(action, 'move') ?? -1;
  return from === 0 ? t('ur.review.enter') : t('ur.review.from', { from });
}

/**
 * The review of a finished game, filled in when the server answers; nothing when the server
 * has no table for the game's rules.
 * @param {any} state the game's state (with `id` and `win_chance`)
 * @param {(seat: string) => string} seatName
 */
export function reviewPanel(state, seatName) {
  if (typeof state.win_chance !== 'number' || !state.id) return null;
  const box = h('section', { class: 'ur-review', id: 'review', 'aria-label': t('ur.review.title') }, h('p', { class: 'hint', text: t('ur.review.loading') }));
  api('GET', `/api/games/${state.id}/review`).then(
    (review) => replace(box, ...drawReview(review, state, seatName)),
    (e) => replace(box, h('p', { class: 'error', text: errorText(e) })),
  );
  return box;
}

/**
 * @param {any} review
 * @param {any} state
 * @param {(seat: string) => string} seatName
 */
function drawReview(review, state, seatName) {
  const moves = /** @type {any[]} */ (review.moves);
  const mine = new Set(state.my_seats ?? []);
  // The graph: light's chance after each decision, as columns, with the 50 % line.
  const graph = h(
    'div',
    { class: 'ur-graph', id: 'review-graph', role: 'img', 'aria-label': t('ur.review.graph_label', { n: moves.length }) },
    h('span', { class: 'ur-graph-mid', 'aria-hidden': 'true' }),
    moves.map((m) =>
      h('span', {
        class: ['ur-graph-col', `grade-${m.grade}`, `by-${m.seat}`],
        style: { height: `${Math.max(1, m.after * 100)}%` },
        title: `${m.index + 1}. ${seatName(m.seat)} · ${num(m.after * 100, 1)} %`,
      }),
    ),
  );
  const grades = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];
  // One column per side and one row per figure, so that the table fits a phone's width (a
  // column per grade did not).
  const seats = /** @type {[string, any][]} */ (Object.entries(review.summary));
  const figure = (/** @type {string} */ col, /** @type {string} */ label, /** @type {(s: any) => string} */ value) =>
    h(
      'tr',
      { dataset: { row: col } },
      h('th', { scope: 'row', text: label }),
      seats.map(([seat, s]) => h('td', { class: 'num', dataset: { seat, col }, text: value(s) })),
    );
  const summary = h(
    'table',
    { class: 'data ur-review-summary' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: '' }), seats.map(([seat]) => h('th', { scope: 'col', class: 'num', text: seatName(seat) })))),
    h(
      'tbody',
      {},
      figure('mean_loss', t('ur.review.mean_loss'), (s) => num(s.mean_loss, 2)),
      grades.map((g) => figure(g, t(`ur.grade.${g}`), (s) => String(s[g]))),
    ),
  );
  const list = h(
    'ol',
    { class: 'ur-review-moves', id: 'review-moves' },
    moves
      .filter((m) => m.choices > 1)
      .map((m) =>
        h(
          'li',
          { class: ['ur-review-move', `grade-${m.grade}`, mine.has(m.seat) && 'mine'], value: m.index + 1, dataset: { grade: m.grade } },
          h('span', { class: 'who', text: seatName(m.seat) }),
          ' ',
          h('span', { text: moveWords(m.action) }),
          ' ',
          h('span', { class: ['grade', `grade-${m.grade}`], text: t(`ur.grade.${m.grade}`) }),
          m.grade === 'best'
            ? null
            : h('span', { class: 'hint', text: ` −${num(m.loss, 1)} · ${t('ur.review.best_was', { move: moveWords(m.best) })}` }),
        ),
      ),
  );
  const th = review.thresholds;
  return [
    h('h3', { text: t('ur.review.title') }),
    graph,
    h('p', { class: 'hint', text: t('ur.review.graph_hint') }),
    h('div', { class: 'table-scroll' }, summary),
    h('p', { class: 'hint', text: t('ur.review.thresholds', { best: th.best, good: th.good, inaccuracy: th.inaccuracy, mistake: th.mistake }) }),
    h('details', { class: 'ur-review-details' }, h('summary', { text: t('ur.review.moves') }), list),
  ];
}
