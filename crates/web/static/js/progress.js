// Progression (docs/progression.md): what a finished game gave the player on the results screen
// (experience by reason, coins, the level bar, achievements earned for the first time), and
// the level bar and achievement cards the profile page shares. Everything is the server's,
// computed from the stored record (`GET /api/games/{id}/progress`, `GET /api/profile`); a game
// that offers no progression (Ludo) answers `progression: false` and nothing is drawn.

import { api } from './api.js';
import { h, replace } from './dom.js';
import { currentLang, num, t } from './i18n.js';

/**
 * @typedef {{level: number, xp: number, floor: number, next: number | null}} Level
 * @typedef {{id: string, game: string, name: {en: string, ko: string}, about: {en: string, ko: string}, earned: number | null}} Achievement
 */

/**
 * A text of both languages in the page's language.
 * @param {{en: string, ko: string}} text
 */
export function inLang(text) {
  return currentLang() === 'ko' ? text.ko : text.en;
}

/**
 * The level bar: the level, a bar filled to where the experience stands within it, and the
 * experience still needed for the next level.
 * @param {Level} level
 * @param {Level} [before] the level before the game (its part of the bar is drawn apart)
 */
export function levelBar(level, before) {
  const span = level.next === null ? 1 : level.next - level.floor;
  const filled = level.next === null ? 1 : (level.xp - level.floor) / span;
  const from = before && before.level === level.level && level.next !== null ? (before.xp - level.floor) / span : 0;
  const pct = (/** @type {number} */ x) => `${Math.max(0, Math.min(100, 100 * x)).toFixed(1)}%`;
  return h(
    'div',
    { class: 'level' },
    h('div', { class: 'level-head' }, h('strong', { class: 'level-number', text: t('progress.level', { level: level.level }) }), h('span', { class: 'level-xp', text: level.next === null ? t('progress.top', { xp: num(level.xp) }) : t('progress.to_next', { xp: num(level.xp), next: num(level.next) }) })),
    h(
      'div',
      { class: 'level-bar', role: 'progressbar', 'aria-valuemin': String(level.floor), 'aria-valuemax': String(level.next ?? level.xp), 'aria-valuenow': String(level.xp), 'aria-label': t('progress.level', { level: level.level }) },
      h('span', { class: 'level-fill', style: `width: ${pct(filled)}` }),
      from > 0 ? h('span', { class: 'level-before', style: `width: ${pct(from)}` }) : null,
    ),
  );
}

/**
 * An achievement card: its name, what earns it, and whether it is earned.
 * @param {Achievement} a
 */
export function achievementCard(a) {
  return h(
    'li',
    { class: a.earned === null ? 'achievement' : 'achievement earned', dataset: { id: a.id, earned: String(a.earned !== null) } },
    h('span', { class: 'achievement-mark', 'aria-hidden': 'true', text: a.earned === null ? '○' : '★' }),
    h('span', { class: 'achievement-text' }, h('strong', { class: 'achievement-name', text: inLang(a.name) }), h('span', { class: 'achievement-about', text: inLang(a.about) })),
    h('span', { class: 'visually-hidden', text: a.earned === null ? t('progress.not_earned') : t('progress.earned') }),
  );
}

/**
 * The results screen's progression for game `id`: an element filled when the server answers
 * (empty for a game without progression), drawn again in the current language on `redraw`.
 * @param {string} id
 * @returns {{element: HTMLElement, redraw: () => void}}
 */
export function resultProgress(id) {
  const element = h('section', { class: 'progress', id: 'result-progress', hidden: true, 'aria-live': 'polite' });
  /** @type {any} */
  let answer = null;
  const draw = () => {
    // Only a player of the game was given anything (or nothing) by it: a spectator of a
    // finished game sees no award.
    if (!answer || !answer.progression || answer.played === false) {
      element.hidden = true;
      return;
    }
    replace(
      element,
      h('h3', { text: t('progress.title') }),
      h(
        'p',
        { class: 'xp-gained' },
        h('strong', { id: 'xp-gained', text: t('progress.xp_gained', { xp: num(answer.xp) }) }),
        answer.coins > 0 ? h('span', { class: 'coins-gained', text: ` · ${t('progress.coins_gained', { coins: num(answer.coins) })}` }) : null,
      ),
      answer.parts.length > 0
        ? h('p', { class: 'xp-parts hint', text: answer.parts.map((/** @type {{part: string, xp: number}} */ p) => `${t(`progress.part.${p.part}`)} +${num(p.xp)}`).join(' · ') })
        : h('p', { class: 'xp-parts hint', text: t('progress.nothing') }),
      answer.level.level > answer.before.level ? h('p', { class: 'level-up', id: 'level-up', text: t('progress.level_up', { level: answer.level.level }) }) : null,
      levelBar(answer.level, answer.before),
      answer.new.length > 0
        ? h('div', { class: 'new-achievements' }, h('h4', { text: t('progress.new_achievements') }), h('ul', { class: 'achievements', id: 'new-achievements' }, answer.new.map(achievementCard)))
        : null,
      h('p', {}, h('a', { href: '#/profile', id: 'to-profile', text: t('progress.to_profile') })),
    );
    element.hidden = false;
  };
  api('GET', `/api/games/${id}/progress`)
    .then((got) => {
      answer = got;
      draw();
    })
    .catch(() => {
      element.hidden = true;
    });
  return { element, redraw: draw };
}
