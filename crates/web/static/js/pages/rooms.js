// Online rooms: the list of open public rooms and joining by code (docs/api.md, "Rooms").

import { gameNames } from '../app.js';
import { api } from '../api.js';
import { h, replace } from '../dom.js';
import { errorText, t, when } from '../i18n.js';

/** The room codes' alphabet: no 0/O, no 1/I (docs/api.md, "Code and link"). */
const CODE = /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{6}$/;

/**
 * A code as typed by a person: upper case, without spaces or dashes; `null` when it cannot be one.
 * @param {string} text
 */
export function normaliseCode(text) {
  const code = text.toUpperCase().replace(/[\s-]/g, '');
  return CODE.test(code) ? code : null;
}

/** @param {HTMLElement} view */
export async function roomsPage(view) {
  const input = h('input', {
    id: 'room-code',
    name: 'code',
    autocomplete: 'off',
    autocapitalize: 'characters',
    spellcheck: 'false',
    maxlength: 9,
    placeholder: 'K7QX3M',
    on: { input: () => (error.textContent = '') },
  });
  const error = h('p', { class: 'error', role: 'alert' });
  const list = h('div', { id: 'room-list' });
  view.append(
    h(
      'section',
      { class: 'panel' },
      h('h1', { text: t('rooms.title') }),
      h('p', { text: t('rooms.intro') }),
      h(
        'form',
        {
          class: 'field',
          on: {
            submit: async (/** @type {Event} */ e) => {
              e.preventDefault();
              const code = normaliseCode(input.value);
              if (!code) {
                error.textContent = t('rooms.bad_code');
                return;
              }
              // A code no open room has is said here, beside the code to correct, not on a
              // page of its own.
              try {
                await api('GET', `/api/rooms/${code}`);
              } catch (err) {
                error.textContent = errorText(err);
                return;
              }
              location.hash = `#/room/${code}`;
            },
          },
        },
        h('label', { for: 'room-code', text: t('rooms.code') }),
        h('div', { class: 'row' }, input, h('button', { type: 'submit', class: 'primary', id: 'join-code', text: t('rooms.join') })),
        error,
      ),
      h(
        'p',
        { class: 'actions' },
        gameNames('room').map((game) => h('a', { class: 'button', href: `#/setup/${game}/room`, text: t('rooms.create', { game: t(`game.${game}.name`) }) })),
      ),
    ),
    h('section', { class: 'panel' }, h('h2', { text: t('rooms.public') }), list),
  );
  try {
    const { rooms } = await api('GET', '/api/rooms');
    replace(
      list,
      rooms.length === 0
        ? h('p', { class: 'hint', text: t('rooms.none') })
        : h(
            'ul',
            { class: 'history' },
            rooms.map((/** @type {any} */ r) =>
              h(
                'li',
                { class: 'history-item', dataset: { code: r.code } },
                h(
                  'div',
                  {},
                  h('strong', { text: t(`game.${r.game}.name`) }),
                  ' ',
                  h('code', { text: r.code }),
                  h('div', { class: 'hint', text: t('rooms.listing', { host: r.host ?? '–', open: r.open, when: when(r.created) }) }),
                ),
                h('a', { class: 'button primary', href: `#/room/${r.code}`, text: t('rooms.join') }),
              ),
            ),
          ),
    );
  } catch (e) {
    replace(list, h('p', { class: 'error', text: errorText(e) }));
  }
}
