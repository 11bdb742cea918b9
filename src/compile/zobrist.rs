//! Zobrist keys: one random number per piece-on-square, hand count, player to move, castling
//! right and en-passant square, so a position's hash changes incrementally with each part.

use super::Ruleset;

/// Hand counts above this share a key; no variant holds that many of one kind.
const HAND_SLOTS: usize = 64;

#[derive(Clone, Debug, Default)]
pub struct Zobrist {
    squares: usize,
    piece: Vec<u64>,
    hand: Vec<u64>,
    pub to_move: Vec<u64>,
    pub castling: Vec<u64>,
    pub ep: Vec<u64>,
}

impl Zobrist {
    pub fn new(rules: &Ruleset) -> Self {
        let squares = rules.geometry.squares();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            // xorshift64*: fixed seed, so hashes are the same on every run.
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            seed.wrapping_mul(0x2545_F491_4F6C_DD1D)
        };
        let mut table = |n: usize| (0..n).map(|_| next()).collect::<Vec<u64>>();
        Zobrist {
            squares,
            piece: table(256 * squares),
            hand: table(rules.players() * rules.kinds.len() * HAND_SLOTS),
            to_move: table(rules.players()),
            castling: table(32),
            ep: table(squares),
        }
    }

    #[inline]
    pub fn piece(&self, code: u8, sq: u16) -> u64 {
        self.piece[code as usize * self.squares + sq as usize]
    }

    #[inline]
    pub fn hand(&self, slot: usize, count: u8) -> u64 {
        self.hand[slot * HAND_SLOTS + (count as usize).min(HAND_SLOTS - 1)]
    }

    pub fn castling_rights(&self, rights: u32) -> u64 {
        (0..32)
            .filter(|b| rights & (1 << b) != 0)
            .fold(0, |h, b| h ^ self.castling[b])
    }
}
