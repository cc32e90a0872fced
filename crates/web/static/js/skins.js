// The skin pickers of the set-up page and a room's lobby, for a game whose catalogue entry lists
// `skins` (docs/api.md, "Skins"): each side's colour and piece set with a preview drawn by the
// game's module (`GameModule.piece`), and the board. Names no game.

import { resolveSkins } from './app.js';
import { h } from './dom.js';
import { has, t } from './i18n.js';

/**
 * A skin's name for people: the message its `label` names.
 * @param {{id: string, label: string}} skin
 */
export function skinName(skin) {
  return has(skin.label) ? t(skin.label) : skin.id;
}

/**
 * The name of the skin `id` of `list`.
 * @param {any[]} list
 * @param {string} id
 */
function nameOf(list, id) {
  const skin = list.find((s) => s.id === id);
  return skin ? skinName(skin) : id;
}

/**
 * One piece of `side`'s look in `choice`, drawn by the game's module (nothing when it draws none).
 * @param {any} info the catalogue entry
 * @param {import('./app.js').GameModule} module
 * @param {import('./app.js').SkinChoice} choice
 * @param {string} side
 */
export function preview(info, module, choice, side) {
  const look = resolveSkins(info, choice)?.sides[side];
  return look && module.piece ? h('span', { class: 'skin-preview', 'aria-hidden': 'true' }, module.piece(look)) : null;
}

/**
 * A side's look in words: "Blue, horses".
 * @param {any} info
 * @param {import('./app.js').SkinChoice} choice
 * @param {string} side
 */
export function lookText(info, choice, side) {
  const look = choice.sides[side];
  if (!look) return '';
  return t('skin.look', { colour: nameOf(info.skins.colours, look.colour), pieces: nameOf(info.skins.pieces, look.pieces) });
}

/**
 * The controls of one side's look: a colour and a piece set select. An option another side has
 * says whose it is (choosing it is refused in a room, swapped on the set-up page).
 * @param {object} args
 * @param {any} args.info the catalogue entry
 * @param {import('./app.js').SkinChoice} args.choice
 * @param {string} args.side
 * @param {(side: string) => string} args.sideName
 * @param {(part: 'colour' | 'pieces', id: string) => void} args.onChange
 */
export function sideControls({ info, choice, side, sideName, onChange }) {
  /** @param {'colour' | 'pieces'} part */
  const select = (part) => {
    const list = part === 'colour' ? info.skins.colours : info.skins.pieces;
    const mine = choice.sides[side]?.[part];
    return h(
      'select',
      {
        name: `skin-${part}-${side}`,
        'aria-label': t(`skin.${part}_of`, { side: sideName(side) }),
        on: { change: (/** @type {Event} */ e) => onChange(part, /** @type {HTMLSelectElement} */ (e.target).value) },
      },
      list.map((/** @type {any} */ s) => {
        const owner = Object.entries(choice.sides).find(([other, look]) => other !== side && look[part] === s.id)?.[0];
        return h('option', {
          value: s.id,
          selected: s.id === mine,
          text: owner ? t('skin.taken_by', { skin: skinName(s), side: sideName(owner) }) : skinName(s),
        });
      }),
    );
  };
  return h('span', { class: 'skin-controls' }, select('colour'), select('pieces'));
}

/**
 * The board select.
 * @param {any} info
 * @param {string} board the board chosen
 * @param {(id: string) => void} onChange
 */
export function boardControl(info, board, onChange) {
  return h(
    'div',
    { class: 'field' },
    h('label', { for: 'skin-board', text: t('skin.board') }),
    h(
      'select',
      { id: 'skin-board', name: 'skin-board', on: { change: (/** @type {Event} */ e) => onChange(/** @type {HTMLSelectElement} */ (e.target).value) } },
      info.skins.boards.map((/** @type {any} */ s) => h('option', { value: s.id, selected: s.id === board, text: skinName(s) })),
    ),
  );
}

/**
 * `choice` with `side`'s `part` set to `id`; a side that had it gets `side`'s old one (the
 * set-up page's swap: no two sides are ever alike).
 * @param {import('./app.js').SkinChoice} choice
 * @param {string} side
 * @param {'colour' | 'pieces'} part
 * @param {string} id
 * @returns {import('./app.js').SkinChoice}
 */
export function swapped(choice, side, part, id) {
  const next = { board: choice.board, sides: Object.fromEntries(Object.entries(choice.sides).map(([s, look]) => [s, { ...look }])) };
  const old = next.sides[side][part];
  for (const [other, look] of Object.entries(next.sides)) if (other !== side && look[part] === id) look[part] = old;
  next.sides[side][part] = id;
  return next;
}
