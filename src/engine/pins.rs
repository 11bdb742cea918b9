//! Pins: own pieces that stand between the royal piece and an enemy slider. When the royal
//! piece is not attacked, a move of any other piece is legal unless it takes a pinned piece
//! off its line, so most moves need no test at all to be proven legal.

use super::Position;
use crate::bitboard::Bitboard;
use crate::compile::{BitTables, Sq};

/// More pins than this (only possible with many riders) and the caller tests every move.
const MAX_PINS: usize = 16;

/// The pinned pieces of one player, and the line each may not leave. A pin is held as the
/// squares and line that make it, not as a set: the guard that holds the pins is made for
/// every count, and a set per pin on a wide board is many words to fill and copy.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pins<B> {
    pinned: B,
    pins: [Pin; MAX_PINS],
    len: usize,
    /// Whether the pins were looked for and all held.
    found: bool,
}

/// The piece on `piece`, pinned along `line` from the royal piece on `royal` by the piece on
/// `pinner`.
#[derive(Clone, Copy, Debug)]
struct Pin {
    piece: Sq,
    royal: Sq,
    line: u16,
    pinner: Sq,
}

impl Pin {
    /// A pin not yet found; all zeros, so that a list of them is cheap to clear.
    const UNSET: Pin = Pin {
        piece: 0,
        royal: 0,
        line: 0,
        pinner: 0,
    };

    /// The squares the pinned piece may stand on: its line from the royal piece up to the
    /// pinner, the pinner included.
    #[inline]
    fn squares<B: Bitboard>(&self, bits: &BitTables) -> B {
        bits.line::<B>(self.line, self.royal)
            & !bits.line::<B>(bits.unlimited(self.line), self.pinner)
    }
}

impl<B: Bitboard> Pins<B> {
    /// No pins, not looked for.
    #[inline(always)]
    pub fn unfound() -> Self {
        // Only the pins up to `len` are read: the array's first values do not matter.
        Pins {
            pinned: B::NONE,
            pins: [Pin::UNSET; MAX_PINS],
            len: 0,
            found: false,
        }
    }

    /// The pins, where they were found.
    #[inline(always)]
    pub fn found(&self) -> Option<&Self> {
        self.found.then_some(self)
    }

    /// The squares the piece on `from` may move to without breaking a pin it is under.
    #[inline(always)]
    pub fn allowed(&self, from: Sq, bits: &BitTables) -> B {
        if !self.pinned.has(from) {
            return !B::NONE;
        }
        (self.pins[..self.len].iter())
            .filter(|pin| pin.piece == from)
            .fold(!B::NONE, |allowed, pin| allowed & pin.squares::<B>(bits))
    }

    /// The squares of the pinned pieces.
    #[inline]
    pub fn pinned(&self) -> B {
        self.pinned
    }

    #[inline(always)]
    pub fn allows(&self, from: Sq, to: Sq, bits: &BitTables) -> bool {
        self.allowed(from, bits).has(to)
    }

    /// The same pins as a position keeps them from one turn to the next, whatever the width
    /// of a board of up to two words.
    pub fn kept(&self) -> Pins<u128> {
        let [low, high] = self.pinned.two_words();
        Pins {
            pinned: u128::from(low) | u128::from(high) << 64,
            pins: self.pins,
            len: self.len,
            found: self.found,
        }
    }

    /// Pins kept by [`Pins::kept`], at this width (of up to two words).
    #[inline]
    pub fn from_kept(kept: &Pins<u128>) -> Self {
        debug_assert!(
            B::WORDS <= 2,
            "pins are kept only on boards of up to two words"
        );
        Pins {
            pinned: B::load(&kept.pinned.two_words()),
            pins: kept.pins,
            len: kept.len,
            found: kept.found,
        }
    }
}

impl Position<'_> {
    /// The pieces of `player` pinned against the royal pieces on `royals` by `attacker`'s
    /// sliders; unfound if there are too many pins to hold. Inlined: the pins are many words,
    /// better made where they are kept than copied there.
    #[inline(always)]
    pub(super) fn pins<B: Bitboard>(&self, royals: B, player: usize, attacker: usize) -> Pins<B> {
        let mut pins = Pins::unfound();
        for royal in royals.squares() {
            if self.add_pins(royal, player, attacker, &mut pins).is_none() {
                return pins;
            }
        }
        pins.found = true;
        pins
    }

    /// Adds the pieces of `player` pinned against the royal piece on `royal`; `None` if there
    /// are too many pins to hold.
    #[inline(always)]
    fn add_pins<B: Bitboard>(
        &self,
        royal: Sq,
        player: usize,
        attacker: usize,
        pins: &mut Pins<B>,
    ) -> Option<()> {
        let bits = &self.rules.bits;
        let occupied = self.occupied::<B>();
        let own = self.player_set::<B>(player);
        let theirs = self.player_set::<B>(attacker);
        let kind_bits = self.rules.pieces.kind_bits_of(attacker);
        for &(line, kinds) in &self.rules.pieces.attacks[attacker].slides {
            let ray = bits.line::<B>(line, royal);
            // No piece of theirs on the line, no pin along it (most lines).
            if (ray & theirs).is_empty() {
                continue;
            }
            let blockers = ray & occupied;
            let first = bits.nearest(line, blockers);
            let beyond = blockers & !B::bit(first);
            if !own.has(first) || beyond.is_empty() {
                continue;
            }
            let pinner = bits.nearest(line, beyond);
            if !theirs.has(pinner) || kind_bits[self.board[pinner as usize] as usize] & kinds == 0 {
                continue;
            }
            if pins.len == MAX_PINS {
                return None;
            }
            pins.pinned |= B::bit(first);
            pins.pins[pins.len] = Pin {
                piece: first,
                royal,
                line,
                pinner,
            };
            pins.len += 1;
        }
        Some(())
    }
}
