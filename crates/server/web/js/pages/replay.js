// The replay viewer: steps through a game move by move — a game of the server (`#/replay/ID`,
// from `GET /api/games/{id}/steps/{n}`) or a record file loaded from disk (`#/replay-file`,
// from `POST /api/replay`).

import { GAMES } from '../app.js';
import { ApiError, api } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { errorText, t } from '../i18n.js';
import { isChance, resultText } from './play.js';

/**
 * @param {HTMLElement} view
 * @param {string} [id] a game id; none for a loaded file
 */
export async function replayPage(view, id) {
  view.className = 'replay';
  if (id) {
    const record = await api('GET', `/api/games/${id}/record`);
    const geometry = await api('GET', `/api/games/${id}/board`);
    viewer(view, record, geometry, (n) => api('GET', `/api/games/${id}/steps/${n}`));
    return;
  }
  const input = h('input', { type: 'file', id: 'record-file', accept: '.json,application/json' });
  const error = h('p', { class: 'error', role: 'alert' });
  const holder = h('div');
  input.addEventListener('change', async () => {
    error.textContent = '';
    const file = input.files?.[0];
    if (!file) return;
    let record;
    try {
      record = JSON.parse(await file.text());
    } catch {
      error.textContent = t('replay.not_json');
      return;
    }
    try {
      const last = await api('POST', '/api/replay', { record });
      replace(holder);
      viewer(holder, record, last.board, (n) => api('POST', '/api/replay', { record, step: n }));
    } catch (e) {
      // A bad record (malformed, or an illegal action in it): the server's message names the
      // field or the action and the reason (technical, so shown as it is, in English); any
      // other refusal in the page's language.
      if (e instanceof ApiError && (e.code === 'bad_record' || e.code === 'illegal_action')) replace(error, t('replay.bad_record'), ' ', h('code', { class: 'detail', text: e.message }));
      else error.textContent = errorText(e);
    }
  });
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
}

/**
 * @param {HTMLElement} view
 * @param {any} record
 * @param {any} geometry
 * @param {(n: number) => Promise<any>} fetchStep
 */
function viewer(view, record, geometry, fetchStep) {
  const module = GAMES[record.game];
  if (!module) throw new Error(t('replay.unknown_game', { game: String(record.game) }));
  /** @type {string[]} */
  const actions = Array.isArray(record.actions) ? record.actions : [];
  const steps = actions.length;
  const board = h('div', { class: 'board-wrap', id: 'board', role: 'group', 'aria-label': t('play.board') });
  const caption = h('p', { class: 'turn', id: 'step-caption', 'aria-live': 'polite' });
  const slider = h('input', { type: 'range', id: 'step', min: 0, max: steps, value: steps, 'aria-label': t('replay.step') });
  const log = h('ol', { class: 'log', id: 'log' });
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
    const entry = n > 0 ? { type: 'action', version: n, index: n - 1, action: v.action, seat: null, by: isChance(v.action) ? 'chance' : 'human', events: v.action_events ?? [], at: 0 } : null;
    const lines = entry ? module.describe(/** @type {any} */ (entry)) : t('replay.start');
    caption.textContent = `${t('replay.step_of', { n, steps })} — ${lines}`;
    if (v.status === 'finished') caption.textContent += ` — ${resultText(module, { ...v, end: n === steps ? record.end : null })}`;
    for (const li of log.querySelectorAll('li')) li.classList.toggle('current', Number(/** @type {HTMLElement} */ (li).dataset.step) === n);
  }

  actions.forEach((action, i) => {
    log.append(
      h(
        'li',
        { dataset: { step: i + 1 }, class: isChance(action) ? 'chance' : 'human' },
        h('button', { type: 'button', class: 'link', on: { click: () => void go(i + 1) } }, h('code', { text: action })),
      ),
    );
  });
  slider.addEventListener('input', () => void go(Number(slider.value)));

  const button = (/** @type {string} */ idName, /** @type {string} */ label, /** @type {() => number} */ target) =>
    h('button', { type: 'button', id: idName, text: label, on: { click: () => void go(target()).catch((e) => toast(errorText(e), 'error')) } });

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
        h('h2', { class: 'log-title', text: t('play.log') }),
        log,
      ),
    ),
  );
  view.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === 'ArrowRight') void go(current + 1);
    if (e.key === 'ArrowLeft') void go(current - 1);
  });
  void go(steps);
}
