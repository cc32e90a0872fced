// Korean particles (조사) after an inserted value: 은/는, 이/가, 을/를, 과/와 by whether the
// value's last sound has a final consonant (받침), and 으로/로 with 로 also after ㄹ. A number is
// chosen by how it is read in Sino-Korean (1 일, 2 이, 3 삼, 6 육, 10 십, 100 백, 1000 천 …),
// a Latin letter by its Korean letter name (L 엘, M 엠, N 엔, R 알). Pure: no page, no DOM, so
// the tests import it directly (e2e/tests/korean.test.mjs).

/** The particle pairs: [after a final consonant, after a vowel]. @type {[string, string][]} */
const PAIRS = [
  ['은', '는'],
  ['이', '가'],
  ['을', '를'],
  ['과', '와'],
  ['으로', '로'],
  ['이랑', '랑'],
  ['이에요', '예요'],
];

/** The final consonant index (종성, 0 = none, 8 = ㄹ) of each digit's Sino-Korean reading. */
// 영 일 이 삼 사 오 육 칠 팔 구
const DIGIT_FINAL = [21, 8, 0, 16, 0, 0, 1, 8, 8, 0];

/**
 * The final consonant of the last unit read in a number ending in `zeros` zeros: 십 ㅂ, 백 ㄱ,
 * 천 ㄴ (1-3 zeros), 만 ㄴ (4-7: 십만, 백만 …), 억 ㄱ (8-11), 조 none (12 and more).
 * @param {number} zeros
 */
function unitFinal(zeros) {
  if (zeros >= 12) return 0;
  if (zeros >= 8) return 1;
  if (zeros >= 4) return 4;
  return [17, 1, 4][zeros - 1];
}

/** Latin letters whose Korean names end in a consonant: L 엘, M 엠, N 엔, R 알. */
const LETTER_FINAL = /** @type {Record<string, number>} */ ({ l: 8, m: 16, n: 4, r: 8 });

/**
 * The final consonant index (0-27, 0 none, 8 ㄹ) of the last sound of `word` as read in
 * Korean, or null when it cannot be told (no letter or digit in it).
 * @param {string} word
 * @returns {number | null}
 */
export function finalConsonant(word) {
  const chars = [...word];
  for (let i = chars.length - 1; i >= 0; i--) {
    const c = chars[i];
    const code = c.codePointAt(0) ?? 0;
    if (code >= 0xac00 && code <= 0xd7a3) return (code - 0xac00) % 28;
    if (c >= '0' && c <= '9') {
      // The number ending here: its last non-zero digit is read, unless it ends in zeros,
      // which are read as 십, 백, 천, 만 (a lone 0 is 영).
      // (Digits grouped by commas, 1,000, are one number.)
      const isDigit = (/** @type {string} */ d) => d >= '0' && d <= '9';
      let start = i;
      while (start > 0 && (isDigit(chars[start - 1]) || (chars[start - 1] === ',' && start > 1 && isDigit(chars[start - 2])))) start--;
      const digits = chars.slice(start, i + 1).join('').replaceAll(',', '').replace(/^0+(?=\d)/, '');
      const zeros = digits.length - digits.replace(/0+$/, '').length;
      if (digits === '0') return DIGIT_FINAL[0];
      if (zeros === 0) return DIGIT_FINAL[Number(digits[digits.length - 1])];
      return unitFinal(zeros);
    }
    if (/[a-z]/i.test(c)) return LETTER_FINAL[c.toLowerCase()] ?? 0;
  }
  return null;
}

/**
 * The particle `particle` (either form of a pair: `은` or `는`, `으로` or `로` …) as it goes
 * after `word`; an unknown particle is returned as given, and a word whose sound cannot be told
 * gets both forms (`은(는)`).
 * @param {string} word
 * @param {string} particle
 * @returns {string}
 */
export function particle(word, particle) {
  const pair = PAIRS.find((p) => p.includes(particle));
  if (!pair) return particle;
  const final = finalConsonant(word);
  if (final === null) return `${pair[0]}(${pair[1]})`;
  // 으로/로: 로 after a vowel and after ㄹ.
  if (pair[0] === '으로') return final === 0 || final === 8 ? pair[1] : pair[0];
  return final === 0 ? pair[1] : pair[0];
}
