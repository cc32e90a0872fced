// The room's WebSocket protocol (docs/api.md, "Room WebSocket"): `hello` with the seat's token
// and the version applied on every (re)connection, `ack` after each `events`, a reconnect on a
// gap, and commands carrying the seat's token. The socket itself, with its reconnects, is the
// API's `Socket`; the room's state is a `RoomState`.

import { Socket } from '../api.js';

/**
 * @typedef {object} RoomHandlers
 * @property {() => Promise<void> | void} onSnapshot the state took a snapshot: draw it
 * @property {(events: any[], message: any) => Promise<void> | void} onEvents new events to show,
 *   before the state applies `message` (its snapshot)
 * @property {() => Promise<void> | void} onApplied the state applied an `events` message
 * @property {(message: any) => void} onError an `error` answer
 * @property {(up: boolean) => void} onStatus the socket is up or down
 */

export class RoomProtocol {
  /**
   * @param {import('./state.js').RoomState} state
   * @param {RoomHandlers} handlers
   */
  constructor(state, handlers) {
    this.state = state;
    this.handlers = handlers;
    /** The tokens of `hello`s not yet welcomed, oldest first (each gets one welcome).
     * @type {(string | undefined)[]} */
    this.hellos = [];
    /** Messages are handled one after the other (drawing may wait for animations). */
    this.queue = Promise.resolve();
    this.socket = new Socket(
      `/api/rooms/${state.code}/ws`,
      () => {
        // A new connection: only its own hello will be welcomed.
        this.hellos = [];
        return this.hello();
      },
      (message) => {
        this.queue = this.queue.then(() => this.handle(message)).catch((e) => handlers.onError(e));
      },
      (up) => handlers.onStatus(up),
    );
  }

  /** The `hello` for the seat held now, resuming from the version applied. */
  hello() {
    const token = this.state.held?.token;
    this.hellos.push(token);
    // `changes`: after the catch-up, each `events` message carries what changed in the
    // snapshot instead of all of it (a move changes about a third of it).
    // `history`: a page with nothing applied yet gets the events the room keeps (the moves and
    // chat so far) with its catch-up, not a bare snapshot.
    return { type: 'hello', token, version: this.state.version >= 0 ? this.state.version : undefined, changes: true, history: true };
  }

  /** Says hello again on the open socket (after taking a seat). */
  rebind() {
    if (this.socket.up) this.socket.sendNow(this.hello());
  }

  /**
   * Sends a command for the held seat (its token added). Never queued: false when there is no
   * seat or the socket is reconnecting (the page tells the player to try again).
   * @param {Record<string, any>} message
   */
  command(message) {
    if (!this.state.held) return false;
    return this.socket.sendNow({ ...message, token: this.state.held.token });
  }

  /** @param {any} message */
  async handle(message) {
    const state = this.state;
    switch (message.type) {
      case 'welcome': {
        const token = this.hellos.shift();
        // The token is no longer a seat here (the seat was left): watch instead; or it holds
        // this seat now. (A welcome to a hello sent before this page took a seat says nothing
        // about the seat.)
        if (state.held && token === state.held.token) state.welcomed(message.seat, message.version);
        return;
      }
      case 'snapshot':
        state.snapshot(message.room);
        await this.handlers.onSnapshot();
        return;
      case 'events': {
        const events = state.fresh(message);
        if (events === null) {
          this.socket.reconnect();
          return;
        }
        if (events.length === 0 && message.to <= state.version) return;
        if (message.room === undefined) message.room = state.changed(message.changes);
        await this.handlers.onEvents(events, message);
        state.apply(message);
        await this.handlers.onApplied();
        this.socket.sendNow({ type: 'ack', version: state.version });
        if (state.closed) this.socket.close();
        return;
      }
      case 'error':
        this.handlers.onError(message);
        return;
      default:
    }
  }

  close() {
    this.socket.close();
  }
}
