// Stats: per game, mode and CPU level — played, won, lost, drawn, no result, time played.

import { api } from '../api.js';
import { h } from '../dom.js';
import { duration, num, t } from '../i18n.js';

/** @param {HTMLElement} view */
export async function statsPage(view) {
  const { stats } = await api('GET', '/api/stats');
  const cols = ['played', 'won', 'lost', 'drawn', 'no_result', 'ongoing'];
  view.append(
    h(
      'section',
      { class: 'panel' },
      h('h1', { text: t('stats.title') }),
      stats.length === 0
        ? h('p', { id: 'stats-empty', text: t('stats.empty') })
        : h(
            'div',
            { class: 'table-scroll' },
            h(
              'table',
              { id: 'stats', class: 'data stats' },
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  h('th', { scope: 'col', text: t('stats.game') }),
                  h('th', { scope: 'col', text: t('stats.mode') }),
                  cols.map((c) => h('th', { scope: 'col', class: 'num', text: t(`stats.${c}`) })),
                  h('th', { scope: 'col', class: 'num', text: t('stats.win_rate') }),
                  h('th', { scope: 'col', class: 'num', text: t('stats.time') }),
                ),
              ),
              h(
                'tbody',
                {},
                stats.map((/** @type {any} */ row) => {
                  const rate = winRate(row);
                  return h(
                    'tr',
                    { dataset: { game: row.game, mode: row.mode } },
                    h('th', { scope: 'row', dataset: { col: 'game' }, text: t(`game.${row.game}.name`) }),
                    h('td', {
                      dataset: { col: 'mode', label: t('stats.mode') },
                      text: row.cpu ? `${t(`setup.mode.${row.mode}`)} · ${levels(row.cpu)}` : t(`setup.mode.${row.mode}`),
                    }),
                    cols.map((c) => h('td', { class: 'num', dataset: { col: c, label: t(`stats.${c}`) }, text: num(row[c]) })),
                    h('td', { class: 'num', dataset: { col: 'win_rate', label: t('stats.win_rate') }, text: rate === null ? '–' : `${num(100 * rate, 0)} %` }),
                    h('td', { class: 'num', dataset: { col: 'time', label: t('stats.time') }, text: duration(row.time_played_ms) }),
                  );
                }),
              ),
            ),
          ),
      h('p', { class: 'hint', id: 'stats-note', text: t('stats.note') }),
    ),
  );
}

/**
 * The win rate of a stats row: a draw counts as half a win, out of the games won, lost or drawn
 * (games with no result are left out); null when there is none (the page's note says so).
 * @param {{won: number, lost: number, drawn: number}} row
 * @returns {number | null}
 */
export function winRate(row) {
  const counted = row.won + row.lost + row.drawn;
  return counted ? (row.won + row.drawn / 2) / counted : null;
}

/**
 * CPU levels joined by `+` in the stats rows, in words.
 * @param {string} cpu
 */
export function levels(cpu) {
  return cpu
    .split('+')
    .map((l) => t(`level.${l.replace(/:.*/, '')}`))
    .join(' + ');
}
