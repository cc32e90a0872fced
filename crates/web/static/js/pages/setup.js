// Set-up of a new game: mode, CPU level, seats and rule options (from the catalogue), then
// `POST /api/games` and on to the board.

import { GAMES, entry, fitSkins, levelsFor, openFresh, savedSkins, saveSkins, sidesOf } from '../app.js';
import { boardControl, preview, sideControls, swapped } from '../skins.js';
import { holdSeat } from './room.js';
import { api } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { errorText, has, t } from '../i18n.js';

/**
 * The label of a rule option or of one of its values: the message the catalogue names for the
 * option (`label`, `opt.<game>.<key>`), and for a value that key followed by `.<value>`.
 * @param {any} option the catalogue's option
 * @param {string} [value]
 */
export function optionLabel(option, value) {
  const id = value === undefined ? option.label : `${option.label}.${value}`;
  return has(id) ? t(id) : value ?? option.key;
}

/**
 * A set-up as the page keeps it between games (`localStorage`, per game): the last one started,
 * so that the set-up page and "play again" offer the same game again.
 * @typedef {{mode: string, players: number, level: string, side: number, rules: Record<string, any>,
 *   seatKinds: string[], isPublic?: boolean, turnSeconds?: number | null}} SavedSetup
 */

/** @param {string} game */
function setupKey(game) {
  return `madang.setup.${game}`;
}

/**
 * The set-up last started for `game`, or null.
 * @param {string} game
 * @returns {SavedSetup | null}
 */
function savedSetup(game) {
  try {
    const value = JSON.parse(localStorage.getItem(setupKey(game)) ?? 'null');
    return value && typeof value === 'object' && value.rules && typeof value.rules === 'object' ? value : null;
  } catch {
    return null;
  }
}

/**
 * @param {HTMLElement} view
 * @param {string} game
 */
export async function setupPage(view, game, wanted) {
  const module = GAMES[game];
  const info = entry(game);
  const spec = module.setup;
  /** @type {('computer' | 'same_screen' | 'room')[]} the ways the game is played (catalogue `modes`) */
  const modes = info.modes;
  const saved = savedSetup(game);
  /** @type {'computer' | 'same_screen' | 'room'} */
  let mode =
    wanted === 'room' && modes.includes('room')
      ? 'room'
      : saved && modes.includes(/** @type {any} */ (saved.mode)) && saved.mode !== 'room'
        ? /** @type {any} */ (saved.mode)
        : modes[0];
  let isPublic = saved?.isPublic ?? false;
  /** @type {number | null} */
  let turnSeconds = saved?.turnSeconds ?? null;
  let players = saved && info.players.allowed.includes(saved.players) ? saved.players : info.players.default ?? info.players.allowed[0];
  let level = saved && info.levels.includes(saved.level) ? saved.level : info.levels.includes('normal') ? 'normal' : info.levels[0];
  let side = saved?.side ?? 0;
  /** @type {Record<string, any>} */
  const rules = { ...(saved?.rules ?? {}) };
  /** @type {string[]} */
  let seatKinds = saved?.seatKinds ?? [];

  const seatsBox = h('div', { class: 'seats' });
  // The sides' looks and the board, for a game with skins (kept for the next game).
  const skinsBox = h('div', { class: 'skins', id: 'skins' });
  /** @type {import('../app.js').SkinChoice | null} */
  let skins = null;
  const levelBox = h('div', { class: 'field' });
  const error = h('p', { class: 'error', role: 'alert' });
  // A room's button opens its lobby, where the game starts once everyone is ready.
  const startButton = h('button', { type: 'submit', class: 'primary big', id: 'start' });

  /**
   * The server's answer for the set-up so far (`POST /api/setup`): the seat counts the rules
   * allow, the seats they give, the board.
   * @type {{players: number, allowed: {default: number, allowed: number[]}, seats: {name: string, side: string}[]}}
   */
  let current = await api('POST', '/api/setup', { game, rules, players });
  players = current.players;

  function seatNames() {
    return current.seats.map((s) => s.name);
  }

  /** The latest question asked of the server: an older answer arriving late is dropped. */
  let asked = 0;

  /**
   * Asks the server again after a change of rules or players; false when it refused them, or
   * when a later change has asked again meanwhile.
   */
  async function refresh() {
    const mine = ++asked;
    /** @type {any} */
    let answer;
    try {
      answer = await api('POST', '/api/setup', { game, rules, players });
    } catch (err) {
      if (mine === asked) error.textContent = errorText(err);
      return false;
    }
    if (mine !== asked) return false;
    current = answer;
    error.textContent = '';
    players = current.players;
    const select = /** @type {HTMLSelectElement | null} */ (view.querySelector('#players'));
    if (select) select.value = String(players);
    return true;
  }

  /**
   * The room's fields: your seat, which other seats the computer takes, public or private, and
   * the turn timer.
   * @param {string[]} names
   */
  function roomFields(names) {
    if (side >= names.length) side = 0;
    return h(
      'div',
      { class: 'room-fields' },
      h(
        'fieldset',
        { class: 'field' },
        h('legend', { text: t('setup.room_seats') }),
        names.map((name, i) =>
          h(
            'div',
            { class: 'seat-row' },
            h(
              'label',
              { class: 'choice' },
              h('input', { type: 'radio', name: 'room-seat', value: name, checked: i === side, on: { change: () => (side = i) } }),
              module.seatName(name),
            ),
            h(
              'select',
              {
                name: `room-kind-${name}`,
                'aria-label': t('setup.room_kind', { seat: module.seatName(name) }),
                on: { change: (/** @type {Event} */ e) => (seatKinds[i] = /** @type {HTMLSelectElement} */ (e.target).value) },
              },
              ['human', 'cpu'].map((kind) => h('option', { value: kind, selected: (seatKinds[i] ?? 'human') === kind, text: t(`setup.room_kind.${kind}`) })),
            ),
          ),
        ),
        h('p', { class: 'hint', text: t('setup.room_hint') }),
      ),
      h(
        'label',
        { class: 'choice' },
        h('input', { type: 'checkbox', id: 'room-public', name: 'public', checked: isPublic, on: { change: (/** @type {Event} */ e) => (isPublic = /** @type {HTMLInputElement} */ (e.target).checked) } }),
        t('setup.room_public'),
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'turn-seconds', text: t('setup.turn_timer') }),
        h(
          'select',
          {
            id: 'turn-seconds',
            name: 'turn_seconds',
            on: {
              change: (/** @type {Event} */ e) => {
                const v = /** @type {HTMLSelectElement} */ (e.target).value;
                turnSeconds = v ? Number(v) : null;
              },
            },
          },
          ['', '30', '60', '120', '300'].map((v) => h('option', { value: v, selected: String(turnSeconds ?? '') === v, text: v ? t('setup.turn_timer_s', { s: v }) : t('setup.turn_timer_off') })),
        ),
      ),
    );
  }

  function drawSeats() {
    startButton.textContent = t(mode === 'room' ? 'setup.open_room' : 'setup.start');
    const names = seatNames();
    if (seatKinds.length !== names.length) {
      seatKinds = names.map((_, i) => (i === 0 || mode !== 'computer' ? 'human' : 'cpu'));
    }
    replace(seatsBox);
    if (mode === 'room') {
      seatsBox.append(roomFields(names));
    } else if (spec.seating === 'side' && mode === 'computer') {
      seatsBox.append(
        h(
          'fieldset',
          { class: 'field' },
          h('legend', { text: t('setup.your_side') }),
          names.map((name, i) =>
            h(
              'label',
              { class: 'choice' },
              h('input', {
                type: 'radio',
                name: 'side',
                value: name,
                checked: i === side,
                on: { change: () => (side = i) },
              }),
              module.seatName(name),
            ),
          ),
          h('p', { class: 'hint', text: t(`setup.${game}.side_hint`) }),
        ),
      );
    } else if (spec.seating === 'seats' && mode === 'computer') {
      seatsBox.append(
        h(
          'fieldset',
          { class: 'field' },
          h('legend', { text: t('setup.seats') }),
          names.map((name, i) =>
            h(
              'label',
              { class: 'seat-row' },
              h('span', { text: module.seatName(name) }),
              h(
                'select',
                {
                  name: `seat-${name}`,
                  on: {
                    change: (/** @type {Event} */ e) => {
                      seatKinds[i] = /** @type {HTMLSelectElement} */ (e.target).value;
                    },
                  },
                },
                ['human', 'cpu'].map((kind) =>
                  h('option', { value: kind, selected: seatKinds[i] === kind, text: t(`setup.kind.${kind}`) }),
                ),
              ),
            ),
          ),
        ),
      );
    } else if (spec.seating === 'fixed') {
      seatsBox.append(h('p', { class: 'hint', text: t(`setup.${game}.seats_hint`) }));
    }
    drawLevel();
    drawSkins();
  }

  /**
   * The looks of the sides and the board (games with skins; a room's are chosen in its lobby).
   * Choosing another side's colour or pieces swaps them, so no two sides are ever alike.
   */
  function drawSkins() {
    const sides = sidesOf(current.seats);
    skins = fitSkins(info, sides, skins ?? savedSkins(game));
    replace(skinsBox);
    if (!skins || mode === 'room') return;
    const choice = skins;
    skinsBox.append(
      h(
        'fieldset',
        { class: 'field' },
        h('legend', { text: t('skin.legend') }),
        sides.map((side) =>
          h(
            'div',
            { class: 'seat-row skin-row', dataset: { side } },
            preview(info, module, choice, side),
            h('span', { class: 'skin-side', text: module.seatName(side) }),
            sideControls({
              info,
              choice,
              side,
              sideName: module.seatName,
              onChange: (part, id) => {
                skins = swapped(choice, side, part, id);
                drawSkins();
              },
            }),
          ),
        ),
        boardControl(info, choice.board, (id) => {
          skins = { ...choice, board: id };
          drawSkins();
        }),
        h('p', { class: 'hint', text: t('skin.hint') }),
      ),
    );
  }

  /** The CPU level choice: the levels for the rules chosen so far (`perfect` only with a table). */
  function drawLevel() {
    const levels = levelsFor(info, rules);
    if (!levels.includes(level)) level = levels.includes('normal') ? 'normal' : levels[0];
    replace(
      levelBox,
      mode === 'computer' || mode === 'room'
        ? [
            h('label', { for: 'level', text: t('setup.level') }),
            h(
              'select',
              {
                id: 'level',
                name: 'level',
                on: { change: (/** @type {Event} */ e) => (level = /** @type {HTMLSelectElement} */ (e.target).value) },
              },
              levels.map((l) => h('option', { value: l, selected: l === level, text: t(`level.${l}`) })),
            ),
          ]
        : [],
    );
  }

  const modeBox =
    modes.length > 1
      ? h(
          'fieldset',
          { class: 'field' },
          h('legend', { text: t('setup.mode') }),
          modes.map((m) =>
            h(
              'label',
              { class: 'choice' },
              h('input', {
                type: 'radio',
                name: 'mode',
                value: m,
                checked: m === mode,
                on: {
                  change: () => {
                    mode = m;
                    seatKinds = [];
                    drawSeats();
                  },
                },
              }),
              t(`setup.mode.${m}`),
            ),
          ),
        )
      : null;

  const playersBox =
    info.players.allowed.length > 1
      ? h(
          'div',
          { class: 'field' },
          h('label', { for: 'players', text: t('setup.players') }),
          h(
            'select',
            {
              id: 'players',
              name: 'players',
              on: {
                change: async (/** @type {Event} */ e) => {
                  players = Number(/** @type {HTMLSelectElement} */ (e.target).value);
                  await refresh();
                  seatKinds = [];
                  drawSeats();
                },
              },
            },
            info.players.allowed.map((/** @type {number} */ n) =>
              h('option', { value: n, selected: n === players, text: t('setup.players_n', { n }) }),
            ),
          ),
          info.players.note ? h('p', { class: 'hint', text: t(`setup.${game}.players_hint`) }) : null,
        )
      : null;

  // In the order the game declares them (its catalogue entry).
  /** @type {any[]} */
  const options = info.options;
  // The options chosen before anything else (Yut's individual or team mode) stand above the
  // seats; the others are in the collapsed rule settings.
  const first = new Set(spec.firstOptions ?? []);
  /** @param {any} o */
  const field = (o) =>
    optionField(o, rules[o.key], async (value) => {
      const before = seatNames().join(',');
      if (value === undefined) delete rules[o.key];
      else rules[o.key] = value;
      // The levels follow the rules at once (the solved rule sets are in the catalogue).
      drawLevel();
      // The server says which seat counts these rules allow and which seats they give (Yut's
      // team modes need 4, 6 or 8 players, seated A1, B1, …).
      if (!(await refresh())) return;
      // New seats: the seat choices start again.
      if (seatNames().join(',') !== before) {
        seatKinds = [];
        drawSeats();
      }
    });
  const firstBox = options.filter((/** @type {any} */ o) => first.has(o.key)).map(field);
  const rest = options.filter((/** @type {any} */ o) => !first.has(o.key));
  const optionsBox =
    rest.length === 0 ? null : h('details', { class: 'options' }, h('summary', { text: t('setup.options') }), rest.map(field));

  async function start(/** @type {Event} */ e) {
    e.preventDefault();
    error.textContent = '';
    const names = seatNames();
    /** @type {SavedSetup} */
    const keep = { mode, players, level, side, rules, seatKinds, isPublic, turnSeconds };
    localStorage.setItem(setupKey(game), JSON.stringify(keep));
    if (skins && mode !== 'room') saveSkins(game, skins);
    if (mode === 'room') {
      /** @type {Record<string, string>} */
      const cpu = {};
      names.forEach((name, i) => {
        if (i !== side && seatKinds[i] === 'cpu') cpu[name] = level;
      });
      /** @type {any} */
      const request = { game, rules, seat: names[side], cpu, public: isPublic, turn_seconds: turnSeconds };
      if (info.players.allowed.length > 1) request.players = players;
      try {
        const answer = await api('POST', '/api/rooms', request);
        holdSeat(answer.code, { seat: answer.seat, token: answer.token });
        location.hash = `#/room/${answer.code}`;
      } catch (err) {
        error.textContent = errorText(err);
        toast(errorText(err), 'error');
      }
      return;
    }
    const seats = names.map((_, i) => {
      if (mode === 'same_screen') return { kind: 'human' };
      const human = spec.seating === 'side' ? i === side : spec.seating === 'fixed' ? i === 0 : seatKinds[i] === 'human';
      return human ? { kind: 'human' } : { kind: 'cpu', level };
    });
    /** @type {any} */
    const body = { game, rules, seats };
    if (info.players.allowed.length > 1) body.players = players;
    const seed = new URLSearchParams(location.search).get('seed');
    if (seed) body.seed = seed;
    try {
      const state = await api('POST', '/api/games', body);
      openFresh(state.id);
    } catch (err) {
      error.textContent = errorText(err);
      toast(errorText(err), 'error');
    }
  }

  drawSeats();
  view.append(
    h(
      'form',
      { class: 'panel setup', on: { submit: start } },
      h('h1', { text: t(`game.${game}.name`) }),
      h('p', {}, t(`game.${game}.line`), ' ', h('a', { href: `#/rules/${game}`, text: t('home.rules') })),
      modeBox,
      firstBox,
      playersBox,
      seatsBox,
      skinsBox,
      levelBox,
      optionsBox,
      error,
      startButton,
    ),
  );
}

/**
 * One rule option's control. Options whose default depends on the preset start at "preset
 * default" and are sent only when set; others are sent only when they differ from the default.
 * @param {any} o the catalogue option
 * @param {any} initial the value chosen before (a kept set-up), or `undefined` for the default
 * @param {(value: any) => void} set called with the value to send, or `undefined` for the default
 * @param {string} [prefix] the start of the control's id (`opt-<key>`; the lab's second rule set
 *   has its own)
 */
export function optionField(o, initial, set, prefix = 'opt') {
  const id = `${prefix}-${o.key}`;
  const dependent = Boolean(o.depends_on);
  const label = h('label', { for: id, text: optionLabel(o) });
  const note = has(`${o.label}.note`) ? h('p', { class: 'hint', text: t(`${o.label}.note`) }) : null;
  const chosen = initial !== undefined;
  /** @type {HTMLElement} */
  let control;
  if (o.type === 'enum' || o.type === 'boolean') {
    /** @type {any[]} */
    const values = o.type === 'enum' ? o.values : [true, false];
    const text = (/** @type {any} */ v) =>
      o.type === 'boolean' ? t(v ? 'setup.on' : 'setup.off') : optionLabel(o, String(v));
    control = h(
      'select',
      {
        id,
        name: o.key,
        on: {
          change: (/** @type {Event} */ e) => {
            const raw = /** @type {HTMLSelectElement} */ (e.target).value;
            if (raw === '') return set(undefined);
            const value = values.find((v) => String(v) === raw);
            set(!dependent && value === o.default ? undefined : value);
          },
        },
      },
      dependent ? h('option', { value: '', selected: !chosen, text: t('setup.preset_default') }) : null,
      values.map((v) =>
        h('option', {
          value: String(v),
          selected: chosen ? v === initial : !dependent && v === o.default,
          // The default marked after the name, not in brackets: many names end in their own
          // ("Individual (2-4 players)", "Finkel (British Museum)").
          text: v === o.default && !dependent ? t('setup.default_option', { option: text(v) }) : text(v),
        }),
      ),
    );
  } else if (o.type === 'integer') {
    control = h('input', {
      id,
      name: o.key,
      type: 'number',
      inputmode: 'numeric',
      min: o.min,
      max: o.max,
      value: chosen ? initial : dependent ? '' : o.default,
      placeholder: dependent ? t('setup.preset_default') : String(o.default),
      on: {
        input: (/** @type {Event} */ e) => {
          const raw = /** @type {HTMLInputElement} */ (e.target).value.trim();
          const n = Number(raw);
          set(raw === '' || (!dependent && n === o.default) ? undefined : Number.isInteger(n) ? n : raw);
        },
      },
    });
  } else if (o.type === 'layout') {
    control = h('textarea', {
      id,
      name: o.key,
      rows: 5,
      spellcheck: 'false',
      text: (Array.isArray(initial) ? initial : o.default).join('\n'),
      on: {
        input: (/** @type {Event} */ e) => {
          const lines = /** @type {HTMLTextAreaElement} */ (e.target).value
            .split('\n')
            .map((l) => l.trim())
            .filter(Boolean);
          set(lines.join('\n') === o.default.join('\n') ? undefined : lines);
        },
      },
    });
  } else {
    control = h('input', {
      id,
      name: o.key,
      value: chosen ? initial : o.default,
      on: {
        input: (/** @type {Event} */ e) => {
          const raw = /** @type {HTMLInputElement} */ (e.target).value.trim();
          set(raw === '' || raw === o.default ? undefined : raw);
        },
      },
    });
  }
  return h('div', { class: 'field' }, label, control, note);
}
