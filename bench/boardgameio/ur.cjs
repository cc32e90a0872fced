// The Royal Game of Ur (Finkel's rules, madang's default) as a boardgame.io game, for the side
// by side measurement of issue 20 (`README.md` here). A player's track is squares 1-14: 1-4 and
// 13-14 its own, 5-12 shared; 0 is off the board, 15 borne off. Four binary dice; rosettes on
// 4, 8 and 14 give another roll, and a piece on the shared rosette (8) cannot be taken.
const { INVALID_MOVE } = require('boardgame.io/core');

const PIECES = 7;
const HOME = 15;
const ROSETTES = [4, 8, 14];

/** Each piece of `player` that may move `roll` squares: its index (one piece for those off the board). */
function legalPieces(G, player) {
  const own = G.pieces[player];
  const other = G.pieces[1 - player];
  const legal = [];
  let offBoardListed = false;
  if (G.roll === null || G.roll === 0) return legal;
  own.forEach((from, i) => {
    if (from === HOME) return;
    if (from === 0) {
      if (offBoardListed) return;
    }
    const to = from + G.roll;
    if (to > HOME) return;
    if (to !== HOME && own.includes(to)) return;
    if (to === 8 && other.includes(8)) return;
    if (from === 0) offBoardListed = true;
    legal.push(i);
  });
  return legal;
}

const Ur = {
  name: 'ur',
  setup: () => ({ pieces: [Array(PIECES).fill(0), Array(PIECES).fill(0)], roll: null }),
  moves: {
    roll: {
      client: false,
      move: ({ G, ctx, random, events }) => {
        if (G.roll !== null) return INVALID_MOVE;
        G.roll = random.Die(2, 4).reduce((sum, d) => sum + d - 1, 0);
        if (legalPieces(G, Number(ctx.currentPlayer)).length === 0) {
          G.roll = null;
          events.endTurn();
        }
      },
    },
    move: {
      client: false,
      move: ({ G, ctx, events }, piece) => {
        const player = Number(ctx.currentPlayer);
        if (!legalPieces(G, player).includes(piece)) return INVALID_MOVE;
        const to = G.pieces[player][piece] + G.roll;
        G.pieces[player][piece] = to;
        if (to >= 5 && to <= 12) {
          const other = G.pieces[1 - player];
          const hit = other.indexOf(to);
          if (hit >= 0) other[hit] = 0;
        }
        G.roll = null;
        if (!ROSETTES.includes(to)) events.endTurn();
      },
    },
  },
  endIf: ({ G }) => {
    const winner = G.pieces.findIndex((pieces) => pieces.every((p) => p === HOME));
    return winner >= 0 ? { winner: String(winner) } : undefined;
  },
};

module.exports = { Ur, legalPieces, PIECES };
