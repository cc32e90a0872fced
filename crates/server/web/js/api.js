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
 * The live connection of one game (docs/api.md, "WebSocket"). `onMessage` receives every server
 * message (`state`, `events`, `error`, `pong`); the socket reconnects by itself after a drop,
 * resuming from the last version `version()` reports.
 */
export class GameSocket {
  /**
   * @param {string} gameId
   * @param {(message: any) => void} onMessage
   * @param {() => number | null} version the last version the page has applied
   * @param {(up: boolean) => void} [onStatus]
   */
  constructor(gameId, onMessage, version, onStatus) {
    this.gameId = gameId;
    this.onMessage = onMessage;
    this.version = version;
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
    const ws = new WebSocket(`${scheme}//${location.host}/api/games/${this.gameId}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: 'hello', version: this.version() }));
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
      this.onStatus(false);
      if (this.closed) return;
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => !this.closed && this.connect(), 250 * 2 ** this.retry);
    };
  }

  /** @param {any} message */
  send(message) {
    const text = JSON.stringify(message);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.outbox.push(text);
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }
}
