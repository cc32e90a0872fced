// One online room's page (docs/api.md, "Rooms"): joining, the lobby (seats, teams, ready, the
// host's computer seats and start), live play with presence, draw offers, resign, rematch, chat,
// and spectators. The room's state is a `RoomState` (`room/state.js`), its socket protocol a
// `RoomProtocol` (`room/protocol.js`); this file only draws and asks.

import { GAMES, autoRolls, entry, fitSkins, levelsFor, me, pace, paintSides, resolveSkins, sidesOf } from '../app.js';
import { boardControl, lookText, preview, sideControls } from '../skins.js';
import { ApiError, api } from '../api.js';
import { fitNumbers, h, replace, reveal, sleep, toast } from '../dom.js';
import { errorText, t } from '../i18n.js';
import { RoomProtocol } from '../room/protocol.js';
import { RoomState } from '../room/state.js';
import { confirmButton, resultText } from './play.js';
import { resultReview } from '../review.js';
import { resultProgress } from '../progress.js';

export { heldSeat, holdSeat } from '../room/state.js';

/** @typedef {import('../app.js').ActionEntry} ActionEntry */

/**
 * @param {HTMLElement} view
 * @param {string} rawCode
 */
export async function roomPage(view, rawCode) {
  const code = rawCode.toUpperCase();
  const state = new RoomState(code, (await api('GET', `/api/rooms/${code}`)).room);
  const link = `${location.origin}${location.pathname}#/room/${code}`;
  const module = GAMES[state.room.game];
  /** @type {any} the current game's board data */
  let board = state.room.state ? await api('GET', `/api/games/${state.gameId()}/board`) : null;
  const speed = pace();
  let busy = false;
  /** @type {ActionEntry | null} */
  let lastEntry = null;
  view.className = `room play game-${state.room.game}`;

  const title = h('h1', {}, t(`game.${state.room.game}.name`), ' ', h('code', { class: 'room-code', text: code }));
  const turn = h('p', { class: 'turn', id: 'turn', 'aria-live': 'polite' });
  const connection = h('p', { class: 'connection', hidden: true, role: 'status', text: t('play.reconnecting') });
  // Another player's draw offer, and its answers, beside the turn line: below the board, with
  // the other controls, a player on a phone would not see it.
  const offerBanner = h('div', { class: 'offer-banner', id: 'draw-banner', hidden: true, role: 'status' });
  const lobby = h('section', { class: 'panel lobby', id: 'lobby' });
  const resultBox = h('section', { class: 'result', id: 'result', hidden: true, 'aria-live': 'polite' });
  const boardBox = h('div', { class: 'board-wrap', id: 'board', role: 'group', 'aria-label': t('play.board') });
  const seatsBox = h('ul', { class: 'seat-list', id: 'room-seats', 'aria-label': t('play.players') });
  const log = h('ol', { class: 'log', id: 'log', 'aria-label': t('play.log') });
  const controls = h('div', { class: 'controls', id: 'room-controls' });
  const chatList = h('ol', { class: 'chat', id: 'chat', 'aria-live': 'polite', 'aria-label': t('room.chat') });
  const chatInput = h('input', { id: 'chat-text', name: 'chat', maxlength: 200, autocomplete: 'off', 'aria-label': t('room.chat_say') });
  const chatForm = h(
    'form',
    {
      class: 'row chat-form',
      on: {
        submit: (/** @type {Event} */ e) => {
          e.preventDefault();
          const text = chatInput.value.trim();
          if (!text) return;
          command({ type: 'chat', text });
          chatInput.value = '';
        },
      },
    },
    chatInput,
    h('button', { type: 'submit', text: t('room.send') }),
  );
  // A spectator reads the chat but cannot write in it (the server refuses `spectator`): told so
  // where the input would be.
  const chatSpectator = h('p', { class: 'hint', id: 'chat-spectator', hidden: true });
  const game = h('div', { class: 'play-body', id: 'room-game' }, boardBox, h('aside', { class: 'side' }, seatsBox, h('h2', { class: 'log-title', text: t('play.log') }), log, controls));
  view.append(
    h('div', { class: 'play-head' }, title, turn, connection, offerBanner),
    resultBox,
    lobby,
    game,
    h('section', { class: 'panel room-chat' }, h('h2', { class: 'log-title', text: t('room.chat') }), chatList, chatForm, chatSpectator),
  );

  /** @param {Record<string, any>} message a command; the seat's token is added */
  function command(message) {
    if (!state.held) return;
    // Never dropped silently: while the socket reconnects the player is told to try again.
    if (!protocol.command(message)) toast(t('play.reconnecting'), 'error');
  }

  // Made once for the page: a state drawn between its two clicks (the other player's move)
  // keeps the question asked, where a button made again would forget it.
  const resignButton = confirmButton('resign', t('play.resign'), t('play.resign_confirm'), () => command({ type: 'resign' }));

  /** @param {string | null} seat */
  function seatLabel(seat) {
    return seat ? state.label(seat, module.seatName) : t('play.chance');
  }

  /** The room's skins (the server's choice, docs/api.md "Skins"), or null for a game without. */
  function roomSkins() {
    const info = entry(state.room.game);
    return state.room.skins ? fitSkins(info, sidesOf(state.room.seats), state.room.skins) : null;
  }

  /**
   * The lobby's looks: every side's (its seats' players choose it; a clash is refused by the
   * server) and the board (the host's).
   */
  function drawSkins() {
    const info = entry(state.room.game);
    const choice = roomSkins();
    if (!choice) return null;
    const mine = state.seat(state.mySeat());
    const mySide = mine ? mine.side ?? mine.name : null;
    return h(
      'fieldset',
      { class: 'field skins', id: 'skins' },
      h('legend', { text: t('skin.legend') }),
      sidesOf(state.room.seats).map((side) =>
        h(
          'div',
          { class: ['seat-row', 'skin-row', side === mySide && 'mine'], dataset: { side } },
          preview(info, module, choice, side),
          h('span', { class: 'skin-side', text: module.seatName(side) }),
          side === mySide
            ? sideControls({ info, choice, side, sideName: module.seatName, onChange: (part, id) => command({ type: 'skin', [part]: id }) })
            : h('span', { class: 'skin-look', text: lookText(info, choice, side) }),
        ),
      ),
      state.isHost()
        ? boardControl(info, choice.board, (id) => command({ type: 'skin', board: id }))
        : h('p', { class: 'skin-board-text', text: t('skin.board_is', { board: t(info.skins.boards.find((/** @type {any} */ b) => b.id === choice.board)?.label ?? '') }) }),
      h('p', { class: 'hint', text: t('skin.room_hint') }),
    );
  }

  // --- the lobby -------------------------------------------------------------------------
  function drawLobby() {
    const room = state.room;
    const mine = state.mySeat();
    const isHost = state.isHost();
    const me_ = state.seat(mine);
    const everyoneReady = state.everyoneReady();
    const open = state.openSeats().length;
    replace(
      lobby,
      // What the room waits for: players, or (everyone seated and ready) the host's start.
      h('h2', { id: 'lobby-title', text: open === 0 && everyoneReady ? t(isHost ? 'room.lobby_start' : 'room.lobby_host') : t('room.lobby') }),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'invite', text: t('room.invite') }),
        h(
          'div',
          { class: 'row' },
          h('input', { id: 'invite', readonly: true, value: link, on: { focus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select() } }),
          h('button', {
            type: 'button',
            id: 'copy-link',
            text: t('room.copy'),
            on: {
              click: async () => {
                try {
                  await navigator.clipboard.writeText(link);
                  toast(t('room.copied'));
                } catch {
                  /** @type {HTMLInputElement} */ (lobby.querySelector('#invite')).select();
                }
              },
            },
          }),
        ),
        h('p', { class: 'hint', text: t('room.code_hint', { code }) }),
      ),
      h(
        'ul',
        { class: 'lobby-seats' },
        room.seats.map((/** @type {any} */ s) =>
          h(
            'li',
            { class: ['lobby-seat', `seat-${s.name}`, s.name === mine && 'mine'], dataset: { seat: s.name, kind: s.kind } },
            h('span', { class: 'seat-swatch', 'aria-hidden': 'true' }),
            h('strong', { text: module.seatName(s.name) }),
            h('span', { class: 'seat-who', text: seatState(s) }),
            s.kind === 'open' && mine === null ? h('button', { type: 'button', class: 'primary', text: t('room.sit'), on: { click: () => void join(s.name) } }) : null,
            s.kind === 'open' && mine !== null && me_ && !me_.ready && s.name !== mine
              ? h('button', { type: 'button', text: t('room.move_here'), on: { click: () => command({ type: 'seat', seat: s.name }) } })
              : null,
            isHost && (s.kind === 'open' || s.kind === 'cpu')
              ? h(
                  'select',
                  {
                    'aria-label': t('room.cpu_for', { seat: module.seatName(s.name) }),
                    dataset: { cpuSeat: s.name },
                    on: {
                      change: (/** @type {Event} */ e) => {
                        const value = /** @type {HTMLSelectElement} */ (e.target).value;
                        command({ type: 'cpu', seat: s.name, level: value || null });
                      },
                    },
                  },
                  h('option', { value: '', selected: s.kind === 'open', text: t('room.open_seat') }),
                  levelsFor(entry(room.game), room.rules).map((l) => h('option', { value: l, selected: s.kind === 'cpu' && s.level === l, text: t('play.cpu', { level: t(`level.${l}`) }) })),
                )
              : null,
          ),
        ),
      ),
      drawSkins(),
      mine === null
        ? h('p', { class: 'hint', text: open > 0 ? t('room.pick_seat') : t('room.watching') })
        : h(
            'div',
            { class: 'actions' },
            isHost
              ? h('button', {
                  type: 'button',
                  class: 'primary big',
                  id: 'start-room',
                  disabled: !everyoneReady || open > 0,
                  text: open > 0 ? t('room.start_waiting', { n: open }) : everyoneReady ? t('room.start') : t('room.start_not_ready'),
                  on: { click: () => command({ type: 'start' }) },
                })
              : h('button', {
                  type: 'button',
                  class: ['big', me_?.ready ? '' : 'primary'],
                  id: 'ready',
                  'aria-pressed': me_?.ready ? 'true' : 'false',
                  text: me_?.ready ? t('room.not_ready') : t('room.ready'),
                  on: { click: () => command({ type: 'ready', ready: !me_?.ready }) },
                }),
            h('button', { type: 'button', id: 'leave-room', text: t('room.leave'), on: { click: () => command({ type: 'leave' }) } }),
          ),
    );
  }

  /** @param {any} s a snapshot seat */
  function seatState(s) {
    const room = state.room;
    if (s.kind === 'open') return t('room.seat_open');
    if (s.kind === 'cpu') return t('play.cpu', { level: t(`level.${s.level}`) });
    const parts = [s.nickname ?? ''];
    if (s.name === room.host) parts.push(t('room.host'));
    if (room.status === 'lobby' && s.name !== room.host) parts.push(s.ready ? t('room.is_ready') : t('room.not_ready_yet'));
    if (!s.connected) parts.push(t('room.away'));
    if (s.cpu_playing) parts.push(t('room.cpu_playing'));
    if (room.status === 'finished' && s.rematch) parts.push(t('room.wants_rematch'));
    return parts.filter(Boolean).join(' · ');
  }

  // --- the game ---------------------------------------------------------------------------
  /** The version whose roll was made automatically. */
  let autoAt = -1;

  /** @param {string} action */
  function play(action) {
    const game = state.room.state;
    if (busy || !game || game.status !== 'ongoing') return;
    busy = true;
    drawBoard(game, []);
    command({ type: 'move', action, version: game.version });
  }

  /**
   * @param {any} v
   * @param {import('../app.js').Move[]} moves
   */
  function drawBoard(v, moves) {
    // Back in the lobby after a game (the next round, or someone left) there is no game to draw.
    if (!board || !v) return;
    module.render(boardBox, {
      view: v,
      geometry: board,
      rules: state.room.rules,
      moves,
      onMove: play,
      seats: state.room.seats.map((/** @type {any} */ s) => s.name),
      last: lastEntry,
      pace: speed,
      skins: resolveSkins(entry(state.room.game), roomSkins()),
    });
  }

  function drawGame() {
    const room = state.room;
    const game = room.state;
    const mine = state.mySeat();
    const myTurn = game && game.status === 'ongoing' && game.to_act === mine && room.status === 'playing';
    drawBoard(game, myTurn && !busy ? game.moves : []);
    // The person's own roll, made at once with the automatic setting (once per version).
    const roll = myTurn && game.to_move === 'chance' ? game.moves.find((/** @type {any} */ m) => m.action === game.awaiting) : null;
    if (roll && !busy && autoRolls() && autoAt !== game.version) {
      autoAt = game.version;
      const at = game.version;
      window.setTimeout(() => {
        if (state.room.state?.version === at) play(roll.action);
      }, Math.min(speed, 300));
    }
    if (room.status === 'playing' && game) {
      const who = game.to_act;
      const s = state.seat(who);
      turn.textContent = who === mine ? t('play.your_turn') : who ? t('room.turn_of', { seat: seatLabel(who) }) + (s && !s.connected && s.kind === 'human' ? ` · ${t('room.away')}` : '') : '';
    } else if (room.status === 'finished') {
      turn.textContent = t('play.over');
    } else {
      turn.textContent = t('room.in_lobby');
    }
    replace(
      seatsBox,
      room.seats.map((/** @type {any} */ s) =>
        h(
          'li',
          { class: ['seat', `seat-${s.name}`, game && s.name === game.to_act && game.status === 'ongoing' && 'to-move', !s.connected && s.kind === 'human' && 'away'], dataset: { seat: s.name } },
          h('span', { class: 'seat-swatch', 'aria-hidden': 'true' }),
          h('span', { class: 'seat-name', text: module.seatName(s.name) }),
          h('span', { class: 'seat-who', text: s.name === mine ? `${t('play.you')} · ${seatState(s)}` : seatState(s) }),
          s.kind === 'human' && !s.connected && mine === room.host && s.name !== mine && !s.cpu_playing && room.status === 'playing'
            ? handToCpuButton(s)
            : null,
        ),
      ),
    );
    const playing = room.status === 'playing' && mine !== null;
    const offer = room.draw_offer;
    replace(
      controls,
      playing ? resignButton : null,
      playing && entry(room.game).endings.includes('draw_offer') && !offer ? h('button', { type: 'button', id: 'draw-offer', text: t('room.offer_draw'), on: { click: () => command({ type: 'draw_offer' }) } }) : null,
      playing && offer && offer === mine ? h('span', { class: 'hint', text: t('room.draw_offered') }) : null,
      room.deadline && room.status === 'playing' ? h('span', { class: 'hint', id: 'deadline', dataset: { deadline: room.deadline } }) : null,
    );
    drawOffer(offer ?? null, playing && offer !== mine);
  }

  /**
   * The host's button that hands an away player's seat to the computer. The server allows it
   * once the seat has been away for the room's grace period (`docs/api.md`, `hand_to_cpu`):
   * until then the button is disabled and counts down (the timer below keeps it current).
   * @param {any} s the seat
   */
  function handToCpuButton(s) {
    const readyAt = s.away_since != null ? s.away_since + (state.room?.grace_seconds ?? 0) * 1000 : 0;
    const button = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: ['small', 'hand-to-cpu'], dataset: { readyAt }, on: { click: () => command({ type: 'hand_to_cpu', seat: s.name }) } }));
    updateHandToCpu(button);
    return button;
  }

  /**
   * Sets a hand-to-computer button's text and whether it may be pressed from its `data-ready-at`.
   * @param {HTMLButtonElement} button
   */
  function updateHandToCpu(button) {
    const left = Math.ceil((Number(button.dataset.readyAt) - Date.now()) / 1000);
    button.disabled = left > 0;
    button.textContent = left > 0 ? t('room.hand_to_cpu_in', { s: left }) : t('room.hand_to_cpu');
  }

  /**
   * Shows another player's draw offer with its answers beside the turn line, or hides it.
   * @param {string | null} offer the seat that offers, if any
   * @param {boolean} answerable whether this page's player may answer it
   */
  function drawOffer(offer, answerable) {
    const shown = Boolean(offer) && answerable;
    if (!shown) {
      offerBanner.hidden = true;
      replace(offerBanner);
      return;
    }
    const wasShown = !offerBanner.hidden;
    replace(
      offerBanner,
      h('span', { text: t('room.draw_offer_from', { seat: seatLabel(/** @type {string} */ (offer)) }) }),
      h('button', { type: 'button', id: 'draw-accept', class: 'primary', text: t('room.accept_draw'), on: { click: () => command({ type: 'draw_accept' }) } }),
      h('button', { type: 'button', id: 'draw-decline', text: t('room.decline_draw'), on: { click: () => command({ type: 'draw_decline' }) } }),
    );
    offerBanner.hidden = false;
    if (!wasShown) reveal(offerBanner);
  }

  /** @type {{id: string, element: HTMLElement, stop: () => void} | null} the finished game's review on the results screen */
  let review = null;
  /** @type {{id: string, element: HTMLElement} | null} the finished game's progression for a seated player (docs/progression.md) */
  let progress = null;

  async function drawResult() {
    const room = state.room;
    if (room.status !== 'finished' || !room.state) {
      // Back in the lobby (the next round, or someone left): nothing of the last results stays,
      // not even hidden (their buttons were a seated player's).
      resultBox.hidden = true;
      replace(resultBox);
      return;
    }
    const game = { ...room.state, id: state.gameId() };
    const mine = state.mySeat();
    const me_ = state.seat(mine);
    if (review?.id !== game.id) {
      // A rematch's game is reviewed anew; a spectator's review names every side.
      review?.stop();
      const viewer = new Set(me_ ? [me_.side ?? me_.name] : []);
      review = { id: game.id, ...resultReview(game.id, { module, game: room.game, viewer }) };
    }
    if (mine !== null && progress?.id !== game.id) progress = { id: game.id, ...resultProgress(game.id) };
    const result = game.result ?? {};
    const side = me_?.side;
    // The result names a seat with its player's nickname ("Light (Mina) wins"), as the log does.
    const said = resultText({ ...module, seatName: seatLabel }, game);
    let headline = said;
    if (side !== undefined && !result.draw) {
      const winner = result.winner ?? result.ranking?.[0];
      if (winner !== undefined) headline = winner === side || winner === mine ? t('result.you_won') : t('result.you_lost');
    }
    replace(
      resultBox,
      h('h2', { text: headline }),
      said === headline ? null : h('p', { class: 'result-line', text: said }),
      module.resultDetails(game, board),
      review.element,
      mine !== null && progress?.id === game.id ? progress.element : null,
      h(
        'div',
        { class: 'actions' },
        mine !== null
          ? h('button', { type: 'button', class: 'primary', id: 'rematch', disabled: Boolean(me_?.rematch), text: me_?.rematch ? t('room.rematch_asked') : t('room.rematch'), on: { click: () => command({ type: 'rematch' }) } })
          : null,
        mine !== null
          ? h('button', { type: 'button', id: 'next-round', text: t('room.next_round'), on: { click: () => command({ type: 'next_round' }) } })
          : null,
        mine !== null ? h('button', { type: 'button', id: 'leave-room', text: t('room.leave'), on: { click: () => command({ type: 'leave' }) } }) : null,
        h('a', { class: 'button', href: `#/replay/${game.id}`, text: t('result.replay') }),
        h('a', { class: 'button', href: '#/', text: t('nav.home') }),
      ),
    );
    const wasShown = !resultBox.hidden;
    resultBox.hidden = false;
    if (!wasShown) reveal(resultBox);
  }

  /** The chat's input for a seated player; for a spectator, why there is none. */
  function drawChat() {
    const watching = state.mySeat() === null;
    chatForm.hidden = watching;
    chatSpectator.hidden = !watching;
    const canSit = state.room.status === 'lobby' && state.openSeats().length > 0;
    chatSpectator.textContent = watching ? t(canSit ? 'room.chat_sit' : 'room.chat_seated') : '';
  }

  function render() {
    const room = state.room;
    drawChat();
    lobby.hidden = room.status !== 'lobby';
    game.hidden = room.status === 'lobby';
    view.dataset.version = String(state.version);
    view.dataset.status = room.status;
    paintSides(view, resolveSkins(entry(room.game), roomSkins()));
    if (room.status === 'lobby') drawLobby();
    drawGame();
    void drawResult();
  }

  /** @param {any} e a room event */
  function logEvent(e) {
    if (e.type === 'chat') {
      chatList.append(h('li', {}, h('strong', { text: `${e.nickname ?? seatLabel(e.seat)}: ` }), e.text));
      chatList.scrollTop = chatList.scrollHeight;
      return;
    }
    /** @type {string | null} */
    let text = null;
    if (e.type === 'action') text = module.describe(e);
    else if (e.type === 'end') text = e.end.reason === 'draw_agreed' ? t('result.draw') : t('result.resigned', { seat: seatLabel(e.end.by) });
    else if (['joined', 'left', 'host', 'started', 'timeout', 'cpu_playing', 'returned', 'draw_offer', 'draw_declined', 'rematch', 'lobby', 'next_round', 'skin', 'closed'].includes(e.type)) {
      text = t(`room.ev.${e.type}`, { seat: seatLabel(e.seat ?? null), nickname: e.nickname ?? '' });
    } else if (e.type === 'presence') {
      text = t(e.connected ? 'room.ev.back' : 'room.ev.away', { seat: seatLabel(e.seat) });
    }
    if (text === null) return;
    log.append(h('li', { class: e.type === 'action' ? e.by : 'room-event', text }));
    while (log.children.length > 400) log.firstElementChild?.remove();
    fitNumbers(log);
    log.scrollTop = log.scrollHeight;
  }

  /**
   * Shows new room events one by one (a game's actions animated through its steps), before the
   * state takes the message's snapshot.
   * @param {any[]} events
   */
  async function showEvents(events) {
    // A page just opened catching up on the room's history: logged, not played out again.
    const history = state.version < 0;
    for (const e of events) {
      logEvent(e);
      if (e.type === 'started') {
        log.replaceChildren();
        board = null;
      }
      if (e.type === 'action') {
        lastEntry = { ...e, version: e.game_version };
        if (!history && speed > 0 && state.room.status === 'playing' && board) {
          const step = await api('GET', `/api/games/${state.gameId()}/steps/${e.index + 1}`);
          drawBoard(step, []);
          turn.textContent = e.seat ? t('room.turn_of', { seat: seatLabel(e.seat) }) : turn.textContent;
          await sleep(e.by === 'chance' ? speed : e.by === 'human' ? speed / 2 : speed * 1.5);
        }
      }
    }
  }

  /** After a snapshot or events: the board of the current game, then everything drawn. */
  async function redraw() {
    busy = false;
    if (!board && state.gameId()) board = await api('GET', `/api/games/${state.gameId()}/board`);
    render();
  }

  const protocol = new RoomProtocol(state, {
    onSnapshot: redraw,
    onEvents: showEvents,
    onApplied: redraw,
    onError: (message) => {
      busy = false;
      toast(errorText(message), 'error');
      render();
    },
    onStatus: (up) => {
      connection.hidden = up;
    },
  });

  /** @param {string | undefined} seat */
  async function join(seat) {
    try {
      const answer = await api('POST', `/api/rooms/${code}/join`, { nickname: me.nickname, seat });
      state.took({ seat: answer.seat, token: answer.token }, answer.room.version);
      protocol.rebind();
    } catch (e) {
      toast(errorText(e), 'error');
      if (e instanceof ApiError && e.code === 'already_seated') state.forget();
    }
  }

  render();
  // Countdowns: the turn timer's, and the wait before an away seat can go to the computer.
  const timer = setInterval(() => {
    view.querySelectorAll('button.hand-to-cpu').forEach((b) => updateHandToCpu(/** @type {HTMLButtonElement} */ (b)));
    const el = /** @type {HTMLElement | null} */ (view.querySelector('#deadline'));
    if (!el) return;
    const left = Math.max(0, Math.round((Number(el.dataset.deadline) - Date.now()) / 1000));
    el.textContent = t('room.time_left', { s: left });
  }, 500);
  return () => {
    clearInterval(timer);
    protocol.close();
    review?.stop();
  };
}
