//! Pins: own pieces that stand between the royal piece and an enemy slider. When the royal
//! piece is not attacked, a move of any other piece is legal unless it takes a pinned piece
//! off its line, so most moves need no test at all to be proven legal.

use super::Position;
use crate::bitboard::Bitboard;
use crate::compile::{NO_SQUARE, Sq};

/// More pins than this (only possible with many riders) and the caller tests every move.
const MAX_PINS: usize = 16;

/// The pinned pieces of one player, and the line each may not leave.
pub(super) struct Pins<B> {
    pinned: B,
    /// Each pin: the pinned piece's square, and its line from the royal piece to the pinner,
    /// the pinner included.
    lines: [(Sq, B); MAX_PINS],
    len: usize,
}

impl<B: Bitboard> Pins<B> {
    /// The squares the piece on `from` may move to without breaking a pin it is under.
    #[inline]
    pub fn allowed(&self, from: Sq) -> B {
        if !self.pinned.has(from) {
            return !B::NONE;
        }
        (self.lines[..self.len].iter())
            .filter(|(sq, _)| *sq == from)
            .fold(!B::NONE, |allowed, &(_, line)| allowed & line)
    }

    /// The squares of the pinned pieces.
    #[inline]
    pub fn pinned(&self) -> B {
        self.pinned
    }

    #[inline]
    pub fn allows(&self, from: Sq, to: Sq) -> bool {
        self.allowed(from).has(to)
    }
}

impl Position<'_> {
    /// The pieces of `player` pinned against the royal pieces on `royals` by `attacker`'s
    /// sliders; `None` if there are too many pins to hold.
    pub(super) fn pins<B: Bitboard>(
        &self,
        royals: B,
        player: usize,
        attacker: usize,
    ) -> Option<Pins<B>> {
        let mut pins = Pins {
            pinned: B::NONE,
            lines: [(NO_SQUARE, B::NONE); MAX_PINS],
            len: 0,
        };
        for royal in royals.squares() {
            self.add_pins(royal, player, attacker, &mut pins)?;
        }
        Some(pins)
    }

    /// Adds the pieces of `player` pinned against the royal piece on `royal`; `None` if there
    /// are too many pins to hold.
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
            pins.lines[pins.len] = (first, ray & !bits.line::<B>(bits.unlimited(line), pinner));
            pins.len += 1;
        }
        Some(())
    }
}
