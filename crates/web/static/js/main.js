// Start-up and the router: the address's hash names the page (`#/play/ID`, `#/review/ID`, …).

import { GAMES, load, me, pace } from './app.js';
import { h, replace } from './dom.js';
import { LANGS, currentLang, errorText, setLang, t } from './i18n.js';
import { homePage } from './pages/home.js';
import { setupPage } from './pages/setup.js';
import { playPage } from './pages/play.js';
import { statsPage } from './pages/stats.js';
import { profilePage } from './pages/profile.js';
import { historyPage } from './pages/history.js';
import { replayPage } from './pages/replay.js';
import { reviewPage } from './pages/review.js';
import { rulesPage } from './pages/rules.js';
import { roomsPage } from './pages/rooms.js';
import { roomPage } from './pages/room.js';
import { labPage } from './pages/lab.js';

/**
 * A page: draws into `view` and may return a function that cleans up when the page is left.
 * @typedef {(view: HTMLElement, ...params: string[]) => (void | (() => void) | Promise<void | (() => void)>)} Page
 */

/** @type {[RegExp, Page][]} */
const ROUTES = [
  [/^\/?$/, homePage],
  [/^\/setup\/([\w-]+)(?:\/(room))?$/, setupPage],
  [/^\/rooms$/, roomsPage],
  [/^\/room\/([A-Za-z0-9]{6})$/, roomPage],
  [/^\/play\/([0-9a-f]+)$/, playPage],
  [/^\/stats$/, statsPage],
  [/^\/profile$/, profilePage],
  [/^\/history$/, historyPage],
  [/^\/replay\/([0-9a-f]+)$/, replayPage],
  [/^\/replay-file$/, replayPage],
  [/^\/review\/([0-9a-f]+)$/, reviewPage],
  [/^\/rules\/([\w-]+)$/, rulesPage],
  [/^\/lab$/, labPage],
];

/** @type {(() => void) | null} */
let cleanup = null;

function header() {
  const top = /** @type {HTMLElement} */ (document.getElementById('top'));
  // The skip link is the page shell's (index.html): its words follow the language too.
  const skip = document.querySelector('a.skip');
  if (skip) skip.textContent = t('nav.skip');
  const other = currentLang() === 'ko' ? 'en' : 'ko';
  replace(
    top,
    h('a', { class: 'brand', href: '#/' }, h('span', { class: 'brand-ko', text: '마당' }), h('span', { class: 'brand-latin', text: 'madang' })),
    h(
      'nav',
      { 'aria-label': t('nav.label') },
      h('a', { href: '#/rooms', text: t('nav.rooms') }),
      h('a', { href: '#/profile', id: 'nav-profile', text: t('nav.profile') }),
      h('a', { href: '#/stats', text: t('nav.stats') }),
      h('a', { href: '#/history', text: t('nav.history') }),
      h('button', {
        class: 'lang',
        type: 'button',
        lang: other,
        'aria-label': t('nav.language'),
        text: LANGS[other],
        on: {
          click: () => {
            setLang(other);
            route();
          },
        },
      }),
    ),
  );
}

async function route() {
  if (cleanup) {
    cleanup();
    cleanup = null;
  }
  header();
  document.body.classList.toggle('no-motion', pace() === 0);
  document.title = `${t('app.title')} · madang`;
  const view = /** @type {HTMLElement} */ (document.getElementById('view'));
  const path = decodeURIComponent(location.hash.replace(/^#/, ''));
  for (const [pattern, page] of ROUTES) {
    const match = pattern.exec(path);
    if (!match) continue;
    if (page === setupPage || page === rulesPage) {
      if (!(match[1] in GAMES)) break;
    }
    replace(view);
    view.className = '';
    // A page's own style (a game's side colours, `paintSides`) does not outlive it.
    view.removeAttribute('style');
    try {
      const done = await page(view, ...match.slice(1).filter((x) => x !== undefined));
      if (typeof done === 'function') cleanup = done;
    } catch (e) {
      showError(view, e);
    }
    return;
  }
  replace(view, h('section', { class: 'panel' }, h('h1', { text: t('error.no_page') }), h('p', {}, h('a', { href: '#/', text: t('nav.home') }))));
}

/**
 * A page that could not be drawn: the error in the page's language (the catalogue's text for an
 * API error's code, `errorText`), and the server's own message on the console.
 * @param {HTMLElement} view
 * @param {any} e
 */
export function showError(view, e) {
  console.error(e);
  replace(
    view,
    h(
      'section',
      { class: 'panel', role: 'alert' },
      h('h1', { text: t('error.title') }),
      h('p', { id: 'error-text', text: errorText(e) }),
      h('p', {}, h('a', { href: '#/', text: t('nav.home') })),
    ),
  );
}

async function start() {
  const stored = new URLSearchParams(location.search).get('lang');
  if (stored === 'en' || stored === 'ko') setLang(stored);
  try {
    await load();
  } catch (e) {
    header();
    showError(/** @type {HTMLElement} */ (document.getElementById('view')), e);
    return;
  }
  window.addEventListener('hashchange', route);
  void me;
  await route();
}

void start();

/** Re-renders the current page (after a language switch or a nickname change). */
export function refresh() {
  void route();
}
