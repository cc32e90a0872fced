// Shared client state: the catalogue, the player, settings, and the game modules.

import { api } from './api.js';
import { MODULES } from './games/index.js';

/**
 * @typedef {{action: string, seat: string, kind: string, from?: number, to?: number, pieces?: number[]}} Move
 *   A legal action annotated for the board (docs/api.md, "State").
 * @typedef {{name: string, kind: 'human' | 'cpu', level: string | null, nickname: string | null}} Seat
 * @typedef {{type: 'action', version: number, index: number, action: string, seat: string | null,
 *   by: 'human' | 'cpu' | 'chance', events: import('./games/common.js').GameEvent[], at: number}} ActionEntry
 * @typedef {{type: 'end', version: number, end: {reason: string, by: string}, at: number}} EndEntry
 * @typedef {ActionEntry | EndEntry} LogEntry
 *
 * @typedef {object} BoardProps
 * @property {any} view the state or a replay step: `pieces`, `to_move`, `awaiting`, `legal`,
 *   `result`, `last_chance`, and game fields such as Yut's `pool`
 * @property {any} geometry the board data (catalogue `board`, or `GET /api/games/{id}/board`)
 * @property {any} rules the game's `rules` object
 * @property {Move[]} moves the moves the person may play now (`[]` when none: nothing is clickable);
 *   at the person's own roll or throw one move whose action is the awaited word (`roll`,
 *   `throw`), drawn as the throw button (`rollButton` in `games/common.js`)
 * @property {(action: string) => void} onMove plays one of `moves`
 * @property {string[]} seats the seat names in seat order
 * @property {ActionEntry | null} last the entry that led to `view` (animations), or null
 * @property {number} pace animation length in ms (0: no animation)
 * @property {Looks | null} [skins] how the sides and the board look (`resolveSkins`), for a
 *   game with skins; null or absent: the game's own default look
 *
 * @typedef {{colour: string, css: string, pieces: string}} Look one side's look: its colour id and
 *   CSS colour, its piece set id
 * @typedef {{board: string, sides: Record<string, Look>}} Looks every side's look and the board
 * @typedef {{board: string, sides: Record<string, {colour: string, pieces: string}>}} SkinChoice
 *   a choice of skins as the server and `localStorage` keep it (ids only)
 *
 * @typedef {object} SetupSpec the set-up page's layout of a game (what the game offers — modes,
 *   seat counts, seats, options — comes from the server: the catalogue and `POST /api/setup`)
 * @property {'side' | 'seats' | 'fixed'} seating `side`: the person picks one seat, the others are
 *   CPUs; `seats`: every seat human or CPU; `fixed`: the person has seat 0, the others are CPUs
 * @property {string[]} [firstOptions] the options chosen first, shown above the seats rather than
 *   in the collapsed rule settings (Yut's individual or team `mode`)
 *
 * @typedef {object} GameModule
 * @property {string} id the catalogue's `game`
 * @property {(root: HTMLElement, props: BoardProps) => void} render draws the board into `root`
 * @property {(entry: ActionEntry) => string} describe one line of the move log
 * @property {(seat: string) => string} seatName the seat's name for people ("Light", "빛", "A팀 1")
 * @property {(state: any, geometry: any) => Node[]} resultDetails the figures of the end screen
 *   (`geometry`: the game's board data, as for `render`)
 * @property {(info: any) => import('./dom.js').Children[]} rules the rules page, in the current
 *   language (nodes, nested lists allowed), given the game's catalogue entry (its default board)
 * @property {SetupSpec} setup
 * @property {(look: Look) => Node} [piece] one piece of a side's look, for the skin pickers of
 *   the set-up page and a room's lobby (games with skins)
 */

/** @type {Record<string, GameModule>} every game's board module, by its record name */
export const GAMES = MODULES;

/**
 * The games in the catalogue's order, and among them those offered in `mode` (the catalogue's
 * `modes`: Ludo, for one, is only played against the computer).
 * @param {string} [mode]
 * @returns {string[]}
 */
export function gameNames(mode) {
  return catalogue.games.filter((g) => g.game in GAMES && (!mode || g.modes.includes(mode))).map((g) => g.game);
}

/** @type {{games: any[]}} */
let catalogue = { games: [] };

/** @type {{id: string, nickname: string, created: number}} */
export const me = { id: '', nickname: '', created: 0 };

/** Loads the catalogue and the player (once, at start). */
export async function load() {
  const [cat, player] = await Promise.all([api('GET', '/api/catalogue'), api('GET', '/api/me')]);
  catalogue = cat;
  Object.assign(me, player);
}

/**
 * The catalogue entry of `game`.
 * @param {string} game
 * @returns {any}
 */
export function entry(game) {
  const found = catalogue.games.find((g) => g.game === game);
  if (!found) throw new Error(`unknown game ${game}`);
  return found;
}

/**
 * Animation pace in ms per step: `?pace=0` in the address (tests) or the setting on the home
 * page (`normal` 600, `fast` 250, `off` 0).
 * @returns {number}
 */
export function pace() {
  const query = new URLSearchParams(location.search).get('pace');
  if (query !== null && /^\d+$/.test(query)) return Number(query);
  const stored = localStorage.getItem('madang.pace');
  return stored === 'off' ? 0 : stored === 'fast' ? 250 : 600;
}

/** Where the rolls setting is kept: `tap` (default) or `auto`. */
export const ROLLS_KEY = 'madang.rolls';

/**
 * Whether the person's own rolls and throws are made for them as soon as they are due (the
 * "automatic" setting, for players who prefer speed); by default each waits for a tap on the
 * throw button, as the seeds have it.
 * @returns {boolean}
 */
export function autoRolls() {
  return localStorage.getItem(ROLLS_KEY) === 'auto';
}

/**
 * Sets the rolls setting (`true`: automatic).
 * @param {boolean} auto
 */
export function setAutoRolls(auto) {
  localStorage.setItem(ROLLS_KEY, auto ? 'auto' : 'tap');
}

/**
 * Rules in one comparable form: every preset-dependent option's value when the rules fix them
 * all (the default preset's values come from the catalogue), else the preset and the options
 * given. Two rules with the same form are the same rules; rules spelt differently under a
 * preset other than the default may compare unequal (then `perfect` is not offered, never
 * offered wrongly).
 * @param {any[]} options the catalogue's options
 * @param {Record<string, any>} rules
 * @returns {string}
 */
function rulesKey(options, rules) {
  const presetOption = options.find((o) => o.key === 'preset');
  const preset = rules.preset ?? presetOption?.default ?? null;
  /** @type {Record<string, any>} */
  const values = {};
  let complete = true;
  for (const o of options) {
    if (o.key === 'preset') continue;
    if (o.key in rules) values[o.key] = rules[o.key];
    else if (!o.depends_on || preset === presetOption?.default) values[o.key] = o.default;
    else complete = false;
  }
  return JSON.stringify(complete ? values : { preset, ...Object.fromEntries(Object.keys(rules).sort().map((k) => [k, rules[k]])) });
}

/**
 * The CPU levels to offer for `rules`: the catalogue's, with `perfect` exactly when the server
 * has a solved table for these rules (the catalogue's `solved`, docs/api.md), whichever rules
 * the table solves.
 * @param {any} info the catalogue entry
 * @param {Record<string, any>} rules
 * @returns {string[]}
 */
export function levelsFor(info, rules) {
  const levels = info.levels.filter((/** @type {string} */ l) => l !== 'perfect');
  const key = rulesKey(info.options, rules);
  const solved = (info.solved ?? []).some((/** @type {any} */ s) => rulesKey(info.options, s) === key);
  return solved ? [...levels, 'perfect'] : levels;
}

/** The game the set-up page has just created: its page shows what the computer did first. */
export const FRESH_KEY = 'madang.fresh';

/**
 * Opens the board of a game just created (`POST /api/games`): the page animates everything the
 * computer and the dice did before the person's first action, instead of opening on it.
 * @param {string} id
 */
export function openFresh(id) {
  sessionStorage.setItem(FRESH_KEY, id);
  location.hash = `#/play/${id}`;
}

/**
 * The creation request that plays `state`'s game again: the same game, rules, player count and
 * seats (the same computer levels), with a new seed.
 * @param {any} state a game's state
 */
export function againRequest(state) {
  /** @type {any} */
  const body = {
    game: state.game,
    rules: state.rules,
    seats: state.seats.map((/** @type {any} */ s) => (s.kind === 'cpu' ? { kind: 'cpu', level: s.level } : { kind: 'human' })),
  };
  if (state.players !== null && state.players !== undefined) body.players = state.players;
  return body;
}

/**
 * The default skin choice of a game for `sides` (in seat order, each side once): side i gets the
 * catalogue's i-th colour and piece set, the board is the first (as the server's rooms do).
 * @param {any} info the catalogue entry (its `skins`)
 * @param {string[]} sides
 * @returns {SkinChoice | null}
 */
export function defaultSkins(info, sides) {
  const skins = info.skins;
  if (!skins || sides.length > skins.colours.length || sides.length > skins.pieces.length) return null;
  /** @type {SkinChoice['sides']} */
  const looks = {};
  sides.forEach((side, i) => (looks[side] = { colour: skins.colours[i].id, pieces: skins.pieces[i].id }));
  return { board: skins.boards[0].id, sides: looks };
}

/**
 * `choice` made whole and valid for `sides`: every side's look from `choice` when it names
 * offered skins and no side before it has the colour or pieces, else the first free ones; the
 * board likewise. Null for a game without skins.
 * @param {any} info the catalogue entry
 * @param {string[]} sides
 * @param {any} choice a kept or received choice (may be null, partial or stale)
 * @returns {SkinChoice | null}
 */
export function fitSkins(info, sides, choice) {
  const base = defaultSkins(info, sides);
  if (!base) return null;
  const skins = info.skins;
  const ids = (/** @type {any[]} */ list) => list.map((s) => s.id);
  const board = ids(skins.boards).includes(choice?.board) ? choice.board : base.board;
  /** @type {SkinChoice['sides']} */
  const looks = {};
  const used = { colour: new Set(), pieces: new Set() };
  for (const side of sides) {
    const wanted = choice?.sides?.[side] ?? {};
    /** @type {any} */
    const look = {};
    for (const [part, list] of /** @type {const} */ ([['colour', skins.colours], ['pieces', skins.pieces]])) {
      const offered = ids(list);
      const free = offered.filter((id) => !used[part].has(id));
      look[part] = free.includes(wanted[part]) ? wanted[part] : free.includes(base.sides[side][part]) ? base.sides[side][part] : free[0];
      used[part].add(look[part]);
    }
    looks[side] = look;
  }
  return { board, sides: looks };
}

/**
 * The looks to draw from a skin choice: each side's colour with its CSS value.
 * @param {any} info the catalogue entry
 * @param {SkinChoice | null} choice
 * @returns {Looks | null}
 */
export function resolveSkins(info, choice) {
  if (!info.skins || !choice) return null;
  /** @type {Record<string, Look>} */
  const sides = {};
  for (const [side, look] of Object.entries(choice.sides)) {
    const colour = info.skins.colours.find((/** @type {any} */ c) => c.id === look.colour);
    sides[side] = { colour: look.colour, css: colour?.colour ?? '', pieces: look.pieces };
  }
  return { board: choice.board, sides };
}

/**
 * Sets each side's colour on `el` as the CSS variable `--side-<side>`, which the game's styles
 * read for the board, the seat list and the results (null: the default colours).
 * @param {HTMLElement} el
 * @param {Looks | null} looks
 */
export function paintSides(el, looks) {
  for (const name of [...el.style]) if (name.startsWith('--side-')) el.style.removeProperty(name);
  for (const [side, look] of Object.entries(looks?.sides ?? {})) if (look.css) el.style.setProperty(`--side-${side}`, look.css);
}

/** @param {string} game */
function skinsKey(game) {
  return `madang.skins.${game}`;
}

/**
 * The skins this browser's player chose last for `game` (games against the computer and on one
 * screen; a room's are the server's), or null.
 * @param {string} game
 * @returns {any}
 */
export function savedSkins(game) {
  try {
    return JSON.parse(localStorage.getItem(skinsKey(game)) ?? 'null');
  } catch {
    return null;
  }
}

/**
 * Keeps the player's skins for `game` for the next games.
 * @param {string} game
 * @param {SkinChoice} choice
 */
export function saveSkins(game, choice) {
  localStorage.setItem(skinsKey(game), JSON.stringify(choice));
}

/**
 * The sides of a game's seats (each once, in seat order): a seat's `side`, else its name.
 * @param {{name: string, side?: string | null}[]} seats
 * @returns {string[]}
 */
export function sidesOf(seats) {
  /** @type {string[]} */
  const sides = [];
  for (const s of seats) {
    const side = s.side ?? s.name;
    if (!sides.includes(side)) sides.push(side);
  }
  return sides;
}
