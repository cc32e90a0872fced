// The rules page of the Royal Game of Ur (spec ur.md), in English and Korean, with the table of
// the 16 equally likely results of four binary dice (1, 4, 6, 4, 1).

import { h } from '../dom.js';
import { rulesSection } from './common.js';
import { currentLang } from '../i18n.js';

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
    fairness:
      'All dice are rolled by the server from a secret seed; its hash is shown during the game and the seed after it, so every roll can be checked.',
  },
  ko: {
    intro:
      '우르 왕실 놀이는 4,500년 전 메소포타미아에서 즐기던 놀이입니다. 옛 규칙은 전해지지 않아, 마당은 대영박물관의 어빙 핀켈이 되살린 현대 규칙을 따르며 블리츠와 마스터스 변형을 설정으로 고를 수 있습니다.',
    board: '말판',
    boardText: [
      '스무 칸이 세 줄로 놓여 있습니다. 왼쪽 줄은 빛, 오른쪽 줄은 어둠의 것이고, 가운데 줄은 함께 쓰며 둘 다 같은 방향으로 달립니다.',
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
    fairness:
      '모든 주사위는 서버가 비밀 시드로 굴립니다. 놀이 중에는 시드의 해시를, 끝난 뒤에는 시드를 보여 주므로 모든 굴림을 확인할 수 있습니다.',
  },
};

/** The rules page body in the current language. */
export function urRules() {
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
    h('p', { class: 'hint', text: x.fairness }),
  ];
}
