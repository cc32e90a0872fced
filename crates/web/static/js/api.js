// The `madang serve` API (docs/api.md): JSON over HTTP, and the live WebSocket of a game.

/**
 * An error answer of the API: `code` is stable, `message` is for people, `detail` (some codes)
 * what the refusal is about as data (docs/api.md, "Errors").
 */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {any} [body]
   */
  constructor(status, code, message, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
    /** @type {any} */
    this.detail = body?.detail ?? null;
  }
}

/**
 * Calls the API and returns the parsed JSON answer.
 * @param {string} method
 * @param {string} path starting with `/api/`
 * @param {any} [body]
 * @returns {Promise<any>}
 * @throws {ApiError} for any error answer, or `network` when the server is unreachable
 */
export async function api(method, path, body) {
  /** @type {RequestInit} */
  const init = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'Content-Type': 'application/json' };
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'network', String(e));
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiError(response.status, 'bad_response', `${method} ${path}: not JSON`);
  }
  if (!response.ok) {
    const error = json?.error ?? {};
    throw new ApiError(response.status, error.code ?? 'http', error.message ?? response.statusText, error);
  }
  return json;
}

/**
 * A WebSocket of the API that reconnects by itself after a drop (after 0.5, 1, 2 … 16 s) and
 * opens every connection with the message `hello()` gives at that moment (so a resumed
 * connection asks for what it missed). `onMessage` receives every server message, parsed;
 * `onStatus(true | false)` says when the socket is up or down.
 */
export class Socket {
  /**
   * @param {string} path starting with `/api/`
   * @param {() => any} hello the first message of each connection
   * @param {(message: any) => void} onMessage
   * @param {(up: boolean) => void} [onStatus]
   */
  constructor(path, hello, onMessage, onStatus) {
    this.path = path;
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus ?? (() => {});
    /** @type {WebSocket | null} */
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    /** @type {string[]} */
    this.outbox = [];
    this.connect();
  }

  connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${scheme}//${location.host}${this.path}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      ws.send(JSON.stringify(this.hello()));
      this.onStatus(true);
      for (const text of this.outbox.splice(0)) ws.send(text);
    };
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      this.onMessage(message);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.onStatus(false);
      if (this.closed) return;
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => !this.closed && this.connect(), 250 * 2 ** this.retry);
    };
  }

  /** Whether the socket is open now. */
  get up() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * Sends `message` now, or when the socket is up again.
   * @param {any} message
   */
  send(message) {
    const text = JSON.stringify(message);
    if (this.up) this.ws?.send(text);
    else this.outbox.push(text);
  }

  /**
   * Sends `message` only if the socket is up now; false otherwise (the caller tells the player).
   * @param {any} message
   */
  sendNow(message) {
    if (!this.up) return false;
    this.ws?.send(JSON.stringify(message));
    return true;
  }

  /**
   * Drops the connection and opens a new one (to catch up after a gap). A connection still
   * opening already starts afresh with `hello`, so it is left to open.
   */
  reconnect() {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.close();
  }

  /** Closes for good: no reconnection, no more messages or status. */
  close() {
    this.closed = true;
    const ws = this.ws;
    this.ws = null;
    if (!ws) return;
    ws.onmessage = null;
    if (ws.readyState === WebSocket.CONNECTING) {
      // Closing a socket before it opens makes the browser log a warning ("closed before the
      // connection is established", seen when a player leaves a room at once); close it
      // as soon as it opens instead, without saying hello.
      ws.onopen = () => ws.close();
    } else {
      ws.close();
    }
  }
}

/**
 * The live connection of one game (docs/api.md, "WebSocket"): a [`Socket`] whose `hello` resumes
 * from the last version `version()` reports. `onMessage` receives every server message
 * (`state`, `events`, `error`, `pong`).
 */
export class GameSocket extends Socket {
  /**
   * @param {string} gameId
   * @param {(message: any) => void} onMessage
   * @param {() => number | null} version the last version the page has applied
   * @param {(up: boolean) => void} [onStatus]
   */
  constructor(gameId, onMessage, version, onStatus) {
    super(`/api/games/${gameId}/ws`, () => ({ type: 'hello', version: version() }), onMessage, onStatus);
  }
}
