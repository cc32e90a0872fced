// A room as this page knows it (docs/api.md, "Rooms"): the last snapshot, the version applied,
// and the seat this browser holds. No DOM and no socket: the protocol (`room/protocol.js`)
// feeds it the server's messages and the page (`pages/room.js`) draws it.

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

export class RoomState {
  /**
   * @param {string} code
   * @param {any} room the room's snapshot (`GET /api/rooms/{code}`)
   */
  constructor(code, room) {
    this.code = code;
    /** @type {any} */
    this.room = room;
    /** The last version applied; -1 before the first snapshot or events over the socket. */
    this.version = -1;
    /** @type {{seat: string, token: string} | null} */
    this.held = heldSeat(code);
    /**
     * The room's version at which the server last said the held seat was this browser's (the
     * join's answer, or a `welcome` to the seat's token); `null` until then (a seat kept from an
     * earlier visit). Only an event after it can move or free the held seat: the room's history
     * may hold an earlier `left` of the same seat, by whoever sat there before.
     * @type {number | null}
     */
    this.heldSince = null;
    /** Set once the room has closed for good. */
    this.closed = false;
  }

  /** This browser's seat, or null for a spectator. */
  mySeat() {
    return this.held?.seat ?? null;
  }

  /**
   * The snapshot's seat named `name`.
   * @param {string | null} name
   * @returns {any}
   */
  seat(name) {
    return this.room.seats.find((/** @type {any} */ s) => s.name === name);
  }

  /**
   * How the page names seat or side `name`: `seatName`'s word with the player's nickname
   * ("Dark (Mina)"); a side of several seats (a team in Yut Nori) with its players' nicknames
   * in seat order ("Side A (Mina, Joon)"); the word alone when nobody named sits there.
   * @param {string} name
   * @param {(name: string) => string} seatName
   */
  label(name, seatName) {
    const word = seatName(name);
    const seat = this.seat(name);
    const nicknames = seat
      ? [seat.nickname]
      : this.room.seats.filter((/** @type {any} */ s) => s.side === name).map((/** @type {any} */ s) => s.nickname);
    const named = nicknames.filter(Boolean);
    return named.length ? `${word} (${named.join(', ')})` : word;
  }

  /** Whether this browser holds the host's seat. */
  isHost() {
    const mine = this.mySeat();
    return mine !== null && this.room.host === mine;
  }

  /** The open seats. */
  openSeats() {
    return this.room.seats.filter((/** @type {any} */ s) => s.kind === 'open');
  }

  /** Whether every person but the host is ready. */
  everyoneReady() {
    return this.room.seats.every((/** @type {any} */ s) => s.kind !== 'human' || s.name === this.room.host || s.ready);
  }

  /** The id of the room's current (last) game, or null before the first. */
  gameId() {
    return this.room.games.length > 0 ? this.room.games[this.room.games.length - 1] : null;
  }

  /**
   * A seat taken by joining, at the room's version `since` (the join's answer's snapshot).
   * @param {{seat: string, token: string}} held
   * @param {number} since
   */
  took(held, since) {
    this.held = held;
    this.heldSince = since;
    holdSeat(this.code, held);
  }

  /**
   * The server's `welcome` to the held seat's token: the token holds `seat` (it may have moved
   * since this browser last knew), or none any more (`null`: left, from here or elsewhere).
   * @param {string | null} seat
   * @param {number} version the room's version the welcome speaks of
   */
  welcomed(seat, version) {
    if (!this.held) return;
    if (seat === null) {
      this.forget();
      return;
    }
    if (seat !== this.held.seat) holdSeat(this.code, (this.held = { ...this.held, seat }));
    this.heldSince = version;
  }

  /** The held seat is gone (left, or no longer this token's): this browser only watches. */
  forget() {
    this.held = null;
    this.heldSince = null;
    holdSeat(this.code, null);
  }

  /**
   * Keeps the held seat in step with a room event after it was known to be this browser's: a
   * move to another seat (`seat`) or leaving it (`left`, the room's answer to this page's
   * `leave`, or to another tab's with the same token) — then the page is a spectator's at once,
   * with the token forgotten, as the server made the connection a spectator's.
   * @param {any} e
   */
  follow(e) {
    if (!this.held || this.heldSince === null || !(e.version > this.heldSince)) return;
    if (e.type === 'seat' && e.from === this.held.seat) holdSeat(this.code, (this.held = { ...this.held, seat: e.to }));
    else if (e.type === 'left' && e.seat === this.held.seat) this.forget();
  }

  /**
   * A `snapshot` message.
   * @param {any} room
   */
  snapshot(room) {
    this.room = room;
    this.version = room.version;
  }

  /**
   * Which events of an `events` message are new: `null` when the message leaves a gap after the
   * version applied, or carries changes from another version than the one held (reconnect and
   * catch up); an overlap is normal (the catch-up answering a `hello` may repeat events
   * broadcast while the hello was on its way) and is dropped.
   * @param {{from: number, to: number, events: any[], room?: any}} message
   * @returns {any[] | null}
   */
  fresh(message) {
    if (this.version >= 0 && message.from > this.version) return null;
    if (this.version >= 0 && message.to <= this.version) return [];
    // Changes apply only to the snapshot they were worked out from.
    if (message.room === undefined && message.from !== this.version) return null;
    return message.events.filter((e) => this.version < 0 || e.version > this.version);
  }

  /**
   * The snapshot after an `events` message that carries `changes` (docs/api.md, "Versions"):
   * the one held, with each field of `set` put in place (a path `state.moves` is the `moves`
   * of `state`) and each path of `removed` taken out. The held snapshot is not changed.
   * @param {{set: Record<string, any>, removed: string[]}} changes
   * @returns {any}
   */
  changed(changes) {
    const room = { ...this.room };
    if (room.state !== null && typeof room.state === 'object') room.state = { ...room.state };
    for (const [path, value] of Object.entries(changes.set)) {
      const [outer, inner] = path.split('.');
      if (inner === undefined) room[outer] = value;
      else room[outer][inner] = value;
    }
    for (const path of changes.removed) {
      const [outer, inner] = path.split('.');
      if (inner === undefined) delete room[outer];
      else delete room[outer][inner];
    }
    return room;
  }

  /**
   * Applies an `events` message once its new events are shown: the room becomes its snapshot.
   * @param {{to: number, room: any, events: any[]}} message
   */
  apply(message) {
    for (const e of message.events) if (this.version < 0 || e.version > this.version) this.follow(e);
    if (message.events.some((e) => e.type === 'closed')) this.closed = true;
    this.room = message.room;
    this.version = message.to;
  }
}
