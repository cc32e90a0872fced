// The rules page of Seven Dice Poker (spec dice-poker.md), in English and Korean: the turn, the
// two board types drawn as small grids, the six hands with example dice, tie-breaks, the token
// rule and every rule option.

import { h } from '../dom.js';
import { currentLang, t } from '../i18n.js';
import { die, rulesSection } from './common.js';

const TEXT = {
  en: {
    intro:
      'Seven Dice Poker is an original two-player dice game by the Korean designer grane. Roll a die, place it on the board — and every die next to it changes: yours go up, your opponent’s go down. When all dice are placed, the better five-dice poker hand wins.',
    parts: 'What you play with',
    partsText: [
      'A board of 16 cells (normally a 4 × 4 grid). The cells are numbered 0-15 in reading order; the move log uses these numbers.',
      'Seven dice for each player: white and black.',
      'With the token rule, one token for each player in their colour.',
    ],
    start: 'Who starts',
    startText:
      'A roll-off: white rolls one die, then black. The higher roll starts; on a tie both roll again. (The original allows rock-paper-scissors too; here the dice decide, drawn by the server like every roll.)',
    turn: 'A turn',
    turnText: [
      'Roll one die and place it, showing the rolled value, in any empty cell.',
      'Then every die in the cells next to it changes: your own dice +1, your opponent’s dice −1.',
      'Values wrap around: 6 + 1 = 1 and 1 − 1 = 6.',
      'The die you placed keeps its rolled value. Tokens never change and are not dice.',
      'Turns alternate until both players have placed all seven dice (and, with the token rule, their tokens). Without tokens two cells stay empty; with tokens all 16 fill.',
    ],
    kinds: 'Board types: which cells change',
    kindsText:
      'The ● marks the cell where a die is placed; the shaded cells are the ones whose dice change. A die in a corner or at an edge has fewer neighbours; the board does not wrap around.',
    kindA: 'Type A (default): the eight surrounding cells',
    kindB: 'Type B: the four cells up, down, left and right',
    hands: 'Hands, weakest to strongest',
    handsText:
      'At the end each player takes the final values of their seven dice and counts the best five of them (the game chooses them for you). The better hand wins. Seven dice over six values always hold at least two pair, three of a kind or a straight, so everyone has a hand.',
    hand: 'Hand',
    meaning: 'Meaning',
    example: 'Example',
    meanings: [
      'two values twice each',
      'one value three times',
      'five different values',
      'three of one value and two of another',
      'one value four times',
      'one value five times',
    ],
    straight: 'What is a straight?',
    straightText: [
      'As the designer defines it, a straight is any five different values. On a six-sided die whose values wrap around (6 → 1), any five different values are consecutive around the circle: 1 2 3 4 6 is a straight (6-1-2-3-4).',
      'A consequence: with this definition three of a kind is never anyone’s best hand (a triple plus the four other dice always gives five different values), and two pair only comes from three pairs and a single die.',
      'The rule option “Straight: only 1-2-3-4-5 or 2-3-4-5-6” plays the usual dice-poker straight instead.',
    ],
    ties: 'Equal hands',
    tiesText: [
      'Compare the pips: first the values that make the hand, the larger group first (for a full house the triple, then the pair; for two pair the higher pair, then the lower pair), then the hand’s other dice from highest to lowest.',
      'Straights compare their five values from highest to lowest.',
      'Dice outside the best five never count. Completely equal hands are a draw.',
      'The end screen lists each hand’s dice in this comparison order.',
    ],
    tokens: 'The token rule (option)',
    tokensText: [
      'Each player has one token and must place it exactly once, on any turn.',
      'Instead of placing the die you just rolled, you may place your token in an empty cell. The token changes no neighbours and is not part of any hand. The rolled die is not used: you still have it to place later.',
      'If your only piece left is the token, you do not roll: your turn is just placing the token.',
      'On the board: tap “Place the token instead”, then an empty cell. Tap the button again to go back to placing the die.',
    ],
    options: 'Rule options',
    optionsText: [
      'Board type: A (eight neighbours, default) or B (four neighbours).',
      'Token rule: off (default) or on, as above.',
      'Straight: any five different values (default, the designer’s rule) or only 1-2-3-4-5 and 2-3-4-5-6.',
      'Board layout: rows of # (cell) and . (no cell) with exactly 16 cells, for example .##. / #### / #### / #### / .##. — neighbours are the cells next to each other on that grid. The default is the 4 × 4 grid.',
    ],
    screen: 'On the screen',
    screenText: [
      'The die you rolled is shown beside the board in your colour; tap a highlighted empty cell to place it. Pointing at (or tabbing to) a cell previews which dice would change.',
      'After each placement the dice that changed show +1 or −1 for a moment.',
      'Next to the board: how many dice (and the token) each player still has to place, and at the end each player’s hand.',
    ],
    fairness:
      'All dice are rolled by the server from a secret seed; its hash is shown during the game and the seed after it, so every roll can be checked.',
  },
  ko: {
    intro:
      '일곱 주사위 포커는 한국의 디자이너 grane이 만든 2인용 주사위 놀이입니다. 주사위를 굴려 게임판에 놓으면 옆 칸의 주사위 눈이 바뀝니다. 내 주사위는 올라가고 상대 주사위는 내려갑니다. 모든 주사위를 놓은 뒤 다섯 개로 만든 포커 패가 더 높은 사람이 이깁니다.',
    parts: '구성품',
    partsText: [
      '16칸의 게임판 (보통 4 × 4). 칸 번호는 왼쪽 위부터 읽는 순서로 0-15이며, 기록에 이 번호가 쓰입니다.',
      '각자 주사위 일곱 개: 흰색과 검은색.',
      '토큰 규칙을 쓰면 각자 자기 색 토큰 하나.',
    ],
    start: '순서 정하기',
    startText:
      '흰색이 주사위 하나를 굴리고, 이어 검은색이 굴립니다. 높은 쪽이 먼저 하고, 같으면 둘 다 다시 굴립니다. (원작은 가위바위보도 허용하지만, 여기서는 다른 굴림과 같이 서버가 주사위로 정합니다.)',
    turn: '한 차례',
    turnText: [
      '주사위 하나를 굴려 나온 눈 그대로 빈칸 아무 곳에 놓습니다.',
      '그러면 놓은 칸 옆의 주사위가 모두 바뀝니다. 내 주사위는 +1, 상대 주사위는 −1.',
      '눈은 돌아갑니다. 6 + 1 = 1, 1 − 1 = 6.',
      '방금 놓은 주사위는 굴린 눈 그대로입니다. 토큰은 바뀌지 않고 주사위로 세지 않습니다.',
      '두 사람이 주사위 일곱 개를 (토큰 규칙이면 토큰도) 모두 놓을 때까지 번갈아 둡니다. 토큰이 없으면 두 칸이 비고, 토큰이 있으면 16칸이 모두 찹니다.',
    ],
    kinds: '게임 타입: 바뀌는 칸',
    kindsText:
      '●은 주사위를 놓는 칸, 색칠한 칸은 주사위 눈이 바뀌는 칸입니다. 구석이나 가장자리에서는 이웃이 적고, 게임판은 반대편으로 이어지지 않습니다.',
    kindA: '타입 A (기본): 주변 여덟 칸',
    kindB: '타입 B: 상하좌우 네 칸',
    hands: '패 (약한 것부터)',
    handsText:
      '끝나면 각자 일곱 주사위의 마지막 눈에서 가장 좋은 다섯 개로 패를 만듭니다 (고르는 것은 놀이가 해 줍니다). 패가 높은 사람이 이깁니다. 주사위 일곱 개는 눈 여섯 가지 위에 놓이므로 언제나 투페어, 트리플, 스트레이트 중 하나 이상이 나옵니다.',
    hand: '패',
    meaning: '뜻',
    example: '예',
    meanings: [
      '같은 눈 두 개가 두 쌍',
      '같은 눈 세 개',
      '서로 다른 눈 다섯 개',
      '같은 눈 세 개와 다른 같은 눈 두 개',
      '같은 눈 네 개',
      '같은 눈 다섯 개',
    ],
    straight: '스트레이트란?',
    straightText: [
      '디자이너의 정의로는 서로 다른 눈 다섯 개가 스트레이트입니다. 눈이 돌아가는 (6 → 1) 여섯 면 주사위에서는 서로 다른 눈 다섯 개가 언제나 원을 따라 이어집니다. 1 2 3 4 6도 스트레이트입니다 (6-1-2-3-4).',
      '그래서 이 정의에서는 트리플(쓰리 오브 어 카인드)이 가장 좋은 패가 되는 일이 없고 (트리플과 나머지 네 개는 언제나 서로 다른 눈 다섯 개), 투페어는 세 쌍과 하나일 때만 나옵니다.',
      '규칙 설정 “스트레이트: 1-2-3-4-5 또는 2-3-4-5-6만”을 고르면 흔한 주사위 포커의 스트레이트로 합니다.',
    ],
    ties: '같은 패일 때',
    tiesText: [
      '눈의 크기를 비교합니다. 먼저 패를 이루는 눈을 큰 묶음부터 (풀하우스는 트리플 다음 페어, 투페어는 높은 페어 다음 낮은 페어), 그다음 패의 나머지 주사위를 높은 것부터 비교합니다.',
      '스트레이트는 다섯 눈을 높은 것부터 비교합니다.',
      '다섯 개 밖의 주사위는 세지 않습니다. 완전히 같으면 무승부입니다.',
      '결과 화면은 각 패의 주사위를 이 비교 순서로 보여 줍니다.',
    ],
    tokens: '토큰 규칙 (설정)',
    tokensText: [
      '각자 토큰 하나를 가지고, 아무 차례에나 꼭 한 번 놓아야 합니다.',
      '방금 굴린 주사위 대신 토큰을 빈칸에 놓을 수 있습니다. 토큰은 주변 눈을 바꾸지 않고 패에 들지 않습니다. 굴린 주사위는 쓰지 않고 남아 나중에 놓습니다.',
      '남은 것이 토큰뿐이면 굴리지 않고 토큰만 놓습니다.',
      '화면에서는 “주사위 대신 토큰 놓기”를 누르고 빈칸을 누릅니다. 다시 누르면 주사위 놓기로 돌아갑니다.',
    ],
    options: '규칙 설정',
    optionsText: [
      '게임 타입: A (주변 여덟 칸, 기본) 또는 B (상하좌우 네 칸).',
      '토큰 규칙: 끔 (기본) 또는 켬, 위와 같이.',
      '스트레이트: 서로 다른 눈 다섯 개 (기본, 디자이너의 규칙) 또는 1-2-3-4-5와 2-3-4-5-6만.',
      '게임판 모양: # (칸)과 . (빈자리)로 된 줄들, 칸은 정확히 16개. 예: .##. / #### / #### / #### / .##. — 그 격자에서 붙어 있는 칸이 이웃입니다. 기본은 4 × 4입니다.',
    ],
    screen: '화면 보기',
    screenText: [
      '굴린 주사위는 게임판 옆에 내 색으로 보입니다. 빛나는 빈칸을 눌러 놓으세요. 칸을 가리키거나 탭 키로 고르면 바뀔 주사위를 미리 보여 줍니다.',
      '놓을 때마다 바뀐 주사위에 +1 또는 −1이 잠깐 표시됩니다.',
      '게임판 옆에 각자 남은 주사위 수(와 토큰)가, 끝나면 각자의 패가 보입니다.',
    ],
    fairness:
      '모든 주사위는 서버가 비밀 시드로 굴립니다. 놀이 중에는 시드의 해시를, 끝난 뒤에는 시드를 보여 주므로 모든 굴림을 확인할 수 있습니다.',
  },
};

/** The hands, weakest first, with the spec's examples (written low to high). */
const HANDS = [
  ['two_pair', [1, 2, 2, 5, 5]],
  ['three_of_a_kind', [1, 3, 3, 3, 5]],
  ['straight', [2, 3, 4, 5, 6]],
  ['full_house', [3, 3, 6, 6, 6]],
  ['four_of_a_kind', [1, 4, 4, 4, 4]],
  ['five_of_a_kind', [6, 6, 6, 6, 6]],
];

/**
 * A 4 × 4 grid with a die placed on cell 5 and its neighbours of the board type shaded.
 * @param {'a' | 'b'} kind
 * @param {string} caption
 */
function diagram(kind, caption) {
  const centre = [1, 1];
  const cells = [];
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 4; c++) {
      const dr = Math.abs(r - centre[0]);
      const dc = Math.abs(c - centre[1]);
      const here = dr === 0 && dc === 0;
      const near = kind === 'a' ? dr <= 1 && dc <= 1 && !here : dr + dc === 1;
      cells.push(h('span', { class: ['dp-mini-cell', near && 'near', here && 'here'], text: here ? '●' : '' }));
    }
  }
  return h(
    'figure',
    { class: 'dp-diagram' },
    h('div', { class: 'dp-mini-grid', role: 'img', 'aria-label': caption }, cells),
    h('figcaption', { text: caption }),
  );
}

/** The rules page body in the current language. */
export function dicePokerRules() {
  const x = TEXT[currentLang()];
  return [
    h(
      'div',
      { class: 'dp-rules' },
      h('p', { text: x.intro }),
      rulesSection(x.parts, x.partsText),
      h('h2', { text: x.start }),
      h('p', { text: x.startText }),
      rulesSection(x.turn, x.turnText, true),
      h('h2', { text: x.kinds }),
      h('p', { text: x.kindsText }),
      h('div', { class: 'dp-diagrams' }, diagram('a', x.kindA), diagram('b', x.kindB)),
      h('h2', { text: x.hands }),
      h('p', { text: x.handsText }),
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'data dp-hands-table', id: 'dp-hands-table' },
          h('thead', {}, h('tr', {}, [x.hand, x.meaning, x.example].map((c) => h('th', { scope: 'col', text: c })))),
          h(
            'tbody',
            {},
            HANDS.map(([name, dice], i) =>
              h(
                'tr',
                {},
                h('th', { scope: 'row', text: t(`dice-poker.hand.${name}`) }),
                h('td', { text: x.meanings[i] }),
                h(
                  'td',
                  {},
                  h(
                    'span',
                    { class: 'dp-example', role: 'img', 'aria-label': /** @type {number[]} */ (dice).join(' ') },
                    /** @type {number[]} */ (dice).map((v) => {
                      const el = die(v, 'white');
                      el.setAttribute('aria-hidden', 'true');
                      el.removeAttribute('role');
                      el.removeAttribute('aria-label');
                      return el;
                    }),
                  ),
                ),
              ),
            ),
          ),
        ),
      ),
      rulesSection(x.straight, x.straightText),
      rulesSection(x.ties, x.tiesText),
      rulesSection(x.tokens, x.tokensText),
      rulesSection(x.options, x.optionsText),
      rulesSection(x.screen, x.screenText),
      h('p', { class: 'hint', text: x.fairness }),
    ),
  ];
}
