// The review page of a stored game (`#/review/ID`): `GET /api/games/{id}/review`, its progress
// while the server reviews the game, then the whole review (js/review.js) with the moves in
// words from the game's record.

import { GAMES } from '../app.js';
import { api } from '../api.js';
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { actionWords, drawReview, loadReview, viewerSides } from '../review.js';
import { resultText } from './play.js';

/**
 * @param {HTMLElement} view
 * @param {string} id
 */
export async function reviewPage(view, id) {
  const [state, record] = await Promise.all([api('GET', `/api/games/${id}`), api('GET', `/api/games/${id}/record`)]);
  const module = GAMES[state.game];
  if (!module) throw new Error(t('replay.unknown_game', { game: String(state.game) }));
  view.className = `review-page game-${state.game}`;
  const box = h('div', { class: 'review-box', id: 'review-box', 'aria-live': 'polite' });
  const result = state.status === 'finished' ? resultText(module, state) : '';
  view.append(
    h(
      'div',
      { class: 'play-head' },
      h('h1', { text: t('review.page_title', { game: t(`game.${state.game}.name`) }) }),
      result ? h('p', { class: 'turn', id: 'review-result-line', text: result }) : null,
    ),
    h(
      'p',
      { class: 'actions' },
      h('a', { class: 'button', id: 'review-game', href: `#/play/${id}`, text: t('review.to_game') }),
      h('a', { class: 'button', id: 'review-replay', href: `#/replay/${id}`, text: t('result.replay') }),
      h('a', { class: 'button', href: `/api/games/${id}/record`, download: `madang-${state.game}-${id}.json`, text: t('result.download') }),
    ),
    box,
  );
  return loadReview(
    box,
    () => api('GET', `/api/games/${id}/review`),
    async (answer) => {
      const words = await actionWords(record, answer, module);
      replace(box, drawReview(answer.review, { module, game: state.game, viewer: viewerSides(state), words }));
    },
  );
}
