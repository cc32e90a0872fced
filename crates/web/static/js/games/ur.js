// The Royal Game of Ur: the 20-square board (three columns of eight, drawn upright for phones and
// lying across wider screens, light along the bottom as the seed has it: `css/ur.css`),
// pieces in hand and borne off in the gaps of each side's column, the binary dice, the log and
// the rules page. Geometry comes from the engine (`Ur::board_data`).

import { flip, h, replace } from '../dom.js';
import { num, t } from '../i18n.js';
import { animating, describeEvents, legal, rollButton } from './common.js';
import { numberOf, rollValue } from '../notation.js';
import { urRules } from './ur-rules.js';

/** @typedef {import('../app.js').BoardProps} BoardProps */

/** @param {string} seat */
function seatName(seat) {
  return t(`ur.seat.${seat}`);
}

/**
 * Light's winning chance under perfect play as a bar, or null when the server has no solved
 * table for these rules (the state's `win_chance`, docs/api.md, "State"). The game review of
 * every game is `js/review.js`.
 * @param {any} view a state or replay step, with `win_chance` (0-1) when there is a table
 */
function winChanceMeter(view) {
  if (typeof view.win_chance !== 'number') return null;
  const pct = view.win_chance * 100;
  const text = t('ur.win_chance', { pct: num(pct, 1) });
  return h(
    'div',
    { class: 'ur-chance', id: 'win-chance', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': pct.toFixed(1), 'aria-label': text },
    h('div', { class: 'ur-chance-bar', 'aria-hidden': 'true' }, h('span', { class: 'ur-chance-light', style: { width: `${pct}%` } })),
    h('span', { class: 'ur-chance-text', text }),
  );
}

/**
 * The binary dice of a roll: `n` dice show their marked tip (for 3 dice, 4 is shown as none).
 * Which dice show it is spread by the roll so the row does not always fill from the left.
 * @param {number} roll
 * @param {number} count
 * @param {boolean} rolling
 */
function dice(roll, count, rolling) {
  const marked = count === 3 && roll === 4 ? 0 : roll;
  const order = [[0, 1, 2, 3], [2, 0, 3, 1], [1, 3, 0, 2], [3, 2, 1, 0], [0, 2, 1, 3]][roll % 5];
  const up = new Set(order.slice(0, marked));
  return h(
    'div',
    { class: ['ur-dice', rolling && 'rolling'], role: 'img', 'aria-label': t('ur.dice_label', { n: roll }) },
    Array.from({ length: count }, (_, i) => h('span', { class: ['tetra', up.has(i) && 'marked'] })),
    h('span', { class: 'roll-value', 'aria-hidden': 'true', text: String(roll) }),
  );
}

/**
 * The dice before a throw: every tip unmarked, no value.
 * @param {number} count
 */
function blankDice(count) {
  return h('div', { class: 'ur-dice blank', 'aria-hidden': 'true' }, Array.from({ length: count }, () => h('span', { class: 'tetra' })));
}

/**
 * @param {HTMLElement} root
 * @param {BoardProps} props
 */
function render(root, props) {
  const { view, geometry, moves } = props;
  const pieces = view.pieces ?? { light: [], dark: [] };
  // The rules' figures come with the board (`Ur::board_data`): pieces a side, dice, paths.
  const total = geometry.pieces;
  const paths = { light: geometry.light_path, dark: geometry.dark_path };
  const pathLen = paths.light.length;
  const roll = rollValue(view.last_chance);
  const rosettes = new Set(geometry.tiles.filter((/** @type {any} */ x) => x.rosette).map((/** @type {any} */ x) => x.name));

  // Which seat's piece stands on each tile, and the move that starts or ends there.
  /** @type {Map<string, {seat: string, square: number}>} */
  const occupant = new Map();
  for (const seat of ['light', 'dark']) {
    for (const sq of pieces[seat] ?? []) {
      if (sq >= 1 && sq <= pathLen) occupant.set(paths[seat][sq - 1], { seat, square: sq });
    }
  }
  /** @type {Map<string, import('../app.js').Move>} */
  const byFrom = new Map();
  /** @type {Map<string, import('../app.js').Move>} */
  const byTo = new Map();
  for (const m of moves) {
    if (m.kind !== 'move') continue;
    const path = paths[/** @type {'light' | 'dark'} */ (m.seat)];
    const from = m.from ?? 0;
    const to = m.to ?? 0;
    byFrom.set(from === 0 ? `hand-${m.seat}` : path[from - 1], m);
    byTo.set(to > pathLen ? `off-${m.seat}` : path[to - 1], m);
  }

  // The piece that just moved keeps its key so it slides from where it was.
  let movedKey = '';
  let movedTo = '';
  const last = props.last;
  if (last && last.by !== 'chance' && last.seat && roll !== null) {
    const from = numberOf(last.action, 'move') ?? -1;
    const to = from + roll;
    if (from >= 0 && to <= pathLen) movedTo = paths[last.seat][to - 1];
    movedKey = `${last.seat}-${from}`;
  }

  /**
   * @param {string} seat
   * @param {number} square
   * @param {string} where
   */
  function piece(seat, square, where) {
    const key = where === movedTo ? movedKey : `${seat}-${square}`;
    return h('span', {
      class: ['piece', `piece-${seat}`, where === movedTo && 'moved'],
      dataset: { key },
      'aria-hidden': 'true',
    });
  }

  /**
   * A square or a pool as a button when a move starts or ends there.
   * @param {string} id
   * @param {string[]} classes
   * @param {string} label
   * @param {any[]} content
   * @param {Record<string, string>} style
   */
  function cell(id, classes, label, content, style) {
    const from = byFrom.get(id);
    const to = byTo.get(id);
    const move = from ?? to;
    const el = h(move ? 'button' : 'div', { class: ['ur-cell', ...classes, to && !from && 'target'], style, dataset: { cell: id } }, content);
    if (move) {
      el.setAttribute('type', 'button');
      legal(el, move.action, props.onMove, moveLabel(move, pathLen));
    } else {
      el.setAttribute('aria-label', label);
      el.setAttribute('role', 'img');
    }
    return el;
  }

  const board = h('div', { class: 'ur-board' });
  for (const tile of geometry.tiles) {
    const who = occupant.get(tile.name);
    const label = `${tile.name}${rosettes.has(tile.name) ? `, ${t('ur.rosette')}` : ''}${who ? `, ${seatName(who.seat)}` : ''}`;
    board.append(
      cell(
        tile.name,
        ['tile', rosettes.has(tile.name) && 'rosette', who && 'occupied'],
        label,
        [rosettes.has(tile.name) ? h('span', { class: 'rosette-mark', 'aria-hidden': 'true' }) : null, who ? piece(who.seat, who.square, tile.name) : null],
        { '--c': String(tile.column + 1), '--r': String(tile.row) },
      ),
    );
  }
  // Hand and borne-off pools sit in the gap of each side's own column, next to where pieces
  // enter and leave: the first and the last tile of the path.
  for (const seat of ['light', 'dark']) {
    const list = pieces[seat] ?? [];
    const inHand = list.filter((/** @type {number} */ s) => s === 0).length;
    const off = list.filter((/** @type {number} */ s) => s > pathLen).length;
    const first = geometry.tiles.find((/** @type {any} */ x) => x.name === paths[seat][0]);
    const lastTile = geometry.tiles.find((/** @type {any} */ x) => x.name === paths[seat][pathLen - 1]);
    const column = String(first.column + 1);
    const gapRow = (/** @type {number} */ row) => String(row === 4 ? 5 : row === 7 ? 6 : row === 1 ? 5 : row + 1);
    board.append(
      cell(
        `hand-${seat}`,
        ['pool', 'hand', `pool-${seat}`],
        t('ur.in_hand', { seat: seatName(seat), n: inHand }),
        [inHand > 0 ? piece(seat, 0, `hand-${seat}`) : null, h('span', { class: 'count', text: `${inHand}` })],
        { '--c': column, '--r': gapRow(first.row) },
      ),
      cell(
        `off-${seat}`,
        ['pool', 'off', `pool-${seat}`],
        t('ur.borne_off', { seat: seatName(seat), n: off, total }),
        [off > 0 ? h('span', { class: ['piece', `piece-${seat}`, 'home'], 'aria-hidden': 'true' }) : null, h('span', { class: 'count', text: `${off}/${total}` })],
        { '--c': column, '--r': gapRow(lastTile.row) === gapRow(first.row) ? String(Number(gapRow(first.row)) + 1) : gapRow(lastTile.row) },
      ),
    );
  }

  const rolling = animating(props, 'chance');
  const throwButton = rollButton(props, t('ur.roll_button'), blankDice(geometry.dice));
  const status = h(
    'div',
    { class: 'ur-status' },
    throwButton ??
      (roll !== null && view.status === 'ongoing'
        ? [dice(roll, geometry.dice, rolling), h('span', { class: 'roll-text', text: t('ur.rolled', { n: roll }) })]
        : null),
    moves.length > 0 && !throwButton ? h('span', { class: 'hint', text: t('ur.pick_piece') }) : null,
  );
  flip(root, () => replace(root, h('div', { class: 'ur' }, winChanceMeter(view), status, board)), animating(props, 'move') ? props.pace * 0.8 : 0);
}

/**
 * @param {import('../app.js').Move} move
 * @param {number} pathLen
 */
function moveLabel(move, pathLen) {
  const from = move.from ?? 0;
  const to = move.to ?? 0;
  if (from === 0) return t('ur.move.enter', { to });
  if (to > pathLen) return t('ur.move.bear_off', { from });
  return t('ur.move.move', { from, to });
}

/** @type {import('../app.js').GameModule} */
export default {
  id: 'ur',
  render,
  describe: (entry) => describeEvents(entry, 'ur', seatName),
  seatName,
  resultDetails: (state, geometry) => {
    if (!geometry) return [];
    const total = geometry.pieces;
    const pathLen = geometry.light_path.length;
    return [
      h(
        'ul',
        { class: 'figures-list' },
        ['light', 'dark'].map((seat) => {
          const borne = (state.pieces?.[seat] ?? []).filter((/** @type {number} */ s) => s > pathLen).length;
          return h('li', { text: t('ur.result.borne', { seat: seatName(seat), n: borne, total }) });
        }),
      ),
    ];
  },
  rules: urRules,
  setup: {
    seating: 'side',
  },
};
