// The game review of any game (docs/api.md, "Review"; the method in docs/analysis.md): asking the
// server for it (an estimated review answers 202 with its progress until it is done, 503 `busy`
// while another runs), and drawing it from the data — the winning-chance graph with a line per
// side, each side's accuracy, grades and luck against skill in plain words, the key moments and
// every decision graded. Sides are named by the game module's `seatName`; moves are put in words
// by the module's `describe` of the record's entries (the server's replay), else shown as notation.

import { ApiError, api } from './api.js';
import { h, replace } from './dom.js';
import { errorText, num, t } from './i18n.js';

/** The grades in order, best first (the server's `grade` values and `summary.grades` order). */
export const GRADES = ['best', 'excellent', 'good', 'inaccuracy', 'mistake', 'blunder'];

/** How often a running review is asked for its progress, and a busy server again, in ms. */
const POLL_MS = 700;
const BUSY_MS = 4000;

/**
 * What drawing a review needs besides the review itself.
 * @typedef {object} ReviewContext
 * @property {import('./app.js').GameModule} module the game's module (`seatName`)
 * @property {string} game the game's record name
 * @property {Set<string>} viewer the sides the person plays (named "you"); empty when they play
 *   none or every side (a record file, a spectator, one screen)
 * @property {ActionWords} [words] the record's actions in words
 * @property {(step: number) => void} [onStep] shows the game after `step` actions (the replay viewer)
 *
 * @typedef {{played: Map<number, string>, best: Map<number, string>}} ActionWords every action
 *   in words by its index in the record, and the best move of each decision that gave something
 *   away
 */

/**
 * The sides the person plays in a game, from its state: the sides of `my_seats` (a team's
 * player plays for the team), none on one screen (the person plays every side).
 * @param {any} state a game's state (`seats` with `side`, `my_seats`, `mode`)
 * @returns {Set<string>}
 */
export function viewerSides(state) {
  if (!state || state.mode === 'same_screen') return new Set();
  const mine = new Set(state.my_seats ?? []);
  return new Set((state.seats ?? []).filter((/** @type {any} */ s) => mine.has(s.name)).map((/** @type {any} */ s) => s.side ?? s.name));
}

/**
 * Asks for a review until it is done, showing in `box` what the server says meanwhile: its
 * progress (202), that it is busy with another review (503 `busy`: asked again after a few
 * seconds, or at once with the retry button), or why it failed. `done` receives the finished
 * review's body (200) and draws it.
 * @param {HTMLElement} box
 * @param {() => Promise<any>} request one request for the review (the same each time)
 * @param {(body: any) => void | Promise<void>} done
 * @returns {() => void} stops asking (when the page is left)
 */
export function loadReview(box, request, done) {
  let stopped = false;
  /** @type {number | undefined} */
  let timer;
  // Asks again after `ms`, unless the page has let the box go meanwhile (left without stopping).
  const later = (/** @type {number} */ ms) => {
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      if (box.isConnected) void ask();
      else stopped = true;
    }, ms);
  };
  async function ask() {
    if (stopped) return;
    /** @type {any} */
    let body;
    try {
      body = await request();
    } catch (e) {
      if (stopped) return;
      if (e instanceof ApiError && e.code === 'busy') {
        replace(
          box,
          h(
            'div',
            { class: 'review-busy', id: 'review-busy', role: 'status' },
            h('p', { text: t('review.busy') }),
            h('button', { type: 'button', id: 'review-retry', text: t('review.retry'), on: { click: () => later(0) } }),
          ),
        );
        later(BUSY_MS);
        return;
      }
      replace(box, h('p', { class: 'error', id: 'review-error', role: 'alert', text: `${t('review.failed')} ${errorText(e)}` }));
      return;
    }
    if (stopped) return;
    if (body?.status === 'running') {
      const share = Math.max(0, Math.min(1, Number(body.progress) || 0));
      const text = t('review.progress', { pct: num(share * 100) });
      replace(
        box,
        h(
          'div',
          { class: 'review-loading', role: 'status' },
          h('progress', { id: 'review-progress', max: 1, value: share, 'aria-label': text }),
          h('span', { class: 'review-progress-text', text }),
        ),
      );
      later(POLL_MS);
      return;
    }
    try {
      await done(body);
    } catch (e) {
      // A review this page cannot draw (say, from a newer server): said, not thrown.
      console.error(e);
      replace(box, h('p', { class: 'error', id: 'review-error', role: 'alert', text: `${t('review.failed')} ${errorText(e)}` }));
    }
  }
  replace(box, h('p', { class: 'review-loading hint', role: 'status', text: t('review.loading') }));
  void ask();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * Puts a record's actions in words for a review: every action as the game's log has it (the
 * module's `describe` of `POST /api/replay`'s entries, or `entries` when the page has them), and
 * the best move of each decision that gave something away (the review's `best_moves`: the events
 * the best move would have caused, described the same way). Anything else stays notation.
 * @param {any} record the game record
 * @param {any} answer the review's answer (`review`, `best_moves`)
 * @param {import('./app.js').GameModule} module
 * @param {import('./app.js').ActionEntry[]} [entries]
 * @returns {Promise<ActionWords>}
 */
export async function actionWords(record, answer, module, entries) {
  /** @type {ActionWords} */
  const words = { played: new Map(), best: new Map() };
  try {
    const list = entries ?? (await api('POST', '/api/replay', { record })).entries;
    for (const entry of list) words.played.set(entry.index, module.describe(entry));
  } catch {
    return words;
  }
  for (const best of answer.best_moves ?? []) {
    words.best.set(best.index, module.describe({ ...best, type: 'action', version: best.index + 1, by: 'human' }));
  }
  return words;
}

/**
 * The name of side `side` for people (the game module's, which names a team as such).
 * @param {ReviewContext} ctx
 * @param {string} side
 */
function sideName(ctx, side) {
  return ctx.module.seatName(side);
}

/**
 * Whether the sentences say "you" for side `side`: the person plays it, and not every side.
 * @param {any} review
 * @param {ReviewContext} ctx
 * @param {string} side
 */
function isYou(review, ctx, side) {
  return ctx.viewer.has(side) && ctx.viewer.size < review.sides.length;
}

/**
 * The margin of a side's loss: its decisions' margins combined as independent errors.
 * @param {any} review
 * @param {number} s the side's index
 */
function lossMargin(review, s) {
  return Math.sqrt(review.moves.filter((/** @type {any} */ m) => m.side === s).reduce((sum, /** @type {any} */ m) => sum + m.margin ** 2, 0));
}

/**
 * The margin of what the other sides' decisions gave a side (their margins combined).
 * @param {any} review
 * @param {number} s the side's index
 */
function gainsMargin(review, s) {
  return Math.sqrt(review.moves.filter((/** @type {any} */ m) => m.side !== s).reduce((sum, /** @type {any} */ m) => sum + m.margin ** 2, 0));
}

/**
 * A side's decisions by grade (those with a choice: a forced move decides nothing), in `GRADES`
 * order.
 * @param {any} review
 * @param {number} s
 */
function gradeCounts(review, s) {
  const counts = GRADES.map(() => 0);
  for (const m of review.moves) {
    if (m.side === s && m.choices > 1) counts[GRADES.indexOf(m.grade)] += 1;
  }
  return counts;
}

/**
 * Luck against skill for side `s` in plain words (docs/analysis.md, "Luck against skill"): what
 * the dice gave it and what its moves cost, and what the others' moves gave it when that is not
 * nothing — "Luck gave you +18 points; your moves cost 6." — with how exact the figures are.
 * The rounded figures are on the element (`data-luck`, `data-loss`, `data-gains`).
 * @param {any} review
 * @param {number} s
 * @param {ReviewContext} ctx
 */
export function accountSentence(review, s, ctx) {
  // A game ended before anything was played (its graph is the start alone) has nothing to tell.
  if (review.graph.length <= 1) {
    return h('p', { class: ['review-sentence', 'review-nothing'] }, h('span', { class: 'review-words', text: t('review.nothing_played') }));
  }
  const sum = review.summary[s];
  const side = review.sides[s];
  const name = sideName(ctx, side);
  const who = isYou(review, ctx, side) ? 'you' : 'side';
  // Rounded away from the sign, so that −0.4 and +0.4 both read as nothing.
  const round = (/** @type {number} */ x) => Math.sign(x) * Math.round(Math.abs(x));
  const luck = round(sum.luck);
  const loss = round(sum.loss);
  const gains = round(sum.gains);
  const luckText = t(`review.luck.${who}.${luck > 0 ? 'up' : luck < 0 ? 'down' : 'even'}`, { side: name, n: num(Math.abs(luck)) });
  const movesText = t(loss > 0 ? `review.moves.${who}` : `review.moves.${who}.none`, { side: name, n: num(loss) });
  let text = t('review.sentence', { luck: luckText, moves: movesText });
  if (gains !== 0) {
    const others = review.sides.filter((/** @type {string} */ _, /** @type {number} */ i) => i !== s);
    const one = others.length === 1;
    const key = `review.gains.${who}.${one ? 'one' : 'many'}.${gains > 0 ? 'up' : 'down'}`;
    text += ` ${t(key, { side: name, other: one ? sideName(ctx, others[0]) : '', n: num(Math.abs(gains)) })}`;
  }
  // A side whose moves decided nothing (or next to nothing) has no margin on its moves to tell.
  const movesMargin = lossMargin(review, s);
  const precision = review.exact
    ? t('review.exact_note')
    : movesMargin < 0.5
      ? t('review.estimate_note_luck', { luck: num(sum.luck_margin) })
      : t('review.estimate_note', { luck: num(sum.luck_margin), moves: num(movesMargin) });
  return h(
    'p',
    { class: 'review-sentence', dataset: { side, luck, loss, gains } },
    h('span', { class: 'review-words', text }),
    ' ',
    h('span', { class: ['review-precision', 'hint', review.exact ? 'exact' : 'estimated'], text: precision }),
  );
}

/**
 * The sides whose sentences a short summary shows: the person's own, or every side when the
 * person plays none or all of them.
 * @param {any} review
 * @param {ReviewContext} ctx
 * @returns {number[]}
 */
function sidesToTell(review, ctx) {
  const all = review.sides.map((/** @type {string} */ _, /** @type {number} */ i) => i);
  const own = all.filter((/** @type {number} */ i) => isYou(review, ctx, review.sides[i]));
  return own.length ? own : all;
}

/**
 * The results screen's part of the review: the luck-against-skill sentence of the person's side
 * (or of every side), filled in when the server has reviewed the game, and the link to the
 * review page. Asks for the review at once and stops when `stop` is called (the page is left).
 * @param {string} id the game's id
 * @param {ReviewContext} ctx
 * @returns {{element: HTMLElement, stop: () => void}}
 */
export function resultReview(id, ctx) {
  const body = h('div', { class: 'review-result-body' });
  const element = h(
    'section',
    { class: ['review-result', `game-${ctx.game}`], id: 'review-result', 'aria-label': t('review.luck_skill') },
    h('h3', { text: t('review.luck_skill') }),
    body,
    h('p', { class: 'actions' }, h('a', { class: 'button', id: 'review-link', href: `#/review/${id}`, text: t('review.open') })),
  );
  const stop = loadReview(
    body,
    () => api('GET', `/api/games/${id}/review`),
    (answer) => {
      const review = answer.review;
      // Nothing played: one sentence says so for every side.
      const sides = review.graph.length <= 1 ? [0] : sidesToTell(review, ctx);
      replace(body, sides.map((s) => accountSentence(review, s, ctx)));
    },
  );
  return { element, stop };
}

/** The SVG namespace, for the graph. */
const SVG = 'http://www.w3.org/2000/svg';

/**
 * An SVG element with attributes.
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {Element[]} [children]
 */
function svg(tag, attrs, children = []) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(c);
  return el;
}

/**
 * A side's colour swatch (its line's colours: `--review-stroke`, per game in its CSS).
 */
function swatch() {
  return h('span', { class: 'review-swatch', 'aria-hidden': 'true' });
}

/**
 * The classes that colour side `s`: by its index (a default palette) and by its name (each
 * game's own colours, `css/<game>.css`).
 * @param {any} review
 * @param {number} s
 */
function seriesClasses(review, s) {
  return ['review-series', `side-${s}`, `seat-${review.sides[s]}`];
}

/**
 * The graph: every side's winning chance from the start to the last step, one line a side,
 * with the 25/50/75 % lines and the key moments marked. On the replay page a click shows the
 * step under it.
 * @param {any} review
 * @param {ReviewContext} ctx
 */
function graph(review, ctx) {
  const points = /** @type {{index: number | null, chances: number[]}[]} */ (review.graph);
  const W = 1000;
  const H = 300;
  const n = points.length;
  const xs = n > 1 ? points.map((_, i) => (i * W) / (n - 1)) : [0, W];
  const series = n > 1 ? points : [points[0], points[0]];
  const y = (/** @type {number} */ chance) => ((1 - chance) * H).toFixed(1);
  const grid = [0.25, 0.5, 0.75].map((v) => svg('line', { class: ['review-grid', v === 0.5 ? 'mid' : ''].join(' '), x1: 0, x2: W, y1: y(v), y2: y(v) }));
  const position = new Map(points.map((p, i) => [p.index, i]));
  const marks = review.key_moments
    .filter((/** @type {any} */ k) => position.has(k.index))
    .map((/** @type {any} */ k) => {
      const x = xs[position.get(k.index) ?? 0].toFixed(1);
      return svg('line', { class: `review-mark ${k.kind}`, x1: x, x2: x, y1: 0, y2: H, 'data-index': k.index });
    });
  const lines = review.sides.map((/** @type {string} */ side, /** @type {number} */ s) => {
    const coords = series.map((p, i) => `${xs[i].toFixed(1)},${y(p.chances[s] ?? 0)}`).join(' ');
    const mine = isYou(review, ctx, side);
    return svg('g', { class: [...seriesClasses(review, s), mine ? 'mine' : ''].join(' ') }, [
      svg('polyline', { class: 'review-casing', points: coords }),
      svg('polyline', { class: 'review-line', points: coords, 'data-side': side }),
    ]);
  });
  const plot = svg('svg', { class: 'review-svg', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' }, [
    ...grid,
    ...marks,
    ...lines,
  ]);
  const first = points[0];
  const last = points[n - 1];
  const label = t('review.graph_label', {
    list: review.sides
      .map((/** @type {string} */ side, /** @type {number} */ s) =>
        t('review.graph_side', { side: sideName(ctx, side), from: num(100 * (first.chances[s] ?? 0)), to: num(100 * (last.chances[s] ?? 0)) }),
      )
      .join('; '),
  });
  const frame = h(
    'div',
    { class: ['review-plot', ctx.onStep && 'steps'], role: 'img', 'aria-label': label },
    plot,
    h('span', { class: 'review-axis y100', 'aria-hidden': 'true', text: '100 %' }),
    h('span', { class: 'review-axis y50', 'aria-hidden': 'true', text: '50 %' }),
    h('span', { class: 'review-axis y0', 'aria-hidden': 'true', text: '0 %' }),
  );
  const onStep = ctx.onStep;
  if (onStep && n > 1) {
    frame.addEventListener('click', (e) => {
      const box = frame.getBoundingClientRect();
      const i = Math.max(0, Math.min(n - 1, Math.round(((e.clientX - box.left) / box.width) * (n - 1))));
      const index = points[i].index;
      onStep(index === null ? 0 : index + 1);
    });
  }
  const lastStep = last.index === null ? 0 : last.index + 1;
  return h(
    'figure',
    { class: 'review-graph', id: 'review-graph' },
    h(
      'ul',
      { class: 'review-legend' },
      review.sides.map((/** @type {string} */ side, /** @type {number} */ s) =>
        h(
          'li',
          { class: seriesClasses(review, s), dataset: { side } },
          swatch(),
          h('span', { class: 'review-legend-name', text: sideName(ctx, side) }),
          isYou(review, ctx, side) ? h('span', { class: 'review-you', text: ` ${t('review.you')}` }) : null,
          h('span', { class: 'review-legend-value', text: ` ${num(100 * (last.chances[s] ?? 0))} %` }),
        ),
      ),
    ),
    frame,
    h(
      'div',
      { class: 'review-x', 'aria-hidden': 'true' },
      h('span', { text: t('review.graph_start') }),
      h('span', { text: t('review.graph_end', { n: lastStep }) }),
    ),
    h('figcaption', { class: 'hint', text: t('review.graph_hint') }),
  );
}

/**
 * A threshold as written: with as many decimals as it has, up to two (`0.01`, `2.5`, `10`).
 * @param {number} x
 */
function plain(x) {
  return num(x, Number.isInteger(x) ? 0 : Number.isInteger(x * 10) ? 1 : 2);
}

/**
 * A number of points with its sign (`+7.2`, `−3.0`; `0.0` without one).
 * @param {number} x
 */
function signed(x) {
  const text = num(Math.abs(x), 1);
  if (Math.abs(x) < 0.05) return num(0, 1);
  return `${x > 0 ? '+' : '−'}${text}`;
}

/**
 * One side's card: its name, accuracy, decisions by grade, luck against skill in words and as
 * an account (start + luck − own moves + others' moves = result) with the margins.
 * @param {any} review
 * @param {number} s
 * @param {ReviewContext} ctx
 */
function sideCard(review, s, ctx) {
  const sum = review.summary[s];
  const side = review.sides[s];
  const counts = gradeCounts(review, s);
  const margin = (/** @type {number} */ m) => (review.exact ? '' : `±${num(m, 1)}`);
  const row = (/** @type {string} */ key, /** @type {string} */ value, /** @type {string} */ pm) =>
    h('tr', { dataset: { row: key } }, h('th', { scope: 'row', text: t(`review.account.${key}`) }), h('td', { class: 'num', text: value }), h('td', { class: 'num margin', text: pm }));
  return h(
    'section',
    { class: ['review-side', ...seriesClasses(review, s), isYou(review, ctx, side) && 'mine'], dataset: { side } },
    h('h3', {}, swatch(), sideName(ctx, side), isYou(review, ctx, side) ? h('span', { class: 'review-you', text: ` ${t('review.you')}` }) : null),
    h(
      'p',
      { class: 'review-accuracy' },
      sum.accuracy === null || sum.accuracy === undefined
        ? h('span', { class: 'hint', text: t('review.no_accuracy') })
        : [t('review.accuracy'), ' ', h('strong', { class: 'review-accuracy-value', text: `${num(sum.accuracy, 1)} %` }), ' · ', sum.decisions === 1 ? t('review.decisions_one') : t('review.decisions', { n: num(sum.decisions) })],
    ),
    h(
      'ul',
      { class: 'review-grades', 'aria-label': t('review.grades') },
      GRADES.map((g, i) =>
        h(
          'li',
          { class: ['grade', `grade-${g}`, counts[i] === 0 && 'none'], dataset: { grade: g, count: counts[i] } },
          t(`review.grade.${g}`),
          ' ',
          h('strong', { text: String(counts[i]) }),
        ),
      ),
    ),
    accountSentence(review, s, ctx),
    h(
      'table',
      { class: 'data review-account' },
      h('caption', { class: 'visually-hidden', text: t('review.account') }),
      h(
        'tbody',
        {},
        row('initial', num(sum.initial, 1), margin(sum.initial_margin)),
        row('luck', signed(sum.luck), margin(sum.luck_margin)),
        row('loss', signed(-sum.loss), margin(lossMargin(review, s))),
        row('gains', signed(sum.gains), margin(gainsMargin(review, s))),
        row('result', num(sum.result, 1), ''),
      ),
    ),
  );
}

/**
 * A step's label, a button that shows it on the board when the page has one.
 * @param {number} step
 * @param {ReviewContext} ctx
 */
function stepLabel(step, ctx) {
  const text = t('review.step', { n: step });
  const onStep = ctx.onStep;
  if (!onStep) return h('span', { class: 'review-step', text });
  return h('button', { type: 'button', class: ['link', 'review-step'], title: t('review.show_step', { n: step }), text, on: { click: () => onStep(step) } });
}

/**
 * A move's loss as the list shows it, to a tenth of a point: a loss that rounds to 0.0 is
 * shown as none ("−0.0 points" with a better move named would read as a contradiction).
 * @param {{loss: number}} m
 */
function shownLoss(m) {
  return Math.round(m.loss * 10) / 10;
}

/**
 * The key moments: the largest losses and swings of luck, each with its step and what happened.
 * @param {any} review
 * @param {ReviewContext} ctx
 */
function keyMoments(review, ctx) {
  if (!review.key_moments.length) return h('p', { class: 'hint', id: 'review-key-none', text: t('review.key.none') });
  return h(
    'ol',
    { class: 'review-key', id: 'review-key' },
    review.key_moments.map((/** @type {any} */ k) => {
      const name = sideName(ctx, review.sides[k.side]);
      const points = num(Math.abs(k.points), 1);
      const text =
        k.kind === 'loss'
          ? t('review.key.loss', { side: name, n: points })
          : t(k.points >= 0 ? 'review.key.luck_up' : 'review.key.luck_down', { side: name, n: points });
      const what = ctx.words?.played.get(k.index) ?? review.chance.find((/** @type {any} */ c) => c.index === k.index)?.action ?? review.moves.find((/** @type {any} */ m) => m.index === k.index)?.action ?? '';
      return h(
        'li',
        { class: ['review-moment', k.kind], dataset: { kind: k.kind, index: k.index, side: review.sides[k.side] } },
        stepLabel(k.index + 1, ctx),
        ' ',
        h('strong', { text }),
        what ? h('span', { class: 'review-what', text: what }) : null,
      );
    }),
  );
}

/**
 * Every decision with a choice, graded, with the move played and the best one in words, and a
 * filter: every decision, the person's own, or inaccuracies and worse.
 * @param {any} review
 * @param {ReviewContext} ctx
 */
function moveList(review, ctx) {
  const decisions = review.moves.filter((/** @type {any} */ m) => m.choices > 1);
  if (!decisions.length) return [h('p', { class: 'hint', id: 'review-moves-none', text: t('review.moves_none') })];
  const bad = new Set(['inaccuracy', 'mistake', 'blunder']);
  const list = h(
    'ol',
    { class: 'review-moves', id: 'review-moves' },
    decisions.map((/** @type {any} */ m) => {
      const side = review.sides[m.side];
      const played = ctx.words?.played.get(m.index) ?? m.action;
      const best = ctx.words?.best.get(m.index) ?? m.best;
      return h(
        'li',
        {
          class: ['review-move', `grade-${m.grade}`, isYou(review, ctx, side) && 'mine', ...seriesClasses(review, m.side)],
          dataset: { grade: m.grade, side, index: m.index },
        },
        h(
          'div',
          { class: 'review-move-head' },
          stepLabel(m.index + 1, ctx),
          h('span', { class: 'review-who' }, swatch(), sideName(ctx, side)),
          h('span', { class: ['grade', `grade-${m.grade}`], text: t(`review.grade.${m.grade}`) }),
          shownLoss(m) > 0
            ? h('span', { class: 'review-loss', text: `${t('review.loss', { n: num(m.loss, 1) })}${review.exact ? '' : ` ±${num(m.margin, 1)}`}` })
            : null,
        ),
        h('div', { class: 'review-played', text: played }),
        shownLoss(m) > 0 && m.best !== m.action ? h('div', { class: 'review-best', text: t('review.best_was', { move: best }) }) : null,
      );
    }),
  );
  const mineToo = review.sides.some((/** @type {string} */ side) => isYou(review, ctx, side));
  const filter = h(
    'select',
    {
      id: 'review-filter',
      on: {
        change: () => {
          const which = filter.value;
          for (const li of list.querySelectorAll('li')) {
            const el = /** @type {HTMLElement} */ (li);
            const show = which === 'all' || (which === 'mine' ? el.classList.contains('mine') : bad.has(el.dataset.grade ?? ''));
            el.hidden = !show;
          }
        },
      },
    },
    h('option', { value: 'all', text: t('review.filter.all') }),
    mineToo ? h('option', { value: 'mine', text: t('review.filter.mine') }) : null,
    h('option', { value: 'errors', text: t('review.filter.errors') }),
  );
  return [h('label', { class: 'review-filter' }, `${t('review.filter')} `, filter), list];
}

/**
 * The whole review: the graph, each side's card, the key moments, every decision, the grades'
 * thresholds and the method.
 * @param {any} review the `review` of a finished review's body
 * @param {ReviewContext} ctx
 */
export function drawReview(review, ctx) {
  const th = review.thresholds;
  return h(
    'div',
    { class: ['review', `game-${ctx.game}`, review.exact ? 'exact' : 'estimated'], id: 'review' },
    h('h2', { id: 'review-title', text: t('review.title') }),
    graph(review, ctx),
    h('div', { class: 'review-sides' }, review.sides.map((/** @type {string} */ _, /** @type {number} */ s) => sideCard(review, s, ctx))),
    h(
      'p',
      { class: 'hint review-sum' },
      t('review.account.sum'),
      ' ',
      t('review.points_hint'),
      review.finished ? null : h('span', { id: 'review-unfinished', text: ` ${t('review.account.unfinished')}` }),
    ),
    h('h3', { text: t('review.key') }),
    keyMoments(review, ctx),
    h('h3', { text: t('review.moves') }),
    moveList(review, ctx),
    h(
      'p',
      { class: 'hint', id: 'review-thresholds' },
      t('review.thresholds', { best: plain(th.best), excellent: plain(th.excellent), good: plain(th.good), inaccuracy: plain(th.inaccuracy), mistake: plain(th.mistake) }),
      review.exact ? null : ` ${t('review.thresholds_estimated')}`,
    ),
    h('p', { class: 'hint', id: 'review-method' }, review.exact ? t('review.method.exact') : t('review.method.estimated', { n: num(review.playouts) })),
    h('p', { class: 'hint review-server-method' }, t('replay.server_says'), ' ', h('code', { text: review.method })),
  );
}
