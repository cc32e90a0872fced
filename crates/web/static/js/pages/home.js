// Home: the four games, the player's nickname, the animation and rolls settings, links to stats
// and history.

import { ROLLS_KEY, gameNames, me } from '../app.js';
import { api } from '../api.js';
import { h } from '../dom.js';
import { errorText, t } from '../i18n.js';

/** @param {HTMLElement} view */
export function homePage(view) {
  view.append(
    h('h1', { class: 'visually-hidden', text: t('app.title') }),
    h(
      'ul',
      { class: 'game-list' },
      gameNames().map((game) =>
        h(
          'li',
          { class: ['game-card', `game-${game}`] },
          h('h2', {}, h('a', { href: `#/setup/${game}`, text: t(`game.${game}.name`) })),
          h('p', { text: t(`game.${game}.line`) }),
          h(
            'div',
            { class: 'actions' },
            h('a', { class: 'button primary', href: `#/setup/${game}`, text: t('home.play') }),
            h('a', { class: 'button', href: `#/rules/${game}`, text: t('home.rules') }),
          ),
        ),
      ),
    ),
    nicknameForm(),
    paceForm(),
    rollsForm(),
    h(
      'p',
      { class: 'links' },
      h('a', { href: '#/rooms', text: t('home.rooms') }),
      ' · ',
      h('a', { href: '#/stats', text: t('nav.stats') }),
      ' · ',
      h('a', { href: '#/history', text: t('nav.history') }),
      ' · ',
      h('a', { href: '#/replay-file', text: t('home.load_record') }),
      ' · ',
      h('a', { href: '#/lab', id: 'home-lab', text: t('home.lab') }),
    ),
  );
}

function nicknameForm() {
  const input = h('input', {
    id: 'nickname',
    name: 'nickname',
    value: me.nickname,
    maxlength: 24,
    autocomplete: 'nickname',
    required: true,
  });
  const status = h('span', { class: 'status', 'aria-live': 'polite' });
  /** Says `text` beside the button, as an error or not. */
  const say = (/** @type {string} */ text, /** @type {boolean} */ error) => {
    status.textContent = text;
    status.classList.toggle('error', error);
  };
  // What it said is about the name as it was: typing makes it old news.
  input.addEventListener('input', () => say('', false));
  return h(
    'form',
    {
      class: 'panel nickname',
      on: {
        submit: async (/** @type {Event} */ e) => {
          e.preventDefault();
          say('', false);
          try {
            const player = await api('PUT', '/api/me', { nickname: input.value.trim() });
            me.nickname = player.nickname;
            input.value = player.nickname;
            say(t('home.nickname_saved'), false);
          } catch (err) {
            // The refused name stays in the box to be corrected; the error says why, and the
            // name kept is still the one saved.
            say(errorText(err), true);
          }
        },
      },
    },
    h('label', { for: 'nickname', text: t('home.nickname') }),
    h('div', { class: 'row' }, input, h('button', { type: 'submit', text: t('home.save') })),
    status,
  );
}

/**
 * One of the page's settings kept in `localStorage` as radio buttons.
 * @param {string} key the storage key (`madang.pace`)
 * @param {string} name the form's name and its messages' prefix (`pace`: `home.pace`, `home.pace.fast`)
 * @param {string[]} values the choices, the default first
 */
function settingForm(key, name, values) {
  const current = localStorage.getItem(key) ?? values[0];
  return h(
    'fieldset',
    { class: `panel setting ${name}` },
    h('legend', { text: t(`home.${name}`) }),
    values.map((value) =>
      h(
        'label',
        { class: 'choice' },
        h('input', {
          type: 'radio',
          name,
          value,
          checked: current === value,
          on: { change: () => localStorage.setItem(key, value) },
        }),
        t(`home.${name}.${value}`),
      ),
    ),
  );
}

function paceForm() {
  return settingForm('madang.pace', 'pace', ['normal', 'fast', 'off']);
}

/** Your own rolls and throws: by a tap (the seeds' throw button) or automatic (for speed). */
function rollsForm() {
  return settingForm(ROLLS_KEY, 'rolls', ['tap', 'auto']);
}
