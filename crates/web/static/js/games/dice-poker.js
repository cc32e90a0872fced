// Seven Dice Poker (일곱 주사위 포커): the 16 cells laid out from the engine's board data (the 4 × 4
// grid or a custom layout), white and black dice and tokens, the die just rolled beside the
// board, each player's dice and token still to place, the +1 / −1 changes of the last placement,
// and both players' best hands at the end. Geometry comes from the engine (`Board`: `kind`,
// `rows`, `positions`); what a placement would change comes with its move (`changes`).

import { flip, h, replace } from '../dom.js';
import { num, t } from '../i18n.js';
import { animating, chanceMove, describeEvents, die, eventsOf, legal, rollButton } from './common.js';
import { rollValue } from '../notation.js';
import { dicePokerRules } from './dice-poker-rules.js';

/** @typedef {import('../app.js').BoardProps} BoardProps */
/** @typedef {import('../app.js').Move} Move */

/** Seat names in seat order. */
const SEATS = ['white', 'black'];

/** Dice per player. */
const DICE = 7;

/** @param {string} seat */
function seatName(seat) {
  return t(`dice-poker.seat.${seat}`);
}

/**
 * A hand's name (`"full house"`) in the page's language.
 * @param {string} name
 */
function handName(name) {
  return t(`dice-poker.hand.${name.replaceAll(' ', '_')}`);
}

/**
 * One cell of `pieces`: `null`, or its owner with the die's value (0 for the token).
 * @typedef {{seat: string, token: boolean, value: number} | null} CellView
 */

/**
 * @param {any} entry a `pieces` entry: `null`, `{"white": 4}` or `{"black": "token"}`
 * @returns {CellView}
 */
function cellOf(entry) {
  if (!entry || typeof entry !== 'object') return null;
  const seat = 'white' in entry ? 'white' : 'black';
  const v = entry[seat];
  return { seat, token: v === 'token', value: v === 'token' ? 0 : Number(v) };
}

/**
 * What the board remembers between renders (per board element): the cells drawn last, the
 * marks of the last change, the token switch, and the last entry whose roll was animated.
 * @typedef {object} Memory
 * @property {string} key the `pieces` drawn last, as JSON
 * @property {CellView[] | null} cells
 * @property {Map<number, number>} marks cell → net change of its die's value (+1, −1, …)
 * @property {Set<number>} placed cells filled by the last change
 * @property {boolean} tokenMode whether empty cells take the token rather than the die
 * @property {string} turn the decision the token switch belongs to
 * @property {number} animated the version of the last entry whose roll was animated
 * @property {BoardProps | null} props the props drawn last (to redraw when the switch flips)
 */

/** @type {WeakMap<HTMLElement, Memory>} */
const memories = new WeakMap();

/** @param {HTMLElement} root */
function memoryOf(root) {
  let mem = memories.get(root);
  if (!mem) {
    mem = { key: '', cells: null, marks: new Map(), placed: new Set(), tokenMode: false, turn: '', animated: -1, props: null };
    memories.set(root, mem);
  }
  return mem;
}

/**
 * The change of a die's value from `a` to `b` on the wrapping 1-6 circle: +1, +2, −1, −2, or 0
 * when it cannot tell (3 steps either way).
 * @param {number} a
 * @param {number} b
 */
function delta(a, b) {
  const d = (((b - a) % 6) + 6) % 6;
  return d === 1 || d === 2 ? d : d === 4 || d === 5 ? d - 6 : 0;
}

/**
 * Compares the cells with the ones drawn last: which cells were just filled and which dice
 * changed. Only a forward change of one or two placements is marked (a replay jumping around
 * marks nothing).
 * @param {Memory} mem
 * @param {CellView[]} cells
 * @param {string} key
 * @returns {boolean} whether the cells changed since the last render
 */
function noteChanges(mem, cells, key) {
  if (key === mem.key) return false;
  const before = mem.cells;
  mem.key = key;
  mem.cells = cells;
  mem.marks = new Map();
  mem.placed = new Set();
  if (!before) return true;
  /** @type {Map<number, number>} */
  const marks = new Map();
  /** @type {Set<number>} */
  const placed = new Set();
  for (let i = 0; i < cells.length; i++) {
    const a = before[i];
    const b = cells[i];
    if (a && !b) return true; // a cell emptied: not a forward step
    if (!a && b) placed.add(i);
    else if (a && b) {
      if (a.seat !== b.seat || a.token !== b.token) return true;
      if (!a.token && a.value !== b.value) {
        const d = delta(a.value, b.value);
        if (d !== 0) marks.set(i, d);
      }
    }
  }
  if (placed.size === 0 || placed.size > 2) return true;
  mem.marks = marks;
  mem.placed = placed;
  return true;
}

/**
 * The latest roll-off as the events tell it: each seat's roll-off die of the latest round, a
 * tie, and who starts.
 * @param {import('./common.js').GameEvent[]} events
 */
function rollOff(events) {
  /** @type {Record<string, number | null>} */
  const rolls = { white: null, black: null };
  /** @type {string | null} */
  let starter = null;
  let tie = false;
  let seen = false;
  for (const e of events) {
    if (e.kind === 'roll_off') {
      seen = true;
      if (e.seat === 'white') {
        rolls.black = null;
        tie = false;
      }
      rolls[e.seat] = e.roll;
    } else if (e.kind === 'roll_off_tie') {
      tie = true;
    } else if (e.kind === 'starts') {
      starter = e.seat;
    }
  }
  return seen ? { rolls, starter, tie } : null;
}

/**
 * A die face without a label of its own (the element around it names it).
 * @param {number} value
 * @param {string} seat
 * @param {boolean} [rolling]
 */
function face(value, seat, rolling = false) {
  const el = die(value, seat, { rolling });
  el.removeAttribute('role');
  el.removeAttribute('aria-label');
  el.setAttribute('aria-hidden', 'true');
  return el;
}

/**
 * @param {HTMLElement} el
 * @param {string} key the FLIP key
 */
function keyed(el, key) {
  el.dataset.key = key;
  return el;
}

/** @param {string} seat */
function token(seat) {
  return h('span', { class: ['dp-token', `dp-token-${seat}`], 'aria-hidden': 'true' });
}

/**
 * The label of a cell's contents for screen readers.
 * @param {number} i
 * @param {CellView} c
 */
function cellLabel(i, c) {
  if (!c) return t('dice-poker.cell_empty', { cell: i });
  if (c.token) return t('dice-poker.cell_token', { cell: i, seat: seatName(c.seat) });
  return t('dice-poker.cell_die', { cell: i, seat: seatName(c.seat), n: c.value });
}

/**
 * Which cells hold the dice of each seat's best hand (the first cells with each needed value).
 * @param {CellView[]} cells
 * @param {any} hands `result.hands`
 * @returns {Set<number>}
 */
function handCells(cells, hands) {
  const used = new Set();
  for (const seat of SEATS) {
    const need = [...(hands?.[seat]?.dice ?? [])];
    cells.forEach((c, i) => {
      if (!c || c.token || c.seat !== seat) return;
      const at = need.indexOf(c.value);
      if (at >= 0) {
        need.splice(at, 1);
        used.add(i);
      }
    });
  }
  return used;
}

/**
 * @param {HTMLElement} root
 * @param {BoardProps} props
 */
function render(root, props) {
  const mem = memoryOf(root);
  mem.props = props;
  const { view, geometry, moves } = props;
  const seats = props.seats?.length === 2 ? props.seats : SEATS;
  const raw = Array.isArray(view.pieces) ? view.pieces : [];
  const positions = /** @type {[number, number][]} */ (geometry.positions ?? []);
  const cells = positions.map((_, i) => cellOf(raw[i]));
  const key = JSON.stringify(raw);
  const changed = noteChanges(mem, cells, key);
  const moveAnim = animating(props, 'move');
  const fresh = changed && props.pace > 0;

  // The decision being made: the seat placing, the roll it places, whether it may (or must)
  // place its token.
  const legalNow = /** @type {any[]} */ (view.legal ?? []).filter((a) => typeof a === 'string');
  const placing = view.status === 'ongoing' && view.awaiting === 'place' && seats.includes(view.to_move) ? view.to_move : null;
  const canPlaceDie = legalNow.some((a) => a.startsWith('place '));
  const roll = placing && canPlaceDie ? rollValue(view.last_chance) : null;
  const tokenOnly = Boolean(placing) && !canPlaceDie;
  const placeMoves = moves.filter((m) => m.kind === 'place');
  const tokenMoves = moves.filter((m) => m.kind === 'token');
  const turn = `${view.to_move}|${key}|${moves.length}`;
  if (turn !== mem.turn) {
    mem.turn = turn;
    mem.tokenMode = false;
  }
  if (tokenMoves.length === 0) mem.tokenMode = false;
  const tokenMode = placeMoves.length === 0 ? tokenMoves.length > 0 : mem.tokenMode;
  /** @type {Map<number, Move>} */
  const byCell = new Map();
  for (const m of tokenMode ? tokenMoves : placeMoves) byCell.set(m.to ?? -1, m);

  // The roll animates once per entry, not again when the same state is redrawn.
  let rolling = false;
  if (animating(props, 'chance') && props.last && props.last.version !== mem.animated) {
    rolling = true;
    mem.animated = props.last.version;
  }

  const finished = view.status === 'finished';
  const hands = view.result?.hands ?? null;
  const inHand = finished && hands ? handCells(cells, hands) : null;

  // The board: one grid cell per engine cell at its layout position.
  const rows = Array.isArray(geometry.rows) && geometry.rows.length ? geometry.rows.length : 4;
  const cols = Array.isArray(geometry.rows) && geometry.rows.length ? String(geometry.rows[0]).length : 4;
  const board = h('div', {
    class: ['dp-board', `dp-kind-${geometry.kind ?? 'a'}`],
    role: 'group',
    'aria-label': t('dice-poker.board_label', { kind: t(`dice-poker.kind.${geometry.kind ?? 'a'}`) }),
    style: { '--cols': cols, '--rows': rows },
  });
  /** @type {HTMLElement[]} */
  const cellEls = [];
  positions.forEach(([r, c], i) => {
    const content = cells[i];
    const move = byCell.get(i);
    const placedNow = mem.placed.has(i);
    const mark = mem.marks.get(i);
    /** @type {import('../dom.js').Child[]} */
    const inner = [h('span', { class: 'dp-index', 'aria-hidden': 'true', text: String(i) })];
    if (content?.token) {
      const el = token(content.seat);
      // Only the piece just placed has a FLIP key: it slides in from beside the board.
      if (placedNow && mem.placed.size === 1) el.dataset.key = `token-${content.seat}`;
      inner.push(el);
    } else if (content) {
      const el = face(content.value, content.seat);
      if (placedNow && mem.placed.size === 1) el.dataset.key = 'rolled';
      inner.push(el);
    } else if (move) {
      inner.push(
        h(
          'span',
          { class: 'dp-ghost', 'aria-hidden': 'true' },
          tokenMode ? token(move.seat) : roll !== null ? face(roll, move.seat) : null,
        ),
      );
    }
    if (mark !== undefined) {
      inner.push(
        h('span', {
          class: ['dp-delta', mark > 0 ? 'up' : 'down', fresh && 'fresh'],
          'aria-hidden': 'true',
          text: mark > 0 ? `+${mark}` : `−${-mark}`,
        }),
      );
    }
    const classes = [
      'dp-cell',
      content ? 'filled' : 'empty',
      content && `own-${content.seat}`,
      placedNow && 'placed',
      placedNow && fresh && 'fresh',
      mark !== undefined && 'changed',
      mark !== undefined && fresh && 'fresh',
      inHand && content && !content.token && (inHand.has(i) ? 'in-hand' : 'out-hand'),
    ];
    const style = { 'grid-row': String(r + 1), 'grid-column': String(c + 1) };
    let label = cellLabel(i, content);
    if (mark !== undefined) label += `, ${t(mark > 0 ? 'dice-poker.changed_up' : 'dice-poker.changed_down', { n: Math.abs(mark) })}`;
    /** @type {HTMLElement} */
    let el;
    if (move) {
      el = h('button', { type: 'button', class: [...classes, 'target'], style, dataset: { cell: i } }, inner);
      const text = tokenMode
        ? t('dice-poker.move.token', { cell: i })
        : t('dice-poker.move.place', { cell: i, n: roll ?? '' });
      legal(el, move.action, props.onMove, text);
      if (!tokenMode) {
        const show = () => preview(cellEls, move, true);
        const hide = () => preview(cellEls, move, false);
        el.addEventListener('pointerenter', show);
        el.addEventListener('pointerleave', hide);
        el.addEventListener('focus', show);
        el.addEventListener('blur', hide);
      }
    } else {
      el = h('div', { class: classes, style, role: 'img', 'aria-label': label, dataset: { cell: i } }, inner);
    }
    cellEls.push(el);
    board.append(el);
  });

  // Beside the board: the roll-off, the die just rolled (or the token-only turn), the token
  // switch, and each player's dice and token still to place.
  const tray = h('div', { class: 'dp-now' });
  // The roll-off stays in view until the second placement (the state's events start at the
  // person's last action, a replay step's at the beginning).
  const off = cells.filter((c) => c !== null).length <= 1 ? rollOff(view.events ?? []) : null;
  if (off) {
    // The roll-off die of this entry's roll tumbles.
    const justRolled = rolling ? eventsOf(props.last?.events, 'roll_off')[0]?.seat ?? null : null;
    tray.append(
      h(
        'div',
        { class: 'dp-rolloff', id: 'dp-rolloff' },
        h('h3', { class: 'dp-tray-title', text: t('dice-poker.rolloff') }),
        h(
          'div',
          { class: 'dp-rolloff-dice' },
          SEATS.map((seat) => {
            const v = off.rolls[seat];
            return h(
              'div',
              { class: 'dp-rolloff-seat' },
              v === null
                ? h('span', { class: ['die', `die-${seat}`, 'blank'], 'aria-hidden': 'true' })
                : face(v, seat, rolling && justRolled === seat),
              h('span', { class: 'dp-rolloff-name', text: v === null ? seatName(seat) : `${seatName(seat)} ${v}` }),
            );
          }),
        ),
        h('p', {
          class: 'dp-rolloff-result',
          text: off.starter
            ? t('dice-poker.starts', { seat: seatName(off.starter) })
            : off.tie
              ? t('dice-poker.rolloff_tie')
              : t('dice-poker.rolloff_hint'),
        }),
      ),
    );
  }
  // The person's own roll (the roll-off's included): the server draws it when tapped.
  const due = chanceMove(props);
  if (due) {
    tray.append(
      h(
        'div',
        { class: 'dp-roll dp-to-roll', id: 'dp-roll' },
        rollButton(props, t('dice-poker.roll_button'), h('span', { class: ['die', `die-${due.seat}`, 'blank'], 'aria-hidden': 'true' })),
      ),
    );
  }
  // What the person does now, under the roll (none while the computer or the dice play).
  const hint =
    moves.length > 0
      ? h('span', {
          class: 'dp-hint',
          text: tokenMode ? t('dice-poker.hint_token') : t('dice-poker.hint_place', { n: roll ?? '' }),
        })
      : null;
  if (placing && roll !== null) {
    const shown = face(roll, placing, rolling);
    shown.dataset.key = 'rolled';
    tray.append(
      h(
        'div',
        { class: ['dp-roll', `dp-roll-${placing}`, tokenMode && 'unused'], id: 'dp-roll', dataset: { roll } },
        h('span', { class: 'dp-roll-die' }, shown),
        h(
          'span',
          { class: 'dp-roll-info' },
          h('span', { class: 'dp-roll-text', text: t('dice-poker.rolled', { seat: seatName(placing), n: roll }) }),
          hint,
        ),
      ),
    );
  } else if (tokenOnly && placing) {
    tray.append(
      h(
        'div',
        { class: ['dp-roll', 'dp-token-only'], id: 'dp-roll' },
        h('span', { class: 'dp-roll-die' }, token(placing)),
        h(
          'span',
          { class: 'dp-roll-info' },
          h('span', { class: 'dp-roll-text', text: t('dice-poker.token_only', { seat: seatName(placing) }) }),
          hint,
        ),
      ),
    );
  }
  if (placeMoves.length > 0 && tokenMoves.length > 0) {
    const toggle = h('button', {
      type: 'button',
      class: ['dp-token-toggle', tokenMode && 'on'],
      id: 'dp-token-toggle',
      'aria-pressed': tokenMode ? 'true' : 'false',
      text: tokenMode ? t('dice-poker.token_cancel') : t('dice-poker.token_instead'),
      on: {
        click: () => {
          mem.tokenMode = !mem.tokenMode;
          if (mem.props) render(root, mem.props);
          /** @type {HTMLElement | null} */ (root.querySelector('#dp-token-toggle'))?.focus();
        },
      },
    });
    (tray.querySelector('#dp-roll') ?? tray).append(toggle);
  }
  const side = h(
    'div',
    { class: 'dp-side' },
    players(cells, seats, view, props.rules, hands, placing),
    h('p', { class: 'dp-kind hint', text: t(`dice-poker.kind.${geometry.kind ?? 'a'}`) }),
  );

  flip(
    root,
    () =>
      replace(
        root,
        h('div', { class: 'dp-host' }, h('div', { class: ['dp', finished && 'dp-over', cols > 5 && 'dp-wide'] }, tray, h('div', { class: 'dp-board-scroll' }, board), side)),
      ),
    moveAnim ? props.pace * 0.8 : 0,
  );
}

/**
 * Marks the dice a placement would change, by how much (the move's `changes`, worked out by the
 * server: `{cell, from, to}` with the cells' contents before and after), or clears the marks.
 * @param {HTMLElement[]} cellEls
 * @param {any} move
 * @param {boolean} on
 */
function preview(cellEls, move, on) {
  for (const change of move.changes ?? []) {
    const el = cellEls[change.cell];
    const before = cellOf(change.from);
    const after = cellOf(change.to);
    if (!el || !before || !after) continue;
    const d = delta(before.value, after.value);
    if (on) el.dataset.preview = d > 0 ? `+${d}` : `−${-d}`;
    else delete el.dataset.preview;
  }
}

/**
 * Each player's dice and token still to place, or their hand at the end.
 * @param {CellView[]} cells
 * @param {string[]} seats
 * @param {any} view
 * @param {any} rules
 * @param {any} hands
 * @param {string | null} placing
 */
function players(cells, seats, view, rules, hands, placing) {
  const tokens = Boolean(rules?.tokens);
  return h(
    'ul',
    { class: 'dp-players', 'aria-label': t('dice-poker.left_title') },
    seats.map((seat) => {
      const placed = cells.filter((c) => c && !c.token && c.seat === seat).length;
      const left = Math.max(0, DICE - placed);
      const tokenLeft = tokens && !cells.some((c) => c && c.token && c.seat === seat);
      const hand = hands?.[seat];
      const won = view.result?.winner === seat;
      const text = hand
        ? `${handName(hand.hand)}${won ? ` · ${t('dice-poker.winner')}` : ''}`
        : tokenLeft
          ? left > 0
            ? t('dice-poker.left_token', { n: left })
            : t('dice-poker.left_only_token')
          : t('dice-poker.left', { n: left });
      return h(
        'li',
        { class: ['dp-player', `dp-player-${seat}`, placing === seat && 'to-move', won && 'won'], dataset: { seat } },
        h('span', { class: 'dp-player-name', text: seatName(seat) }),
        h('span', { class: 'dp-player-text', text }),
        hand
          ? h('span', { class: 'dp-left', 'aria-hidden': 'true' }, hand.dice.map((/** @type {number} */ v) => face(v, seat)))
          : h(
              'span',
              { class: 'dp-left', 'aria-hidden': 'true' },
              Array.from({ length: left }, () => h('span', { class: ['dp-mini', `dp-mini-${seat}`] })),
              // The token of the seat deciding may be placed next: it slides from here.
              tokenLeft ? (placing === seat ? keyed(token(seat), `token-${seat}`) : token(seat)) : null,
            ),
      );
    }),
  );
}

/**
 * The end screen's figures: both players' best hands, the dice in comparison order.
 * @param {any} state
 */
function resultDetails(state) {
  const result = state.result ?? {};
  const hands = result.hands ?? result.stats?.hands ?? null;
  const first = result.first ?? result.stats?.first ?? null;
  if (!hands) return [];
  return [
    h(
      'ul',
      { class: 'dp-hands', id: 'dp-hands' },
      SEATS.map((seat) => {
        const hand = hands[seat];
        if (!hand) return null;
        const won = result.winner === seat;
        return h(
          'li',
          { class: ['dp-hand', `dp-hand-${seat}`, won && 'won'], dataset: { seat } },
          h('span', { class: 'dp-hand-seat', text: seatName(seat) }),
          h('strong', { class: 'dp-hand-name', text: handName(hand.hand) }),
          h(
            'span',
            {
              class: 'dp-hand-dice',
              role: 'img',
              'aria-label': t('dice-poker.hand_dice', { dice: hand.dice.join(' ') }),
            },
            hand.dice.map((/** @type {number} */ v) => face(v, seat)),
          ),
          won ? h('span', { class: 'dp-hand-won', text: t('dice-poker.winner') }) : null,
        );
      }),
    ),
    decided(state.events),
    first ? h('p', { class: 'hint', text: t('dice-poker.result.first', { seat: seatName(first) }) }) : null,
  ].filter((x) => x !== null);
}

/**
 * What decided the game, from its last action's `win` or `win_on_dice` event: the better hand
 * ("Decided by the hands: four of a kind beats full house."), or with hands of one kind the
 * first dice that differ in comparison order ("Decided by the dice: both hands are straight,
 * and 6 beats 5."). `null` without such an event (a draw, a resignation).
 * @param {import('./common.js').GameEvent[] | undefined} events
 */
function decided(events) {
  const [byHand] = eventsOf(events, 'win');
  const [byDice] = eventsOf(events, 'win_on_dice');
  const text = byHand
    ? t('dice-poker.result.by_hand', { hand: handName(byHand.hand), over: handName(byHand.over) })
    : byDice
      ? t('dice-poker.result.by_dice', { hand: handName(byDice.hand), high: num(byDice.high), low: num(byDice.low) })
      : null;
  return text === null ? null : h('p', { class: 'dp-decided', id: 'dp-decided', text });
}

/** @type {import('../app.js').GameModule} */
export default {
  id: 'dice-poker',
  render,
  describe: (entry) =>
    describeEvents(entry, 'dice-poker', seatName, { hand: handName, over: handName, dice: (d) => d.join(' ') }),
  seatName,
  resultDetails: (state) => /** @type {Node[]} */ (resultDetails(state)),
  rules: dicePokerRules,
  setup: {
    seating: 'side',
  },
};
