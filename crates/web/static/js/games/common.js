// Pieces shared by the game modules: the engines' typed events in the page's language, dice
// faces, the throw button, and the legal-move buttons every board uses.

import { h } from '../dom.js';
import { has, num, t } from '../i18n.js';

/**
 * An engine event as the server sends it (docs/api.md, "Events"): its `kind`, its fields as data
 * (seats by name, pieces by id, squares and values as numbers), and `text`, the English line for
 * logs (never read here).
 * @typedef {{kind: string, text: string, [field: string]: any}} GameEvent
 */

/** Fields that name seats or sides: shown with the game's `seatName`. */
const SEAT_FIELDS = new Set(['seat', 'captured', 'owner', 'side', 'winner']);

/**
 * The message of one event: `<game>.ev.<kind>` from the catalogue, its placeholders filled from
 * the event's fields — seats named by `seatName`, lists of seats (`sides`) joined, other fields
 * through `format` (field name → how to show its value) or as they are. A kind the catalogue
 * lacks is reported on the console (the browser tests fail on it) and shown as the engine's line.
 * @param {GameEvent} event
 * @param {string} game the catalogue prefix (`ur`, `dice-poker`)
 * @param {(seat: string) => string} seatName
 * @param {Record<string, (value: any) => string>} [format]
 * @returns {string}
 */
export function eventText(event, game, seatName, format = {}) {
  const key = `${game}.ev.${event.kind}`;
  if (!has(key)) {
    console.warn(`no message for event ${key}`);
    return event.text;
  }
  /** @type {Record<string, string>} */
  const params = {};
  for (const [name, value] of Object.entries(event)) {
    if (name === 'kind' || name === 'text') continue;
    if (format[name]) params[name] = format[name](value);
    else if (SEAT_FIELDS.has(name)) params[name] = seatName(String(value));
    else if (name === 'sides' && Array.isArray(value)) params[name] = value.map((s) => seatName(String(s))).join(', ');
    else params[name] = Array.isArray(value) ? value.join(', ') : typeof value === 'number' ? num(value) : String(value);
  }
  return t(key, params);
}

/**
 * The log line of an action entry: each of its events' messages (`eventText`), joined; the
 * action's notation when it caused none.
 * @param {{events: GameEvent[], action: string}} entry
 * @param {string} game
 * @param {(seat: string) => string} seatName
 * @param {Record<string, (value: any) => string>} [format]
 * @returns {string}
 */
export function describeEvents(entry, game, seatName, format = {}) {
  const lines = entry.events.map((e) => eventText(e, game, seatName, format));
  return lines.length ? lines.join(' · ') : entry.action;
}

/**
 * The events of `kind` among `events` (a state's or an entry's).
 * @param {GameEvent[] | undefined} events
 * @param {string} kind
 * @returns {GameEvent[]}
 */
export function eventsOf(events, kind) {
  return (events ?? []).filter((e) => e.kind === kind);
}

/** Pip positions (3 × 3 grid cells, 0-8 in reading order) of die faces 1-6. */
const PIPS = [[], [4], [2, 6], [2, 4, 6], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]];

/**
 * A six-sided die showing `value` (1-6) in `colour` (`white`, `black`, or a seat class).
 * @param {number} value
 * @param {string} colour
 * @param {{rolling?: boolean, label?: string}} [options]
 */
export function die(value, colour, options = {}) {
  const pips = new Set(PIPS[value] ?? []);
  return h(
    'span',
    {
      class: ['die', `die-${colour}`, options.rolling && 'rolling'],
      role: 'img',
      'aria-label': options.label ?? t('die.label', { n: value }),
    },
    Array.from({ length: 9 }, (_, i) => h('span', { class: pips.has(i) ? 'pip' : 'no-pip' })),
  );
}

/**
 * Marks an element as a legal move: a focusable button that plays `action` on click or Enter.
 * @param {HTMLElement} el a `button` element
 * @param {string} action
 * @param {(action: string) => void} onMove
 * @param {string} label the accessible name of the move
 */
export function legal(el, action, onMove, label) {
  el.classList.add('legal');
  el.dataset.action = action;
  el.setAttribute('aria-label', label);
  el.addEventListener('click', (e) => {
    e.stopPropagation();
    onMove(action);
  });
  return el;
}

/**
 * The person's own roll or throw, when the state waits for it: the one move whose action is the
 * awaited word (`roll`, `throw`) at a chance node (docs/api.md, "State"), or null.
 * @param {import('../app.js').BoardProps} props
 * @returns {import('../app.js').Move | null}
 */
export function chanceMove(props) {
  if (props.view.to_move !== 'chance') return null;
  return props.moves.find((m) => m.action === props.view.awaiting) ?? null;
}

/**
 * The throw button (seeds 000, 001, 003: every player throws for themselves): a legal move
 * that asks the server for the person's own roll or throw, showing `content` (a blank die, the
 * sticks) and `label`; null when no roll of the person's is due.
 * @param {import('../app.js').BoardProps} props
 * @param {string} label
 * @param {import('../dom.js').Children} [content]
 */
export function rollButton(props, label, content = null) {
  const move = chanceMove(props);
  if (!move) return null;
  const el = h('button', { type: 'button', class: 'roll-button' }, content, h('span', { class: 'roll-button-text', text: label }));
  return legal(el, move.action, props.onMove, label);
}

/**
 * Whether the board should play the "just happened" animation for `last` (a fresh entry and
 * animations on).
 * @param {import('../app.js').BoardProps} props
 * @param {'chance' | 'move'} kind
 */
export function animating(props, kind) {
  if (!props.last || props.pace <= 0) return false;
  const fresh = kind === 'chance' ? props.last.by === 'chance' : props.last.by !== 'chance';
  if (!fresh) return false;
  // Once per entry: the board is drawn again for the same entry (the final state after the
  // paced steps), and the dice must not tumble twice.
  const key = `${kind}:${props.last.version}`;
  if (animated.has(key)) return false;
  animated.add(key);
  if (animated.size > 64) animated.delete(animated.values().next().value ?? '');
  return true;
}

/** The entries already animated, by kind and version. */
const animated = new Set();

/**
 * A section of a rules page: a heading and its points as a list (numbered when `ordered`).
 * @param {string} title
 * @param {string[]} items
 * @param {boolean} [ordered]
 */
export function rulesSection(title, items, ordered = false) {
  return [h('h2', { text: title }), h(ordered ? 'ol' : 'ul', {}, items.map((s) => h('li', { text: s })))];
}
