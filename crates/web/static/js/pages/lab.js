// The designer's lab (`#/lab`, docs/lab.md "In the web app"): a run of `madang sim` on the
// server — a game, one or two rule sets, a bot per seat, a number of games —, its progress while
// it plays (polled), cancelling it, and its report (the server's self-contained HTML page, in a
// sandboxed frame) with downloads. The form is built from what the game declares: its rule
// options, seat counts and the bots the lab plays (the catalogue's `lab_bots`).

import { GAMES, entry, gameNames } from '../app.js';
import { api } from '../api.js';
import { h, replace } from '../dom.js';
import { currentLang, errorText, has, num, t } from '../i18n.js';
import { optionField } from './setup.js';

/** How often a running run's progress is asked for, in ms. */
const POLL_MS = 300;

/**
 * An error of the lab for people: the lab's own text of its code where the app's would speak
 * of something else (`busy`: the reviews), else the app's (`errorText`).
 * @param {any} e an ApiError, or a run's `error` ({code, message})
 */
function labError(e) {
  const code = e?.code;
  const text = code && has(`lab.error.${code}`) ? t(`lab.error.${code}`) : errorText(e);
  // Bad rules: the server's message names the option and what it allows (the catalogue's
  // note), which a designer needs to fix it.
  return code === 'bad_rules' && e?.message ? `${text} ${t('replay.server_says')} ${e.message}` : text;
}

/**
 * A bot's name for people: a level's or a named bot's message (`level.<name>`) with the name
 * the report uses when that reads otherwise ("보통 (normal)", but "Normal", not "Normal
 * (normal)"), else the name.
 * @param {string} name
 */
function botLabel(name) {
  if (!has(`level.${name}`)) return name;
  const label = t(`level.${name}`);
  return label.toLowerCase() === name.toLowerCase() ? label : `${label} (${name})`;
}

/**
 * A rule set as one line: its JSON, or "default rules" for `{}`.
 * @param {any} rules
 */
function rulesText(rules) {
  return rules && Object.keys(rules).length > 0 ? JSON.stringify(rules) : t('lab.default_rules');
}

/**
 * The seed field's value: `undefined` when empty (the server draws one), the number when it is
 * a whole number from 0 to `Number.MAX_SAFE_INTEGER` (a JavaScript number holds no larger
 * integer exactly: a larger one would be sent rounded), else `null`.
 * @param {string} text
 * @returns {number | null | undefined}
 */
function seedValue(text) {
  const digits = text.trim();
  if (digits === '') return undefined;
  if (![...digits].every((c) => c >= '0' && c <= '9')) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * A run's seed as the page shows it: the server's `seed_text`, exact where the JSON number
 * `seed` is not (above `Number.MAX_SAFE_INTEGER` it reads rounded here: 18446744073709551615 as
 * 18446744073709552000).
 * @param {any} run
 * @returns {string}
 */
function seedText(run) {
  return typeof run.seed_text === 'string' ? run.seed_text : String(run.seed);
}

/** @param {HTMLElement} view */
export async function labPage(view) {
  const overview = await api('GET', '/api/lab');
  const limits = overview.limits;
  view.className = 'lab-page';
  const games = gameNames();
  const last = overview.runs[0] ?? null;
  let game = last && games.includes(last.game) ? last.game : games[0];

  const formBox = h('div', { id: 'lab-form-box' });
  const runBox = h('section', { class: 'lab-run', id: 'lab-run', 'aria-live': 'polite' });
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  let left = false;

  /** Stops polling (the page is left, or another run is shown). */
  function stopPolling() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  /**
   * Shows `run` and, while it runs, asks for it again.
   * @param {any} run the run's view (docs/api.md, "Lab")
   */
  function showRun(run) {
    stopPolling();
    drawRun(run);
    if (run.status === 'running' && !left) {
      timer = setTimeout(async () => {
        timer = null;
        try {
          const next = await api('GET', `/api/lab/runs/${run.id}`);
          if (!left) showRun(next);
        } catch (err) {
          if (!left) replace(runBox, h('p', { class: 'error', role: 'alert', text: labError(err) }));
        }
      }, POLL_MS);
    }
  }

  /** @param {any} run */
  function drawRun(run) {
    const counts = { done: num(run.done), total: num(run.total) };
    const bar = h('progress', { id: 'lab-progress', max: run.total, value: run.done, 'aria-label': t('lab.running', counts) });
    if (run.status === 'running') {
      replace(
        runBox,
        bar,
        h('p', { id: 'lab-status', dataset: { status: run.status }, text: run.cancelling ? t('lab.cancelling') : t('lab.running', counts) }),
        h('button', {
          type: 'button',
          id: 'lab-cancel',
          disabled: run.cancelling,
          text: t('lab.cancel'),
          on: {
            click: async (/** @type {Event} */ e) => {
              /** @type {HTMLButtonElement} */ (e.target).disabled = true;
              try {
                showRun(await api('POST', `/api/lab/runs/${run.id}/cancel`));
              } catch (err) {
                stopPolling();
                replace(runBox, h('p', { class: 'error', role: 'alert', text: labError(err) }));
              }
            },
          },
        }),
      );
      return;
    }
    if (run.status === 'cancelled' || run.status === 'failed') {
      replace(
        runBox,
        bar,
        h('p', { id: 'lab-status', dataset: { status: run.status }, text: t(`lab.${run.status}`, counts) }),
        run.error ? h('p', { class: 'error', role: 'alert', id: 'lab-error', text: labError(run.error) }) : null,
      );
      return;
    }
    const seconds = num(run.elapsed_ms / 1000, 1);
    replace(
      runBox,
      bar,
      h('p', {
        id: 'lab-status',
        dataset: { status: run.status },
        text: t('lab.done', { total: num(run.total), seconds, seed: seedText(run) }),
      }),
      run.comparison ? reportView(run, run.comparison, 'lab.comparison', 'compare') : null,
      run.reports.map((/** @type {any} */ report, /** @type {number} */ n) =>
        reportView(run, report, n === 0 ? 'lab.report_a' : 'lab.report_b', String(n)),
      ),
    );
  }

  /**
   * One report (or the comparison of the two rule sets): its rules, the page in a sandboxed
   * frame (no script, no access to this page), and the links that open or download it.
   * @param {any} run
   * @param {any} report `{rules?, games?, json, html}`
   * @param {string} title the heading's message key
   * @param {string} name `0`, `1` or `compare`: the files' suffix and `data-report`
   */
  function reportView(run, report, title, name) {
    const page = `${report.html}?lang=${currentLang()}`;
    const file = `madang-lab-${run.game}-${run.id}-${name}`;
    return h(
      'article',
      { class: 'lab-report panel', dataset: { report: name } },
      h('h2', { text: t(title) }),
      report.rules === undefined
        ? h('p', { class: 'hint lab-rules', text: t('lab.comparison_hint') })
        : h('p', { class: 'hint lab-rules', text: t('lab.rules_of', { rules: rulesText(report.rules) }) }),
      h(
        'p',
        { class: 'actions' },
        h('a', { class: 'button', href: page, target: '_blank', rel: 'noopener', text: t('lab.open') }),
        h('a', { class: 'button lab-download-html', href: `${page}&download=1`, download: `${file}.html`, text: t('lab.download_html') }),
        h('a', { class: 'button lab-download-json', href: `${report.json}?download=1`, download: `${file}.json`, text: t('lab.download_json') }),
      ),
      h('iframe', { class: 'lab-frame', src: page, sandbox: '', title: `${t(title)}` }),
    );
  }

  /** Draws the form for `game` (again after a change of game). */
  async function drawForm() {
    const info = entry(game);
    const module = GAMES[game];
    /** @type {Record<string, any>} */
    const rules = {};
    /** @type {Record<string, any>} */
    const second = {};
    let compare = false;
    let players = info.players.default ?? info.players.allowed[0];
    /** @type {string[]} */
    const offered = info.lab_bots;
    /** @type {string[]} */
    let bots = [];
    let current = await api('POST', '/api/setup', { game, rules, players });
    players = current.players;
    const error = h('p', { class: 'error', role: 'alert', id: 'lab-form-error' });
    const botsBox = h('fieldset', { class: 'field', id: 'lab-bots' });

    function drawBots() {
      /** @type {string[]} */
      const names = current.seats.map((/** @type {any} */ s) => s.name);
      const fallback = offered.includes('normal') ? 'normal' : offered[0];
      bots = names.map((_, i) => (offered.includes(bots[i]) ? bots[i] : fallback));
      replace(
        botsBox,
        h('legend', { text: t('lab.bots') }),
        names.map((name, i) =>
          h(
            'label',
            { class: 'seat-row' },
            h('span', { text: module.seatName(name) }),
            h(
              'select',
              {
                name: `bot-${name}`,
                'aria-label': t('lab.bot_for', { seat: module.seatName(name) }),
                on: { change: (/** @type {Event} */ e) => (bots[i] = /** @type {HTMLSelectElement} */ (e.target).value) },
              },
              offered.map((b) => h('option', { value: b, selected: b === bots[i], text: botLabel(b) })),
            ),
          ),
        ),
      );
    }

    /** Asks the server which seats the rules and players give; redraws the bots. */
    async function refresh() {
      try {
        current = await api('POST', '/api/setup', { game, rules, players });
        players = current.players;
        error.textContent = '';
      } catch (err) {
        error.textContent = labError(err);
        return;
      }
      const select = /** @type {HTMLSelectElement | null} */ (formBox.querySelector('#lab-players'));
      if (select) select.value = String(players);
      drawBots();
    }

    /**
     * A rule set's options, in the order the game declares them.
     * @param {Record<string, any>} target
     * @param {string} prefix the controls' id prefix
     * @param {boolean} seats whether a change may change the seats (the first rule set)
     */
    const optionFields = (target, prefix, seats) =>
      info.options.map((/** @type {any} */ o) =>
        optionField(
          o,
          undefined,
          (value) => {
            if (value === undefined) delete target[o.key];
            else target[o.key] = value;
            if (seats) void refresh();
          },
          prefix,
        ),
      );

    const secondBox = h(
      'details',
      { class: 'options', id: 'lab-rules-b', open: true, hidden: true },
      h('summary', { text: t('lab.rules_b') }),
      optionFields(second, 'lab-b', false),
    );
    const gamesInput = h('input', { id: 'lab-games', name: 'games', type: 'number', inputmode: 'numeric', min: 1, max: limits.max_games, value: 200, required: true });
    // Text, not a number field: the page checks it and says what is wrong beside it, in the
    // page's language (a number field would round a long seed, and the browser's own message
    // is in the browser's language).
    const seedError = h('p', { class: 'error', id: 'lab-seed-error', role: 'alert' });
    /** Says beside the field whether its seed can be sent; returns whether it can. */
    const checkSeed = () => {
      const bad = seedValue(seedInput.value) === null;
      seedError.textContent = bad ? t('lab.bad_seed', { max: String(Number.MAX_SAFE_INTEGER) }) : '';
      if (bad) seedInput.setAttribute('aria-invalid', 'true');
      else seedInput.removeAttribute('aria-invalid');
      return !bad;
    };
    const seedInput = h('input', {
      id: 'lab-seed',
      name: 'seed',
      inputmode: 'numeric',
      autocomplete: 'off',
      'aria-describedby': 'lab-seed-error',
      on: { input: () => void checkSeed() },
    });
    const rotate = h('input', { type: 'checkbox', id: 'lab-rotate', name: 'rotate', checked: true });

    async function start(/** @type {Event} */ e) {
      e.preventDefault();
      error.textContent = '';
      if (!checkSeed()) {
        seedInput.focus();
        return;
      }
      /** @type {any} */
      const body = { game, rules, bots, games: Number(gamesInput.value), rotate_seats: rotate.checked };
      if (compare) body.compare_rules = second;
      if (info.players.allowed.length > 1) body.players = players;
      const seed = seedValue(seedInput.value);
      if (seed !== undefined) body.seed = seed;
      // One run per press: the button waits for the server's answer (a second press would be
      // refused as a run already going).
      const button = /** @type {HTMLButtonElement | null} */ (formBox.querySelector('#lab-start'));
      if (button) button.disabled = true;
      try {
        showRun(await api('POST', '/api/lab/runs', body));
      } catch (err) {
        error.textContent = labError(err);
        // A finished run's report is not this request's: it goes with the refusal (a run still
        // going, the reason for a 409, stays in view).
        if (/** @type {any} */ (err)?.status !== 409) replace(runBox);
      } finally {
        if (button) button.disabled = false;
      }
    }

    drawBots();
    replace(
      formBox,
      h(
        'form',
        { class: 'panel lab-form', id: 'lab-form', on: { submit: start } },
        h(
          'div',
          { class: 'field' },
          h('label', { for: 'lab-game', text: t('lab.game') }),
          h(
            'select',
            {
              id: 'lab-game',
              name: 'game',
              on: {
                change: (/** @type {Event} */ ev) => {
                  game = /** @type {HTMLSelectElement} */ (ev.target).value;
                  void drawForm().catch((err) => (error.textContent = labError(err)));
                },
              },
            },
            games.map((g) => h('option', { value: g, selected: g === game, text: t(`game.${g}.name`) })),
          ),
        ),
        info.players.allowed.length > 1
          ? h(
              'div',
              { class: 'field' },
              h('label', { for: 'lab-players', text: t('setup.players') }),
              h(
                'select',
                {
                  id: 'lab-players',
                  name: 'players',
                  on: {
                    change: (/** @type {Event} */ ev) => {
                      players = Number(/** @type {HTMLSelectElement} */ (ev.target).value);
                      void refresh();
                    },
                  },
                },
                info.players.allowed.map((/** @type {number} */ n) => h('option', { value: n, selected: n === players, text: t('setup.players_n', { n }) })),
              ),
            )
          : null,
        info.options.length > 0 ? h('details', { class: 'options', id: 'lab-rules-a' }, h('summary', { text: t('lab.rules_a') }), optionFields(rules, 'lab-a', true)) : null,
        info.options.length > 0
          ? h(
              'label',
              { class: 'choice' },
              h('input', {
                type: 'checkbox',
                id: 'lab-compare',
                name: 'compare',
                on: {
                  change: (/** @type {Event} */ ev) => {
                    compare = /** @type {HTMLInputElement} */ (ev.target).checked;
                    secondBox.hidden = !compare;
                  },
                },
              }),
              t('lab.compare'),
            )
          : null,
        info.options.length > 0 ? secondBox : null,
        botsBox,
        h('label', { class: 'choice' }, rotate, t('lab.rotate')),
        h('div', { class: 'field' }, h('label', { for: 'lab-games', text: t('lab.games') }), gamesInput),
        h('div', { class: 'field' }, h('label', { for: 'lab-seed', text: t('lab.seed') }), seedInput, seedError),
        error,
        h('button', { type: 'submit', class: 'primary big', id: 'lab-start', text: t('lab.start') }),
      ),
    );
  }

  view.append(
    h('h1', { text: t('lab.title') }),
    h('p', { text: t('lab.intro') }),
    h('p', { class: 'hint', id: 'lab-limits', text: t('lab.limits', { games: num(limits.max_games), seconds: limits.run_seconds, running: limits.running }) }),
    formBox,
    runBox,
  );
  await drawForm();
  if (last) showRun(last);
  return () => {
    left = true;
    stopPolling();
  };
}
