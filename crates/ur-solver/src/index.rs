//! The perfect index: a bijection between the positions of a rule set (side to move
//! normalised) and `0 .. count`, computed with a few small tables and no stored keys.
//!
//! A position splits into
//!
//! - the **score layer** `(m, o)`: pieces borne off by the mover (`m < N`) and the opponent
//!   (`o ≤ N`; `o = N` is the terminal layer where the opponent has just won);
//! - the **shared lane**: each shared tile is empty, the mover's or the opponent's — the mover's
//!   and the opponent's tile masks, `i` and `j` pieces, ranked within their `(i, j)` group
//!   through a base-3 table;
//! - each side's **private squares** (6 on the Bell path, 4 on the Masters path): a mask
//!   ranked by (piece count, value), so the masks with at most `k` pieces are a prefix of
//!   length `F(k)`.
//!
//! The mover may hold at most `a = N − m − i` pieces on its private squares and the opponent
//! `b = N − o − j`; the rest are in hand. Inside a layer, group `(i, j)` starts at
//! `base[m][o][i][j]` and holds `C(i, j) · F(a) · F(b)` positions, in the order
//! (shared configuration, mover's private rank, opponent's private rank):
//!
//! ```text
//! index = layer_start[m][o] + base[m][o][i][j]
//!       + shared_rank · F(a) · F(b) + private_rank(mover) · F(b) + private_rank(opponent)
//! ```

use madang_ur::{Geometry, UrSettings};

use crate::rules::{Position, split_table};

/// Rank and unrank positions for one rule set.
#[derive(Clone, Debug)]
pub struct Index {
    n: usize,
    /// Private squares per side.
    p: usize,
    /// Shared tiles.
    s: usize,
    /// Own board → private mask (compressed), by 9-bit halves.
    private_of: [Vec<u32>; 2],
    /// My board → shared tile mask.
    tiles_of_me: [Vec<u32>; 2],
    /// The opponent's board (own numbering) → shared tile mask (tiles in my order).
    tiles_of_opp: [Vec<u32>; 2],
    /// Private mask → own board bits.
    private_board: Vec<u32>,
    /// Tile mask → my board bits.
    me_board: Vec<u32>,
    /// Tile mask → the opponent's board bits (own numbering).
    opp_board: Vec<u32>,
    /// Private mask → rank by (popcount, value).
    private_rank: Vec<u32>,
    /// Rank → private mask.
    private_order: Vec<u32>,
    /// `f[k]`: private masks with at most `k` pieces (k = 0 ..= N).
    f: Vec<u32>,
    /// Tile mask → its bits as base-3 digits 1.
    tern: Vec<u32>,
    /// Base-3 shared configuration (mine + 2 × opponent's) → rank within its `(i, j)` group.
    shared_rank: Vec<u32>,
    /// `(i, j)` → the configurations `(my tiles, opponent's tiles)` in rank order.
    groups: Vec<Vec<(u32, u32)>>,
    /// `[m][o][i][j]` → first index of the group inside its layer.
    base: Vec<u64>,
    /// `[m][o]` → first index of the layer.
    layer_start: Vec<u64>,
    /// `[m][o]` → number of positions in the layer.
    layer_len: Vec<u64>,
    total: u64,
}

/// One run of positions sharing a layer and shared-lane configuration: `F(a) × F(b)`
/// consecutive indices, the unit of parallel work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Layer id `m * (N + 1) + o`.
    pub layer: usize,
    /// First index inside the layer.
    pub start: u64,
    /// The mover's shared tiles.
    pub me_tiles: u32,
    /// The opponent's shared tiles.
    pub opp_tiles: u32,
    /// Most pieces the mover may have on private squares.
    pub a: usize,
    /// Most pieces the opponent may have on private squares.
    pub b: usize,
}

fn squares_sum(mut board: u32) -> u32 {
    let mut sum = 0;
    while board != 0 {
        sum += board.trailing_zeros();
        board &= board - 1;
    }
    sum
}

fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i as u64 + 1))
}

impl Index {
    /// The index of the rule set `settings`.
    pub fn new(settings: &UrSettings) -> Index {
        let geometry = Geometry::new(settings.path);
        let len = geometry.len as u32;
        let n = usize::from(settings.pieces);
        let mine = geometry.opponent_square[0];
        let shared_squares: Vec<u32> = (1..=len).filter(|&k| mine[k as usize] != 0).collect();
        let private_squares: Vec<u32> = (1..=len).filter(|&k| mine[k as usize] == 0).collect();
        let (p, s) = (private_squares.len(), shared_squares.len());
        let position_in = |list: &[u32], square: u32| list.iter().position(|&k| k == square);
        let private_of = split_table(|bit| position_in(&private_squares, bit).map_or(0, |i| 1 << i));
        let tiles_of_me = split_table(|bit| position_in(&shared_squares, bit).map_or(0, |t| 1 << t));
        let theirs = geometry.opponent_square[1];
        let tiles_of_opp = split_table(|bit| {
            if !(1..=len).contains(&bit) {
                return 0;
            }
            position_in(&shared_squares, u32::from(theirs[bit as usize])).map_or(0, |t| 1 << t)
        });
        let expand = |list: &[u32], map: &dyn Fn(u32) -> u32| -> Vec<u32> {
            (0..1u32 << list.len())
                .map(|mask| (0..list.len()).filter(|&b| mask & (1 << b) != 0).fold(0, |acc, b| acc | 1 << map(list[b])))
                .collect()
        };
        let private_board = expand(&private_squares, &|k| k);
        let me_board = expand(&shared_squares, &|k| k);
        let opp_board = expand(&shared_squares, &|k| u32::from(mine[k as usize]));
        let mut private_order: Vec<u32> = (0..1u32 << p).collect();
        private_order.sort_by_key(|&m| (m.count_ones(), m));
        let mut private_rank = vec![0u32; 1 << p];
        for (rank, &mask) in private_order.iter().enumerate() {
            private_rank[mask as usize] = rank as u32;
        }
        let f: Vec<u32> = (0..=n).map(|k| (0..=k.min(p)).map(|c| binomial(p, c) as u32).sum()).collect();
        let tern: Vec<u32> = (0..1u32 << s)
            .map(|mask| (0..s).filter(|&b| mask & (1 << b) != 0).map(|b| 3u32.pow(b as u32)).sum())
            .collect();
        let mut groups: Vec<Vec<(u32, u32)>> = vec![Vec::new(); (s + 1) * (s + 1)];
        for me in 0..1u32 << s {
            for opp in 0..1u32 << s {
                if me & opp == 0 {
                    groups[me.count_ones() as usize * (s + 1) + opp.count_ones() as usize].push((me, opp));
                }
            }
        }
        let mut shared_rank = vec![0u32; 3usize.pow(s as u32)];
        for group in &groups {
            for (rank, &(me, opp)) in group.iter().enumerate() {
                shared_rank[(tern[me as usize] + 2 * tern[opp as usize]) as usize] = rank as u32;
            }
        }
        let layers = n * (n + 1);
        let mut base = vec![0u64; layers * (s + 1) * (s + 1)];
        let mut layer_start = vec![0u64; layers];
        let mut layer_len = vec![0u64; layers];
        let mut total = 0u64;
        for m in 0..n {
            for o in 0..=n {
                let layer = m * (n + 1) + o;
                layer_start[layer] = total;
                let mut within = 0u64;
                for i in 0..=s.min(n - m) {
                    for j in 0..=s.min(n - o) {
                        base[(layer * (s + 1) + i) * (s + 1) + j] = within;
                        let size = u64::from(f[n - m - i]) * u64::from(f[n - o - j]);
                        within += groups[i * (s + 1) + j].len() as u64 * size;
                    }
                }
                layer_len[layer] = within;
                total += within;
            }
        }
        Index {
            n,
            p,
            s,
            private_of,
            tiles_of_me,
            tiles_of_opp,
            private_board,
            me_board,
            opp_board,
            private_rank,
            private_order,
            f,
            tern,
            shared_rank,
            groups,
            base,
            layer_start,
            layer_len,
            total,
        }
    }

    /// Number of positions (the table's length).
    pub fn count(&self) -> u64 {
        self.total
    }

    /// Pieces per side.
    pub fn pieces(&self) -> usize {
        self.n
    }

    /// Number of layer ids (`N × (N + 1)`).
    pub fn layers(&self) -> usize {
        self.n * (self.n + 1)
    }

    /// The layer id of `(m, o)`.
    #[inline]
    pub fn layer_id(&self, m: u8, o: u8) -> usize {
        usize::from(m) * (self.n + 1) + usize::from(o)
    }

    /// First index of a layer.
    pub fn layer_start(&self, layer: usize) -> u64 {
        self.layer_start[layer]
    }

    /// Positions in a layer.
    pub fn layer_len(&self, layer: usize) -> u64 {
        self.layer_len[layer]
    }

    #[inline]
    fn half(table: &[Vec<u32>; 2], board: u32) -> u32 {
        table[0][(board & 511) as usize] | table[1][(board >> 9 & 511) as usize]
    }

    /// The index of `pos` inside its layer. `pos` must be a valid position of these rules.
    #[inline]
    pub fn within(&self, pos: &Position) -> u64 {
        let me_tiles = Self::half(&self.tiles_of_me, pos.me);
        let opp_tiles = Self::half(&self.tiles_of_opp, pos.opp);
        let me_private = Self::half(&self.private_of, pos.me);
        let opp_private = Self::half(&self.private_of, pos.opp);
        let (i, j) = (me_tiles.count_ones() as usize, opp_tiles.count_ones() as usize);
        let (m, o) = (usize::from(pos.me_off), usize::from(pos.opp_off));
        let fa = u64::from(self.f[self.n - m - i]);
        let fb = u64::from(self.f[self.n - o - j]);
        let s1 = self.s + 1;
        let base = self.base[((m * (self.n + 1) + o) * s1 + i) * s1 + j];
        let shared = self.shared_rank[(self.tern[me_tiles as usize] + 2 * self.tern[opp_tiles as usize]) as usize];
        base + u64::from(shared) * fa * fb
            + u64::from(self.private_rank[me_private as usize]) * fb
            + u64::from(self.private_rank[opp_private as usize])
    }

    /// The index step between `pos` and the same position with the mover's private mask one
    /// rank further: `F(b)`, the opponent's private-mask count.
    #[inline]
    pub fn mover_private_stride(&self, pos: &Position) -> u64 {
        let j = Self::half(&self.tiles_of_opp, pos.opp).count_ones() as usize;
        u64::from(self.f[self.n - usize::from(pos.opp_off) - j])
    }

    /// The index of `pos`. `pos` must be a valid position of these rules (see
    /// [`Index::is_valid`]).
    #[inline]
    pub fn index(&self, pos: &Position) -> u64 {
        self.layer_start[self.layer_id(pos.me_off, pos.opp_off)] + self.within(pos)
    }

    /// Whether `pos` is a position of these rules: pieces on their paths, no two on one tile,
    /// the piece counts adding up, the mover not yet won.
    pub fn is_valid(&self, pos: &Position) -> bool {
        let known = |board: u32| {
            Self::half(&self.private_of, board).count_ones() + Self::half(&self.tiles_of_me, board).count_ones()
                == board.count_ones()
        };
        let n = self.n as u32;
        let me_tiles = Self::half(&self.tiles_of_me, pos.me);
        let opp_tiles = Self::half(&self.tiles_of_opp, pos.opp);
        usize::from(pos.me_off) < self.n
            && usize::from(pos.opp_off) <= self.n
            && pos.me >> 18 == 0
            && pos.opp >> 18 == 0
            && pos.me & 1 == 0
            && pos.opp & 1 == 0
            && known(pos.me)
            && known(pos.opp)
            && me_tiles & opp_tiles == 0
            && pos.me.count_ones() + u32::from(pos.me_off) <= n
            && pos.opp.count_ones() + u32::from(pos.opp_off) <= n
    }

    /// The position with index `index` (`< count`).
    pub fn position(&self, index: u64) -> Option<Position> {
        if index >= self.total {
            return None;
        }
        let layer = self.layer_start.partition_point(|&start| start <= index) - 1;
        let (m, o) = (layer / (self.n + 1), layer % (self.n + 1));
        let mut rest = index - self.layer_start[layer];
        let s1 = self.s + 1;
        for i in 0..=self.s.min(self.n - m) {
            for j in 0..=self.s.min(self.n - o) {
                let (a, b) = (self.n - m - i, self.n - o - j);
                let (fa, fb) = (u64::from(self.f[a]), u64::from(self.f[b]));
                let size = self.groups[i * s1 + j].len() as u64 * fa * fb;
                if rest < size {
                    let (me_tiles, opp_tiles) = self.groups[i * s1 + j][(rest / (fa * fb)) as usize];
                    let rest = rest % (fa * fb);
                    let block = Block { layer, start: 0, me_tiles, opp_tiles, a, b };
                    return Some(self.block_position(&block, (rest / fb) as usize, (rest % fb) as usize));
                }
                rest -= size;
            }
        }
        None
    }

    /// The blocks of a layer, in index order.
    pub fn blocks(&self, layer: usize) -> Vec<Block> {
        let (m, o) = (layer / (self.n + 1), layer % (self.n + 1));
        let s1 = self.s + 1;
        let mut blocks = Vec::new();
        for i in 0..=self.s.min(self.n - m) {
            for j in 0..=self.s.min(self.n - o) {
                let (a, b) = (self.n - m - i, self.n - o - j);
                let size = u64::from(self.f[a]) * u64::from(self.f[b]);
                let mut start = self.base[(layer * s1 + i) * s1 + j];
                for &(me_tiles, opp_tiles) in &self.groups[i * s1 + j] {
                    blocks.push(Block { layer, start, me_tiles, opp_tiles, a, b });
                    start += size;
                }
            }
        }
        blocks
    }

    /// `(F(a), F(b))`: the block's mover and opponent private-mask counts.
    #[inline]
    pub fn block_dims(&self, block: &Block) -> (usize, usize) {
        (self.f[block.a] as usize, self.f[block.b] as usize)
    }

    /// The position at `(mover's private rank, opponent's private rank)` of a block.
    #[inline]
    pub fn block_position(&self, block: &Block, me_rank: usize, opp_rank: usize) -> Position {
        let (m, o) = (block.layer / (self.n + 1), block.layer % (self.n + 1));
        Position {
            me: self.me_board[block.me_tiles as usize] | self.private_board[self.private_order[me_rank] as usize],
            opp: self.opp_board[block.opp_tiles as usize] | self.private_board[self.private_order[opp_rank] as usize],
            me_off: m as u8,
            opp_off: o as u8,
        }
    }

    /// The sum of the own path squares of the private mask with rank `rank`.
    pub fn private_progress(&self, rank: usize) -> u32 {
        squares_sum(self.private_board[self.private_order[rank] as usize])
    }

    /// The sum of both sides' own path squares on the shared lane of a block.
    pub fn shared_progress(&self, block: &Block) -> u32 {
        squares_sum(self.me_board[block.me_tiles as usize]) + squares_sum(self.opp_board[block.opp_tiles as usize])
    }

    /// Private squares per side and shared tiles.
    pub fn squares(&self) -> (usize, usize) {
        (self.p, self.s)
    }
}
