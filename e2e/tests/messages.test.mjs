// The message catalogues (crates/web/static/js/messages): both languages have every key with the
// same placeholders, and every error code the API documents (docs/api.md) has a text for people
// in both, so a refusal is never shown in the server's English on a Korean page. No browser.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, madang } from '../lib.mjs';

const WEB = path.join(ROOT, 'crates', 'web', 'static', 'js', 'messages');
const PARTS = ['app', 'ur', 'yut', 'ludo', 'dice-poker'];

/** Every catalogue part, as its module exports it. */
async function catalogues() {
  return Promise.all(PARTS.map(async (name) => [name, (await import(path.join(WEB, `${name}.js`))).default]));
}

/** The `{name}` placeholders of a message, sorted. */
const placeholders = (text) => [...text.matchAll(/\{(\w+)(?:\|[^}]+)?\}/g)].map((m) => m[1]).sort();

test('English and Korean have the same keys, none empty, with the same placeholders', async () => {
  for (const [name, part] of await catalogues()) {
    const en = Object.keys(part.en);
    const ko = Object.keys(part.ko);
    assert.deepEqual(en.filter((k) => !(k in part.ko)), [], `messages/${name}.js: keys missing in Korean`);
    assert.deepEqual(ko.filter((k) => !(k in part.en)), [], `messages/${name}.js: keys missing in English`);
    for (const key of en) {
      assert.ok(part.en[key].trim() && part.ko[key].trim(), `messages/${name}.js: ${key} is empty`);
      assert.deepEqual(placeholders(part.ko[key]), placeholders(part.en[key]), `messages/${name}.js: placeholders of ${key}`);
    }
  }
});

test('every error code of docs/api.md has a text in both languages', async () => {
  const doc = readFileSync(path.join(ROOT, 'docs', 'api.md'), 'utf8');
  const codes = new Set(['network', 'http']); // the client's own (js/api.js)
  // Table rows `| 409 | `a`, `b` | …` and inline mentions such as `404 unknown_room`.
  for (const line of doc.split('\n')) {
    const row = /^\| (\d{3}) \| ([^|]+) \|/.exec(line);
    if (row) for (const m of row[2].matchAll(/`([a-z_]+)`/g)) codes.add(m[1]);
    for (const m of line.matchAll(/`\d{3} ([a-z_]+)`/g)) codes.add(m[1]);
  }
  // A sample from each kind of place the docs name codes in (the parsing found them).
  for (const code of ['illegal_action', 'storage', 'unknown_room', 'room_full', 'wrong_phase', 'too_many_rooms', 'bad_chat']) {
    assert.ok(codes.has(code), `docs/api.md names ${code}`);
  }
  const [[, app]] = await catalogues();
  for (const lang of ['en', 'ko']) {
    const missing = [...codes].filter((c) => !(`error.code.${c}` in app[lang]));
    assert.deepEqual(missing, [], `error.code.* missing in ${lang}`);
  }
});

test('Korean texts choose their particles: no placeholder pairs such as (으)로 or 이(가)', async () => {
  // In the catalogues and in every other client file with Korean text (the rules pages).
  const pairs = /\((으|이|을|를|은|는|과|와)\)|이\(가\)|을\(를\)|은\(는\)|와\(과\)/;
  for (const [name, part] of await catalogues()) {
    for (const [key, text] of Object.entries(part.ko)) assert.doesNotMatch(text, pairs, `messages/${name}.js ${key}: ${text}`);
  }
  const js = path.join(ROOT, 'crates', 'web', 'static', 'js');
  for (const file of readdirSync(js, { recursive: true }).filter((f) => String(f).endsWith('.js') && !String(f).endsWith('korean.js'))) {
    readFileSync(path.join(js, String(file)), 'utf8')
      .split('\n')
      .forEach((line, i) => assert.doesNotMatch(line, pairs, `js/${file}:${i + 1}: ${line.trim()}`));
  }
});

test('every event kind of every game has a text in both languages, and no text names a kind that is gone', async () => {
  // The engines' own list of kinds and fields (`madang events --json`, from `Game::EVENT_KINDS`).
  const kinds = JSON.parse(await madang(['events', '--json']));
  assert.deepEqual(Object.keys(kinds).sort(), ['dice-poker', 'ludo', 'ur', 'yut']);
  const parts = Object.fromEntries(await catalogues());
  for (const [game, list] of Object.entries(kinds)) {
    const part = parts[game];
    assert.ok(part, `a catalogue for ${game}`);
    for (const lang of ['en', 'ko']) {
      const keys = Object.keys(part[lang]).filter((k) => k.startsWith(`${game}.ev.`));
      const declared = list.map((k) => `${game}.ev.${k.kind}`);
      assert.deepEqual(declared.filter((k) => !keys.includes(k)), [], `messages/${game}.js ${lang}: kinds without a text`);
      assert.deepEqual(keys.filter((k) => !declared.includes(k)), [], `messages/${game}.js ${lang}: texts for kinds no engine reports`);
      // A text uses only its event's fields.
      for (const k of list) {
        const unknown = placeholders(part[lang][`${game}.ev.${k.kind}`]).filter((p) => !k.fields.includes(p));
        assert.deepEqual(unknown, [], `messages/${game}.js ${lang} ${game}.ev.${k.kind}: placeholders not among ${k.fields}`);
      }
    }
  }
});

test('the client reads no engine text: no regular expression in the game modules, notation only in js/notation.js', () => {
  const js = path.join(ROOT, 'crates', 'web', 'static', 'js');
  // Where a regular expression is at home: routes, room codes, the `?pace` number, Korean
  // sounds, the message placeholders, and the record notation — none of them engine text.
  const allowed = new Set(['main.js', 'notation.js', 'korean.js', 'i18n.js', 'app.js', path.join('pages', 'rooms.js'), path.join('pages', 'stats.js')]);
  const regex = /new RegExp|\/\^|\.exec\(|\.test\(|\.match\(|\.replace\(\//;
  for (const file of readdirSync(js, { recursive: true }).map(String).filter((f) => f.endsWith('.js') && !f.startsWith('messages'))) {
    if (allowed.has(file)) continue;
    readFileSync(path.join(js, file), 'utf8')
      .split('\n')
      .forEach((line, i) => assert.doesNotMatch(line, regex, `js/${file}:${i + 1}: ${line.trim()}`));
  }
});
