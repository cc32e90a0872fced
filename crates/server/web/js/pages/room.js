// One online room (docs/api.md, "Rooms"): joining, the lobby (seats, teams, ready, the host's
// computer seats and start), live play over the room's WebSocket with presence, draw offers,
// resign, rematch, chat, and spectators.

import { GAMES, autoRolls, entry, levelsFor, me, pace } from '../app.js';
import { ApiError, api } from '../api.js';
import { h, replace, sleep, toast } from '../dom.js';
import { errorText, t } from '../i18n.js';
import { confirmButton, resultText } from './play.js';

/** @typedef {import('../app.js').ActionEntry} ActionEntry */

/**
 * The seat and token this browser holds in room `code` (kept so a reload or a later visit
 * takes the seat back).
 * @param {string} code
 * @returns {{seat: string, token: string} | null}
 */
export function heldSeat(code) {
  try {
    const held = JSON.parse(localStorage.getItem(`madang.room.${code}`) ?? 'null');
    return held && typeof held.token === 'string' ? held : null;
  } catch {
    return null;
  }
}

/**
 * @param {string} code
 * @param {{seat: string, token: string} | null} held
 */
export function holdSeat(code, held) {
  if (held) localStorage.setItem(`madang.room.${code}`, JSON.stringify(held));
  else localStorage.removeItem(`madang.room.${code}`);
}

/**
 * @param {HTMLElement} view
 * @param {string} rawCode
 */
export async function roomPage(view, rawCode) {
  const code = rawCode.toUpperCase();
  /** @type {any} */
  let room = (await api('GET', `/api/rooms/${code}`)).room;
  const link = `${location.origin}${location.pathname}#/room/${code}`;
  const module = GAMES[room.game];
  const geometry = room.state ? await api('GET', `/api/games/${room.games[room.games.length - 1]}/board`) : null;
  /** @type {any} */
  let board = geometry;
  const speed = pace();
  let held = heldSeat(code);
  let version = -1;
  let busy = false;
  /** @type {ActionEntry | null} */
  let lastEntry = null;
  /** @type {WebSocket | null} */
  let ws = null;
  let closed = false;
  let retry = 0;
  /** The tokens of this socket's `hello`s not yet welcomed, oldest first (each gets one welcome).
   * @type {(string | undefined)[]} */
  let hellos = [];
  /** @type {Promise<void>} */
  let queue = Promise.resolve();
  view.className = `room play game-${room.game}`;

  const title = h('h1', {}, t(`game.${room.game}.name`), ' ', h('code', { class: 'room-code', text: code }));
  const turn = h('p', { class: 'turn', id: 'turn', 'aria-live': 'polite' });
  const connection = h('p', { class: 'connection', hidden: true, role: 'status', text: t('play.reconnecting') });
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
  const game = h('div', { class: 'play-body', id: 'room-game' }, boardBox, h('aside', { class: 'side' }, seatsBox, h('h2', { class: 'log-title', text: t('play.log') }), log, controls));
  view.append(
    h('div', { class: 'play-head' }, title, turn, connection),
    resultBox,
    lobby,
    game,
    h('section', { class: 'panel room-chat' }, h('h2', { class: 'log-title', text: t('room.chat') }), chatList, chatForm),
  );

  /** @param {Record<string, any>} message a command; the seat's token is added */
  function command(message) {
    if (!held) return;
    // Never dropped silently: while the socket reconnects the player is told to try again.
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      toast(t('play.reconnecting'), 'error');
      return;
    }
    send({ ...message, token: held.token });
  }

  /** @param {any} message */
  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  /** @param {string | null} seat */
  function seatLabel(seat) {
    if (!seat) return t('play.chance');
    const s = room.seats.find((/** @type {any} */ x) => x.name === seat);
    const name = module.seatName(seat);
    return s?.nickname ? `${name} (${s.nickname})` : name;
  }

  function mySeat() {
    return held?.seat ?? null;
  }

  // --- the lobby -------------------------------------------------------------------------
  function drawLobby() {
    const mine = mySeat();
    const isHost = mine !== null && room.host === mine;
    const me_ = room.seats.find((/** @type {any} */ s) => s.name === mine);
    const everyoneReady = room.seats.every((/** @type {any} */ s) => s.kind !== 'human' || s.name === room.host || s.ready);
    const open = room.seats.filter((/** @type {any} */ s) => s.kind === 'open').length;
    replace(
      lobby,
      h('h2', { text: t('room.lobby') }),
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
    if (busy || !room.state || room.state.status !== 'ongoing') return;
    busy = true;
    drawBoard(room.state, []);
    command({ type: 'move', action, version: room.state.version });
  }

  /**
   * @param {any} v
   * @param {import('../app.js').Move[]} moves
   */
  function drawBoard(v, moves) {
    if (!board) return;
    module.render(boardBox, {
      view: v,
      geometry: board,
      rules: room.rules,
      moves,
      onMove: play,
      seats: room.seats.map((/** @type {any} */ s) => s.name),
      last: lastEntry,
      pace: speed,
    });
  }

  function drawGame() {
    const state = room.state;
    const mine = mySeat();
    const myTurn = state && state.status === 'ongoing' && state.to_act === mine && room.status === 'playing';
    drawBoard(state, myTurn && !busy ? state.moves : []);
    // The person's own roll, made at once with the automatic setting (once per version).
    const roll = myTurn && state.to_move === 'chance' ? state.moves.find((/** @type {any} */ m) => m.action === state.awaiting) : null;
    if (roll && !busy && autoRolls() && autoAt !== state.version) {
      autoAt = state.version;
      const at = state.version;
      window.setTimeout(() => {
        if (room.state?.version === at) play(roll.action);
      }, Math.min(speed, 300));
    }
    if (room.status === 'playing' && state) {
      const who = state.to_act;
      const s = room.seats.find((/** @type {any} */ x) => x.name === who);
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
          { class: ['seat', `seat-${s.name}`, state && s.name === state.to_act && state.status === 'ongoing' && 'to-move', !s.connected && s.kind === 'human' && 'away'], dataset: { seat: s.name } },
          h('span', { class: 'seat-swatch', 'aria-hidden': 'true' }),
          h('span', { class: 'seat-name', text: module.seatName(s.name) }),
          h('span', { class: 'seat-who', text: s.name === mine ? `${t('play.you')} · ${seatState(s)}` : seatState(s) }),
          s.kind === 'human' && !s.connected && mine === room.host && s.name !== mine && !s.cpu_playing && room.status === 'playing'
            ? h('button', { type: 'button', class: 'small', text: t('room.hand_to_cpu'), on: { click: () => command({ type: 'hand_to_cpu', seat: s.name }) } })
            : null,
        ),
      ),
    );
    const playing = room.status === 'playing' && mine !== null;
    const offer = room.draw_offer;
    replace(
      controls,
      playing ? confirmButton('resign', t('play.resign'), t('play.resign_confirm'), () => command({ type: 'resign' })) : null,
      playing && entry(room.game).endings.includes('draw_offer') && !offer ? h('button', { type: 'button', id: 'draw-offer', text: t('room.offer_draw'), on: { click: () => command({ type: 'draw_offer' }) } }) : null,
      playing && offer && offer === mine ? h('span', { class: 'hint', text: t('room.draw_offered') }) : null,
      playing && offer && offer !== mine
        ? [
            h('span', { class: 'hint', text: t('room.draw_offer_from', { seat: seatLabel(offer) }) }),
            h('button', { type: 'button', id: 'draw-accept', class: 'primary', text: t('room.accept_draw'), on: { click: () => command({ type: 'draw_accept' }) } }),
            h('button', { type: 'button', id: 'draw-decline', text: t('room.decline_draw'), on: { click: () => command({ type: 'draw_decline' }) } }),
          ]
        : null,
      room.deadline && room.status === 'playing' ? h('span', { class: 'hint', id: 'deadline', dataset: { deadline: room.deadline } }) : null,
    );
  }

  async function drawResult() {
    if (room.status !== 'finished' || !room.state) {
      resultBox.hidden = true;
      return;
    }
    const state = { ...room.state, id: room.games[room.games.length - 1] };
    const mine = mySeat();
    const me_ = room.seats.find((/** @type {any} */ s) => s.name === mine);
    const result = state.result ?? {};
    const side = me_?.side;
    let headline = resultText(module, state);
    if (side !== undefined && !result.draw) {
      const winner = result.winner ?? result.ranking?.[0];
      if (winner !== undefined) headline = winner === side || winner === mine ? t('result.you_won') : t('result.you_lost');
    }
    replace(
      resultBox,
      h('h2', { text: headline }),
      resultText(module, state) === headline ? null : h('p', { class: 'result-line', text: resultText(module, state) }),
      module.resultDetails(state, board),
      h(
        'div',
        { class: 'actions' },
        mine !== null
          ? h('button', { type: 'button', class: 'primary', id: 'rematch', disabled: Boolean(me_?.rematch), text: me_?.rematch ? t('room.rematch_asked') : t('room.rematch'), on: { click: () => command({ type: 'rematch' }) } })
          : null,
        mine !== null ? h('button', { type: 'button', id: 'leave-room', text: t('room.leave'), on: { click: () => command({ type: 'leave' }) } }) : null,
        h('a', { class: 'button', href: `#/replay/${state.id}`, text: t('result.replay') }),
        h('a', { class: 'button', href: '#/', text: t('nav.home') }),
      ),
    );
    resultBox.hidden = false;
  }

  function render() {
    lobby.hidden = room.status !== 'lobby';
    game.hidden = room.status === 'lobby';
    view.dataset.version = String(version);
    view.dataset.status = room.status;
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
    else if (['joined', 'left', 'host', 'started', 'timeout', 'cpu_playing', 'returned', 'draw_offer', 'draw_declined', 'rematch', 'lobby', 'closed'].includes(e.type)) {
      text = t(`room.ev.${e.type}`, { seat: seatLabel(e.seat ?? null), nickname: e.nickname ?? '' });
    } else if (e.type === 'presence') {
      text = t(e.connected ? 'room.ev.back' : 'room.ev.away', { seat: seatLabel(e.seat) });
    }
    if (text === null) return;
    log.append(h('li', { class: e.type === 'action' ? e.by : 'room-event', text }));
    while (log.children.length > 400) log.firstElementChild?.remove();
    log.scrollTop = log.scrollHeight;
  }

  /** @param {any} message */
  async function handle(message) {
    if (message.type === 'welcome') {
      const token = hellos.shift();
      if (message.seat === null && held && token === held.token) {
        // The token is no longer a seat here (the seat was left): watch instead. (A welcome
        // to a hello sent before this page took a seat says nothing about the seat.)
        holdSeat(code, null);
        held = null;
      }
      return;
    }
    if (message.type === 'snapshot') {
      room = message.room;
      version = room.version;
      busy = false;
      await ensureBoard();
      render();
      return;
    }
    if (message.type === 'events') {
      // A gap: reconnect and catch up. An overlap is normal: the catch-up answering a
      // `hello` may repeat events broadcast while the hello was on its way.
      if (version >= 0 && message.from > version) {
        ws?.close();
        return;
      }
      if (version >= 0 && message.to <= version) return;
      for (const e of message.events) {
        if (version >= 0 && e.version <= version) continue;
        logEvent(e);
        if (e.type === 'started') {
          log.replaceChildren();
          board = null;
        }
        if (e.type === 'action') {
          lastEntry = { ...e, version: e.game_version };
          if (speed > 0 && room.status === 'playing' && board) {
            const gameId = room.games[room.games.length - 1];
            const step = await api('GET', `/api/games/${gameId}/steps/${e.index + 1}`);
            drawBoard(step, []);
            turn.textContent = e.seat ? t('room.turn_of', { seat: seatLabel(e.seat) }) : turn.textContent;
            await sleep(e.by === 'chance' ? speed : e.by === 'human' ? speed / 2 : speed * 1.5);
          }
        }
        if (e.type === 'closed') closed = true;
      }
      room = message.room;
      version = message.to;
      busy = false;
      await ensureBoard();
      render();
      send({ type: 'ack', version });
      return;
    }
    if (message.type === 'error') {
      busy = false;
      toast(errorText(message), 'error');
      render();
    }
  }

  async function ensureBoard() {
    if (!board && room.games.length > 0) board = await api('GET', `/api/games/${room.games[room.games.length - 1]}/board`);
  }

  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${location.host}/api/rooms/${code}/ws`);
    ws = socket;
    socket.onopen = () => {
      retry = 0;
      connection.hidden = true;
      hellos = [held?.token];
      socket.send(JSON.stringify({ type: 'hello', token: held?.token, version: version >= 0 ? version : undefined }));
    };
    socket.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      queue = queue.then(() => handle(message)).catch((e) => toast(errorText(e), 'error'));
    };
    socket.onclose = () => {
      if (closed) return;
      connection.hidden = false;
      retry = Math.min(retry + 1, 6);
      setTimeout(() => !closed && connect(), 250 * 2 ** retry);
    };
  }

  /** @param {string | undefined} seat */
  async function join(seat) {
    try {
      const answer = await api('POST', `/api/rooms/${code}/join`, { nickname: me.nickname, seat });
      held = { seat: answer.seat, token: answer.token };
      holdSeat(code, held);
      if (ws && ws.readyState === WebSocket.OPEN) {
        hellos.push(held.token);
        ws.send(JSON.stringify({ type: 'hello', token: held.token, version: version >= 0 ? version : undefined }));
      }
    } catch (e) {
      toast(errorText(e), 'error');
      if (e instanceof ApiError && e.code === 'already_seated') holdSeat(code, null);
    }
  }

  render();
  connect();
  // A countdown for the turn timer.
  const timer = setInterval(() => {
    const el = /** @type {HTMLElement | null} */ (view.querySelector('#deadline'));
    if (!el) return;
    const left = Math.max(0, Math.round((Number(el.dataset.deadline) - Date.now()) / 1000));
    el.textContent = t('room.time_left', { s: left });
  }, 500);
  return () => {
    closed = true;
    clearInterval(timer);
    ws?.close();
  };
}
