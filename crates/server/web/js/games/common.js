// Pieces shared by the game modules: translating the engines' event lines into the page's
// language, dice faces, and the legal-move buttons every board uses.

import { h } from '../dom.js';
import { t } from '../i18n.js';

/**
 * One engine event pattern: the regular expression of the engine's English line (see the rules
 * crate's `Display` for its events), the message key, and the names of the captured groups in
 * order. Groups named `seat`, `other` or `by` are seat names and are shown with `seatName`.
 * @typedef {[RegExp, string, string[]]} EventPattern
 */

const SEAT_GROUPS = new Set(['seat', 'other', 'by', 'winner']);

/**
 * The log line of an action entry: each engine event translated with the first pattern that
 * matches. An event no pattern matches is shown as the engine wrote it (and reported on the
 * console, so the browser tests catch a missing translation).
 * @param {{events: string[], action: string}} entry
 * @param {EventPattern[]} patterns
 * @param {(seat: string) => string} seatName
 * @param {Record<string, (value: string) => string>} [format] group name → how to show it
 * @returns {string}
 */
export function translateEvents(entry, patterns, seatName, format = {}) {
  const lines = entry.events.map((line) => {
    for (const [re, key, names] of patterns) {
      const m = re.exec(line);
      if (!m) continue;
      /** @type {Record<string, string>} */
      const params = {};
      names.forEach((name, i) => {
        const value = m[i + 1] ?? '';
        params[name] = format[name] ? format[name](value) : SEAT_GROUPS.has(name) ? seatName(value) : value;
      });
      return t(key, params);
    }
    console.warn(`untranslated event: ${line}`);
    return line;
  });
  return lines.length ? lines.join(' · ') : entry.action;
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
 * The number in `roll N`-style chance notation, or null.
 * @param {string | null | undefined} action
 */
export function rollValue(action) {
  const m = /^roll (\d+)$/.exec(action ?? '');
  return m ? Number(m[1]) : null;
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
