// The rules page of Yut Nori (spec yut.md), in English and Korean, with the table of throws and
// their chances with four fair sticks, and every rule option explained.

import { h } from '../dom.js';
import { rulesSection } from './common.js';
import { currentLang } from '../i18n.js';

const TEXT = {
  en: {
    intro:
      'Yut Nori is the Korean New Year game: four sticks are thrown instead of dice, and each side races its pieces (mal) around a board of 29 stations and home again. madang plays the fuller traditional rules; every variation below is a rule option in the set-up.',
    board: 'The board',
    boardText: [
      'Twenty stations on the outer square and nine inside: the centre (bang) and the two diagonals. Pieces enter from chammeogi, the bottom-right corner, travel up the right side, left along the top, down the left side and right along the bottom, and leave past chammeogi again.',
      'The corners have names: mo top right, dwitmo top left, jjimo bottom left. The corners mo and dwitmo and the centre are branches: a piece that stops there may take the shortcut along the diagonal. From mo the shortcut runs through the centre to jjimo; from dwitmo it runs through the centre straight to chammeogi.',
      'From chammeogi round the whole ring takes 20 steps; via mo and the centre 5 + 3 + 3 = 11; via dwitmo and the centre 10 + 6 = 16. A piece must still pass chammeogi to finish.',
    ],
    sticks: 'The throw',
    sticksText: [
      'Each stick lands flat side up or round side up. The number of flat sides up is the result: 1 do, 2 gae, 3 geol, 4 yut, none mo. They move a piece 1, 2, 3, 4 and 5 stations.',
      'One stick is marked. When only the marked stick lands flat side up the result is back-do: the piece moves one station back.',
      'Yut and mo earn another throw at once. The chain of throws ends on do, gae, geol or back-do; all its results together are the throw set.',
      'Very rarely a stick leaves the mat: nak. Under the default rule a nak voids every result of the chain it was thrown in and ends the turn.',
    ],
    table: 'Results and chances with four fair sticks',
    result: 'Result',
    flats: 'Flat sides up',
    move: 'Move',
    chance: 'Chance',
    again: 'throw again',
    rows: [
      ['back-do', '1 (the marked stick)', '−1', '1/16'],
      ['do', '1 (another stick)', '1', '3/16'],
      ['gae', '2', '2', '6/16'],
      ['geol', '3', '3', '4/16'],
      ['yut', '4', '4 + throw again', '1/16'],
      ['mo', '0', '5 + throw again', '1/16'],
    ],
    nakNote: 'Nak takes 1 in 100 throws by default; the others share the rest in the same proportions.',
    turn: 'A turn',
    turnText: [
      'Throw until the chain ends, then spend the results one at a time, in any order: each result enters a piece from your hand (onto station 1-5: do puts it on the first station, mo on the mo corner) or moves one of your pieces or stacks on the board.',
      'Every result must be used while any move exists for it. A result that cannot be used yet waits while you spend the others, because they may make it usable: with yut and back-do and no piece on the board, the yut enters a piece and the back-do then moves it back. What nothing can use at the end is discarded. Back-do can never enter a piece.',
      'Only the station where a piece stops matters: passing over other pieces does nothing.',
      'Landing on a station held by another side captures everything there (a whole stack at once): those pieces go back to their owner’s hand, and you earn a bonus throw. The bonus chain (yut and mo throw again in it too) forms a new throw set that you spend along with what is left. Every capture earns its own bonus throw, even one made by back-do.',
      'Landing on your own piece stacks them: the stack moves, finishes and is captured as one.',
      'The turn ends when no results are left. The first side to bring all its pieces home wins.',
    ],
    moving: 'Branches, finishing and back-do',
    movingText: [
      'A piece that stops on mo, dwitmo or the centre chooses its next station: the shortcut or the outer way (at the centre: towards chammeogi or towards jjimo). It keeps that choice until it leaves the station. A piece that passes a branch without stopping goes straight on: along the ring, or straight through the centre.',
      'A piece finishes when a move takes it past chammeogi. A piece that stops exactly on chammeogi stays on the board (it can still be captured there) and finishes with any later forward move. So from station 19 a do stops on chammeogi and a gae or more finishes. Steps beyond the exit are lost.',
      'Back-do moves a piece one station back the way it came. A piece on station 1 goes back to chammeogi and then finishes with any forward move. A piece with no earlier station on its way (such as one that has already stepped back to chammeogi) steps back along the ring instead: from chammeogi to station 19.',
    ],
    playing: 'On the screen',
    playingText: [
      'Tap a glowing piece (or your pieces in hand) to move it. When it can spend several results, it is selected and the stations it can reach light up with the result each one spends; tap one. You may tap a result in the throw set first: then every piece moves with that result.',
      'At a branch, tap one of the two arrows (or the labelled button below the board). Choices without a place on the board — the turn-order slot, stacking when it is optional, finishing — are labelled buttons.',
      'A stack shows its size; “+1 throw” appears when a yut, mo or capture earns another throw.',
    ],
    order: 'Who goes first',
    orderText:
      'By default every side throws once (mo 5 > yut 4 > geol 3 > gae 2 > do 1 > back-do −1; a nak is thrown again). Tied sides throw again among themselves. Then, from the best throw down, each side picks a free place in the turn order; the last side gets the place left. These throws do not count as moves.',
    teams: 'Teams',
    teamsText: [
      'In team games there are 2-4 teams of two. Players take turns alternately by team: A1, B1, A2, B2, … Extra throws stay with the player who earned them.',
      'Shared pieces: each team owns one set of pieces and either player may move any of them.',
      'Separate pieces: each player owns pieces; a player moves any unit holding at least one of their own pieces, and once all their own pieces are home they play for their teammate. Teammates’ pieces meeting on a station stack (or, with the option, capture each other).',
    ],
    options: 'Rule options',
    optionsList: [
      ['Pieces', '1-5 pieces per side (per player with separate team pieces), default 4. Fewer pieces make a shorter game.'],
      ['Sides and teams', 'individual (2-4 players), or teams of two sharing pieces or with separate pieces.'],
      ['Teammates meet', 'with separate team pieces: teammates’ pieces stack (default) or capture each other.'],
      ['Who goes first', 'the throwing ceremony above (default), or seat order.'],
      ['Shortcuts', 'optional: you choose at every branch you stop on (default); forced: a piece that stops on a branch always takes the shortcut.'],
      ['Stacking', 'automatic (default), or optional: you are asked each time your pieces meet; pieces left unstacked share the station and move separately, and a capture there takes all of them.'],
      ['Finishing', 'pass chammeogi (default), or reach it: any forward move that reaches or passes chammeogi finishes.'],
      ['End of game', 'first side home wins (default), or ranking: with 3-4 sides play goes on until one side is left, and the sides are ranked in the order they finished.'],
      ['Back-do', 'on (default) or off: without back-do a single flat side is always do.'],
      ['Nak', 'its chance (default 1/100; 0 turns it off) and what it voids: the whole chain and the turn (default), or only itself — a nak on the turn’s first throw passes the turn, later you spend what you have.'],
      ['Stick flat chance', 'the chance of each stick landing flat side up (default 1/2). Real sticks are often a little biased.'],
    ],
    results:
      'The results screen shows for each side: pieces finished, steps still needed by the pieces not home (the fewest, taking every shortcut), captures, throws earned (every yut or mo thrown and every capture bonus) and stacks made.',
    fairness:
      'Every throw is made by the server from a secret seed; its hash is shown during the game and the seed after it, so every throw can be checked.',
  },
  ko: {
    intro:
      '윷놀이는 설날의 놀이입니다. 주사위 대신 윷가락 넷을 던지고, 편마다 말을 29자리의 윷판 위로 한 바퀴 돌려 먼저 나는 편이 이깁니다. 마당은 전해 오는 온전한 규칙을 따르며, 아래의 여러 변형은 설정에서 고를 수 있습니다.',
    board: '윷판',
    boardText: [
      '바깥 네모에 스무 자리, 안쪽에 아홉 자리(방과 두 대각선)가 있습니다. 말은 오른쪽 아래 모서리 참먹이에서 들어가 오른쪽 변을 올라가고, 윗변을 지나 왼쪽 변을 내려와 아랫변을 따라 다시 참먹이를 지나 납니다.',
      '모서리에는 이름이 있습니다. 오른쪽 위는 모, 왼쪽 위는 뒷모, 왼쪽 아래는 찌모입니다. 모와 뒷모, 그리고 방은 갈림길입니다. 그 자리에 멈춘 말은 대각선 지름길로 갈 수 있습니다. 모에서는 방을 지나 찌모로, 뒷모에서는 방을 지나 곧장 참먹이로 갑니다.',
      '참먹이에서 바깥을 한 바퀴 돌면 20걸음, 모와 방을 거치면 5 + 3 + 3 = 11걸음, 뒷모와 방을 거치면 10 + 6 = 16걸음입니다. 나려면 참먹이를 지나야 합니다.',
    ],
    sticks: '윷 던지기',
    sticksText: [
      '윷가락은 평평한 면(앞면)이나 둥근 면이 위로 옵니다. 앞면이 위로 온 개수가 결과입니다. 하나는 도, 둘은 개, 셋은 걸, 넷은 윷, 하나도 없으면 모이며 말을 1, 2, 3, 4, 5자리 옮깁니다.',
      '윷가락 하나에는 표시가 있습니다. 표시된 가락 하나만 앞면이 위로 오면 빽도이며, 말이 한 자리 뒤로 갑니다.',
      '윷이나 모가 나오면 곧바로 한 번 더 던집니다. 도, 개, 걸, 빽도가 나오면 던지기가 끝나고, 그동안 나온 결과가 모두 한 윷 패가 됩니다.',
      '아주 드물게 윷가락이 멍석 밖으로 나가면 낙입니다. 기본 규칙에서 낙은 그 던지기에서 나온 결과를 모두 무효로 하고 차례를 끝냅니다.',
    ],
    table: '공정한 윷가락 넷의 결과와 확률',
    result: '결과',
    flats: '위로 온 앞면',
    move: '이동',
    chance: '확률',
    again: '한 번 더',
    rows: [
      ['빽도', '1 (표시된 가락)', '−1', '1/16'],
      ['도', '1 (다른 가락)', '1', '3/16'],
      ['개', '2', '2', '6/16'],
      ['걸', '3', '3', '4/16'],
      ['윷', '4', '4 + 한 번 더', '1/16'],
      ['모', '0', '5 + 한 번 더', '1/16'],
    ],
    nakNote: '낙은 기본으로 100번에 1번 나오며, 나머지 결과가 같은 비율로 나머지를 나눕니다.',
    turn: '한 차례',
    turnText: [
      '던지기가 끝날 때까지 던진 뒤, 나온 결과를 하나씩 원하는 순서로 씁니다. 결과 하나로 손에 있는 말을 올리거나(도는 첫 자리, 모는 모 자리까지 1-5자리) 판 위의 말이나 업은 말을 옮깁니다.',
      '쓸 수 있는 수가 있는 결과는 반드시 써야 합니다. 지금 쓸 수 없는 결과는 다른 결과를 쓰는 동안 남아 있습니다. 다른 결과를 쓰고 나면 쓸 수 있게 될 수도 있기 때문입니다. 예를 들어 판 위에 말이 없을 때 윷과 빽도가 나오면, 윷으로 말을 올린 뒤 빽도로 그 말을 한 자리 물립니다. 끝까지 쓸 수 없는 결과는 버립니다. 빽도로는 말을 올릴 수 없습니다.',
      '말이 멈춘 자리만 중요합니다. 다른 말을 지나쳐 가는 것은 아무 일도 일으키지 않습니다.',
      '다른 편 말이 있는 자리에 멈추면 그곳의 말을 모두(업은 말은 통째로) 잡습니다. 잡힌 말은 주인의 손으로 돌아가고, 잡은 편은 한 번 더 던집니다. 이 던지기(여기서도 윷과 모는 한 번 더)는 새 윷 패가 되어 남은 결과와 함께 씁니다. 잡을 때마다, 빽도로 잡아도 한 번 더 던집니다.',
      '자기 말이 있는 자리에 멈추면 업습니다. 업은 말은 함께 움직이고, 함께 나고, 함께 잡힙니다.',
      '쓸 결과가 남지 않으면 차례가 끝납니다. 말을 모두 먼저 내는 편이 이깁니다.',
    ],
    moving: '갈림길, 나기, 빽도',
    movingText: [
      '모, 뒷모, 방에 멈춘 말은 다음 자리를 고릅니다. 지름길이냐 바깥길이냐(방에서는 참먹이 쪽이냐 찌모 쪽이냐)를 고르며, 그 자리를 떠날 때까지 그 선택을 지킵니다. 갈림길을 멈추지 않고 지나가는 말은 곧장 갑니다. 바깥을 따라가거나 방을 곧게 지나갑니다.',
      '참먹이를 지나가면 말이 납니다. 참먹이에 꼭 맞게 멈춘 말은 판에 남고(그곳에서 잡힐 수도 있습니다) 다음에 앞으로 가는 어떤 결과로든 납니다. 그래서 19번 자리에서 도가 나오면 참먹이에 멈추고, 개 이상이면 납니다. 남는 걸음은 버립니다.',
      '빽도는 말을 온 길로 한 자리 물립니다. 1번 자리(도 자리)의 말은 참먹이로 물러나고, 그다음 앞으로 가는 결과로 납니다. 온 길에 더 물러날 자리가 없는 말(이미 참먹이로 물러난 말 등)은 바깥길을 따라 물러납니다. 참먹이에서는 19번 자리로 갑니다.',
    ],
    playing: '화면에서 두기',
    playingText: [
      '빛나는 말(또는 손에 있는 말)을 누르면 움직입니다. 여러 결과를 쓸 수 있는 말은 선택되고, 갈 수 있는 자리가 쓸 결과와 함께 빛납니다. 그 자리를 누르세요. 윷 패의 결과를 먼저 누르면 모든 말이 그 결과로 움직입니다.',
      '갈림길에서는 두 화살표 중 하나(또는 판 아래의 이름 붙은 단추)를 누릅니다. 판 위에 자리가 없는 선택, 곧 차례 순서 고르기, 업기 선택, 나기는 이름 붙은 단추로 합니다.',
      '업은 말에는 개수가 표시되고, 윷이나 모가 나오거나 잡아서 한 번 더 던질 때 “한 번 더”가 나타납니다.',
    ],
    order: '누가 먼저 하나',
    orderText:
      '기본으로 편마다 한 번씩 던집니다(모 5 > 윷 4 > 걸 3 > 개 2 > 도 1 > 빽도 −1, 낙은 다시 던짐). 같은 편끼리는 다시 던져 가립니다. 그런 다음 가장 잘 던진 편부터 차례 순서에서 빈자리를 고르고, 마지막 편은 남은 자리를 갖습니다. 이 던지기는 말을 움직이지 않습니다.',
    teams: '편 놀이',
    teamsText: [
      '편 놀이에서는 두 사람씩 2-4편이 됩니다. 편을 번갈아 A1, B1, A2, B2, … 차례로 던집니다. 한 번 더 던지기는 얻은 사람이 던집니다.',
      '말 함께 쓰기: 편마다 말 한 벌을 함께 쓰며, 두 사람 모두 어느 말이든 옮길 수 있습니다.',
      '말 따로 쓰기: 사람마다 자기 말이 있습니다. 자기 말이 하나라도 든 말은 옮길 수 있고, 자기 말이 모두 나면 같은 편의 말을 대신 둡니다. 같은 편 말이 만나면 업습니다(설정에 따라 서로 잡을 수도 있습니다).',
    ],
    options: '규칙 설정',
    optionsList: [
      ['말 수', '편마다(말 따로 쓰기에서는 사람마다) 1-5개, 기본 4개. 말이 적으면 판이 짧아집니다.'],
      ['편 가르기', '개인전(2-4명), 또는 두 사람씩 말을 함께 쓰거나 따로 쓰는 편 놀이.'],
      ['같은 편 말이 만나면', '말 따로 쓰기에서 업기(기본) 또는 잡기.'],
      ['누가 먼저', '위의 순서 정하기 던지기(기본) 또는 자리 순서.'],
      ['지름길', '고르기: 멈춘 갈림길마다 고릅니다(기본). 늘 지름길: 갈림길에 멈춘 말은 언제나 지름길로 갑니다.'],
      ['업기', '저절로(기본), 또는 고르기: 말이 만날 때마다 묻습니다. 업지 않은 말은 한 자리에 따로 있다가 따로 움직이며, 그곳에서 잡히면 모두 잡힙니다.'],
      ['나기', '참먹이를 지나야 남(기본), 또는 참먹이에 닿으면 남: 참먹이에 닿거나 지나는 앞으로 가기는 모두 납니다.'],
      ['끝내기', '먼저 난 편이 이김(기본), 또는 순위: 3-4편일 때 한 편이 남을 때까지 계속하고 난 순서대로 순위를 매깁니다.'],
      ['빽도', '켬(기본) 또는 끔: 끄면 앞면 하나는 언제나 도입니다.'],
      ['낙', '나올 확률(기본 1/100, 0이면 낙 없음)과 무효로 하는 범위: 그 던지기 전부와 차례(기본), 또는 낙 하나만. 낙 하나만일 때 차례의 첫 던지기가 낙이면 차례가 넘어가고, 그 뒤라면 이미 나온 결과를 씁니다.'],
      ['앞면 확률', '윷가락 하나가 앞면으로 떨어질 확률(기본 1/2). 실제 윷가락은 조금 치우친 경우가 많습니다.'],
    ],
    results:
      '결과 화면은 편마다 난 말, 아직 나지 않은 말에 남은 걸음(지름길을 모두 탈 때 가장 적은 걸음), 잡은 횟수, 얻은 던지기(윷이나 모가 나온 횟수와 잡아서 얻은 던지기), 업은 횟수를 보여 줍니다.',
    fairness:
      '모든 윷은 서버가 비밀 시드로 던집니다. 놀이 중에는 시드의 해시를, 끝난 뒤에는 시드를 보여 주므로 모든 던지기를 확인할 수 있습니다.',
  },
};

/** The rules page body in the current language. */
export function yutRules() {
  const x = TEXT[currentLang()];
  return [
    h('p', { text: x.intro }),
    rulesSection(x.board, x.boardText),
    rulesSection(x.sticks, x.sticksText),
    h('h3', { text: x.table }),
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'data yut-throw-table', id: 'yut-throw-table' },
        h('thead', {}, h('tr', {}, [x.result, x.flats, x.move, x.chance].map((c) => h('th', { scope: 'col', text: c })))),
        h(
          'tbody',
          {},
          x.rows.map((row) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row', text: row[0] }),
              h('td', { text: row[1] }),
              h('td', { text: row[2] }),
              h('td', { class: 'num', text: row[3] }),
            ),
          ),
        ),
      ),
    ),
    h('p', { class: 'hint', text: x.nakNote }),
    rulesSection(x.turn, x.turnText, true),
    rulesSection(x.moving, x.movingText),
    h('h2', { text: x.order }),
    h('p', { text: x.orderText }),
    rulesSection(x.teams, x.teamsText),
    rulesSection(x.playing, x.playingText),
    h('h2', { text: x.options }),
    h(
      'dl',
      { class: 'yut-options' },
      x.optionsList.map(([term, text]) => [h('dt', { text: term }), h('dd', { text })]),
    ),
    h('p', { text: x.results }),
    h('p', { class: 'hint', text: x.fairness }),
  ];
}
