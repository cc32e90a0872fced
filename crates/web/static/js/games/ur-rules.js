// The rules page of the Royal Game of Ur (spec ur.md), in English and Korean, with the table of
// the 16 equally likely results of four binary dice (1, 4, 6, 4, 1), and the three exercises of
// seed 004 ("단계별 연습"), each answered on the page and checked against the seed's criterion.

import { h, replace } from '../dom.js';
import { rulesSection } from './common.js';
import { currentLang, format as fill } from '../i18n.js';

/** Every result of four binary dice as marks (1 = marked tip up), grouped by the roll. */
function combinations() {
  /** @type {string[][]} */
  const byRoll = [[], [], [], [], []];
  for (let bits = 0; bits < 16; bits++) {
    const dice = [0, 1, 2, 3].map((i) => (bits >> (3 - i)) & 1);
    byRoll[dice.reduce((a, b) => a + b, 0)].push(dice.map((d) => (d ? '▲' : '△')).join(''));
  }
  return byRoll;
}

const TEXT = {
  en: {
    intro:
      'The Royal Game of Ur was played in Mesopotamia 4,500 years ago. Its rules are not known from antiquity; madang plays the modern reconstruction by Irving Finkel of the British Museum, with the Blitz and Masters variants as options.',
    board: 'The board',
    boardText: [
      'Twenty squares in three columns. Light owns the left column, dark the right; the middle column is shared and both race along it in the same direction.',
      'Each path has 14 squares: four in your own column (entering from the gap beside it), eight in the middle, and two back in your own column, then off the board. Five squares carry a rosette ✿.',
    ],
    play: 'A turn',
    playText: [
      'Roll the four dice: the roll is the number of marked tips showing, from 0 to 4.',
      'Move one piece exactly that many squares — or enter a new piece from your hand onto square 1-4. A roll of 0, or a roll with no possible move, passes the turn.',
      'You may not land on your own piece. Landing on an opponent’s piece in the middle column captures it: it goes back to its owner’s hand.',
      'Landing on a rosette gives you another roll. The middle rosette is also safe: no piece can be captured there.',
      'A piece leaves the board with the exact roll (from square 14 you need a 1). The first to bear off all seven pieces wins.',
    ],
    dice: 'The dice: 16 equally likely results',
    diceText:
      'Each of the four dice shows its marked tip (▲) or not (△) with even chance, so there are 16 equally likely results. Counting the marks gives the roll: 2 is the most common (6 in 16), 0 and 4 the rarest (1 in 16 each).',
    roll: 'Roll',
    ways: 'Ways',
    chance: 'Chance',
    results: 'Results',
    tips: 'Three things to know',
    tipsText: [
      'Extra roll and safety are two different gifts: every rosette gives another roll, but only the middle one (B4) also protects the piece standing on it. A piece there blocks your opponent’s path for as long as you keep it.',
      'Capturing gives no extra roll in these rules — only the rosette does. A capture is decided by where you land.',
      'Near the end, count the exact rolls: from square 13 you need a 2 (6 in 16), from 14 a 1 (4 in 16). With two pieces at different distances, keep the one that needs the likely roll.',
    ],
    variants: 'Rule options',
    variantsText: [
      'Blitz: five pieces, the 16-square Masters path (up the middle, across the far end and back), captures give another roll, rosettes are not safe.',
      'Masters: seven pieces, the Masters path, three dice where no marks counts as 4, rosettes are not safe.',
      'Each option can also be changed on its own in the set-up: the number of pieces (1-7), extra roll on capture, safe rosettes, the dice and the path.',
    ],
    exercises: 'Practice',
    exercisesIntro: 'Three exercises from the rules guide. Answer on the page, then check.',
    ex1: 'Classify the throws',
    ex1Text: 'Four binary dice fall in 16 equally likely ways. Give each its roll: the number of marked tips (▲) showing.',
    ex1Right: 'Right: 1, 4, 6, 4 and 1 ways give 0, 1, 2, 3 and 4 — 16 in all. The five rolls are not equally likely.',
    ex1Wrong: 'Not yet: {wrong} of the 16 are classified wrongly. Count the marked tips (▲) of each.',
    ex1Counts: 'Your counts for 0-4: {counts} (total {total}).',
    ex2: 'The safe rosette against an ordinary square',
    ex2Text: 'Light has a piece on the middle rosette (square {rosette}) and one on square {plain} of the shared row; dark has pieces on squares {dark}. For each of light’s pieces, mark the rolls that let dark capture it.',
    ex2Right: 'Right. Dark captures on square {plain} with {plainRolls}; the piece on the middle rosette cannot be captured with any roll — that square is safe. (Landing on a rosette also gives another roll, but that is a different property: the other rosettes give the roll without the safety.)',
    ex2Wrong: 'Not yet. Count from each of dark’s pieces: which rolls end on the square of each light piece, and can a piece standing on the middle rosette be taken at all?',
    ex3: 'Bearing off in the end-game',
    ex3Text: 'Light has two pieces left, on squares {near} and {far} of its {length}-square path. Mark, for each, the rolls that bear it off the board.',
    ex3Right: 'Right: the piece on {near} needs exactly {nearRoll}, the one on {far} exactly {farRoll}. A roll larger than the distance does not bear a piece off — it must move another piece, or the turn passes.',
    ex3Wrong: 'Not yet. Count the squares left to the end of the path: only that exact roll bears a piece off.',
    check: 'Check',
    pieceOn: 'The piece on square {n}',
    rollN: 'Roll {n}',
    fairness:
      'All dice are rolled by the server from a secret seed; its hash is shown during the game and the seed after it, so every roll can be checked.',
  },
  ko: {
    intro:
      '우르 왕실 놀이는 4,500년 전 메소포타미아에서 즐기던 놀이입니다. 옛 규칙은 전해지지 않아, 마당은 대영박물관의 어빙 핀켈이 되살린 현대 규칙을 따르며 블리츠와 마스터스 변형을 설정으로 고를 수 있습니다.',
    board: '말판',
    boardText: [
      '스무 칸이 세 줄로 놓여 있습니다. 왼쪽 줄은 백, 오른쪽 줄은 흑의 것이고, 가운데 줄은 함께 쓰며 둘 다 같은 방향으로 달립니다.',
      '한 사람의 길은 14칸입니다. 자기 줄 4칸(옆의 빈자리에서 들어옴), 가운데 8칸, 다시 자기 줄 2칸을 지나 말판 밖으로 나갑니다. 다섯 칸에 로제트 ✿가 있습니다.',
    ],
    play: '한 차례',
    playText: [
      '주사위 네 개를 굴립니다. 표시된 꼭짓점이 위로 온 개수가 나온 수이며 0부터 4까지입니다.',
      '말 하나를 정확히 그 수만큼 옮기거나, 손에 있는 말을 1-4번 칸에 들입니다. 0이 나오거나 둘 수 있는 수가 없으면 차례를 넘깁니다.',
      '자기 말이 있는 칸에는 갈 수 없습니다. 가운데 줄에서 상대 말이 있는 칸에 서면 그 말을 잡아 주인의 손으로 돌려보냅니다.',
      '로제트에 서면 한 번 더 굴립니다. 가운데 로제트는 안전한 칸이기도 해서 그곳의 말은 잡히지 않습니다.',
      '말은 정확한 수로만 나갑니다(14번 칸에서는 1). 일곱 말을 먼저 모두 빼내는 사람이 이깁니다.',
    ],
    dice: '주사위: 똑같이 나올 법한 16가지',
    diceText:
      '네 주사위는 각각 표시된 꼭짓점(▲)이 위로 오거나(△) 오지 않을 확률이 반반이라 결과는 똑같이 나올 법한 16가지입니다. 표시의 개수가 나온 수입니다. 2가 가장 흔하고(16번에 6번), 0과 4가 가장 드뭅니다(각각 16번에 1번).',
    roll: '나온 수',
    ways: '가짓수',
    chance: '확률',
    results: '결과',
    tips: '알아 둘 세 가지',
    tipsText: [
      '한 번 더 굴리기와 안전은 서로 다른 혜택입니다. 모든 로제트는 한 번 더 굴리게 해 주지만, 가운데 로제트(B4)만 그 위의 말을 지켜 줍니다. 그곳에 말을 두면 상대의 길을 막을 수 있습니다.',
      '이 규칙에서는 잡아도 한 번 더 굴리지 않습니다. 한 번 더는 로제트만 줍니다. 잡기는 도착한 칸으로 정해집니다.',
      '끝판에는 정확한 수를 세어 보세요. 13번 칸에서는 2(16번에 6번), 14번 칸에서는 1(16번에 4번)이 필요합니다. 거리가 다른 말 두 개가 있으면 잘 나오는 수가 필요한 말을 남겨 두세요.',
    ],
    variants: '규칙 설정',
    variantsText: [
      '블리츠: 말 다섯 개, 16칸의 마스터스 길(가운데를 올라가 끝을 가로질러 돌아옴), 잡으면 한 번 더 굴림, 로제트는 안전하지 않음.',
      '마스터스: 말 일곱 개, 마스터스 길, 주사위 세 개(표시가 하나도 없으면 4), 로제트는 안전하지 않음.',
      '설정에서 하나씩 바꿀 수도 있습니다: 말 수(1-7), 잡으면 한 번 더, 안전한 로제트, 주사위, 길.',
    ],
    exercises: '단계별 연습',
    exercisesIntro: '규칙 안내의 연습 세 가지입니다. 화면에서 답한 뒤 확인해 보세요.',
    ex1: '규칙 이해: 던진 결과 나누기',
    ex1Text: '이진 주사위 네 개는 똑같이 나올 법한 16가지로 떨어집니다. 각각에 나온 수(위로 온 표시 ▲의 개수)를 정해 주세요.',
    ex1Right: '맞습니다. 0, 1, 2, 3, 4가 각각 1, 4, 6, 4, 1가지로 모두 16가지입니다. 다섯 수가 나올 확률은 같지 않습니다.',
    ex1Wrong: '아직입니다. 16가지 가운데 {wrong}가지가 틀렸습니다. 각각 위로 온 표시(▲)를 세어 보세요.',
    ex1Counts: '0-4에 나눈 가짓수: {counts} (합계 {total}).',
    ex2: '선택 비교: 안전한 로제트와 보통 칸',
    ex2Text: '백은 가운데 로제트({rosette}번 칸)와 공용 줄의 {plain}번 칸에 말이 있고, 흑은 {dark}번 칸에 말이 있습니다. 백의 말마다 흑이 잡을 수 있는 눈을 모두 고르세요.',
    ex2Right: '맞습니다. 흑은 {plain}번 칸의 말을 {plainRolls|로} 잡을 수 있고, 가운데 로제트의 말은 어떤 눈으로도 잡을 수 없습니다 — 안전한 칸이기 때문입니다. (로제트에 서면 한 번 더 굴리기도 하지만 그것은 다른 성질입니다. 다른 로제트는 한 번 더 굴리게 해 줄 뿐 지켜 주지 않습니다.)',
    ex2Wrong: '아직입니다. 흑의 말마다 어떤 눈이면 백의 말이 있는 칸에 닿는지 세어 보고, 가운데 로제트의 말을 잡을 수 있는지 생각해 보세요.',
    ex3: '복기로 확인: 끝판의 탈출',
    ex3Text: '백의 말이 {length}칸 길의 {near}번 칸과 {far}번 칸에 하나씩 남았습니다. 각 말을 판 밖으로 내보내는 눈을 모두 고르세요.',
    ex3Right: '맞습니다. {near}번 칸의 말은 정확히 {nearRoll|이}, {far}번 칸의 말은 정확히 {farRoll|이} 있어야 나갑니다. 남은 거리보다 큰 눈으로는 나갈 수 없어 다른 말을 옮기거나 차례를 넘깁니다.',
    ex3Wrong: '아직입니다. 길 끝까지 남은 칸을 세어 보세요. 그 수와 정확히 같은 눈으로만 나갈 수 있습니다.',
    check: '확인',
    pieceOn: '{n}번 칸의 말',
    rollN: '{n}',
    fairness:
      '모든 주사위는 서버가 비밀 시드로 굴립니다. 놀이 중에는 시드의 해시를, 끝난 뒤에는 시드를 보여 주므로 모든 굴림을 확인할 수 있습니다.',
  },
};

/**
 * One exercise: its question, the controls, a check button and the feedback it writes
 * (`check` returns whether the answer meets the seed's criterion, and the feedback text).
 * @param {string} id
 * @param {string} title
 * @param {string} question
 * @param {import('../dom.js').Children} controls
 * @param {() => [boolean, string]} check
 */
function exercise(id, title, question, controls, check) {
  const x = TEXT[currentLang()];
  const feedback = h('p', { class: 'ex-feedback', id: `${id}-feedback`, role: 'status' });
  return h(
    'section',
    { class: 'exercise', id },
    h('h3', { text: title }),
    h('p', { text: question }),
    controls,
    h('button', {
      type: 'button',
      id: `${id}-check`,
      text: x.check,
      on: {
        click: () => {
          const [right, text] = check();
          feedback.className = `ex-feedback ${right ? 'right' : 'wrong'}`;
          replace(feedback, text);
        },
      },
    }),
    feedback,
  );
}

/**
 * A row of roll checkboxes (1-4) for one question; returns the row and a reader of the rolls
 * ticked.
 * @param {string} name
 * @param {string} label
 */
function rollChoices(name, label) {
  const x = TEXT[currentLang()];
  const boxes = [1, 2, 3, 4].map((n) => h('input', { type: 'checkbox', name, value: n, id: `${name}-${n}` }));
  const row = h(
    'fieldset',
    { class: 'ex-rolls', id: name },
    h('legend', { text: label }),
    boxes.map((box, i) => h('label', { class: 'choice', for: box.id }, box, fill(x.rollN, { n: i + 1 }))),
  );
  const read = () => boxes.filter((b) => /** @type {HTMLInputElement} */ (b).checked).map((b) => Number(/** @type {HTMLInputElement} */ (b).value));
  return /** @type {[HTMLElement, () => number[]]} */ ([row, read]);
}

/**
 * The three exercises of seed 004 on the board of the default rules (the catalogue's): the
 * answers are worked out from the board's paths, rosettes and safe squares, not written down.
 * @param {any} board the catalogue's Ur board (`light_path`, `dark_path`, `tiles`, `safe_tiles`)
 */
function exercises(board) {
  const x = TEXT[currentLang()];
  // 1. The 16 throws: each gets a select of 0-4.
  const throws = [];
  for (let bits = 0; bits < 16; bits++) throws.push([0, 1, 2, 3].map((i) => (bits >> (3 - i)) & 1));
  const selects = throws.map((dice, i) =>
    h(
      'select',
      { id: `ex1-${i}`, 'aria-label': dice.map((d) => (d ? '▲' : '△')).join('') },
      h('option', { value: '', text: '?' }),
      [0, 1, 2, 3, 4].map((n) => h('option', { value: String(n), text: String(n) })),
    ),
  );
  const grid = h(
    'div',
    { class: 'ex-throws' },
    throws.map((dice, i) => h('label', { class: 'ex-throw' }, h('span', { class: 'combo', text: dice.map((d) => (d ? '▲' : '△')).join('') }), selects[i])),
  );
  const one = exercise('ex-dice', x.ex1, x.ex1Text, grid, () => {
    const given = selects.map((s) => /** @type {HTMLSelectElement} */ (s).value);
    const wrong = throws.filter((dice, i) => given[i] !== String(dice.reduce((a, b) => a + b, 0))).length;
    const counts = [0, 1, 2, 3, 4].map((n) => given.filter((g) => g === String(n)).length);
    const total = counts.reduce((a, b) => a + b, 0);
    const tally = fill(x.ex1Counts, { counts: counts.join(', '), total });
    return wrong === 0 ? [true, `${x.ex1Right} ${tally}`] : [false, `${fill(x.ex1Wrong, { wrong })} ${tally}`];
  });

  // 2. Light on the middle rosette and on an ordinary shared square; dark two and three squares
  // behind the plain one. Squares are path numbers (1-based); the shared row is where both paths
  // meet.
  /** @type {string[]} */
  const lightPath = board.light_path;
  /** @type {string[]} */
  const darkPath = board.dark_path;
  const safe = new Set(board.safe_tiles ?? []);
  const shared = lightPath.map((tile, i) => (darkPath[i] === tile ? i + 1 : 0)).filter(Boolean);
  const rosette = shared.find((sq) => safe.has(lightPath[sq - 1])) ?? shared[3];
  const plain = rosette + 2;
  const dark = [rosette - 2, rosette - 1];
  /** The rolls (1-4) with which one of dark's pieces lands on `square` and may capture there. */
  const captures = (/** @type {number} */ square) =>
    [1, 2, 3, 4].filter((r) => dark.some((d) => d + r === square) && !safe.has(lightPath[square - 1]));
  const [onRosette, readRosette] = rollChoices('ex2-rosette', fill(x.pieceOn, { n: rosette }));
  const [onPlain, readPlain] = rollChoices('ex2-plain', fill(x.pieceOn, { n: plain }));
  const same = (/** @type {number[]} */ a, /** @type {number[]} */ b) => a.length === b.length && a.every((v, i) => v === b[i]);
  const two = exercise('ex-rosette', x.ex2, fill(x.ex2Text, { rosette, plain, dark: dark.join(', ') }), [onRosette, onPlain], () => {
    const right = same(readRosette(), captures(rosette)) && same(readPlain(), captures(plain));
    return right ? [true, fill(x.ex2Right, { plain, plainRolls: captures(plain).join(', ') })] : [false, x.ex2Wrong];
  });

  // 3. Two pieces near the end: a piece bears off with exactly the squares left to the end
  // (path length + 1 is off the board).
  const length = lightPath.length;
  const near = length;
  const far = length - 2;
  const bears = (/** @type {number} */ square) => [1, 2, 3, 4].filter((r) => square + r === length + 1);
  const [nearRow, readNear] = rollChoices('ex3-near', fill(x.pieceOn, { n: near }));
  const [farRow, readFar] = rollChoices('ex3-far', fill(x.pieceOn, { n: far }));
  const three = exercise('ex-bear-off', x.ex3, fill(x.ex3Text, { near, far, length }), [nearRow, farRow], () => {
    const right = same(readNear(), bears(near)) && same(readFar(), bears(far));
    return right ? [true, fill(x.ex3Right, { near, far, nearRoll: bears(near).join(', '), farRoll: bears(far).join(', ') })] : [false, x.ex3Wrong];
  });
  return [h('h2', { text: x.exercises }), h('p', { text: x.exercisesIntro }), one, two, three];
}

/**
 * The rules page body in the current language.
 * @param {any} info the catalogue entry (its `board`: the default rules' board)
 */
export function urRules(info) {
  const x = TEXT[currentLang()];
  const combos = combinations();
  return [
    h('p', { text: x.intro }),
    rulesSection(x.board, x.boardText),
    rulesSection(x.play, x.playText, true),
    h('h2', { text: x.dice }),
    h('p', { text: x.diceText }),
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'data dice-table', id: 'ur-dice-table' },
        h('thead', {}, h('tr', {}, [x.roll, x.ways, x.chance, x.results].map((c) => h('th', { scope: 'col', text: c })))),
        h(
          'tbody',
          {},
          combos.map((group, roll) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row', text: String(roll) }),
              h('td', { class: 'num', text: String(group.length) }),
              h('td', { class: 'num', text: `${group.length}/16` }),
              h('td', { class: 'combos' }, group.map((c) => h('span', { class: 'combo', text: c }))),
            ),
          ),
        ),
      ),
    ),
    rulesSection(x.tips, x.tipsText),
    rulesSection(x.variants, x.variantsText),
    info?.board ? exercises(info.board) : null,
    h('p', { class: 'hint', text: x.fairness }),
  ];
}
