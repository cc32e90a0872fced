// History: the player's games, newest first, with resume for unfinished games, replay, the
// review of a finished game and record download.

import { GAMES } from '../app.js';
import { api } from '../api.js';
import { h } from '../dom.js';
import { t, when } from '../i18n.js';
import { levels } from './stats.js';
import { resultText } from './play.js';

const PAGE = 50;

/** @param {HTMLElement} view */
export async function historyPage(view) {
  const list = h('ol', { class: 'history', id: 'history' });
  const more = h('button', { type: 'button', text: t('history.more'), hidden: true });
  let offset = 0;

  async function load() {
    const { games } = await api('GET', `/api/history?limit=${PAGE}&offset=${offset}`);
    offset += games.length;
    more.hidden = games.length < PAGE;
    for (const g of games) list.append(item(g));
    if (offset === 0) list.replaceWith(h('p', { id: 'history-empty', text: t('history.empty') }));
  }
  more.addEventListener('click', () => void load());

  view.append(
    h(
      'section',
      { class: 'panel' },
      h('h1', { text: t('history.title') }),
      h('p', {}, h('a', { class: 'button', href: '#/replay-file', text: t('home.load_record') })),
      list,
      more,
    ),
  );
  await load();
}

/** @param {any} g a history row */
function item(g) {
  const module = GAMES[g.game];
  const ongoing = g.status === 'ongoing';
  const outcome = g.outcome ? t(`history.outcome.${g.outcome}`) : t('history.ongoing');
  return h(
    'li',
    { class: ['history-item', ongoing && 'ongoing'], dataset: { id: g.id, game: g.game } },
    h(
      'div',
      { class: 'history-main' },
      h('strong', { text: t(`game.${g.game}.name`) }),
      ' ',
      h('span', { class: ['outcome', g.outcome ?? 'ongoing'], text: outcome }),
      h(
        'div',
        { class: 'hint' },
        `${t(`setup.mode.${g.mode}`)}${g.cpu ? ` · ${levels(g.cpu)}` : ''} · ${when(g.created)}`,
        g.status === 'finished' && module ? ` · ${resultText(module, g)}` : '',
      ),
    ),
    h(
      'div',
      { class: 'actions' },
      ongoing
        ? h('a', { class: 'button primary', href: `#/play/${g.id}`, text: t('history.resume') })
        : h('a', { class: 'button', href: `#/play/${g.id}`, text: t('history.open') }),
      h('a', { class: 'button', href: `#/replay/${g.id}`, text: t('history.replay') }),
      ongoing ? null : h('a', { class: 'button', href: `#/review/${g.id}`, text: t('history.review') }),
      h('a', { class: 'button', href: `/api/games/${g.id}/record`, download: `madang-${g.game}-${g.id}.json`, text: t('history.download') }),
    ),
  );
}
