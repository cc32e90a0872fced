// Korean particles after inserted values (crates/web/static/js/korean.js): the pair member is
// chosen by the last sound, as a Korean reader says it — a syllable's final consonant, a number
// by its Sino-Korean reading, a Latin letter by its Korean name. Expected values are the
// standard forms (표준 국어 문법: 받침 뒤 '은/이/을/과/으로', 모음과 ㄹ 뒤 '로'). No browser.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../lib.mjs';

const { particle } = await import(path.join(ROOT, 'crates', 'web', 'static', 'js', 'korean.js'));

test('words with and without a final consonant', () => {
  // 모 (no 받침), 걸 (ㄹ), 윷 (ㅊ), 빽도 (no 받침), 말 (ㄹ), 칸 (ㄴ).
  assert.equal(particle('모', '을'), '를');
  assert.equal(particle('윷', '를'), '을');
  assert.equal(particle('걸', '으로'), '로', 'ㄹ takes 로');
  assert.equal(particle('윷', '로'), '으로');
  assert.equal(particle('빽도', '으로'), '로');
  assert.equal(particle('도', '으로'), '로');
  assert.equal(particle('칸', '이'), '이');
  assert.equal(particle('백', '가'), '이');
  assert.equal(particle('흑', '는'), '은');
  assert.equal(particle('빨강', '은'), '은', '강 ends in ㅇ');
  assert.equal(particle('파랑', '와'), '과');
  assert.equal(particle('A편', '이'), '이');
  assert.equal(particle('말 2개', '를'), '를', '개 has no final consonant');
});

test('numbers by their Sino-Korean reading', () => {
  // 일 ㄹ, 이 -, 삼 ㅁ, 사 -, 오 -, 육 ㄱ, 칠 ㄹ, 팔 ㄹ, 구 -, 영 ㅇ.
  const withRo = { 0: '으로', 1: '로', 2: '로', 3: '으로', 4: '로', 5: '로', 6: '으로', 7: '로', 8: '로', 9: '로' };
  const withI = { 0: '이', 1: '이', 2: '가', 3: '이', 4: '가', 5: '가', 6: '이', 7: '이', 8: '이', 9: '가' };
  for (let n = 0; n <= 9; n++) {
    assert.equal(particle(String(n), '으로'), withRo[n], `${n}(으)로`);
    assert.equal(particle(String(n), '가'), withI[n], `${n}이/가`);
  }
  // 십 ㅂ, 백 ㄱ, 천 ㄴ, 만 ㄴ, 십만 ㄴ, 억 ㄱ; the last digit read otherwise (12 십이, 23 이십삼).
  assert.equal(particle('10', '을'), '을');
  assert.equal(particle('10', '으로'), '으로');
  assert.equal(particle('100', '가'), '이');
  assert.equal(particle('1000', '를'), '을');
  assert.equal(particle('10000', '는'), '은');
  assert.equal(particle('200000', '로'), '으로', '이십만');
  assert.equal(particle('300000000', '가'), '이', '삼억');
  assert.equal(particle('12', '가'), '가', '십이');
  assert.equal(particle('23', '를'), '을', '이십삼');
  assert.equal(particle('101', '로'), '로', '백일: ㄹ');
  assert.equal(particle('1,000', '을'), '을', '천: one number');
  assert.equal(particle('2,002', '를'), '를', '이천이');
  assert.equal(particle('칸 4', '으로'), '로');
});

test('Latin letters by their Korean names, and what cannot be told', () => {
  assert.equal(particle('move 8', '을'), '을', '팔');
  assert.equal(particle('A', '가'), '가', '에이');
  assert.equal(particle('L', '로'), '로', '엘');
  assert.equal(particle('M', '가'), '이', '엠');
  assert.equal(particle('“gae”', '를'), '를', 'closing quotes are skipped: 이');
  assert.equal(particle('…', '을'), '을(를)', 'no sound to go by: both forms');
  assert.equal(particle('말', '에게'), '에게', 'not a pair: as given');
});
