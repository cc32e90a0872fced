// Small DOM helpers: the client builds every element with `h`, so pages are plain functions of
// their data and nothing is written as HTML strings.

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {Child | Child[] | Child[][]} Children any nesting of children, up to two levels of lists
 * @typedef {Record<string, any>} Props
 */

/**
 * Creates an element. `props`: `class` (string or list), `text`, `style` (object), `dataset`
 * (object), `on` (event name → listener), `aria-*`, `data-*` and other attributes; `false`,
 * `null` and `undefined` attributes are left out.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...Children} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') {
      el.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : String(value);
    } else if (key === 'text') {
      el.textContent = String(value);
    } else if (key === 'style') {
      for (const [k, v] of Object.entries(value)) el.style.setProperty(k, String(v));
    } else if (key === 'dataset') {
      for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
    } else if (key === 'on') {
      for (const [name, listener] of Object.entries(value)) el.addEventListener(name, listener);
    } else if (value === true) {
      el.setAttribute(key, '');
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

/**
 * Appends children (nested lists flattened; null, undefined and false skipped).
 * @param {Node} el
 * @param {Children[]} children
 */
export function append(el, children) {
  for (const child of children.flat(2)) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replaces the children of `el`.
 * @param {Node} el
 * @param {...Children} children
 */
export function replace(el, ...children) {
  while (el.firstChild) el.removeChild(el.firstChild);
  append(el, children);
}

/**
 * Renders with a FLIP animation: elements under `root` with the same `data-key` before and after
 * `render()` slide from their old place to the new one.
 * @param {HTMLElement} root
 * @param {() => void} render
 * @param {number} ms duration; 0 renders without animation
 */
export function flip(root, render, ms) {
  /** @type {Map<string, DOMRect>} */
  const before = new Map();
  if (ms > 0) {
    for (const el of root.querySelectorAll('[data-key]')) {
      before.set(/** @type {HTMLElement} */ (el).dataset.key ?? '', el.getBoundingClientRect());
    }
  }
  render();
  if (ms <= 0) return;
  for (const node of root.querySelectorAll('[data-key]')) {
    const el = /** @type {HTMLElement} */ (node);
    const old = before.get(el.dataset.key ?? '');
    if (!old) continue;
    const now = el.getBoundingClientRect();
    const dx = old.left - now.left;
    const dy = old.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }], {
      duration: ms,
      easing: 'ease-in-out',
    });
  }
}

/**
 * A promise that resolves after `ms` milliseconds (at once for 0).
 * @param {number} ms
 * @returns {Promise<void>}
 */
export function sleep(ms) {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/**
 * Scrolls `el` to just below the page's header when none of it is on screen: a game's result
 * shown above the board while the player had scrolled down to the board's buttons (resign,
 * leave) would otherwise appear where nobody sees it.
 * @param {HTMLElement} el
 */
export function reveal(el) {
  // The header, where it is sticky, covers the top of the window.
  const header = Math.max(0, document.getElementById('top')?.getBoundingClientRect().bottom ?? 0);
  const box = el.getBoundingClientRect();
  if (box.bottom <= header || box.top >= window.innerHeight) window.scrollBy(0, box.top - header - 8);
}

/**
 * Shows a short message at the bottom of the screen.
 * @param {string} message
 * @param {'info' | 'error'} [kind]
 */
export function toast(message, kind = 'info') {
  let box = document.getElementById('toasts');
  if (!box) {
    box = h('div', { id: 'toasts', 'aria-live': 'polite' });
    document.body.appendChild(box);
  }
  const item = h('div', { class: ['toast', kind], role: kind === 'error' ? 'alert' : 'status', text: message });
  box.appendChild(item);
  setTimeout(() => item.remove(), kind === 'error' ? 6000 : 3000);
}

/**
 * Gives an ordered list's numbers room at its start: `--digits` on the list is the width, in
 * digits, of its largest number (at least 3), which the CSS turns into its padding, so that a
 * long game's "1403." stays inside the box.
 * @param {HTMLOListElement} list
 */
export function fitNumbers(list) {
  const last = list.lastElementChild;
  const largest = Math.max(list.children.length, last instanceof HTMLLIElement ? last.value : 0);
  list.style.setProperty('--digits', String(Math.max(3, String(largest).length)));
}
