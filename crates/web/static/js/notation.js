// The record notation (spec README, "Game records", and each game's notation): actions such as
// `roll 3`, `move 8`, `throw gae`, and seat names such as `A1`. This is the one place in the
// client that reads notation; engine events arrive as typed data and are never parsed.

/**
 * The number of an action `WORD N` (`roll 3` → 3 for `roll`), or null.
 * @param {string | null | undefined} action
 * @param {string} word
 * @returns {number | null}
 */
export function numberOf(action, word) {
  const m = /^(\w+) (\d+)(?: |$)/.exec(action ?? '');
  return m && m[1] === word ? Number(m[2]) : null;
}

/**
 * The roll of a `roll N` chance action, or null.
 * @param {string | null | undefined} action
 */
export function rollValue(action) {
  return numberOf(action, 'roll');
}

/**
 * The result named by a Yut `throw R` chance action (`gae`), or null.
 * @param {string | null | undefined} action
 */
export function throwValue(action) {
  const m = /^throw (\w+)$/.exec(action ?? '');
  return m ? m[1] : null;
}

/**
 * Whether an action is a chance outcome (a roll or a throw) rather than a decision.
 * @param {string} action
 */
export function isChance(action) {
  return /^(roll|throw)\b/.test(action);
}

/**
 * A Yut seat's side letter and member number (`A1` → `['A', 1]`, `B` → `['B', null]`), or null.
 * @param {string} seat
 * @returns {[string, number | null] | null}
 */
export function yutSeat(seat) {
  const m = /^([A-D])([1-4])?$/.exec(seat);
  return m ? [m[1], m[2] ? Number(m[2]) : null] : null;
}
