//! Bitboards: a set of squares as the bits of machine words, so that a question about many
//! squares ("which of these are empty?", "does any enemy piece stand on this line?") is a few
//! word operations rather than a walk over the board.
//!
//! One word serves boards of up to 64 squares, two up to 128 (every board of Fairy-Stockfish's
//! largest build), and a short array of words the rest (a 26×26 board has 676 squares). Code
//! that works on bitboards is written once, generic over [`Bitboard`], and the engine picks
//! the width once per ruleset; stored sets ([`Masks`], the position's sets) are rows of `u64`
//! words with one stride, so a narrow board reads narrow words only.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// The words of the widest bitboard: enough for a 26×26 board.
pub const MAX_WORDS: usize = 11;

/// How many words a board of `squares` squares needs, at the width the engine uses for it.
pub fn words_for(squares: usize) -> usize {
    match squares {
        0..=64 => 1,
        65..=128 => 2,
        _ => MAX_WORDS,
    }
}

/// A set of squares, one bit per dense square index.
pub trait Bitboard:
    'static
    + Copy
    + Eq
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many `u64` words a stored set of this width takes.
    const WORDS: usize;
    const NONE: Self;

    /// The set of one square.
    fn bit(sq: u16) -> Self;
    /// A set read from its stored words (at least `WORDS` of them).
    fn load(words: &[u64]) -> Self;
    /// The first 128 squares of the set, 64 a word.
    fn two_words(self) -> [u64; 2];
    /// The lowest square of a set that is not empty.
    fn lowest(self) -> u16;
    /// The highest square of a set that is not empty.
    fn highest(self) -> u16;
    /// How many squares the set holds.
    fn count(self) -> u32;
    /// The set with `offset` added to each square's number, squares past either end dropped.
    /// `offset` is less than the width in bits either way: a step between two squares.
    fn shifted(self, offset: i32) -> Self;

    #[inline]
    fn is_empty(self) -> bool {
        self == Self::NONE
    }

    #[inline]
    fn any(self) -> bool {
        self != Self::NONE
    }

    #[inline]
    fn has(self, sq: u16) -> bool {
        (self & Self::bit(sq)).any()
    }

    /// The set less its lowest square.
    #[inline]
    fn without_lowest(self) -> Self {
        self ^ Self::bit(self.lowest())
    }

    /// Takes the lowest square out of the set, if it has one.
    #[inline]
    fn take_lowest(&mut self) -> Option<u16> {
        if self.is_empty() {
            return None;
        }
        let sq = self.lowest();
        *self = self.without_lowest();
        Some(sq)
    }

    /// The squares of the set, lowest first.
    #[inline]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

/// The squares of a set, lowest first.
#[derive(Clone)]
pub struct Squares<B>(B);

impl<B: Bitboard> Iterator for Squares<B> {
    type Item = u16;

    #[inline]
    fn next(&mut self) -> Option<u16> {
        self.0.take_lowest()
    }
}

/// One machine integer as a bitboard: `u64` and `u128` differ in width and loading, and in
/// what the wider one does its own way.
macro_rules! integer_bitboard {
    ($int:ty, $words:expr, $load:expr $(, { $($own:tt)* })?) => {
        impl Bitboard for $int {
            const WORDS: usize = $words;
            const NONE: Self = 0;

            #[inline]
            fn bit(sq: u16) -> Self {
                1 << sq
            }
            #[inline]
            fn load(words: &[u64]) -> Self {
                $load(words)
            }
            #[inline]
            fn two_words(self) -> [u64; 2] {
                [self as u64, (self as u128 >> 64) as u64]
            }
            #[inline]
            fn lowest(self) -> u16 {
                self.trailing_zeros() as u16
            }
            #[inline]
            fn highest(self) -> u16 {
                (<$int>::BITS - 1 - self.leading_zeros()) as u16
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn shifted(self, offset: i32) -> Self {
                match offset >= 0 {
                    true => self << offset,
                    false => self >> -offset,
                }
            }
            // Testing the one word that holds the square, and clearing the lowest bit by
            // arithmetic, spare a two-word integer a two-word shift.
            #[inline]
            fn has(self, sq: u16) -> bool {
                (self.two_words()[usize::from(sq >= 64)] >> (sq % 64)) & 1 != 0
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            $($($own)*)?
        }
    };
}

integer_bitboard!(u64, 1, |words: &[u64]| words[0]);
integer_bitboard!(
    u128,
    2,
    |words: &[u64]| u128::from(words[0]) | u128::from(words[1]) << 64,
    {
        // One word at a time: a square of the low word costs what one of a one-word board does,
        // with no borrow carried across the halves.
        #[inline]
        fn take_lowest(&mut self) -> Option<u16> {
            let low = *self as u64;
            if low != 0 {
                *self ^= u128::from(low & low.wrapping_neg());
                return Some(low.trailing_zeros() as u16);
            }
            let high = (*self >> 64) as u64;
            if high == 0 {
                return None;
            }
            *self ^= u128::from(high & high.wrapping_neg()) << 64;
            Some(64 + high.trailing_zeros() as u16)
        }
    }
);

/// A bitboard of [`MAX_WORDS`] words, for boards of more than 128 squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wide(pub [u64; MAX_WORDS]);

impl Bitboard for Wide {
    const WORDS: usize = MAX_WORDS;
    const NONE: Self = Wide([0; MAX_WORDS]);

    #[inline]
    fn bit(sq: u16) -> Self {
        let mut words = [0; MAX_WORDS];
        words[sq as usize / 64] = 1 << (sq % 64);
        Wide(words)
    }
    #[inline]
    fn load(words: &[u64]) -> Self {
        let mut out = [0; MAX_WORDS];
        out.copy_from_slice(&words[..MAX_WORDS]);
        Wide(out)
    }
    #[inline]
    fn two_words(self) -> [u64; 2] {
        [self.0[0], self.0[1]]
    }
    fn lowest(self) -> u16 {
        let word = self.0.iter().position(|&w| w != 0).unwrap_or(0);
        (word * 64) as u16 + self.0[word].trailing_zeros() as u16
    }
    fn highest(self) -> u16 {
        let word = self.0.iter().rposition(|&w| w != 0).unwrap_or(0);
        (word * 64 + 63) as u16 - self.0[word].leading_zeros() as u16
    }
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    fn shifted(self, offset: i32) -> Self {
        let mut out = Wide::NONE;
        for sq in self.squares() {
            let to = i32::from(sq) + offset;
            if (0..(MAX_WORDS * 64) as i32).contains(&to) {
                out |= Wide::bit(to as u16);
            }
        }
        out
    }
}

macro_rules! wide_op {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Wide {
            type Output = Wide;
            #[inline]
            fn $method(mut self, other: Wide) -> Wide {
                self.$assign_method(other);
                self
            }
        }
        impl $assign for Wide {
            #[inline]
            fn $assign_method(&mut self, other: Wide) {
                for (a, b) in self.0.iter_mut().zip(other.0) {
                    *a $op b;
                }
            }
        }
    };
}

wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl Not for Wide {
    type Output = Wide;
    #[inline]
    fn not(self) -> Wide {
        Wide(self.0.map(|w| !w))
    }
}

/// Rows of stored sets, each `stride` words: a table of bitboards, one row per index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Masks {
    stride: usize,
    words: Vec<u64>,
}

impl Masks {
    /// `rows` empty sets of `stride` words each.
    pub fn new(stride: usize, rows: usize) -> Masks {
        Masks {
            stride,
            words: vec![0; stride * rows],
        }
    }

    /// How many words each row takes.
    pub fn stride(&self) -> usize {
        self.stride
    }

    pub fn rows(&self) -> usize {
        self.words.len() / self.stride.max(1)
    }

    /// The set of row `row`, read at the width the rows were made for. Always inlined: left
    /// to itself the compiler calls it for two-word sets, at several times the cost of the
    /// read.
    #[inline(always)]
    pub fn get<B: Bitboard>(&self, row: usize) -> B {
        // The engine reads every table at the width of its board, so the stride is `B::WORDS`,
        // a constant: a shift rather than a multiplication.
        debug_assert_eq!(self.stride, B::WORDS);
        let start = row * B::WORDS;
        B::load(&self.words[start..start + B::WORDS])
    }

    /// Adds or removes `sq` in row `row`.
    #[inline]
    pub fn toggle(&mut self, row: usize, sq: u16) {
        self.words[row * self.stride + sq as usize / 64] ^= 1 << (sq % 64);
    }

    /// Adds `sq` to row `row`.
    #[inline]
    pub fn insert(&mut self, row: usize, sq: u16) {
        self.words[row * self.stride + sq as usize / 64] |= 1 << (sq % 64);
    }

    /// Whether row `row` holds `sq`.
    #[inline]
    pub fn contains(&self, row: usize, sq: u16) -> bool {
        self.words[row * self.stride + sq as usize / 64] & 1 << (sq % 64) != 0
    }

    /// Appends a row holding the given squares, returning its index.
    pub fn push(&mut self, squares: impl IntoIterator<Item = u16>) -> usize {
        let row = self.rows();
        self.words.extend(std::iter::repeat_n(0, self.stride));
        for sq in squares {
            self.insert(row, sq);
        }
        row
    }

    /// Appends every row of `other`, which has the same stride.
    pub fn append(&mut self, other: &Masks) {
        self.words.extend_from_slice(&other.words);
    }

    /// Whether row `row` equals row `other_row` of `other`, which has the same stride.
    pub fn row_eq(&self, row: usize, other: &Masks, other_row: usize) -> bool {
        self.row(row) == other.row(other_row)
    }

    fn row(&self, row: usize) -> &[u64] {
        &self.words[row * self.stride..(row + 1) * self.stride]
    }

    /// Clears every row.
    pub fn clear(&mut self) {
        self.words.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ends<B: Bitboard>(squares: &[u16]) -> (u16, u16, u32, Vec<u16>) {
        let mut set = B::NONE;
        for &sq in squares {
            set |= B::bit(sq);
        }
        (
            set.lowest(),
            set.highest(),
            set.count(),
            set.squares().collect(),
        )
    }

    #[test]
    fn every_width_agrees() {
        let squares = [3, 40, 63];
        let narrow = ends::<u64>(&squares);
        assert_eq!(narrow, (3, 63, 3, vec![3, 40, 63]));
        assert_eq!(ends::<u128>(&squares), narrow);
        assert_eq!(ends::<Wide>(&squares), narrow);
        assert_eq!(ends::<u128>(&[64, 127]), (64, 127, 2, vec![64, 127]));
        assert_eq!(ends::<Wide>(&[5, 300, 675]), (5, 675, 3, vec![5, 300, 675]));
    }

    fn shifted<B: Bitboard>(squares: &[u16], offset: i32) -> Vec<u16> {
        let set = squares.iter().fold(B::NONE, |set, &sq| set | B::bit(sq));
        set.shifted(offset).squares().collect()
    }

    #[test]
    fn shifts_drop_the_squares_past_either_end() {
        assert_eq!(shifted::<u64>(&[0, 9, 60], 8), vec![8, 17]);
        assert_eq!(shifted::<u64>(&[0, 9, 60], -9), vec![0, 51]);
        assert_eq!(shifted::<u128>(&[0, 60, 120], 11), vec![11, 71]);
        assert_eq!(shifted::<u128>(&[5, 70], -11), vec![59]);
        assert_eq!(shifted::<Wide>(&[5, 70, 700], -11), vec![59, 689]);
        assert_eq!(shifted::<Wide>(&[5, 700], 4), vec![9]);
    }

    #[test]
    fn stored_rows_read_back_at_their_width() {
        let mut masks = Masks::new(MAX_WORDS, 0);
        let row = masks.push([1, 130, 600]);
        assert!(masks.contains(row, 130));
        let set: Wide = masks.get(row);
        assert_eq!(set.squares().collect::<Vec<_>>(), vec![1, 130, 600]);
        masks.toggle(row, 130);
        assert!(!masks.contains(row, 130));
        let mut two = Masks::new(2, 1);
        two.insert(0, 100);
        assert_eq!(two.get::<u128>(0), 1u128 << 100);
    }
}
