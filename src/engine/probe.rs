//! What the computer player asks of a position besides its legal turns: how many moves a
//! piece, or a player's pieces of some kinds, could make as the board stands, or alone on an
//! otherwise empty board.

use super::position::Position;
use super::turn::Turn;
use crate::compile::{BLOCKED, Code, EMPTY, Ruleset, Sq};

impl Position<'_> {
    /// The moves the piece on `sq` could make, legal or not (0 on an empty square).
    pub fn reach(&self, sq: Sq) -> usize {
        let code = self.board[sq as usize];
        let Some((_, player)) = self.piece(code) else {
            return 0;
        };
        let mut out = Vec::new();
        self.piece_turns(sq, code, player, &Turn::EMPTY, &mut out);
        out.len()
    }

    /// The moves `player`'s pieces of `kinds` (a bit per kind) could make, legal or not.
    pub fn mobility(&self, player: usize, kinds: u64, out: &mut Vec<Turn>) -> usize {
        out.clear();
        self.piece_moves(player, kinds, &Turn::EMPTY, out);
        out.len()
    }
}

/// The start position's board with every piece taken off (blocked squares stay), to measure
/// what a piece reaches alone.
pub struct EmptyBoard<'r>(Position<'r>);

impl<'r> EmptyBoard<'r> {
    pub fn new(rules: &'r Ruleset) -> Self {
        let mut position = Position::start(rules);
        for sq in 0..position.board.len() as Sq {
            if position.board[sq as usize] != BLOCKED {
                position.set_square(sq, EMPTY);
            }
        }
        EmptyBoard(position)
    }

    /// How many moves the piece `code` makes from `sq` alone on the board (none from a
    /// blocked square).
    pub fn reach(&mut self, code: Code, sq: Sq) -> usize {
        if self.0.board[sq as usize] == BLOCKED {
            return 0;
        }
        self.0.set_square(sq, code);
        let reach = self.0.reach(sq);
        self.0.set_square(sq, EMPTY);
        reach
    }
}
