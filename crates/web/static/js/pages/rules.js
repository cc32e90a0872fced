// The rules page of a game, in the current language (content in js/games/<game>-rules.js).

import { GAMES, entry } from '../app.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';

/**
 * @param {HTMLElement} view
 * @param {string} game
 */
export function rulesPage(view, game) {
  view.append(
    h(
      'article',
      { class: ['panel', 'rules', `rules-${game}`] },
      h('h1', { text: t('rules.title', { game: t(`game.${game}.name`) }) }),
      ...GAMES[game].rules(entry(game)),
      h('p', {}, h('a', { class: 'button primary', href: `#/setup/${game}`, text: t('home.play') })),
    ),
  );
}
