// Yut Nori (윷놀이): the 29-station board drawn from the engine's geometry (`Yut::board_data`:
// stations in percent, the outer ring and both diagonals as rotated lines), stacks with a count,
// pieces in hand and finished per side, the throw set (윷 패) as chips, the sticks of the latest
// throw, the "+1 throw" mark, route arrows at the branches, and labelled buttons for the choices
// without a place on the board (slot, stack, finishing).
//
// A move is chosen by tapping a piece: a piece with one possible move plays it at once; a piece
// that can spend several throws is selected and its destinations light up. Tapping a throw chip
// first narrows every piece to that throw.

import { flip, h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { animating, describeEvents, eventsOf, legal, rollButton } from './common.js';
import { throwValue, yutSeat } from '../notation.js';
import { yutRules } from './yut-rules.js';

/** @typedef {import('../app.js').BoardProps} BoardProps */
/** @typedef {import('../app.js').Move} Move */

const THROWS = ['backdo', 'do', 'gae', 'geol', 'yut', 'mo', 'nak'];
const STEPS = /** @type {Record<string, number>} */ ({ backdo: -1, do: 1, gae: 2, geol: 3, yut: 4, mo: 5, nak: 0 });
const NAMED = /** @type {Record<number, string>} */ ({ 0: 'chammeogi', 5: 'mo', 10: 'dwitmo', 15: 'jjimo', 22: 'bang' });
const FINISHED = 99;
/** The piece sets of sides A-D without chosen skins (the catalogue's default order). */
const DEFAULT_PIECES = ['disc', 'horse', 'flower', 'tile'];

/**
 * A side (`A`) or a player (`A1` in team games) for people: "Side A", "A편", "A편 1번".
 * @param {string} seat
 */
function seatName(seat) {
  const parts = yutSeat(seat);
  if (!parts) return seat;
  const [side, member] = parts;
  return member ? t('yut.seat.member', { side, n: member }) : t('yut.seat.side', { side });
}

/** @param {string} r a throw in notation (`gae`) */
function throwName(r) {
  return THROWS.includes(r) ? t(`yut.throw.${r}`) : r;
}

/** @param {number | string} s a station 0-28 */
function stationName(s) {
  const n = Number(s);
  return NAMED[n] ? t(`yut.station.${NAMED[n]}`) : t('yut.station.n', { n });
}

/**
 * A unit's pieces (ids) for people, counted from 1: "piece 3", "stack 1+2".
 * @param {number[]} ids
 */
function unitText(ids) {
  if (ids.length === 1) return t('yut.unit.piece', { n: ids[0] + 1 });
  return t('yut.unit.stack', { list: ids.map((p) => p + 1).join('+') });
}

/** How the fields of Yut's events are shown (docs/yut.md, "Events"). */
/** @type {Record<string, (value: any) => string>} */
const FORMAT = {
  throw: throwName,
  station: stationName,
  from: stationName,
  to: stationName,
  unit: unitText,
  pool: (/** @type {string[]} */ pool) => pool.map(throwName).join(', '),
  piece: (/** @type {number} */ p) => String(p + 1),
};

/** @param {import('../app.js').ActionEntry} entry */
function describe(entry) {
  return describeEvents(entry, 'yut', seatName, FORMAT);
}

// ---------------------------------------------------------------------------------------------
// The board's model: pieces by side and station, and the person's moves grouped by unit.

/**
 * @typedef {{side: string, id: number, member: number, station: number}} PieceRec
 * @typedef {{key: string, side: string, station: number, ids: number[], members: number[], unit: string | null, arriving?: boolean}} Group
 * @typedef {{action: string, throw: string, to: number | undefined, move: Move}} Option
 */

/**
 * Every piece of the view: its side (team letter in team games), its id within the side (team
 * piece id in `team-separate`), the member owning it (−1 when not `team-separate`), its station.
 * @param {any} pieces the view's `pieces`
 * @param {string} mode
 * @returns {PieceRec[]}
 */
function pieceRecords(pieces, mode) {
  /** @type {PieceRec[]} */
  const recs = [];
  for (const [key, list] of Object.entries(pieces ?? {})) {
    const side = key[0];
    const separate = mode === 'team-separate' && key.length > 1;
    const member = separate ? Number(key[1]) - 1 : -1;
    /** @type {number[]} */ (list).forEach((station, i) => {
      recs.push({ side, id: separate ? member * list.length + i : i, member, station });
    });
  }
  return recs;
}

/** The sides (team letters in team games) in seat order. @param {string[]} seats */
function sidesOf(seats) {
  /** @type {string[]} */
  const sides = [];
  for (const seat of seats) if (!sides.includes(seat[0])) sides.push(seat[0]);
  return sides;
}

/** The move's throw (`enter gae`, `move 3 gae`). @param {string} action */
function throwOf(action) {
  const words = action.split(' ');
  return words[words.length - 1];
}

/** Selection between renders: a unit (`hand`, `u3`) or a throw chip, for one set of moves. */
let ui = { sig: '', unit: /** @type {string | null} */ (null), chip: /** @type {string | null} */ (null), manual: false };
/** Draws the board again after a selection change, keeping the keyboard focus on `pick`. */
let redraw = (/** @type {string} */ pick) => void pick;

/**
 * @param {HTMLElement} root
 * @param {BoardProps} props
 */
function render(root, props) {
  const sig = `${props.moves.map((m) => m.action).join('|')}#${(props.view.pool ?? []).join(',')}`;
  if (sig !== ui.sig) ui = { sig, unit: null, chip: null, manual: false };
  redraw = (pick) => {
    replace(root, board(props));
    /** @type {HTMLElement | null} */ (root.querySelector(`[data-pick="${pick}"]`))?.focus({ preventScroll: true });
  };
  flip(root, () => replace(root, board(props)), animating(props, 'move') ? props.pace * 0.8 : 0);
}

/**
 * The whole board component for `props`.
 * @param {BoardProps} props
 */
function board(props) {
  const { view, geometry, moves } = props;
  const rules = props.rules ?? {};
  const mode = rules.mode ?? 'individual';
  const sides = sidesOf(props.seats);
  const recs = pieceRecords(view.pieces, mode);
  const mover = moves[0]?.seat ?? null;
  // Each side's piece set (its shape): the skins' (docs/client.md, "Skins"), else one per side.
  const shape = (/** @type {string} */ side) => `pieces-${props.skins?.sides[side]?.pieces ?? DEFAULT_PIECES[side.charCodeAt(0) - 65] ?? 'disc'}`;
  const moverSide = mover ? mover[0] : null;
  const stations = new Map(geometry.stations.map((/** @type {any} */ s) => [s.station, s]));

  // The person's spend moves by unit, narrowed to the chosen throw chip.
  /** @type {Map<string, Option[]>} */
  const units = new Map();
  /** @type {Set<string>} */
  const spendable = new Set();
  for (const m of moves) {
    if (m.kind !== 'enter' && m.kind !== 'move') continue;
    const r = throwOf(m.action);
    spendable.add(r);
    if (ui.chip && r !== ui.chip) continue;
    const key = m.kind === 'enter' ? 'hand' : `u${m.action.split(' ')[1]}`;
    const list = units.get(key) ?? [];
    list.push({ action: m.action, throw: r, to: m.to, move: m });
    units.set(key, list);
  }
  if (ui.chip && !spendable.has(ui.chip)) ui.chip = null;
  if (ui.unit && !units.has(ui.unit)) ui.unit = null;
  // Nothing to tap directly (every piece can spend several throws): select the first piece so
  // its destinations light up; another piece can be selected instead.
  if (!ui.unit && !ui.manual && units.size > 0 && ![...units.values()].some((list) => list.length === 1)) {
    ui.unit = units.keys().next().value ?? null;
  }

  // Groups of pieces on the board by side and station; the mover's units split where several
  // units share a station (optional stacking answered "no").
  /** @type {Group[]} */
  const groups = [];
  /** @type {Map<string, PieceRec[]>} */
  const bySpot = new Map();
  for (const r of recs) {
    if (r.station < 0 || r.station > 28) continue;
    const k = `${r.side}@${r.station}`;
    bySpot.set(k, [...(bySpot.get(k) ?? []), r]);
  }
  const pieceStation = (/** @type {string} */ side, /** @type {number} */ id) => recs.find((r) => r.side === side && r.id === id)?.station;
  // The optional stacking question: the arriving unit and the units already there are drawn
  // apart until it is answered (the engine's `stacking`: piece ids, the arriving unit first).
  const question = stackQuestion(view, recs);
  for (const [, list] of bySpot) {
    const { side, station } = list[0];
    if (question && side === question.side && station === question.station) {
      for (const [i, ids] of question.units.entries()) {
        const mine = list.filter((r) => ids.includes(r.id));
        if (!mine.length) continue;
        groups.push({ key: `p-${side}-${ids[0]}`, side, station, ids: mine.map((r) => r.id).sort((a, b) => a - b), members: [...new Set(mine.map((r) => r.member))], unit: null, arriving: i === 0 });
      }
      continue;
    }
    /** @type {string[]} */
    const keys = side === moverSide ? [...units.keys()].filter((k) => k !== 'hand' && pieceStation(side, Number(k.slice(1))) === station) : [];
    if (keys.length <= 1) {
      const ids = list.map((r) => r.id).sort((a, b) => a - b);
      groups.push({
        key: `p-${side}-${ids[0]}`,
        side,
        station,
        ids,
        members: [...new Set(list.map((r) => r.member))],
        unit: keys[0] ?? null,
      });
      continue;
    }
    // Several movable units here: each unit's pieces from the move's annotation (else its named piece).
    let rest = list.slice();
    for (const k of keys) {
      const lowest = Number(k.slice(1));
      const option = units.get(k)?.[0];
      const annotated = option?.move.pieces ?? [];
      const ids = annotated.length && mode !== 'team-separate' ? annotated.slice() : [lowest];
      if (!ids.includes(lowest)) ids.push(lowest);
      const mine = rest.filter((r) => ids.includes(r.id));
      rest = rest.filter((r) => !ids.includes(r.id));
      groups.push({ key: `p-${side}-${lowest}`, side, station, ids: mine.map((r) => r.id).sort((a, b) => a - b), members: [...new Set(mine.map((r) => r.member))], unit: k });
    }
    if (rest.length) {
      const ids = rest.map((r) => r.id).sort((a, b) => a - b);
      groups.push({ key: `p-${side}-${ids[0]}`, side, station, ids, members: [...new Set(rest.map((r) => r.member))], unit: null });
    }
  }

  /** @type {HTMLElement[]} */
  const choices = [];
  /**
   * A labelled button in the choice bar.
   * @param {string} action
   * @param {string} text
   * @param {string} [label]
   * @param {string} [cls]
   */
  const choice = (action, text, label, cls) => {
    const el = h('button', { type: 'button', class: ['yut-choice', cls] }, text);
    choices.push(legal(el, action, props.onMove, label ?? text));
  };

  // Destinations of the selected unit.
  /** @type {Map<number, Option>} */
  const dests = new Map();
  if (ui.unit) {
    const options = units.get(ui.unit) ?? [];
    if (options.length > 1) {
      for (const o of options) {
        if (o.to !== undefined && o.to >= 0 && o.to <= 28 && !dests.has(o.to)) dests.set(o.to, o);
        else choice(o.action, optionText(o, ui.unit, recs, moverSide), moveLabel(o, ui.unit, recs, moverSide), 'finish');
      }
    }
  }

  // Route arrows: on the two stations the unit on the branch may go to next.
  /** @type {Map<number, {action: string, from: number}>} */
  const arrows = new Map();
  for (const m of moves) {
    if (m.kind !== 'route') continue;
    const to = Number(m.action.split(' ')[1]);
    const branch = (geometry.branches ?? []).find((/** @type {any} */ b) => b[1].includes(to));
    if (!branch) continue;
    arrows.set(to, { action: m.action, from: branch[0] });
    choice(m.action, routeText(branch[0], to, branch[1]), undefined, 'route');
  }
  for (const m of moves) {
    if (m.kind === 'stack') {
      const text = t(m.action === 'stack yes' ? 'yut.stack.yes' : 'yut.stack.no');
      const label = question ? `${text}: ${stackText(question)}` : text;
      choice(m.action, text, label, 'stack');
    }
    if (m.kind === 'slot') {
      const n = Number(m.action.split(' ')[1]);
      choice(m.action, t('yut.slot', { n }), t('yut.slot_label', { n }), 'slot');
    }
  }

  /**
   * The token(s) of a group: a coloured piece, the member digits in `team-separate`, the count.
   * @param {Group} g
   */
  const token = (g) =>
    h(
      'span',
      { class: ['yut-piece', `side-${g.side}`, shape(g.side), g.arriving && 'arriving'], dataset: { key: g.key }, 'aria-hidden': 'true' },
      mode === 'team-separate' ? h('span', { class: 'yut-member', text: g.members.map((m) => m + 1).join('·') }) : null,
      g.ids.length > 1 ? h('span', { class: 'yut-count', text: `×${g.ids.length}` }) : null,
    );

  /**
   * A unit's element: a button when it can move (direct, or selecting it), else a picture.
   * @param {Group} g
   */
  const unitEl = (g) => {
    // A lit destination covers the station: the pieces under it are only a picture until the
    // selection changes.
    const options = g.unit && !dests.has(g.station) ? units.get(g.unit) ?? [] : [];
    const what = groupText(g);
    if (options.length === 1) {
      const el = h('button', { type: 'button', class: 'yut-unit' }, token(g));
      return legal(el, options[0].action, props.onMove, moveLabel(options[0], g.unit ?? '', recs, moverSide));
    }
    if (options.length > 1) {
      const selected = ui.unit === g.unit;
      return h(
        'button',
        {
          type: 'button',
          class: ['yut-unit', 'yut-pick', selected && 'selected'],
          'aria-pressed': selected ? 'true' : 'false',
          'aria-label': t('yut.pick', { what }),
          dataset: { pick: g.unit },
          on: { click: () => select(g.unit) },
        },
        token(g),
      );
    }
    return h('span', { class: 'yut-unit', role: 'img', 'aria-label': what }, token(g));
  };

  // The field: lines, stations, pieces, destinations, arrows.
  const field = h(
    'div',
    { class: 'yut-field' },
    h('span', { class: 'yut-line ring', 'aria-hidden': 'true' }),
    h('span', { class: 'yut-line diag diag-a', 'aria-hidden': 'true' }),
    h('span', { class: 'yut-line diag diag-b', 'aria-hidden': 'true' }),
  );
  for (const s of geometry.stations) {
    const here = groups.filter((g) => g.station === s.station);
    const dest = dests.get(s.station);
    const arrow = arrows.get(s.station);
    const spot = h(
      'div',
      {
        class: ['yut-spot', s.big && 'yut-big', NAMED[s.station] && `named-${NAMED[s.station]}`, here.length > 1 && 'multi', (s.x <= 0 || s.x >= 100) && 'edge-x'],
        style: { left: `${s.x}%`, top: `${s.y}%` },
        dataset: { station: s.station },
      },
      h('span', { class: 'yut-dot', 'aria-hidden': 'true' }),
      s.station === 0 ? h('span', { class: 'yut-start', 'aria-hidden': 'true', text: t('yut.station.start') }) : null,
      here.map(unitEl),
    );
    if (dest) {
      // The pieces standing there stay in sight under the lit ring: the opponent's would be
      // captured (marked ✕), one's own joined.
      const foes = here.filter((g) => g.side !== moverSide).reduce((n, g) => n + g.ids.length, 0);
      const el = h(
        'button',
        { type: 'button', class: ['yut-dest', here.length > 0 && 'over-pieces'] },
        h('span', { class: 'yut-dest-throw', text: throwName(dest.throw) }),
        foes > 0 ? h('span', { class: 'yut-dest-capture', 'aria-hidden': 'true', text: '✕' }) : null,
      );
      const label = moveLabel(dest, ui.unit ?? '', recs, moverSide);
      spot.append(legal(el, dest.action, props.onMove, foes > 0 ? `${label} — ${t('yut.move.captures', { n: foes })}` : label));
    }
    if (arrow) {
      const from = stations.get(arrow.from);
      const angle = from ? (Math.atan2(s.y - from.y, s.x - from.x) * 180) / Math.PI : 0;
      const el = h(
        'button',
        { type: 'button', class: 'yut-arrow' },
        h('span', { class: 'yut-arrow-glyph', style: { transform: `rotate(${angle.toFixed(1)}deg)` }, text: '➜' }),
      );
      spot.append(legal(el, arrow.action, props.onMove, t('yut.route.label', { from: stationName(arrow.from), to: stationName(s.station) })));
    }
    field.append(spot);
  }
  const boardEl = h('div', { class: ['yut-board', `board-${props.skins?.board ?? 'wood'}`], role: 'group', 'aria-label': t('yut.board') }, field);

  // Trays: per side, the pieces in hand (a button when they can enter) and the finished ones.
  const toMoveSide = view.status === 'ongoing' && view.to_move && view.to_move !== 'chance' ? view.to_move[0] : null;
  const trays = h(
    'div',
    { class: ['yut-trays', `n${sides.length}`] },
    sides.map((side) => {
      const mine = recs.filter((r) => r.side === side);
      const hand = mine.filter((r) => r.station < 0).sort((a, b) => a.id - b.id);
      const done = mine.filter((r) => r.station === FINISHED).sort((a, b) => a.id - b.id);
      const mini = (/** @type {PieceRec} */ r) =>
        h('span', { class: ['yut-piece', 'mini', `side-${side}`, shape(side)], dataset: { key: `p-${side}-${r.id}` }, 'aria-hidden': 'true' },
          mode === 'team-separate' ? h('span', { class: 'yut-member', text: String(r.member + 1) }) : null);
      const handContent = [
        h('span', { class: 'yut-tray-label', text: t('yut.hand') }),
        h('span', { class: 'yut-minis' }, hand.map(mini)),
        h('span', { class: 'yut-tray-count', text: String(hand.length) }),
      ];
      const options = side === moverSide ? units.get('hand') ?? [] : [];
      const handText = t('yut.hand_label', { side: seatName(side), n: hand.length });
      /** @type {HTMLElement} */
      let handEl;
      if (options.length === 1) {
        handEl = legal(h('button', { type: 'button', class: 'yut-hand' }, handContent), options[0].action, props.onMove, moveLabel(options[0], 'hand', recs, moverSide));
      } else if (options.length > 1) {
        const selected = ui.unit === 'hand';
        handEl = h(
          'button',
          {
            type: 'button',
            class: ['yut-hand', 'yut-pick', selected && 'selected'],
            'aria-pressed': selected ? 'true' : 'false',
            'aria-label': t('yut.pick_hand', { n: hand.length }),
            dataset: { pick: 'hand' },
            on: { click: () => select('hand') },
          },
          handContent,
        );
      } else {
        handEl = h('div', { class: 'yut-hand', role: 'img', 'aria-label': handText }, handContent);
      }
      return h(
        'div',
        { class: ['yut-tray', `side-${side}`, side === toMoveSide && 'to-move'] },
        h('span', { class: 'yut-tray-name' }, h('span', { class: ['yut-piece', 'mini', `side-${side}`, shape(side)], 'aria-hidden': 'true' }), seatName(side)),
        handEl,
        h(
          'div',
          { class: 'yut-done', role: 'img', 'aria-label': t('yut.done_label', { side: seatName(side), n: done.length, total: mine.length }) },
          h('span', { class: 'yut-tray-label', text: t('yut.done') }),
          h('span', { class: 'yut-minis' }, done.map(mini)),
          h('span', { class: 'yut-tray-count', text: `${done.length}/${mine.length}` }),
        ),
      );
    }),
  );

  // The throw: the sticks of the latest throw, the "+1 throw" mark, and the throw set.
  const last = throwValue(view.last_chance);
  const extra = (props.last?.events ?? []).some((e) => e.kind === 'again' || e.kind === 'bonus');
  const pool = /** @type {string[]} */ (view.pool ?? []);
  const chipsSelectable = spendable.size > 1;
  // The person's own throw (seeds 000 and 001: each player presses the throw button, in the
  // ceremony too): the server draws it when tapped.
  const throwButton = rollButton(props, t('yut.throw_button'), sticks('yut', false));
  const throwBox = h(
    'div',
    { class: 'yut-throw' },
    throwButton,
    last && view.status === 'ongoing'
      ? h(
          'div',
          { class: 'yut-last' },
          sticks(last, animating(props, 'chance')),
          h('span', { class: 'yut-last-name', text: throwName(last) }),
          extra ? h('span', { class: ['yut-plus', props.pace > 0 && 'fade'], text: t('yut.plus_one') }) : null,
        )
      : null,
    view.status !== 'ongoing' ? null : h(
      'div',
      { class: 'yut-pool', role: 'group', 'aria-label': t('yut.pool') },
      h('span', { class: 'yut-pool-label', text: t('yut.pool') }),
      pool.length === 0 ? h('span', { class: 'yut-pool-empty', text: t('yut.pool_empty') }) : null,
      pool.map((r, i) => {
        const content = [h('span', { class: 'yut-chip-name', text: throwName(r) }), h('span', { class: 'yut-chip-steps', text: r === 'backdo' ? '−1' : `+${STEPS[r]}` })];
        const usable = spendable.has(r);
        if (chipsSelectable && usable) {
          const selected = ui.chip === r;
          return h(
            'button',
            {
              type: 'button',
              class: ['yut-chip', `throw-${r}`, selected && 'selected'],
              dataset: { key: `chip-${i}-${r}` },
              'aria-pressed': selected ? 'true' : 'false',
              'aria-label': t('yut.chip_label', { throw: throwName(r) }),
              on: { click: () => selectChip(r) },
              'data-pick': `chip-${r}`,
            },
            content,
          );
        }
        return h('span', { class: ['yut-chip', `throw-${r}`, !usable && spendable.size > 0 && 'unusable'], dataset: { key: `chip-${i}-${r}` } }, content);
      }),
    ),
  );

  return h(
    'div',
    { class: ['yut', `sides-${sides.length}`, mode !== 'individual' && 'teams'] },
    trays,
    h('div', { class: 'yut-main' }, boardEl, h('div', { class: 'yut-panel' }, throwBox, prompt(props, units, ui.unit !== null && (units.get(ui.unit)?.length ?? 0) > 1, chipsSelectable, question), choices.length ? h('div', { class: 'yut-choices' }, choices) : null, ceremony(view))),
  );
}

/** @param {string | null} unit */
function select(unit) {
  ui.unit = ui.unit === unit ? null : unit;
  ui.manual = true;
  redraw(unit ?? '');
}

/** @param {string} r */
function selectChip(r) {
  ui.chip = ui.chip === r ? null : r;
  ui.unit = null;
  ui.manual = false;
  redraw(`chip-${r}`);
}

/**
 * What the person is asked to do now.
 * @param {BoardProps} props
 * @param {Map<string, Option[]>} units
 * @param {boolean} destinations a unit is selected and its destinations are lit
 * @param {boolean} chips the throw chips can be chosen
 * @param {StackQuestion | null} question the stacking question, while it is asked
 */
function prompt(props, units, destinations, chips, question) {
  const kinds = new Set(props.moves.map((m) => m.kind));
  let text = '';
  if (kinds.has('slot')) text = t('yut.ask.slot');
  else if (kinds.has('stack')) text = question ? t('yut.ask.stack_which', { what: stackText(question) }) : t('yut.ask.stack');
  else if (kinds.has('route')) text = t('yut.ask.route');
  // Another piece can be chosen instead only when there is one.
  else if (units.size > 0) text = t(destinations ? (units.size > 1 ? 'yut.ask.destination' : 'yut.ask.destination_only') : chips ? 'yut.ask.piece_or_throw' : 'yut.ask.piece');
  return text ? h('p', { class: 'yut-prompt', text }) : null;
}

/**
 * The optional stacking question of the view (`stacking`: the arriving unit's piece ids, then
 * each own unit already on the station), with the side and station it is about; null when none.
 * @typedef {{side: string, station: number, units: number[][]}} StackQuestion
 * @param {any} view
 * @param {PieceRec[]} recs
 * @returns {StackQuestion | null}
 */
function stackQuestion(view, recs) {
  if (!Array.isArray(view.stacking) || view.stacking.length < 2 || typeof view.to_move !== 'string') return null;
  const side = view.to_move[0];
  const units = view.stacking.map((/** @type {string} */ u) => u.split('+').map(Number));
  const station = recs.find((r) => r.side === side && r.id === units[0][0])?.station;
  return station === undefined ? null : { side, station, units };
}

/**
 * "piece 2 onto piece 1 on station 5": which pieces the stacking question is about.
 * @param {StackQuestion} q
 */
function stackText(q) {
  const unit = (/** @type {number[]} */ ids) =>
    ids.length > 1 ? t('yut.unit.stack', { list: ids.map((p) => p + 1).join('+') }) : t('yut.unit.piece', { n: ids[0] + 1 });
  return t('yut.stack.which', { moving: unit(q.units[0]), there: q.units.slice(1).map(unit).join(', '), station: stationName(q.station) });
}

/**
 * The ceremony (who goes first): each side's throws, the rank and the slots taken, while it runs.
 * @param {any} view
 */
function ceremony(view) {
  /** @type {import('./common.js').GameEvent[]} */
  const events = view.events ?? [];
  if (eventsOf(events, 'order').length || !events.some((e) => e.kind === 'ceremony_throw' || e.kind === 'ceremony_nak')) return null;
  /** @type {Map<string, string[]>} */
  const thrown = new Map();
  /** @type {Map<string, number>} */
  const slots = new Map();
  let rank = /** @type {string[]} */ ([]);
  for (const e of events) {
    if (e.kind === 'ceremony_throw') thrown.set(e.side, [...(thrown.get(e.side) ?? []), e.throw]);
    if (e.kind === 'ceremony_nak') thrown.set(e.side, [...(thrown.get(e.side) ?? []), 'nak']);
    if (e.kind === 'rank') rank = e.sides;
    if (e.kind === 'takes_slot' || e.kind === 'gets_slot') slots.set(e.side, e.slot);
  }
  const order = rank.length ? rank : [...thrown.keys()];
  return h(
    'div',
    { class: 'yut-ceremony' },
    h('h3', { text: t('yut.ceremony') }),
    h(
      'ol',
      { class: 'yut-ceremony-list' },
      order.map((side) =>
        h(
          'li',
          {},
          h('span', { class: ['yut-swatch', `side-${side}`], 'aria-hidden': 'true' }),
          h('span', { class: 'yut-ceremony-side', text: seatName(side) }),
          h('span', { class: 'yut-ceremony-throws', text: (thrown.get(side) ?? []).map(throwName).join(' → ') }),
          slots.has(side) ? h('span', { class: 'yut-ceremony-slot', text: t('yut.slot', { n: slots.get(side) ?? 0 }) }) : null,
        ),
      ),
    ),
  );
}

/**
 * The four sticks of a throw: flat side (앞면) or round side up; the marked stick (빽도) is the
 * first. Nak: the sticks scattered off the mat.
 * @param {string} r
 * @param {boolean} rolling
 */
function sticks(r, rolling) {
  /** @type {Record<string, number[]>} */
  const flat = { backdo: [0], do: [2], gae: [1, 3], geol: [1, 2, 3], yut: [0, 1, 2, 3], mo: [], nak: [1] };
  const up = new Set(flat[r] ?? []);
  return h(
    'div',
    { class: ['yut-sticks', rolling && 'rolling', r === 'nak' && 'nak'], role: 'img', 'aria-label': t('yut.sticks_label', { throw: throwName(r) }) },
    [0, 1, 2, 3].map((i) =>
      h('span', { class: ['yut-stick', up.has(i) ? 'flat' : 'round', i === 0 && 'marked'] }, h('span', { class: 'x' }), h('span', { class: 'x' }), h('span', { class: 'x' })),
    ),
  );
}

/**
 * The route choice's text: the shortcut or the outer way, or at the centre which way.
 * @param {number} branch
 * @param {number} to
 * @param {number[]} choices `[straight, shortcut]`
 */
function routeText(branch, to, choices) {
  const station = stationName(to);
  if (branch === 22) return t(to === choices[1] ? 'yut.route.home' : 'yut.route.jjimo', { station });
  return t(to === choices[1] ? 'yut.route.shortcut' : 'yut.route.outer', { station });
}

/** @param {Group} g */
function groupText(g) {
  const where = stationName(g.station);
  return g.ids.length > 1
    ? t('yut.group.stack', { side: seatName(g.side), n: g.ids.length, station: where })
    : t('yut.group.piece', { side: seatName(g.side), station: where });
}

/**
 * What moves: a piece or a stack of n.
 * @param {string} unit `hand` or `uP`
 * @param {PieceRec[]} recs
 * @param {string | null} side
 */
function unitWhat(unit, recs, side) {
  if (unit === 'hand') return t('yut.what.piece');
  const id = Number(unit.slice(1));
  const station = recs.find((r) => r.side === side && r.id === id)?.station;
  const size = recs.filter((r) => r.side === side && r.station === station).length;
  return size > 1 ? t('yut.what.stack', { n: size }) : t('yut.what.piece');
}

/**
 * The accessible name of a spend move.
 * @param {Option} o
 * @param {string} unit
 * @param {PieceRec[]} recs
 * @param {string | null} side
 */
function moveLabel(o, unit, recs, side) {
  const r = throwName(o.throw);
  if (unit === 'hand') return t('yut.move.enter', { throw: r, station: stationName(o.to ?? STEPS[o.throw]) });
  const id = Number(unit.slice(1));
  const from = recs.find((x) => x.side === side && x.id === id)?.station ?? 0;
  const what = unitWhat(unit, recs, side);
  if (o.to === FINISHED) return t('yut.move.finish', { what, from: stationName(from), throw: r });
  if (o.to === undefined) return t('yut.move.some', { what, from: stationName(from), throw: r });
  return t('yut.move.move', { what, from: stationName(from), to: stationName(o.to), throw: r });
}

/**
 * The text of a move button outside the board (finishing, or a move with no known destination).
 * @param {Option} o
 * @param {string} unit
 * @param {PieceRec[]} recs
 * @param {string | null} side
 */
function optionText(o, unit, recs, side) {
  if (o.to === FINISHED) return t('yut.finish_with', { throw: throwName(o.throw) });
  return moveLabel(o, unit, recs, side);
}

// ---------------------------------------------------------------------------------------------
// The end screen and the set-up.

/**
 * The results figures of `state.result.stats` (seed 000's results screen): one row per figure,
 * one column per side, so four sides still fit a phone.
 * @param {any} state
 */
function resultDetails(state) {
  const stats = state.result?.stats ?? {};
  const sides = Object.keys(stats).sort();
  if (!sides.length) return [];
  const rows = ['finished', 'steps_left', 'captures', 'extra_throws', 'stacks'];
  const winners = new Set([state.result?.winner, state.result?.ranking?.[0]].filter(Boolean));
  return [
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'data yut-figures', id: 'yut-figures' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col', text: t('yut.fig.figure') }),
            sides.map((side) =>
              h(
                'th',
                { scope: 'col', class: ['num', winners.has(side) && 'winner'], dataset: { side } },
                h('span', { class: ['yut-swatch', `side-${side}`], 'aria-hidden': 'true' }),
                ' ',
                // Four sides' full names do not fit a phone: the letter, named for screen readers.
                sides.length > 2 ? h('abbr', { title: seatName(side), 'aria-label': seatName(side), text: side }) : seatName(side),
              ),
            ),
          ),
        ),
        h(
          'tbody',
          {},
          rows.map((row) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row', text: t(`yut.fig.${row}`) }),
              sides.map((side) => h('td', { class: 'num', dataset: { side, col: row }, text: String(stats[side][row] ?? 0) })),
            ),
          ),
        ),
      ),
    ),
  ];
}

/**
 * One piece of a side's look (the skin pickers' preview).
 * @param {import('../app.js').Look} look
 */
function piece(look) {
  return h('span', { class: ['yut-piece', 'preview', `pieces-${look.pieces}`], style: { '--side': look.css } });
}

/** @type {import('../app.js').GameModule} */
export default {
  id: 'yut',
  render,
  piece,
  describe,
  seatName,
  resultDetails,
  rules: yutRules,
  setup: {
    seating: 'seats',
    // The individual or team choice comes first, above the seats (the page asks for it first).
    firstOptions: ['mode'],
  },
};
