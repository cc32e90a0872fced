// Ludo (spec ludo.md): the 15 × 15 board from the engine's geometry (`Ludo::board_data`: track,
// safe squares, home columns, goals, bases), four pieces per seat by id, stacked pieces fanned
// with their count, the die, and tap areas larger than the squares: each movable piece and its
// destination square get a hit area two squares wide, clipped so that where two areas overlap
// the tap goes to the nearest target.

import { flip, h, replace } from '../dom.js';
import { num, t } from '../i18n.js';
import { chanceMove, describeEvents, die, eventsOf, legal, rollButton } from './common.js';
import { numberOf, rollValue } from '../notation.js';
import { ludoRules } from './ludo-rules.js';

/** @typedef {import('../app.js').BoardProps} BoardProps */
/** @typedef {import('../app.js').Move} Move */
/** @typedef {{row: number, col: number}} Cell */

/** Progress of a piece in base, the last track progress, and the goal (spec "Seats and board"). */
const BASE = -1;
const LAST_TRACK = 50;
const GOAL = 56;
/** Width of a tap area in squares (at 360 px a square is about 23 px, so about 46 px). */
const HIT = 2;

/** @param {string} seat */
function seatName(seat) {
  return t(`ludo.seat.${seat}`);
}

/** Piece ids are 0-3 in the engine and 1-4 for people. @param {string | number} id */
function pieceNo(id) {
  return String(Number(id) + 1);
}

/**
 * The note on what kind of square a move reached (the `place` of a `move` event: `track`,
 * `star`, `start`, `home`, `goal`).
 * @param {string} place
 */
function placeNote(place) {
  return place === 'track' ? '' : t(`ludo.place.${place}`);
}

/** How the fields of Ludo's events are shown (docs/ludo.md, "Events"). */
const FORMAT = {
  piece: pieceNo,
  pieces: (/** @type {number[]} */ ids) => ids.map(pieceNo).join(', '),
  place: placeNote,
  rolls: (/** @type {number} */ v) => num(v),
};

/**
 * The board data of one seat.
 * @param {any} geometry
 * @param {string} seat
 */
function seatBoard(geometry, seat) {
  return geometry.seats.find((/** @type {any} */ s) => String(s.seat) === String(seat)) ?? geometry.seats[0];
}

/**
 * Where a piece of `seat` with id `id` at `progress` stands: its base spot, a track square
 * (13 × seat + progress, counted from the seat's start square), its home column or its goal.
 * @param {any} geometry
 * @param {string} seat
 * @param {number} id
 * @param {number} progress
 * @returns {Cell}
 */
function cellOf(geometry, seat, id, progress) {
  const s = seatBoard(geometry, seat);
  if (progress <= BASE) return s.base_spots[id] ?? s.base_spots[0];
  if (progress <= LAST_TRACK) return geometry.track[(s.start_square + progress) % geometry.track.length].cell;
  if (progress < GOAL) return s.home_column[progress - LAST_TRACK - 1];
  return s.goal;
}

/** Offsets (in squares) and size of the pieces sharing one square: a small fan. */
const FANS = [
  { size: 0.74, at: [[0, 0]] },
  { size: 0.64, at: [[-0.16, -0.16], [0.16, 0.16]] },
  { size: 0.56, at: [[-0.2, -0.17], [0.2, -0.17], [0, 0.2]] },
  { size: 0.52, at: [[-0.21, -0.21], [0.21, -0.21], [-0.21, 0.21], [0.21, 0.21]] },
];

/**
 * The fan of `n` pieces on one square.
 * @param {number} n
 * @returns {{size: number, at: number[][]}}
 */
function fan(n) {
  if (n <= FANS.length) return FANS[n - 1];
  // More than four (only on a safe square shared by several colours): a ring.
  return {
    size: 0.42,
    at: Array.from({ length: n }, (_, i) => [0.27 * Math.sin((2 * Math.PI * i) / n), -0.27 * Math.cos((2 * Math.PI * i) / n)]),
  };
}

/**
 * A convex polygon clipped to the half-plane of points nearer to `a` than to `b`
 * (Sutherland–Hodgman against the perpendicular bisector).
 * @param {number[][]} poly
 * @param {number[]} a
 * @param {number[]} b
 */
function clipNearer(poly, a, b) {
  const nx = b[0] - a[0];
  const ny = b[1] - a[1];
  const c = (b[0] * b[0] + b[1] * b[1] - a[0] * a[0] - a[1] * a[1]) / 2;
  const inside = (/** @type {number[]} */ p) => p[0] * nx + p[1] * ny - c;
  /** @type {number[][]} */
  const out = [];
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i];
    const q = poly[(i + 1) % poly.length];
    const fp = inside(p);
    const fq = inside(q);
    if (fp <= 0) out.push(p);
    if ((fp < 0 && fq > 0) || (fp > 0 && fq < 0)) {
      const k = fp / (fp - fq);
      out.push([p[0] + k * (q[0] - p[0]), p[1] + k * (q[1] - p[1])]);
    }
  }
  return out;
}

/**
 * The tap area of each target: a square `HIT` squares wide around it, inside the board, cut
 * where it is nearer to another target. Points are in squares ([x, y] = [column, row]).
 * @param {number[][]} sites target centres
 * @param {number} grid
 * @returns {number[][][]}
 */
function tapAreas(sites, grid) {
  return sites.map((s, i) => {
    const r = HIT / 2;
    const x0 = Math.max(0, s[0] - r);
    const x1 = Math.min(grid, s[0] + r);
    const y0 = Math.max(0, s[1] - r);
    const y1 = Math.min(grid, s[1] + r);
    let poly = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
    sites.forEach((other, j) => {
      if (j !== i && Math.hypot(other[0] - s[0], other[1] - s[1]) < HIT * 1.5) poly = clipNearer(poly, s, other);
    });
    return poly;
  });
}

/**
 * A percentage of the board for a length in squares.
 * @param {number} squares
 * @param {number} grid
 */
function pct(squares, grid) {
  return `${((squares / grid) * 100).toFixed(3)}%`;
}

/**
 * The seat that made the latest roll: from the latest `roll` event, else the seat to move.
 * @param {any} view
 * @param {string[]} seats
 */
function rollerOf(view, seats) {
  // A roll waiting for its seat's tap is that seat's, whoever rolled last.
  if (view.to_move === 'chance' && seats.includes(String(view.to_act))) return String(view.to_act);
  const rolls = eventsOf(view.events, 'roll');
  if (rolls.length) return String(rolls[rolls.length - 1].seat);
  return seats.includes(String(view.to_move)) ? String(view.to_move) : '0';
}

/**
 * A short note on what the latest entry's roll did: no move, void third 6, roll again.
 * @param {import('../app.js').ActionEntry | null} last
 */
function rollNote(last) {
  if (!last || last.by !== 'chance') return '';
  /** @type {string[]} */
  const notes = [];
  for (const e of last.events) {
    if (e.kind === 'no_move') notes.push(t('ludo.no_move', { n: e.roll }));
    else if (e.kind === 'no_move_six') notes.push(t('ludo.no_move', { n: 6 }));
    else if (e.kind === 'third_six') notes.push(t('ludo.void'));
    else if (e.kind === 'extra_roll') notes.push(t('ludo.again'));
  }
  return notes.join(' · ');
}

/**
 * A piece's place for people.
 * @param {number} progress
 */
function whereText(progress) {
  if (progress <= BASE) return t('ludo.where.base');
  if (progress >= GOAL) return t('ludo.where.goal');
  if (progress > LAST_TRACK) return t('ludo.where.home', { p: progress });
  return t('ludo.where.track', { p: progress });
}

/**
 * The accessible name of a legal move.
 * @param {Move} move
 * @param {number} id
 */
function moveLabel(move, id) {
  const from = move.from ?? 0;
  const to = move.to ?? 0;
  if (from <= BASE) return t('ludo.move.leave', { piece: pieceNo(id) });
  if (to >= GOAL) return t('ludo.move.goal', { piece: pieceNo(id), from });
  return t('ludo.move.move', { piece: pieceNo(id), from, to });
}

/**
 * The direction of the track at square `index` (towards the next square), in degrees clockwise
 * from pointing right: the start squares' arrows.
 * @param {any} geometry
 * @param {number} index
 */
function arrowAngle(geometry, index) {
  const a = geometry.track[index].cell;
  const b = geometry.track[(index + 1) % geometry.track.length].cell;
  return Math.round((Math.atan2(b.row - a.row, b.col - a.col) * 180) / Math.PI);
}

/** The entry whose animation has been played, so a re-render of the same state stays still. */
/** @type {import('../app.js').ActionEntry | null} */
let animated = null;

/**
 * @param {HTMLElement} root
 * @param {BoardProps} props
 */
function render(root, props) {
  const { view, geometry } = props;
  // The person taps the die to roll (spec ludo.md, "Interaction"): the server waits for the tap
  // and draws the roll from the game's committed seed when it comes.
  const toRoll = chanceMove(props) !== null;
  const moves = props.moves.filter((m) => m.kind === 'move');
  const grid = geometry.grid ?? 15;
  const pieces = view.pieces ?? {};
  const seats = props.seats?.length ? props.seats : Object.keys(pieces);
  const fresh = props.pace > 0 && props.last !== null && props.last !== animated;
  if (props.last) animated = props.last;
  const last = fresh ? props.last : null;
  const roll = rollValue(view.last_chance);
  const roller = rollerOf(view, seats);
  const active = seats.includes(String(view.to_move)) ? String(view.to_move) : roller;
  const finished = view.status === 'finished';

  /** @type {Map<string, Move>} seat-id → the move of that piece */
  const moveOf = new Map();
  for (const m of moves) {
    const id = m.pieces?.[0] ?? numberOf(m.action, 'move') ?? -1;
    moveOf.set(`${m.seat}-${id}`, m);
  }
  /** @type {Map<string, HTMLElement[]>} action → the elements that show it (hover and focus) */
  const shows = new Map();
  /**
   * @param {string} action
   * @param {HTMLElement} el
   */
  const shown = (action, el) => {
    shows.set(action, [...(shows.get(action) ?? []), el]);
    return el;
  };

  const board = h('div', { class: 'ludo-board', style: { '--grid': String(grid) } });
  const at = (/** @type {Cell} */ c, rows = 1, cols = 1) => ({
    'grid-row': `${c.row + 1} / span ${rows}`,
    'grid-column': `${c.col + 1} / span ${cols}`,
  });

  // Bases, each with its inner field and four spots; the seat to move glows.
  for (const seat of seats) {
    const s = seatBoard(geometry, seat);
    const a = s.base;
    board.append(
      h('div', {
        class: ['ludo-base', `ludo-c${seat}`, !finished && seat === active && 'active'],
        style: at(a, a.rows, a.cols),
        'aria-hidden': 'true',
      }),
      h('div', { class: ['ludo-yard', `ludo-c${seat}`], style: at({ row: a.row + 1, col: a.col + 1 }, a.rows - 2, a.cols - 2), 'aria-hidden': 'true' }),
      ...s.base_spots.map((/** @type {Cell} */ c) => h('div', { class: ['ludo-spot', `ludo-c${seat}`], style: at(c), 'aria-hidden': 'true' })),
    );
  }
  // The track: start squares in their seat's colour, stars marked; both are safe.
  for (const sq of geometry.track) {
    const start = sq.start_of === null || sq.start_of === undefined ? null : String(sq.start_of);
    board.append(
      h(
        'div',
        {
          class: ['ludo-sq', sq.safe && 'safe', start !== null && `start ludo-c${start}`, sq.star && 'star'],
          style: at(sq.cell),
          dataset: { track: sq.index },
          'aria-hidden': 'true',
        },
        sq.star
          ? h('span', { class: 'ludo-star', text: '★' })
          : start !== null
            ? h('span', { class: 'ludo-arrow', text: '➜', style: { transform: `rotate(${arrowAngle(geometry, sq.index)}deg)` } })
            : null,
      ),
    );
  }
  // Home columns in their seat's colour, and the centre's four goal triangles.
  for (const seat of seats) {
    const s = seatBoard(geometry, seat);
    board.append(...s.home_column.map((/** @type {Cell} */ c) => h('div', { class: ['ludo-sq', 'home', `ludo-c${seat}`], style: at(c), 'aria-hidden': 'true' })));
  }
  const centre = geometry.centre;
  const mid = [centre.row + centre.rows / 2, centre.col + centre.cols / 2];
  const wedges = seats
    .map((seat) => {
      const g = seatBoard(geometry, seat).goal;
      const angle = (Math.atan2(g.col + 0.5 - mid[1], -(g.row + 0.5 - mid[0])) * 180) / Math.PI;
      return { seat, from: (angle + 315) % 360 };
    })
    .sort((x, y) => x.from - y.from);
  const first = wedges[0]?.from ?? 0;
  board.append(
    h('div', {
      class: 'ludo-centre',
      style: {
        ...at(centre, centre.rows, centre.cols),
        background: `conic-gradient(from ${first}deg, ${wedges.map((w, i) => `var(--ludo-${w.seat}) ${i * 90}deg ${(i + 1) * 90}deg`).join(', ')})`,
      },
      'aria-hidden': 'true',
    }),
  );

  // Pieces, grouped by the square they stand on.
  /** @type {Map<string, {seat: string, id: number, progress: number, cell: Cell}[]>} */
  const groups = new Map();
  for (const seat of seats) {
    (pieces[seat] ?? []).forEach((/** @type {number} */ progress, /** @type {number} */ id) => {
      const cell = cellOf(geometry, seat, id, progress);
      const key = `${cell.row},${cell.col}`;
      groups.set(key, [...(groups.get(key) ?? []), { seat, id, progress, cell }]);
    });
  }
  const layer = h('div', { class: 'ludo-pieces' });
  /** @type {{move: Move, id: number, site: number[], kind: 'piece' | 'dest'}[]} */
  const targets = [];
  /** @type {Map<string, number[]>} seat-id → where the piece is drawn (squares) */
  const drawnAt = new Map();
  for (const group of groups.values()) {
    // A piece alone on its base spot is drawn a little larger: the spot is its own.
    const f = group.length === 1 && group[0].progress <= BASE ? { size: 0.84, at: [[0, 0]] } : fan(group.length);
    /** @type {Map<string, number>} */
    const perSeat = new Map();
    for (const p of group) perSeat.set(p.seat, (perSeat.get(p.seat) ?? 0) + 1);
    group.forEach((p, i) => {
      const x = p.cell.col + 0.5 + f.at[i][0];
      const y = p.cell.row + 0.5 + f.at[i][1];
      drawnAt.set(`${p.seat}-${p.id}`, [x, y]);
      const move = moveOf.get(`${p.seat}-${p.id}`);
      const el = h(
        'span',
        {
          class: ['ludo-piece', `ludo-c${p.seat}`, move && 'movable'],
          dataset: { key: `ludo-${p.seat}-${p.id}`, seat: p.seat, piece: p.id },
          role: 'img',
          'aria-label': `${t('ludo.piece', { seat: seatName(p.seat), piece: pieceNo(p.id) })}, ${whereText(p.progress)}`,
          style: { left: pct(x - f.size / 2, grid), top: pct(y - f.size / 2, grid), width: pct(f.size, grid), height: pct(f.size, grid) },
        },
        h('span', { class: 'ludo-piece-no', 'aria-hidden': 'true', text: pieceNo(p.id) }),
      );
      layer.append(move ? shown(move.action, el) : el);
      if (move) targets.push({ move, id: p.id, site: [x, y], kind: 'piece' });
    });
    // The count of each colour's stack, in a corner of the square.
    const corners = [[0.96, 0.04], [0.04, 0.04], [0.96, 0.96], [0.04, 0.96]];
    [...perSeat.entries()]
      .filter(([, n]) => n > 1)
      .forEach(([seat, n], i) => {
        const c = group[0].cell;
        const [dx, dy] = corners[i % 4];
        layer.append(
          h('span', {
            class: ['ludo-count', `ludo-c${seat}`],
            'aria-label': `${seatName(seat)}: ${t('ludo.stack', { n })}`,
            role: 'img',
            style: { left: pct(c.col + dx, grid), top: pct(c.row + dy, grid) },
            text: String(n),
          }),
        );
      });
  }

  // Destination squares of the legal moves (one mark per square), also tap targets unless a
  // movable piece already stands there.
  /** @type {Set<string>} */
  const marked = new Set();
  for (const m of moves) {
    const id = m.pieces?.[0] ?? numberOf(m.action, 'move') ?? 0;
    const c = cellOf(geometry, m.seat, id, m.to ?? 0);
    const key = `${c.row},${c.col}`;
    if (marked.has(key)) {
      const mark = layer.querySelector(`.ludo-dest[data-cell="${key}"]`);
      if (mark) shown(m.action, /** @type {HTMLElement} */ (mark));
      continue;
    }
    marked.add(key);
    layer.prepend(
      shown(
        m.action,
        h('span', {
          class: ['ludo-dest', `ludo-c${m.seat}`],
          dataset: { cell: key },
          'aria-hidden': 'true',
          style: { left: pct(c.col, grid), top: pct(c.row, grid), width: pct(1, grid), height: pct(1, grid) },
        }),
      ),
    );
    const site = [c.col + 0.5, c.row + 0.5];
    if (!targets.some((x) => x.kind === 'piece' && Math.hypot(x.site[0] - site[0], x.site[1] - site[1]) < 0.5)) {
      targets.push({ move: m, id, site, kind: 'dest' });
    }
  }

  // The tap areas: one button per target, on top of everything.
  const hits = h('div', { class: 'ludo-hits' });
  const areas = tapAreas(
    targets.map((x) => x.site),
    grid,
  );
  targets.forEach((target, i) => {
    const [sx, sy] = target.site;
    const left = sx - HIT / 2;
    const top = sy - HIT / 2;
    const poly = areas[i].map(([x, y]) => `${(((x - left) / HIT) * 100).toFixed(2)}% ${(((y - top) / HIT) * 100).toFixed(2)}%`).join(', ');
    const button = h('button', {
      type: 'button',
      class: ['ludo-hit', `hit-${target.kind}`],
      tabindex: target.kind === 'dest' ? '-1' : null,
      style: { left: pct(left, grid), top: pct(top, grid), width: pct(HIT, grid), height: pct(HIT, grid), 'clip-path': `polygon(${poly})` },
    });
    legal(button, target.move.action, props.onMove, moveLabel(target.move, target.id));
    const hot = (/** @type {boolean} */ on) => {
      for (const el of shows.get(target.move.action) ?? []) el.classList.toggle('hot', on);
    };
    button.addEventListener('pointerenter', () => hot(true));
    button.addEventListener('pointerleave', () => hot(false));
    button.addEventListener('focus', () => hot(true));
    button.addEventListener('blur', () => hot(false));
    hits.append(button);
  });

  board.append(layer, hits);

  // The die of the latest roll, its roller's colour, and what it did.
  const rolling = last !== null && last.by === 'chance';
  const note = rollNote(last);
  const seat = String(chanceMove(props)?.seat ?? roller);
  const status = h(
    'div',
    { class: 'ludo-status' },
    toRoll
      ? rollButton(
          props,
          t('ludo.tap_to_roll'),
          h('span', { class: ['die', `die-ludo-${seat}`, 'die-blank'], 'aria-hidden': 'true' }, h('span', { class: 'die-q', text: '?' })),
        )
      : roll !== null
      ? h(
          'span',
          { class: 'ludo-die', style: { '--roll-ms': `${Math.round(Math.min(props.pace * 0.8, 500))}ms` } },
          die(roll, `ludo-${roller}`, { rolling }),
          h('span', { class: 'ludo-roll-text', text: t('ludo.rolled', { seat: seatName(roller), n: roll }) }),
        )
      : null,
    note ? h('span', { class: 'ludo-note', role: 'status', text: note }) : null,
    moves.length > 0 && roll !== null ? h('p', { class: 'hint ludo-hint', text: t('ludo.pick', { n: roll }) }) : null,
  );

  // Moves slide square by square along the track; captured pieces slide back to base.
  const moved = last && last.by !== 'chance' ? movedPiece(last) : null;
  const ms = last && last.by !== 'chance' ? props.pace * (last.by === 'human' ? 0.45 : 0.85) : 0;
  flip(root, () => replace(root, h('div', { class: 'ludo' }, board, status)), ms);
  if (moved && ms > 0) {
    const el = /** @type {HTMLElement | null} */ (root.querySelector(`[data-key="ludo-${moved.seat}-${moved.id}"]`));
    const end = drawnAt.get(`${moved.seat}-${moved.id}`);
    if (el && end && moved.from >= 0) {
      for (const a of el.getAnimations()) a.cancel();
      const size = board.getBoundingClientRect().width / grid;
      /** @type {Keyframe[]} */
      const frames = [];
      for (let p = moved.from; p <= moved.to; p++) {
        const c = cellOf(geometry, moved.seat, moved.id, p);
        const dx = p === moved.to ? 0 : (c.col + 0.5 - end[0]) * size;
        const dy = p === moved.to ? 0 : (c.row + 0.5 - end[1]) * size;
        frames.push({ transform: `translate(${dx.toFixed(1)}px, ${dy.toFixed(1)}px)` });
      }
      el.animate(frames, { duration: ms, easing: 'ease-in-out' });
    }
  }
}

/**
 * The piece an entry moved and its progress before and after, from its events.
 * @param {import('../app.js').ActionEntry} entry
 * @returns {{seat: string, id: number, from: number, to: number} | null}
 */
function movedPiece(entry) {
  const e = eventsOf(entry.events, 'move')[0];
  return e ? { seat: String(e.seat), id: e.piece, from: e.from, to: e.to } : null;
}

/**
 * The end screen's figures: per side the pieces home and the pieces captured (the winner
 * first), and the game's length in rolls and turns.
 * @param {any} state
 */
function resultDetails(state) {
  const result = state.result ?? {};
  const stats = result.stats ?? null;
  const names = (state.seats ?? []).map((/** @type {any} */ s) => String(s.name ?? s));
  const seats = names.length ? names : Object.keys(state.pieces ?? {});
  const order = [...seats].sort((a, b) => (a === result.winner ? -1 : b === result.winner ? 1 : 0));
  const home = (/** @type {string} */ seat, /** @type {number} */ i) =>
    stats?.home?.[i] ?? (state.pieces?.[seat] ?? []).filter((/** @type {number} */ p) => p >= GOAL).length;
  return [
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: ['data', 'ludo-result'] },
        h('caption', { class: 'visually-hidden', text: t('ludo.result.table') }),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col', text: t('ludo.result.seat') }),
            h('th', { scope: 'col', class: 'num', text: t('ludo.result.home') }),
            stats ? h('th', { scope: 'col', class: 'num', text: t('ludo.result.captures') }) : null,
          ),
        ),
        h(
          'tbody',
          {},
          order.map((seat) => {
            const i = seats.indexOf(seat);
            return h(
              'tr',
              { class: seat === result.winner && 'winner' },
              h(
                'th',
                { scope: 'row' },
                h('span', { class: ['ludo-swatch', `ludo-c${seat}`], 'aria-hidden': 'true' }),
                seatName(seat),
                seat === result.winner ? ` (${t('ludo.result.winner')})` : '',
              ),
              h('td', { class: 'num', text: `${num(home(seat, i))}/4` }),
              stats ? h('td', { class: 'num', text: num(stats.captures?.[i] ?? 0) }) : null,
            );
          }),
        ),
      ),
    ),
    stats ? h('p', { class: 'ludo-length', text: t('ludo.result.length', { rolls: num(stats.rolls), turns: num(stats.turns) }) }) : null,
  ].filter((x) => x !== null);
}

/** @type {import('../app.js').GameModule} */
export default {
  id: 'ludo',
  render,
  describe: (entry) => describeEvents(entry, 'ludo', seatName, FORMAT),
  seatName,
  resultDetails: (state) => /** @type {Node[]} */ (resultDetails(state)),
  rules: ludoRules,
  setup: {
    seating: 'fixed',
  },
};
