//! Pins: own pieces that stand between the royal piece and an enemy slider. When the royal
//! piece is not attacked, a move of any other piece is legal unless it takes a pinned piece
//! off its line, so most moves need no make/unmake to be proven legal.

use super::Position;
use crate::compile::{NO_SQUARE, Sq};

/// Per-square marks, reused from node to node.
#[derive(Clone, Debug, Default)]
pub struct Pins {
    /// For a pinned piece's square, one bit per pin holding it.
    pinned: Vec<u8>,
    /// For each square on a pin's line (royal piece excluded, pinner included), that pin's bit.
    line: Vec<u8>,
    touched: Vec<Sq>,
    /// More pins than bits: every move must then be tested the slow way.
    overflow: bool,
}

impl Pins {
    pub fn new(squares: usize) -> Self {
        Pins {
            pinned: vec![0; squares],
            line: vec![0; squares],
            touched: Vec::with_capacity(16),
            overflow: false,
        }
    }

    /// Whether moving the piece on `from` to `to` keeps every pin it is under.
    #[inline]
    pub fn allows(&self, from: Sq, to: Sq) -> bool {
        !self.overflow && self.pinned[from as usize] & !self.line[to as usize] == 0
    }

    fn clear(&mut self) {
        for &s in &self.touched {
            self.pinned[s as usize] = 0;
            self.line[s as usize] = 0;
        }
        self.touched.clear();
        self.overflow = false;
    }

    /// Marks the pieces of `player` pinned against `royal` by `attacker`'s sliders.
    pub fn compute(&mut self, position: &Position<'_>, royal: Sq, player: usize, attacker: usize) {
        self.clear();
        let rules = position.rules;
        let bits = &rules.pieces.attacker_bits[attacker * 256..attacker * 256 + 256];
        let mut next_bit = 0u32;
        for &(vector, kinds, range) in &rules.pieces.attacks[attacker].slides {
            let (own, steps) = position.first_piece(vector, royal, range);
            let ours = own != NO_SQUARE
                && position
                    .piece(position.board[own as usize])
                    .is_some_and(|(_, p)| p == player);
            if !ours {
                continue;
            }
            let (pinner, _) = position.first_piece(vector, own, range - steps);
            if pinner == NO_SQUARE || bits[position.board[pinner as usize] as usize] & kinds == 0 {
                continue;
            }
            if next_bit == 8 {
                self.overflow = true;
                return;
            }
            self.mark(position, royal, vector, pinner, own, 1 << next_bit);
            next_bit += 1;
        }
    }

    fn mark(
        &mut self,
        position: &Position<'_>,
        royal: Sq,
        vector: u16,
        pinner: Sq,
        pinned: Sq,
        bit: u8,
    ) {
        self.pinned[pinned as usize] |= bit;
        self.touched.push(pinned);
        let mut s = royal;
        while s != pinner {
            s = position.rules.geometry.step(vector, s);
            self.line[s as usize] |= bit;
            self.touched.push(s);
        }
    }
}
