// The rules page of Ludo (spec ludo.md, from seed 003), in English and Korean: the board, a
// turn, captures and stacks (no blockades, no capture bonus), the end, the controls, the
// computer levels, tips, and the fair dice.

import { h } from '../dom.js';
import { rulesSection } from './common.js';
import { currentLang } from '../i18n.js';

const TEXT = {
  en: {
    intro:
      'madang plays one specific Ludo: you, Red at the bottom, against three computer players — Green on the left, Yellow at the top and Blue on the right — all at the level you choose. Every game uses all four seats; there is no two- or three-player game.',
    aim: 'Be the first to bring all four of your pieces from your base into the goal in the centre. The game ends the moment someone does; second to fourth places are not played out.',
    legendTitle: 'On the board',
    legend: [
      ['start', 'Start square: where your pieces enter the track. Safe.'],
      ['star', 'Star square, eight squares past each start. Safe.'],
      ['home', 'Home column: five squares only their owner may enter. Safe.'],
      ['goal', 'Goal: your triangle in the centre.'],
    ],
    board: 'The board',
    boardText: [
      'The 15 × 15 board has one track of 52 squares, shared by all four colours. It runs clockwise: from the bottom arm to the left, the top and the right — the order of play.',
      'All pieces start in their base, the large corner square of their colour. A piece enters the track on its start square, the coloured square with an arrow just outside its base.',
      'After almost a full lap (50 squares past the start) a piece leaves the track for its own home column and then the goal: 56 steps from start square to goal.',
      'Eight squares are safe: the four start squares and the four star squares. Pieces of different colours may share a safe square and nobody is captured there. The home columns are safe as well.',
      'In the move log a piece’s place is its number of steps from its start square: 0 is the start square, 1-50 the track, 51-55 the home column and 56 the goal. Pieces are numbered 1-4.',
    ],
    turn: 'A turn',
    turnText: [
      'On your turn, tap the die to roll it; the computers roll their own. Red always rolls first, then Green, Yellow and Blue.',
      'A 6 lets a piece leave its base onto its start square. Any roll moves a piece that is already out that many steps forward.',
      'After moving with a 6 you roll again. A 6 that no piece can use still gives the extra roll: the 6 earns the roll, not the move.',
      'Three 6s in a row: the third 6 is void — nothing moves and the turn passes. Moves made with the first two 6s stand, captures included.',
      'Reaching the goal needs the exact roll. A roll that would take a piece past the goal cannot move that piece.',
      'If no piece can move, a short “no move” notice shows and the turn passes by itself.',
    ],
    capture: 'Captures and stacks',
    captureText: [
      'Landing on a square that is not safe and holds pieces of another colour sends every one of them back to its base, however many there are.',
      'A capture never earns an extra roll: only a 6 does.',
      'Leaving base onto your own start square never captures: it is a safe square.',
      'Several of your own pieces may share a square. This has no effect: it blocks no one and protects nothing. An enemy landing there sends all of them home at once.',
      'These two rules — stacks protect nothing and captures earn no extra roll — are deliberate: most Ludo apps let a pair of pieces block the track and give a bonus roll for a capture. This game has no blockades at all.',
    ],
    end: 'The end of a game',
    endText: [
      'The first to have all four pieces in the goal wins, and the game ends at once.',
      'A game that has resolved its 10,000th roll without a winner ends with no result. This is very rare.',
      'There is no resigning in Ludo. You may leave a game: it counts as played, but as neither a win nor a loss. Only finished games count as wins or losses.',
    ],
    controls: 'Playing on this screen',
    controlsText: [
      'On your turn the pieces that can move with your roll glow, and the squares where they would land are marked. Tap a glowing piece, or its landing square, and it moves by the roll — there is nothing else to choose. Tapping anything else does nothing.',
      'Each movable piece’s tap area is larger than its square, so it is easy to hit on a phone; where two areas overlap, the tap goes to the nearest piece.',
      'Your pieces sharing a square are drawn slightly apart so each can be tapped, with the number of pieces in the square’s corner.',
      'With a keyboard: Tab to a glowing piece and press Enter.',
      'There are no time limits, no undo and no hints. The glow only shows which moves are legal, never which one is better.',
    ],
    levels: 'The computer players',
    levelsText: [
      'Easy picks one of the legal moves at random.',
      'Normal always prefers, in this order: a capture (the one sending more pieces home first), reaching the goal, leaving base, landing on a safe square, and last a plain advance.',
      'Hard uses the same order, but lowers each move’s value by an estimate of the chance that the destination is captured before it moves again. It is an estimate, not a search: it does not look ahead to further rolls.',
      'All three computers play the level chosen at the start. Ties are broken by a draw from the game’s own seed, so the same seed and the same choices always play out the same way.',
    ],
    tips: 'Tips',
    tipsText: [
      'Think before using a 6: with pieces still in base you choose between bringing a new one out and moving one that is already running.',
      'Since a capture buys no extra roll here, being captured costs less than in other versions — spreading your risk over several pieces is cheaper than it looks.',
      'Keep your pieces apart rather than stacked: a shared square can lose both to one roll.',
      'The eight safe squares are the only places to wait without risk.',
      'Near the goal an overshooting roll is wasted: with more than one piece in reach of the goal you are more likely to have a move when the exact number does not come.',
    ],
    options: 'Rule options',
    optionsText: 'This Ludo has no rule options: the rules above always apply. At the start you choose only the computer level.',
    fairness:
      'Every roll comes from the game’s seed, fixed before the first roll: the same seed always gives the same rolls whatever anyone chooses, and every face has the same chance for every seat. The seed’s SHA-256 hash is shown during the game and the seed itself afterwards, so every roll can be checked with madang verify.',
  },
  ko: {
    intro:
      '마당의 루도는 정해진 한 가지 규칙을 따릅니다. 아래쪽 빨강인 내가 컴퓨터 셋 — 왼쪽 초록, 맞은편 노랑, 오른쪽 파랑 — 과 겨루며, 세 컴퓨터는 모두 고른 난이도로 둡니다. 모든 판은 네 자리를 전부 쓰며, 2인용이나 3인용 판은 없습니다.',
    aim: '내 말 4개를 출발지에서 가운데 골인 지점까지 가장 먼저 모두 들여보내면 이깁니다. 누군가 그렇게 하는 순간 판이 끝나며, 2등·3등·4등은 가리지 않습니다.',
    legendTitle: '말판 보기',
    legend: [
      ['start', '시작 칸: 말이 트랙에 들어서는 칸. 안전합니다.'],
      ['star', '별 칸: 각 시작 칸에서 8칸 더 간 곳. 안전합니다.'],
      ['home', '홈 구간: 주인만 들어갈 수 있는 다섯 칸. 안전합니다.'],
      ['goal', '골인: 가운데에 있는 내 색 삼각형.'],
    ],
    board: '말판',
    boardText: [
      '15×15 말판에는 네 색이 함께 쓰는 52칸짜리 트랙이 하나 있습니다. 트랙은 시계 방향으로 — 아래쪽에서 왼쪽, 위쪽, 오른쪽으로 — 돌며, 이는 차례 순서와 같습니다.',
      '모든 말은 자기 색의 커다란 모서리 칸인 출발지에서 시작합니다. 말은 출발지 바로 바깥, 화살표가 있는 자기 색 칸인 시작 칸으로 트랙에 들어섭니다.',
      '거의 한 바퀴(시작 칸에서 50칸)를 돌면 말은 트랙을 벗어나 자기 홈 구간으로 들어가고, 이어서 골인합니다. 시작 칸에서 골인까지는 56걸음입니다.',
      '안전 칸은 8곳입니다: 시작 칸 4개와 별 칸 4개. 서로 다른 색의 말도 안전 칸 하나를 함께 쓸 수 있으며, 그곳에서는 아무도 잡히지 않습니다. 홈 구간도 안전합니다.',
      '수 기록에서 말의 자리는 시작 칸에서 몇 걸음 왔는지로 적습니다: 0은 시작 칸, 1-50은 트랙, 51-55는 홈 구간, 56은 골인입니다. 말에는 1-4번이 붙어 있습니다.',
    ],
    turn: '한 차례',
    turnText: [
      '내 차례에는 주사위를 눌러 굴리고, 컴퓨터는 스스로 굴립니다. 언제나 빨강이 먼저 굴리고, 이어서 초록, 노랑, 파랑 순서입니다.',
      '6이 나오면 말 하나가 출발지를 벗어나 시작 칸으로 나갈 수 있습니다. 어떤 눈이든 이미 나와 있는 말을 그 수만큼 앞으로 옮깁니다.',
      '6으로 말을 옮긴 뒤에는 한 번 더 굴립니다. 아무 말도 쓰지 못한 6도 한 번 더 굴리게 해 줍니다 — 6이 주는 것은 이동이 아니라 굴리는 기회입니다.',
      '6이 세 번 연속으로 나오면 세 번째 6은 무효입니다 — 아무것도 움직이지 않고 차례가 넘어갑니다. 처음 두 번의 6으로 한 이동은 잡기까지 포함해 그대로 남습니다.',
      '골인하려면 정확한 수가 나와야 합니다. 골인 지점을 지나치게 되는 눈으로는 그 말을 움직일 수 없습니다.',
      '움직일 수 있는 말이 없으면 짧은 "움직일 말 없음" 알림이 뜨고 차례가 저절로 넘어갑니다.',
    ],
    capture: '잡기와 말 쌓기',
    captureText: [
      '안전 칸이 아닌 칸에 다른 색 말이 있을 때 그 칸에 도착하면, 그곳의 다른 색 말은 몇 개든 전부 자기 출발지로 돌아갑니다.',
      '잡기는 절대 한 번 더 굴리기를 주지 않습니다. 한 번 더는 오직 6만 줍니다.',
      '출발지에서 자기 시작 칸으로 나가는 것은 절대 잡지 않습니다. 시작 칸은 안전 칸이기 때문입니다.',
      '내 말 여러 개가 한 칸에 함께 있을 수 있습니다. 그래도 아무 효과가 없습니다: 누구도 막지 못하고 아무것도 지켜 주지 않습니다. 그 칸에 적이 도착하면 쌓인 말이 한꺼번에 모두 출발지로 돌아갑니다.',
      '쌓은 말은 보호받지 못하고 잡아도 한 번 더 굴리지 않는다는 이 두 규칙은 일부러 정한 것입니다. 대부분의 루도 앱에서는 말 두 개가 길을 막는 방벽이 되고 잡으면 한 번 더 굴리지만, 이 놀이에는 방벽이 아예 없습니다.',
    ],
    end: '판의 끝',
    endText: [
      '말 4개를 가장 먼저 모두 골인시킨 사람이 이기고, 판은 그 즉시 끝납니다.',
      '10,000번째 굴리기가 끝날 때까지 승자가 없으면 판은 승부 없이 끝납니다. 아주 드문 일입니다.',
      '루도에는 기권이 없습니다. 판에서 나갈 수는 있으며, 나간 판은 둔 판으로 세지만 승리도 패배도 아닙니다. 실제로 끝난 판만 승리나 패배로 셉니다.',
    ],
    controls: '이 화면에서 두는 법',
    controlsText: [
      '내 차례가 되면 나온 눈으로 움직일 수 있는 말이 빛나고, 그 말이 도착할 칸이 표시됩니다. 빛나는 말이나 그 도착 칸을 누르면 나온 눈만큼 움직입니다 — 따로 고를 것은 없습니다. 그 밖의 것을 눌러도 아무 일도 일어나지 않습니다.',
      '움직일 수 있는 말의 누르는 영역은 칸보다 넓어서 휴대전화에서도 누르기 쉽습니다. 두 영역이 겹치는 곳에서는 더 가까운 말이 선택됩니다.',
      '한 칸에 함께 있는 내 말은 하나하나 누를 수 있도록 살짝 떨어뜨려 그리며, 칸 모서리에 말의 개수를 적습니다.',
      '키보드로는 Tab으로 빛나는 말로 가서 Enter를 누릅니다.',
      '시간 제한도, 되돌리기도, 힌트도 없습니다. 빛나는 표시는 어떤 수가 규칙에 맞는지만 보여 줄 뿐, 어느 수가 더 좋은지는 알려 주지 않습니다.',
    ],
    levels: '컴퓨터 난이도',
    levelsText: [
      '쉬움은 둘 수 있는 수 가운데 하나를 무작위로 고릅니다.',
      '보통은 언제나 이 순서를 따릅니다: 잡기(더 많은 말을 돌려보내는 잡기가 먼저), 골인, 출발지 탈출, 안전 칸 도착, 마지막으로 단순 전진.',
      '어려움은 같은 순서를 쓰되, 도착할 칸이 다음 차례 전에 잡힐 가능성의 추정치만큼 그 수의 값을 낮춥니다. 어디까지나 추정치이며, 앞으로 나올 눈을 내다보며 탐색하지는 않습니다.',
      '세 컴퓨터는 모두 시작할 때 고른 난이도로 둡니다. 동점은 그 판의 시드에서 뽑은 값으로 가리므로, 같은 시드에서 같은 선택을 하면 언제나 똑같이 흘러갑니다.',
    ],
    tips: '팁',
    tipsText: [
      '6은 그냥 쓰지 말고 생각해 보세요. 출발지에 말이 남아 있다면 새 말을 내보낼지, 이미 달리는 말을 전진시킬지 골라야 합니다.',
      '이 놀이에서는 잡아도 한 번 더 굴리지 않으므로 잡히는 대가가 다른 판본보다 작습니다 — 위험을 여러 말에 나누는 쪽이 보기보다 저렴합니다.',
      '말을 한 칸에 쌓기보다 떨어뜨려 두세요. 한 칸에 함께 있으면 눈 한 번에 둘 다 잃을 수 있습니다.',
      '안전 칸 8곳만이 위험 없이 머무를 수 있는 곳입니다.',
      '골인 근처에서는 지나치는 눈이 그냥 버려집니다. 골인 사정권 안에 말을 하나 넘게 두면 정확한 수가 나오지 않아도 둘 수 있는 말이 있을 가능성이 커집니다.',
    ],
    options: '규칙 설정',
    optionsText: '이 루도에는 규칙 설정이 없습니다. 위의 규칙이 언제나 그대로 쓰이며, 시작할 때는 컴퓨터 난이도만 고릅니다.',
    fairness:
      '모든 주사위 눈은 첫 굴리기 전에 정해진 그 판의 시드에서 나옵니다. 같은 시드는 누가 무엇을 고르든 언제나 같은 눈을 만들고, 여섯 면이 나올 확률은 모든 자리에서 똑같습니다. 놀이 중에는 시드의 SHA-256 해시를, 끝난 뒤에는 시드를 보여 주므로 madang verify로 모든 굴림을 확인할 수 있습니다.',
  },
};

/**
 * A small drawing of one kind of square for the legend.
 * @param {string} kind
 */
function sample(kind) {
  if (kind === 'start') return h('span', { class: ['ludo-sample', 'ludo-sq', 'start', 'ludo-c0'] }, h('span', { class: 'ludo-arrow', text: '➜' }));
  if (kind === 'star') return h('span', { class: ['ludo-sample', 'ludo-sq', 'star'] }, h('span', { class: 'ludo-star', text: '★' }));
  if (kind === 'home') return h('span', { class: ['ludo-sample', 'ludo-sq', 'home', 'ludo-c0'] });
  return h('span', { class: ['ludo-sample', 'ludo-goal-sample'] });
}

/** The rules page body in the current language. */
export function ludoRules() {
  const x = TEXT[currentLang()];
  return [
    h('p', { text: x.intro }),
    h('p', { text: x.aim }),
    h('h2', { text: x.legendTitle }),
    h(
      'ul',
      { class: 'ludo-legend' },
      x.legend.map(([kind, text]) => h('li', {}, h('span', { 'aria-hidden': 'true' }, sample(kind)), h('span', { text }))),
    ),
    rulesSection(x.board, x.boardText),
    rulesSection(x.turn, x.turnText, true),
    rulesSection(x.capture, x.captureText),
    rulesSection(x.end, x.endText),
    rulesSection(x.controls, x.controlsText),
    rulesSection(x.levels, x.levelsText),
    rulesSection(x.tips, x.tipsText),
    h('h2', { text: x.options }),
    h('p', { text: x.optionsText }),
    h('p', { class: 'hint', text: x.fairness }),
  ];
}
