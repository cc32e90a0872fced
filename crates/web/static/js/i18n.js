// Message catalogues: every text on a page comes from here, in one language at a time.
// The catalogues are `messages/app.js` (the pages) and `messages/<game>.js` (each game's terms);
// Korean keeps the games' Korean names (윷, 모, 뒷도 …).

import app from './messages/app.js';
import ur from './messages/ur.js';
import yut from './messages/yut.js';
import ludo from './messages/ludo.js';
import dicePoker from './messages/dice-poker.js';
import { particle } from './korean.js';

/** @typedef {'en' | 'ko'} Lang */

/** @type {Record<Lang, Record<string, string>>} */
const catalogues = { en: {}, ko: {} };
for (const part of [app, ur, yut, ludo, dicePoker]) {
  Object.assign(catalogues.en, part.en);
  Object.assign(catalogues.ko, part.ko);
}

/** The languages, each named in itself. */
export const LANGS = /** @type {const} */ ({ ko: '한국어', en: 'English' });

/** @returns {Lang} the stored choice, else Korean when the browser prefers it, else English */
function initialLang() {
  const stored = localStorage.getItem('madang.lang');
  if (stored === 'en' || stored === 'ko') return stored;
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  const first = (preferred[0] ?? 'en').toLowerCase();
  return first.startsWith('ko') ? 'ko' : 'en';
}

/** @type {Lang} */
let lang = initialLang();
document.documentElement.lang = lang;

/** @returns {Lang} */
export function currentLang() {
  return lang;
}

/**
 * Switches the language and remembers the choice.
 * @param {Lang} next
 */
export function setLang(next) {
  lang = next;
  localStorage.setItem('madang.lang', next);
  document.documentElement.lang = next;
}

/**
 * The message `key` in the current language with `{name}` placeholders filled from `params`.
 * `{name|을}` fills the value followed by the Korean particle that fits its last sound
 * (`korean.js`: 을/를, 은/는, 이/가, 과/와, 으로/로). A missing key falls back to English, then
 * to the key itself (and is reported on the console in development, so tests catch it).
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 * @returns {string}
 */
export function t(key, params) {
  let text = catalogues[lang][key];
  if (text === undefined) {
    console.warn(`missing message ${lang}:${key}`);
    text = catalogues.en[key] ?? key;
  }
  return params ? format(text, params) : text;
}

/**
 * `text` with its `{name}` and `{name|을}` placeholders filled from `params` (as [`t`] does).
 * @param {string} text
 * @param {Record<string, string | number>} params
 * @returns {string}
 */
export function format(text, params) {
  return text.replace(/\{(\w+)(?:\|([^}]+))?\}/g, (whole, name, after) => {
    if (!(name in params)) return whole;
    const value = String(params[name]);
    return after ? value + particle(value, after) : value;
  });
}

/**
 * Whether `key` exists (for optional texts such as option descriptions).
 * @param {string} key
 */
export function has(key) {
  return key in catalogues[lang];
}

/**
 * A number formatted for the current language.
 * @param {number} n
 * @param {number} [digits] fraction digits
 */
export function num(n, digits = 0) {
  return n.toLocaleString(lang === 'ko' ? 'ko-KR' : 'en-GB', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/**
 * A duration in milliseconds as h:mm:ss or m:ss.
 * @param {number} ms
 */
export function duration(ms) {
  const s = Math.round(ms / 1000);
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/**
 * A time (ms since the epoch) as a local date and time.
 * @param {number} ms
 */
export function when(ms) {
  return new Date(ms).toLocaleString(lang === 'ko' ? 'ko-KR' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
}

/**
 * An API error for people, in the current language: the message of its `code` when the
 * catalogue has one (`error.code.<code>`), else the server's own message.
 * @param {any} e an ApiError or any error
 * @returns {string}
 */
export function errorText(e) {
  const code = e?.code;
  // A quota says which one and how long to wait (docs/api.md: `detail.quota`, `per`, `limit`,
  // `retry_after_s`).
  const quota = code === 'quota' ? e?.detail : null;
  if (quota && has(`error.quota.${quota.quota}.${quota.per}`)) {
    const s = Number(quota.retry_after_s);
    const wait = s < 90 ? t('error.quota.wait_s', { n: num(s) }) : t('error.quota.wait_min', { n: num(Math.ceil(s / 60)) });
    return t(`error.quota.${quota.quota}.${quota.per}`, { limit: num(Number(quota.limit)), wait });
  }
  if (code && has(`error.code.${code}`)) return t(`error.code.${code}`);
  return e?.message ?? String(e);
}
