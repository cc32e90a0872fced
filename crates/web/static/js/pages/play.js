// The board page of one game: the live WebSocket, paced animation of what the computer and the
// dice did, the move log, whose turn it is, resign / leave / new game, and the end screen.

import { FRESH_KEY, GAMES, againRequest, autoRolls, entry as catalogueEntry, fitSkins, openFresh, pace, paintSides, resolveSkins, savedSkins, setAutoRolls, sidesOf } from '../app.js';
import { GameSocket, api } from '../api.js';
import { fitNumbers, h, replace, reveal, sleep, toast } from '../dom.js';
import { duration, errorText, t } from '../i18n.js';
import { isChance } from '../notation.js';
import { resultReview, viewerSides } from '../review.js';
import { resultProgress } from '../progress.js';

/**
 * Whether the seat `seat` of `state` plays for a side that `sides` contains (a team's player
 * wins with the team).
 * @param {any} state
 * @param {Set<string>} mine the requester's seats
 * @param {string} side a side name (a seat, or a team in Yut's team modes)
 */
function onSide(state, mine, side) {
  return state.seats.some((/** @type {any} */ s) => mine.has(s.name) && (s.side ?? s.name) === side);
}

/** @typedef {import('../app.js').ActionEntry} ActionEntry */
/** @typedef {import('../app.js').LogEntry} LogEntry */

/**
 * The text of a result for people.
 * @param {import('../app.js').GameModule} module
 * @param {any} state a state or replay view with `result` and `end`
 */
export function resultText(module, state) {
  const result = state.result ?? {};
  const end = state.end;
  if (end?.reason === 'resign') return t('result.resigned', { seat: module.seatName(end.by) });
  if (end?.reason === 'abandoned') return t('result.abandoned');
  if (result.winner !== undefined) return t('result.winner', { seat: module.seatName(result.winner) });
  if (result.ranking) return t('result.ranking', { list: result.ranking.map((/** @type {string} */ s) => module.seatName(s)).join(' › ') });
  if (result.draw) return t('result.draw');
  if (result.no_result !== undefined) return t('result.no_result');
  return '';
}

/**
 * @param {HTMLElement} view
 * @param {string} id
 */
export async function playPage(view, id) {
  /** @type {any} */
  let state = await api('GET', `/api/games/${id}`);
  const module = GAMES[state.game];
  const geometry = await api('GET', `/api/games/${id}/board`);
  const speed = pace();
  view.className = `play game-${state.game}`;
  // A game against the computer or on one screen is drawn in the player's skins (kept in this
  // browser by the set-up page); the record does not change.
  const looks = resolveSkins(catalogueEntry(state.game), fitSkins(catalogueEntry(state.game), sidesOf(state.seats), savedSkins(state.game)));
  paintSides(view, looks);

  const turn = h('p', { class: 'turn', id: 'turn', 'aria-live': 'polite' });
  const board = h('div', { class: 'board-wrap', id: 'board', role: 'group', 'aria-label': t('play.board') });
  const seatsBox = h('ul', { class: 'seat-list', 'aria-label': t('play.players') });
  const log = h('ol', { class: 'log', id: 'log', 'aria-label': t('play.log') });
  const controls = h('div', { class: 'controls' });
  const fairness = h('details', { class: 'fairness' });
  const resultBox = h('section', { class: 'result', id: 'result', hidden: true, 'aria-live': 'polite' });
  const connection = h('p', { class: 'connection', hidden: true, role: 'status', text: t('play.reconnecting') });
  // What the person's own latest roll did (a pass when nothing could move, another throw, …),
  // shown after their tap until their next action.
  const notice = h('p', { class: 'roll-notice', id: 'roll-notice', hidden: true, role: 'status' });

  view.append(
    h(
      'div',
      { class: 'play-head' },
      h('h1', { text: t(`game.${state.game}.name`) }),
      turn,
      notice,
      connection,
    ),
    resultBox,
    h(
      'div',
      { class: 'play-body' },
      board,
      h(
        'aside',
        { class: 'side' },
        seatsBox,
        h('h2', { class: 'log-title', text: t('play.log') }),
        log,
        controls,
        fairness,
      ),
    ),
  );

  let busy = false;
  // A game just created opens at its start and shows what the computer did first.
  const fresh = sessionStorage.getItem(FRESH_KEY) === id;
  if (fresh) sessionStorage.removeItem(FRESH_KEY);
  // The log shows entries up to this version; the first `hello` asks for the last few entries
  // before the current state so that a resumed game shows its recent moves.
  let logged = fresh ? 0 : Math.max(0, state.version - 30);
  // The board shows the game at this version: later entries are animated when they arrive.
  let shown = fresh ? 0 : state.version;
  let connected = false;
  /** The version at which the person asked for their own roll (its line becomes the notice). */
  let rolledAt = -1;
  /** The version whose roll was made automatically (once per version). */
  let autoAt = -1;
  /** @type {ActionEntry | null} */
  let lastEntry = null;
  /** @type {Promise<void>} */
  let queue = Promise.resolve();
  /** @type {{element: HTMLElement, stop: () => void} | null} the results screen's review, asked for once the game has ended */
  let review = null;
  /** @type {{element: HTMLElement, redraw: () => void} | null} the results screen's progression (docs/progression.md) */
  let progress = null;

  /** @param {string} action */
  function play(action) {
    if (busy || state.status !== 'ongoing') return;
    busy = true;
    notice.hidden = true;
    rolledAt = action === state.awaiting && state.to_move === 'chance' ? state.version : -1;
    draw(state, []);
    socket.send({ type: 'action', action, version: state.version });
  }

  /** The person's own roll or throw, when one is due: the move that is the awaited word. */
  function dueRoll() {
    if (state.status !== 'ongoing' || state.to_move !== 'chance') return null;
    return (state.moves ?? []).find((/** @type {any} */ m) => m.action === state.awaiting) ?? null;
  }

  /**
   * @param {any} v a state or a replay step
   * @param {import('../app.js').Move[]} moves
   */
  function draw(v, moves) {
    module.render(board, {
      view: v,
      geometry,
      rules: state.rules,
      moves,
      onMove: play,
      seats: state.seats.map((/** @type {any} */ s) => s.name),
      last: lastEntry,
      pace: speed,
      skins: looks,
    });
  }

  /** @param {string | null} seat */
  function who(seat) {
    if (seat === null) return t('play.chance');
    return module.seatName(seat);
  }

  /** @param {LogEntry} e */
  function logLine(e) {
    const text =
      e.type === 'end'
        ? e.end.reason === 'resign'
          ? t('result.resigned', { seat: who(e.end.by) })
          : t('result.abandoned')
        : module.describe(e);
    const item = h('li', { class: e.type === 'action' ? e.by : 'end', value: e.version, text });
    log.append(item);
    while (log.children.length > 400) log.firstElementChild?.remove();
    fitNumbers(log);
    log.scrollTop = log.scrollHeight;
  }

  /**
   * Whose turn the header names: the person's ("your turn", or the seat on one screen), else
   * the seat that is playing.
   * @param {string} seat
   */
  function turnText(seat) {
    if (!state.my_seats.includes(seat)) return t('play.thinking', { seat: who(seat) });
    return state.mode === 'same_screen' ? t('play.turn_of', { seat: who(seat) }) : t('play.your_turn');
  }

  function drawTurn() {
    const mine = new Set(state.my_seats);
    if (state.status === 'finished') {
      turn.textContent = t('play.over');
    } else if (state.to_act) {
      turn.textContent = turnText(state.to_act);
    }
    replace(
      seatsBox,
      state.seats.map((/** @type {any} */ s) =>
        h(
          'li',
          { class: ['seat', `seat-${s.name}`, s.name === state.to_act && state.status === 'ongoing' && 'to-move'] },
          h('span', { class: 'seat-swatch', 'aria-hidden': 'true' }),
          h('span', { class: 'seat-name', text: module.seatName(s.name) }),
          h('span', {
            class: 'seat-who',
            text:
              s.kind === 'cpu'
                ? t('play.cpu', { level: t(`level.${s.level}`) })
                : mine.has(s.name) && state.mode !== 'same_screen'
                  ? t('play.you')
                  : s.nickname ?? '',
          }),
        ),
      ),
    );
  }

  // Made once for the page: a state drawn between their two clicks (a computer's move) keeps
  // the question asked, where buttons made again would forget it (and a second click would
  // only ask again).
  const resignButton = confirmButton('resign', t('play.resign'), t('play.resign_confirm'), () => end('resign'));
  const leaveButton = confirmButton('leave', t('play.leave'), t('play.leave_confirm'), () => end('leave'));

  function drawControls() {
    const info = catalogueEntry(state.game);
    const ongoing = state.status === 'ongoing' && state.my_seats.length > 0;
    const auto = h('input', {
      type: 'checkbox',
      id: 'auto-rolls',
      checked: autoRolls(),
      on: {
        change: (/** @type {Event} */ e) => {
          setAutoRolls(/** @type {HTMLInputElement} */ (e.target).checked);
          rollIfAuto();
        },
      },
    });
    replace(
      controls,
      ongoing ? h('label', { class: 'choice auto-rolls' }, auto, t('play.auto_rolls')) : null,
      ongoing && info.endings.includes('resign') ? resignButton : null,
      ongoing && info.endings.includes('leave') ? leaveButton : null,
      h('a', { class: 'button', id: 'new-game', href: `#/setup/${state.game}`, text: t('play.new_game') }),
    );
    replace(
      fairness,
      h('summary', { text: t('play.fairness') }),
      h('p', { text: t('play.commitment_hint') }),
      h('p', {}, h('span', { text: `${t('play.commitment')}: ` }), h('code', { class: 'hash', id: 'commitment', text: state.commitment })),
      state.seed
        ? h('p', {}, h('span', { text: `${t('play.seed')}: ` }), h('code', { class: 'hash', id: 'seed', text: state.seed }))
        : h('p', { class: 'hint', text: t('play.seed_later') }),
    );
  }

  /** @param {'resign' | 'leave'} kind */
  async function end(kind) {
    socket.send({ type: kind });
  }

  async function drawResult() {
    if (state.status !== 'finished') {
      resultBox.hidden = true;
      return;
    }
    const mine = new Set(state.my_seats);
    const result = state.result ?? {};
    let headline = resultText(module, state);
    if (state.mode !== 'same_screen' && mine.size > 0) {
      // The result names sides: a team's win is won by each of its players. A resignation's
      // own line ("Light resigned") follows the headline.
      const won = result.winner !== undefined ? result.winner : result.ranking?.[0];
      if (won !== undefined) headline = onSide(state, mine, won) ? t('result.you_won') : t('result.you_lost');
    }
    const record = await api('GET', `/api/games/${id}/record`);
    const moves = record.actions.filter((/** @type {string} */ a) => !isChance(a)).length;
    review ??= resultReview(id, { module, game: state.game, viewer: viewerSides(state) });
    progress ??= resultProgress(id);
    replace(
      resultBox,
      h('h2', { text: headline }),
      resultText(module, state) === headline ? null : h('p', { class: 'result-line', text: resultText(module, state) }),
      module.resultDetails(state, geometry),
      h(
        'p',
        { class: 'figures' },
        t('result.length', { moves, actions: record.actions.length }),
        ' · ',
        t('result.time', { time: duration((state.finished ?? state.updated) - state.created) }),
      ),
      review.element,
      progress.element,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', class: 'primary', id: 'play-again', text: t('result.play_again'), on: { click: () => void again() } }),
        h('a', { class: 'button', id: 'change-setup', href: `#/setup/${state.game}`, text: t('result.change_setup') }),
        h('a', { class: 'button', href: `#/replay/${id}`, text: t('result.replay') }),
        h('a', { class: 'button', href: `/api/games/${id}/record`, download: `madang-${state.game}-${id}.json`, text: t('result.download') }),
        h('a', { class: 'button', id: 'home', href: '#/', text: t('nav.home') }),
      ),
    );
    const wasShown = !resultBox.hidden;
    resultBox.hidden = false;
    if (!wasShown) reveal(resultBox);
  }

  /** Plays the same set-up again: a new game with these rules and seats. */
  async function again() {
    try {
      const next = await api('POST', '/api/games', againRequest(state));
      openFresh(next.id);
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  /** With the automatic setting, asks for the person's own roll as soon as it is due. */
  function rollIfAuto() {
    const move = dueRoll();
    if (!move || busy || !autoRolls() || autoAt === state.version) return;
    autoAt = state.version;
    const version = state.version;
    window.setTimeout(() => {
      if (state.version === version) play(move.action);
    }, Math.min(speed, 300));
  }

  /** @param {any} next */
  async function settle(next) {
    state = next;
    busy = false;
    shown = state.version;
    view.dataset.version = String(state.version);
    draw(state, state.moves);
    drawTurn();
    drawControls();
    await drawResult();
    rollIfAuto();
  }

  /** @param {any} message */
  async function handle(message) {
    if (message.type === 'state') {
      logged = Math.max(logged, message.state.version);
      await settle(message.state);
    } else if (message.type === 'events') {
      if (message.to <= logged) return;
      if (message.from > state.version) {
        socket.send({ type: 'hello', version: state.version });
        return;
      }
      for (const e of /** @type {LogEntry[]} */ (message.events)) {
        if (e.version > logged) {
          logLine(e);
          logged = e.version;
        }
        if (e.type !== 'action') continue;
        // The person's own roll: when it did not simply lead to their move (a pass because no
        // piece can move, another throw), what it did stays in view until their next action.
        const decides = message.state.version === e.version && message.state.to_move === e.seat;
        if (e.version === rolledAt + 1 && e.by === 'chance' && !decides) {
          notice.textContent = module.describe(e);
          notice.hidden = false;
        }
        if (e.version <= shown) continue;
        lastEntry = e;
        if (speed > 0) {
          const step = await api('GET', `/api/games/${id}/steps/${e.index + 1}`);
          draw(step, []);
          // Whose turn the step shows: the seat that acted or whose roll it was.
          if (e.seat) turn.textContent = turnText(e.seat);
          await sleep(e.by === 'chance' ? speed : e.by === 'cpu' ? speed * 1.5 : speed / 2);
        }
        shown = e.version;
      }
      await settle(message.state);
    } else if (message.type === 'error') {
      busy = false;
      toast(errorText(message), 'error');
      if (message.code === 'stale_version') socket.send({ type: 'hello', version: state.version });
      else draw(state, state.moves);
    }
  }

  const socket = new GameSocket(
    id,
    (message) => {
      queue = queue.then(() => handle(message)).catch((e) => toast(errorText(e), 'error'));
    },
    () => (connected ? state.version : logged),
    (up) => {
      connection.hidden = up;
      if (up) connected = true;
    },
  );

  if (fresh && state.version > 0) {
    // Opens at the start: the entries before the person's first action arrive with `hello`
    // (from version 0) and are shown one by one.
    draw(await api('GET', `/api/games/${id}/steps/0`), []);
    drawTurn();
    drawControls();
  } else {
    await settle(state);
  }
  return () => {
    socket.close();
    review?.stop();
  };
}

/**
 * A button that asks once more before acting (no browser dialogs: they block tests and phones).
 * @param {string} id
 * @param {string} label
 * @param {string} confirmLabel
 * @param {() => void} action
 */
export function confirmButton(id, label, confirmLabel, action) {
  let armed = false;
  /** @type {number | undefined} */
  let timer;
  const button = h('button', {
    type: 'button',
    id,
    text: label,
    on: {
      click: () => {
        if (armed) {
          clearTimeout(timer);
          action();
          return;
        }
        armed = true;
        button.textContent = confirmLabel;
        button.classList.add('armed');
        timer = window.setTimeout(() => {
          armed = false;
          button.textContent = label;
          button.classList.remove('armed');
        }, 4000);
      },
    },
  });
  return button;
}
