// The profile page (docs/progression.md): the player's level and level bar, experience, coins,
// every achievement — earned first, then the rest — by game, and the skins owned. All of it is
// the server's (`GET /api/profile`); the page names no game (their names are the catalogue's
// message keys and the achievements' own names).

import { api } from '../api.js';
import { h } from '../dom.js';
import { num, t } from '../i18n.js';
import { achievementCard, levelBar } from '../progress.js';

/** @param {HTMLElement} view */
export async function profilePage(view) {
  const profile = await api('GET', '/api/profile');
  /** @type {import('../progress.js').Achievement[]} */
  const all = profile.achievements;
  const games = [...new Set(all.map((a) => a.game))];
  view.append(
    h(
      'section',
      { class: 'panel', id: 'profile' },
      h('h1', { text: t('profile.title') }),
      levelBar(profile.level),
      h(
        'p',
        { class: 'profile-figures' },
        h('span', { id: 'profile-xp', text: t('profile.xp', { xp: num(profile.level.xp) }) }),
        h('span', { id: 'profile-coins', text: t('profile.coins', { coins: num(profile.coins) }) }),
        h('span', { id: 'profile-games', text: t('profile.games', { games: num(profile.games) }) }),
      ),
      h('p', { class: 'hint', text: t('profile.note') }),
    ),
    h(
      'section',
      { class: 'panel' },
      h('h2', { text: t('profile.achievements', { earned: num(profile.earned), total: num(all.length) }) }),
      games.map((game) =>
        h(
          'div',
          { class: 'achievement-game', dataset: { game } },
          h('h3', { text: t(`game.${game}.name`) }),
          h(
            'ul',
            { class: 'achievements' },
            [...all.filter((a) => a.game === game && a.earned !== null), ...all.filter((a) => a.game === game && a.earned === null)].map(achievementCard),
          ),
        ),
      ),
    ),
    h(
      'section',
      { class: 'panel', id: 'skins-owned' },
      h('h2', { text: t('profile.skins') }),
      profile.skins.map((/** @type {{game: string, owned: {colours: {label: string}[], pieces: {label: string}[], boards: {label: string}[]}}} */ entry) =>
        h(
          'div',
          { dataset: { game: entry.game } },
          h('h3', { text: t(`game.${entry.game}.name`) }),
          h('p', { class: 'skins-owned' }, h('strong', { text: `${t('profile.colours')}: ` }), entry.owned.colours.map((s) => t(s.label)).join(', ')),
          h('p', { class: 'skins-owned' }, h('strong', { text: `${t('profile.pieces')}: ` }), entry.owned.pieces.map((s) => t(s.label)).join(', ')),
          h('p', { class: 'skins-owned' }, h('strong', { text: `${t('profile.boards')}: ` }), entry.owned.boards.map((s) => t(s.label)).join(', ')),
        ),
      ),
      h('p', { class: 'hint', text: t('profile.skins_free') }),
    ),
  );
}
